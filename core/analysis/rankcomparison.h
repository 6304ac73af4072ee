// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/reportsource.h"
#include "analysis/temporalbreakdown.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// The ranks of a multi-rank run side by side, per step (mean over each rank's steps; the whole trace
// when a rank has none). A straggler is the rank that computes longest per step, by more than
// kStragglerMargin over the median of the others: in data-parallel training every collective waits
// for it, so the others' extra communication time per step is what it costs them.
struct RankSummary {
    int64_t traceId = 0;
    int64_t rank = -1;
    QString name;
    int steps = 0;
    double windowNs = 0; // per step
    double computeNs = 0;
    double commNs = 0;
    double exposedCommNs = 0;
    double idleNs = 0;
};

struct RankComparison {
    std::vector<RankSummary> ranks; // by rank
    int straggler = -1; // index into ranks, -1 when none stands out
    double stepSpreadNs = 0; // longest minus shortest per-step window
    double othersWaitNs = 0; // the others' mean communication per step minus the straggler's
};

constexpr double kStragglerMargin = 0.05;

// Each rank's GPU windows come from the summaries stored at import (analysis/tracesummary.h) when they
// count what `mode` counts and `source` allows, else from its ops.
[[nodiscard]] RankComparison compareRanks(Workspace &ws, int64_t runId, TemporalBreakdown::Mode mode,
    ReportSource source = ReportSource::Summaries);

} // namespace plumb
