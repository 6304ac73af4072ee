// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/histogramseries.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <vector>

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

// One param (or MLflow tag: kind "tag") of a run, as stored.
struct RunParam {
    int64_t runId = 0;
    QString key;
    QString value; // numbers in shortest round-trip form, bools 'true'/'false'
    QString kind; // 'number' | 'string' | 'bool' | 'null' | 'json' | 'tag'
};

// One (run, tag) series summed over its segments, from metric_series (no point is read).
struct SeriesSummary {
    int64_t runId = 0;
    int64_t keyId = 0;
    QString key;
    bool histogram = false;
    int64_t segments = 0; // restarts + 1
    int64_t points = 0;
    int64_t firstStep = 0; // of the first segment
    int64_t lastStep = 0; // of the last segment
    int64_t firstWallNs = 0;
    int64_t lastWallNs = 0;
    bool hasValues = false; // scalars with at least one finite value
    double minValue = 0; // over every segment's finite values
    double maxValue = 0;
    double lastValue = 0; // the last point of the last segment (NaN when that was NaN)
};

// One stored scalar point.
struct ScalarPoint {
    int64_t segment = 0;
    int64_t step = 0;
    int64_t wallNs = 0;
    double value = 0; // NaN where the log had NaN
};

// Read-only queries over the experiment-log tables, shared by `plumb ls`, `plumb diff --config` and
// the experiment views.
class ExperimentReader {
public:
    explicit ExperimentReader(Workspace &workspace);

    // Runs with params or metric series, in id order.
    [[nodiscard]] QList<ExperimentRunInfo> runs();
    // Params of the given runs (all runs when empty), ordered by run then key.
    [[nodiscard]] std::vector<RunParam> params(const QList<int64_t> &runIds = {});
    // Series of the given runs (all runs when empty), ordered by run, kind (scalars first), then key.
    [[nodiscard]] std::vector<SeriesSummary> series(const QList<int64_t> &runIds = {});
    // Every point of one scalar series, in (segment, step, dup) order.
    [[nodiscard]] std::vector<ScalarPoint> scalarPoints(int64_t runId, int64_t keyId);
    // Every histogram of one series, in (segment, step, dup) order.
    [[nodiscard]] std::vector<StepHistogram> histograms(int64_t runId, int64_t keyId);

private:
    Workspace &m_ws;
};

} // namespace plumb
