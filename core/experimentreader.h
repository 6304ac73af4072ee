#pragma once

#include <QList>
#include <QString>

#include <cstdint>

namespace plumb {

class Workspace;

// What an experiment-log run holds, from metric_series and param (no point is read).
struct ExperimentRunInfo {
    int64_t id = 0;
    QString name;
    QString path;
    QString status; // trials: 'unknown' | 'success' | 'failure' | 'running'; else empty
    QString groupName;
    int64_t parentRunId = -1; // the trial a sub-run belongs to
    int64_t startNs = 0; // wall clock, epoch ns (0 when unknown)
    int64_t endNs = 0;
    int64_t scalarTags = 0;
    int64_t scalarPoints = 0;
    int64_t histogramTags = 0;
    int64_t histograms = 0;
    int64_t params = 0;
    int64_t restarts = 0; // times the job restarted: the most segments of any series, less one
};

// Read-only queries over the experiment-log tables, for `plumb ls` and (later) the runs table.
class ExperimentReader {
public:
    explicit ExperimentReader(Workspace &workspace);

    // Runs with params or metric series, in id order.
    [[nodiscard]] QList<ExperimentRunInfo> runs();

private:
    Workspace &m_ws;
};

} // namespace plumb
