// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"
#include "backgroundanalysis.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace plumb {

class GoodputBreakdownChart;
class GoodputBreakdownModel;
class GoodputTimelineChart;
class GoodputTrendChart;

// The Goodput tab: how much of a job's time was productive training and where the rest went
// (computeGoodput(), core/analysis/goodput.h) for one run with a lifecycle log, or with step wall
// times from its experiment log. From top to bottom: the figures (goodput, scheduling, runtime and
// program goodput, disruptions, ideal step time), a sentence naming the largest badput bucket and
// what usually reduces it, the lifecycle timeline with its badput bands, and the breakdown as a
// stacked bar and a table beside goodput over time. Export writes the whole tab to PNG or PDF; each
// chart and the table also export alone from their context menus. Reads on a worker thread; a
// result of a superseded request is dropped.
class GoodputPanel final : public QWidget {
    Q_OBJECT
public:
    explicit GoodputPanel(QWidget *parent = nullptr);
    ~GoodputPanel() override;

    // Every load of a workspace: keeps the chosen run when it is still there, else the newest run
    // with a lifecycle log (or with step timings).
    void setWorkspace(const QString &workspacePath);
    void selectRun(int64_t runId);
    // Writes the tab as shown to PNG or PDF (by suffix); false when it cannot.
    bool exportTo(const QString &path);

    [[nodiscard]] const GoodputReport &report() const { return m_report; }
    [[nodiscard]] const std::vector<GoodputRun> &runs() const { return m_runs; }
    [[nodiscard]] QString adviceText() const;

Q_SIGNALS:
    void loaded();

private:
    struct Result {
        QString error;
        std::vector<GoodputRun> runs;
        GoodputReport report;
    };
    void request(int64_t runId);
    void apply(const Result &r);

    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QString m_workspacePath;
    int64_t m_runId = -1;
    std::vector<GoodputRun> m_runs;
    GoodputReport m_report;

    QComboBox *m_runBox;
    QPushButton *m_export;
    QLabel *m_status;
    QLabel *m_summary;
    QLabel *m_advice;
    QLabel *m_empty;
    QWidget *m_content;
    GoodputTimelineChart *m_timeline;
    GoodputBreakdownChart *m_breakdown;
    GoodputTrendChart *m_trend;
    GoodputBreakdownModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
};

} // namespace plumb
