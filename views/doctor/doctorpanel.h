#pragma once

#include "kerneltable.h"
#include "stepbreakdown.h"
#include "temporalbreakdown.h"
#include "verdict.h"

#include <QThreadPool>
#include <QWidget>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace plumb {

class KernelTableModel;
class StepBreakdownChart;

// The Doctor tab (the start of it): for one trace, where the GPU time goes (the temporal breakdown
// in a sentence), the same per step as stacked bars, and the GPU op table (sortable, Ctrl+C copies
// TSV). A mode box switches between every GPU op and the ops the traced program launched. The
// analyses run on a worker thread with their own Reader connection; a result for a superseded
// request is dropped.
class DoctorPanel final : public QWidget {
    Q_OBJECT
public:
    explicit DoctorPanel(QWidget *parent = nullptr);
    ~DoctorPanel() override;

    void open(const QString &workspacePath, int64_t traceId, const QString &traceName);
    void close();

    struct Result {
        QString error;
        TemporalBreakdown overall;
        std::vector<StepBreakdown> steps;
        std::vector<KernelStats> kernels;
        Verdict verdict;
    };
    [[nodiscard]] const Result &result() const { return m_result; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] KernelTableModel *kernelModel() const { return m_model; }
    [[nodiscard]] QSortFilterProxyModel *kernelProxy() const { return m_proxy; }
    [[nodiscard]] QTableView *kernelTable() const { return m_table; }
    [[nodiscard]] StepBreakdownChart *chart() const { return m_chart; }
    [[nodiscard]] QComboBox *modeBox() const { return m_mode; }
    // The kernel table's selected rows (all when none) as TSV.
    [[nodiscard]] QString kernelTsv() const;

Q_SIGNALS:
    void loaded();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void reload();
    void display(const Result &result);

    QString m_workspacePath;
    int64_t m_traceId = -1;
    QString m_traceName;
    quint64 m_generation = 0;
    Result m_result;
    QThreadPool m_pool;
    QLabel *m_title;
    QComboBox *m_mode;
    QLabel *m_summary;
    StepBreakdownChart *m_chart;
    KernelTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
};

} // namespace plumb
