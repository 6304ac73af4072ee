// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"

#include <QString>

#include <array>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Where the GPU time of a trace goes, over the window from its first GPU op's start to its last
// op's end: the time at least one op ran (busy) and the rest (idle), split by what ran. Kernels whose
// name contains "nccl" are communication, other kernels computation, memcpy and memset ops memory.
// Exposed communication is communication time with no computation running; exposed memory is
// memory time with neither computation nor communication running. Intervals are unions over every
// stream and device of the trace (so concurrent streams are not counted twice).
// Which ops count is the mode (see GpuOpMode).
struct TemporalBreakdown {
    using Mode = GpuOpMode;

    int64_t startNs = 0; // trace time (slice.ts) of the first op
    int64_t endNs = 0; // end of the last op
    int64_t ops = 0; // GPU ops counted
    int64_t computeNs = 0; // union of computation kernels
    int64_t commNs = 0; // union of communication kernels
    int64_t memoryNs = 0; // union of memcpy and memset ops
    int64_t exposedCommNs = 0;
    int64_t exposedMemoryNs = 0;
    int64_t busyNs = 0; // union of every op
    // Time during which exactly the kinds in the index ran (bit 0 computation, bit 1 communication,
    // bit 2 memory): HTA's kernel-type overlap breakdown. byKinds[0] is unused (that is idle).
    std::array<int64_t, 8> byKinds {};
    [[nodiscard]] int64_t totalNs() const { return endNs - startNs; }
    [[nodiscard]] int64_t idleNs() const { return totalNs() - busyNs; }
    [[nodiscard]] double share(int64_t ns) const
    {
        return totalNs() > 0 ? double(ns) / double(totalNs()) : 0.0;
    }
    // The share of communication time hidden behind computation; -1 without communication.
    [[nodiscard]] double commOverlap() const
    {
        return commNs > 0 ? double(commNs - exposedCommNs) / double(commNs) : -1.0;
    }
};

// The breakdown of a trace's GPU ops, optionally of those starting in [fromNs, toNs) (trace time)
// clipped to that window. A trace without GPU ops gives an all-zero breakdown.
[[nodiscard]] TemporalBreakdown temporalBreakdown(
    Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode);
[[nodiscard]] TemporalBreakdown temporalBreakdown(
    Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, int64_t fromNs, int64_t toNs);

// The stretches of [first op start, last op end) in which no op runs, in time order.
[[nodiscard]] std::vector<std::pair<int64_t, int64_t>> gpuIdleIntervals(const std::vector<GpuOp> &ops);

// The sorted, disjoint union of intervals [start, end) (empty ones dropped).
[[nodiscard]] std::vector<std::pair<int64_t, int64_t>> uniteIntervals(
    std::vector<std::pair<int64_t, int64_t>> v);
// Appends [a, b) to intervals meant for uniteIntervals(), extending the last one instead when [a, b)
// starts inside it: fed in start order (GPU ops as read, a thread's nested calls), the list stays as
// long as the union, not the input; fed in any order, the union is the same.
inline void appendInterval(std::vector<std::pair<int64_t, int64_t>> &v, int64_t a, int64_t b)
{
    if (!v.empty() && a >= v.back().first && a <= v.back().second)
        v.back().second = std::max(v.back().second, b);
    else
        v.emplace_back(a, b);
}

// The breakdown of a set of ops (any order; only times and kinds are used).
[[nodiscard]] TemporalBreakdown breakdownOf(const std::vector<GpuOp> &ops);

// "COMPUTATION overlapping COMMUNICATION" and so on, HTA's names for a byKinds index.
[[nodiscard]] QString kindSetName(int kinds);

} // namespace plumb
