// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"
#include "job/jobview.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace plumb {

class JobRanksModel;
class RankHeatmapChart;

// The Job tab: a multi-rank job at a glance (jobView(), core/job/jobview.h), for a workspace that
// `plumb merge` wrote or the largest run of several ranks imported here. From top to bottom: the
// figures (ranks merged of the job's, steps, collectives matched, the straggler and how long the others
// wait for it), the job's verdict, then the ranks table beside the ranks x step heat map (step time,
// exposed communication or input pipeline; a ring on each step's straggler). Double-click a rank, or
// Doctor / Timeline, to open it: its events are read on demand from the shard that holds them. Reads
// summaries only, on a worker thread.
class JobPanel final : public QWidget {
    Q_OBJECT
public:
    explicit JobPanel(QWidget *parent = nullptr);
    ~JobPanel() override;

    void setWorkspace(const QString &workspacePath);
    [[nodiscard]] const JobView &job() const { return m_job; }
    [[nodiscard]] bool hasJob() const { return m_job.runId != 0; }

Q_SIGNALS:
    void loaded();
    // The rank's trace in this workspace (its Doctor reads the job's summaries; its timeline, the shard).
    void openDoctor(int64_t traceId);
    void openTimeline(int64_t traceId);

private:
    struct Result {
        QString error;
        JobView job;
    };
    void apply(const Result &r);
    void showMap();
    [[nodiscard]] const JobRank *selectedRank() const;

    BackgroundAnalysis m_analysis;
    QString m_workspacePath;
    JobView m_job;

    QLabel *m_summary;
    QLabel *m_verdict;
    QLabel *m_empty;
    QWidget *m_content;
    QComboBox *m_metric;
    QPushButton *m_doctor;
    QPushButton *m_timeline;
    JobRanksModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    RankHeatmapChart *m_map;
};

} // namespace plumb
