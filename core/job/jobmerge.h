// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/rankcomparison.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace plumb {

// `plumb merge SHARDDIR -o JOB.plumb` (docs/cluster.md): the job workspace built from the shards of a
// sharded import (job/shard.h) by their summaries alone, in time and memory proportional to ranks x
// steps, not to events. Per rank: its trace row, device, steps (step_summary, without their launch-delay
// sketches) and ops over the whole trace (op_summary step -1) are copied, its stored analyses are not
// (trace_summary's row has an empty report: storedReport() reads the shard's), and job_rank says where
// its events are (the shard) or why it is missing; the collectives are matched across ranks
// (job_collective); each rank's verdict, its run weighed in, is stored with it. Written to a temporary
// file beside `outPath` and renamed at the end; run again after a failed shard is redone.
//
// A shard that cannot be read makes its ranks missing, with a warning; a shard of another job (other job
// folder, number of shards or world size) or of another Plumb (schema) is refused: JobMergeError, and
// nothing is written.
struct JobMergeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct JobMerge {
    QString output;
    int shards = 0; // read
    int shardCount = 0; // the job's (each shard's N)
    int64_t worldSize = -1; // -1: no trace says
    int64_t merged = 0; // ranks
    std::vector<int64_t> missing; // ranks no shard had
    std::vector<int64_t> failed; // ranks whose import failed
    std::vector<int> missingShards; // indexes of shards not found or unreadable
    QStringList warnings; // what the user must know: unreadable shards, duplicate ranks, failed files
    RankComparison comparison; // the merged ranks compared (compareRanks()), in the job's trace ids
    [[nodiscard]] bool complete() const { return missing.empty() && failed.empty(); }
};

[[nodiscard]] JobMerge mergeShards(const QString &shardDir, const QString &outPath);

} // namespace plumb
