// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/idlebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/launchstats.h"
#include "analysis/rankcomparison.h"
#include "analysis/stepbreakdown.h"
#include "analysis/steptime.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/verdict.h"
#include "backgroundanalysis.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace plumb {

class HistogramChart;
class IdleBreakdownChart;
class KernelTableModel;
class OpModeBox;
class QueueLengthChart;
class RankComparisonModel;
class StepBreakdownChart;

// The Doctor tab: for one trace, the verdict and where the GPU time goes (in a sentence), the same per
// step as stacked bars, and below them in tabs:
//   GPU ops          the op table (sortable; Ctrl+C copies TSV) beside the duration histogram of the
//                    selected op;
//   Idle per stream  each stream's idle time as host wait / kernel wait / other;
//   Launches         the launch-delay histogram (GPU start minus launch call start) and the queue
//                    length per stream over time;
//   Ranks            when the trace's run has several traces, the ranks side by side per step with
//                    the straggler named.
// The mode box (OpModeBox, shared with the Diff) picks which GPU ops count. Every chart
// exports PNG/PDF and every table copies and exports CSV from its context menu. The analyses run
// on a worker thread with their own Reader connection; a result for a superseded request is dropped.
class DoctorPanel final : public QWidget {
    Q_OBJECT
public:
    enum Page { OpsPage, IdlePage, LaunchPage, RanksPage };

    explicit DoctorPanel(QWidget *parent = nullptr);
    ~DoctorPanel() override;

    void open(const QString &workspacePath, int64_t traceId, const QString &traceName);
    void close();

    struct Result {
        QString error;
        TemporalBreakdown overall;
        std::vector<StepBreakdown> steps; // each step's GPU window
        StepTimeBreakdown stepTime; // each step's wall time (stepTime.steps[i] is steps[i])
        std::vector<KernelStats> kernels;
        std::vector<StreamIdle> idle;
        LaunchStats launch;
        int64_t launchDelayP50Ns = 0;
        int64_t launchDelayP90Ns = 0;
        RankComparison ranks; // empty unless the trace's run has two traces or more
        Verdict verdict;
        std::vector<Verdict::Component> stepComponents; // each step's own verdict, on its step time
        QString deviceNoun = QStringLiteral("GPU"); // "device" where the trace's accelerator is no GPU
    };
    [[nodiscard]] const Result &result() const { return m_result; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] KernelTableModel *kernelModel() const { return m_model; }
    [[nodiscard]] QSortFilterProxyModel *kernelProxy() const { return m_proxy; }
    [[nodiscard]] QTableView *kernelTable() const { return m_table; }
    [[nodiscard]] StepBreakdownChart *chart() const { return m_chart; }
    [[nodiscard]] HistogramChart *durationChart() const { return m_durations; }
    [[nodiscard]] IdleBreakdownChart *idleChart() const { return m_idle; }
    [[nodiscard]] HistogramChart *launchDelayChart() const { return m_delays; }
    [[nodiscard]] QueueLengthChart *queueChart() const { return m_queues; }
    [[nodiscard]] RankComparisonModel *rankModel() const { return m_rankModel; }
    [[nodiscard]] QTableView *rankTable() const { return m_rankTable; }
    [[nodiscard]] QLabel *rankSummary() const { return m_rankSummary; }
    [[nodiscard]] QTabWidget *pages() const { return m_pages; }
    [[nodiscard]] OpModeBox *modeBox() const { return m_mode; }
    // Which view the step bars show: step time (0, the default) or the GPU window (1).
    [[nodiscard]] QComboBox *stepViewBox() const { return m_stepView; }
    // More input-pipeline ranges for step time (a regular expression; kept in the settings).
    [[nodiscard]] QLineEdit *inputPatternEdit() const { return m_inputPattern; }
    // The kernel table's selected rows (all when none) as TSV, in the order shown.
    [[nodiscard]] QString kernelTsv() const;
    // Follows the verdict's i-th "where to look" link (what clicking it does).
    void followWhere(int index);
    // Follows the verdict's i-th "what the host did" link (host/launch and input-pipeline verdicts).
    void followCallTree(int index);

Q_SIGNALS:
    void loaded();
    // A "where to look" link of the verdict was clicked: [fromNs, toNs) in the trace's time.
    void showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs);
    // The op table's "Show in Timeline": the first occurrence of the op named `name`.
    void showOpInTimeline(int64_t traceId, const QString &name);
    // A host/launch-overhead or input-pipeline verdict's "what the host did" link: the call tree of
    // [fromNs, toNs) (trace time), the step named `label`.
    void showCallTree(int64_t traceId, int64_t fromNs, int64_t toNs, const QString &label);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void reload();
    void cancelAnalysis(); // the summary's Cancel link while "Analysing…"
    void display(const Result &result); // present() and say so
    void present(const Result &result);
    void showDurations();
    void showStepBars();
    void inputPatternEdited();
    [[nodiscard]] QString rankText() const;
    [[nodiscard]] QString verdictText() const; // summaryText() before it says the device's noun

    QString m_workspacePath;
    int64_t m_traceId = -1;
    QString m_traceName;
    Result m_result;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QLabel *m_title;
    OpModeBox *m_mode;
    QComboBox *m_stepView;
    QLineEdit *m_inputPattern;
    QLabel *m_summary;
    StepBreakdownChart *m_chart;
    QTabWidget *m_pages;
    KernelTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    HistogramChart *m_durations;
    IdleBreakdownChart *m_idle;
    HistogramChart *m_delays;
    QLabel *m_launchSummary;
    QueueLengthChart *m_queues;
    QLabel *m_rankSummary;
    RankComparisonModel *m_rankModel;
    QTableView *m_rankTable;
};

} // namespace plumb
