// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/rankcomparison.h"
#include "store/eventslocation.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;

// A multi-rank job at a glance (docs/cluster.md): each rank's step time and verdict, rank x step maps,
// the rank the collectives waited for in each step and overall, and the job's verdict. Read from a job
// workspace that `plumb merge` wrote (job_rank, job_collective) or, for a run imported in one process,
// from its traces' summaries (collective_call matched here): the same figures either way. Reads
// summaries only, never events.
struct JobRank {
    int64_t rank = -1;
    QString status = QStringLiteral("merged"); // 'merged' | 'missing' | 'failed'
    int64_t traceId = 0; // 0 when not merged
    QString traceName;
    QString shardPath; // where its events are, when not in this workspace
    int64_t shardTraceId = 0;
    QString message; // why missing or failed
    int steps = 0;
    double stepNs = 0; // mean wall time per step (the whole trace when it has no steps)
    double minStepNs = 0, maxStepNs = 0;
    double exposedCommNs = 0; // per step, of its step time
    double inputNs = 0; // per step
    double computeNs = 0; // per step
    int lastArrivals = 0; // collectives at which it arrived last
    int64_t causedWaitNs = 0; // the others' mean wait for it, summed over those collectives
    QString verdict; // its verdict's component (componentName()), its run weighed in
    QString headline;
};

struct JobView {
    int64_t runId = 0;
    QString name;
    int64_t worldSize = -1;
    bool merged = false; // a job workspace written by plumb merge
    std::vector<JobRank> ranks; // by rank, the missing ones included
    std::vector<QString> stepNames; // the steps of the maps (the first merged rank's)
    // Per rank (index into ranks) and step: wall time, exposed communication, input pipeline (ns; -1:
    // no such step on that rank).
    std::vector<std::vector<int64_t>> stepTime, exposedComm, input;
    struct StepStraggler {
        int64_t rank = -1; // the rank the step's collectives waited for longest, -1 when none
        int64_t waitNs = 0; // the others' mean wait for it in the step
    };
    std::vector<StepStraggler> stepStragglers; // by step
    int64_t straggler = -1; // the rank the collectives waited for most, over the job (-1: none)
    int64_t stragglerWaitNs = 0; // the others' mean wait for it, in all
    int64_t collectives = 0; // matched
    RankComparison comparison; // the doctor's (compute per step: the run's straggler)
    QString verdict; // the job's, one sentence
    [[nodiscard]] int64_t mergedRanks() const;
};

// The job the run `runId` forms; the workspace's largest multi-rank run when runId is 0 (a job
// workspace has one). Empty (runId 0) when there is none.
// Without `maps` the rank x step maps stay empty (a command's text or JSON needs none). `comparison`: the
// run's ranks compared (compareRanks(), every GPU op), when the caller has it (plumb merge does).
[[nodiscard]] JobView jobView(
    Workspace &ws, int64_t runId = 0, bool maps = true, const RankComparison *comparison = nullptr);

} // namespace plumb
