// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/paramimportance.h"
#include "backgroundanalysis.h"
#include "experiments/experimentview.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace plumb {

class ImportanceChart;
class ImportanceModel;

// The Experiments tab's parameter importance: for a chosen metric (each selected run's last or best
// value of a scalar tag), which params move it, from paramImportance(): a table (param, kind,
// correlation, importance, runs; sortable, most important first; Ctrl+C copies TSV, the context
// menu exports CSV) beside a bar chart of the importances (export PNG/PDF from its context menu or
// the Export button). Params that were skipped (constant, identifiers) are named below.
//
// The runs are read and the forest grown on a worker thread with its own Reader connection; a
// result for a superseded selection or metric is dropped.
class ImportancePage final : public ExperimentView {
    Q_OBJECT
public:
    explicit ImportancePage(QWidget *parent = nullptr);
    ~ImportancePage() override;

    void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) override;

    struct Result {
        QString error;
        QStringList metrics; // every scalar tag of the runs
        QString defaultMetric; // TrialTable::defaultMetric()
        ParamImportance importance;
    };

    [[nodiscard]] QComboBox *metricBox() const { return m_metric; }
    [[nodiscard]] QComboBox *statisticBox() const { return m_statistic; }
    [[nodiscard]] ImportanceModel *model() const { return m_model; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] ImportanceChart *chart() const { return m_chart; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    [[nodiscard]] QLabel *skippedLabel() const { return m_skipped; }

Q_SIGNALS:
    void loaded();

private:
    void reload();
    void display(const Result &result);
    void exportChart();

    QString m_workspacePath;
    QList<int64_t> m_runIds;
    bool m_filling = false;

    QComboBox *m_metric;
    QComboBox *m_statistic;
    QPushButton *m_export;
    QLabel *m_status;
    ImportanceModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    ImportanceChart *m_chart;
    QLabel *m_skipped;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
};

} // namespace plumb
