// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"
#include "analysis/histogram.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Per GPU op name: how often it ran and how long (durations in ns), sorted by total time, largest
// first. share = its total over the total of every op in the table; durations is the histogram of
// its GPU durations.
struct KernelStats {
    QString name;
    GpuOp::Kind kind = GpuOp::Kind::Compute;
    int64_t count = 0;
    int64_t totalNs = 0;
    int64_t minNs = 0;
    int64_t p50Ns = 0;
    int64_t p90Ns = 0;
    int64_t p99Ns = 0;
    int64_t maxNs = 0;
    double stddevNs = 0; // sample standard deviation of the durations (n - 1, as pandas); 0 for one run
    double share = 0;
    // Its ops are of none of the three kinds for Holistic Trace Analysis (GpuOp::untyped, hta mode only).
    bool untyped = false;
    // Estimated achieved occupancy in percent (the profiler's "est. achieved occupancy %"), the mean
    // over the runs that report it weighted by their duration; -1 when none does.
    double occupancy = -1;
    Histogram durations;
    [[nodiscard]] double meanNs() const { return count ? double(totalNs) / double(count) : 0.0; }
};

// Percentiles are nearest-rank over the op's durations.
[[nodiscard]] std::vector<KernelStats> kernelTable(Workspace &ws, const std::vector<GpuOp> &ops);

} // namespace plumb
