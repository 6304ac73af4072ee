// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"
#include "analysis/histogram.h"

#include <cstdint>
#include <vector>

namespace plumb {

// How the host feeds each GPU stream, from the GPU ops alone (a pure function: no workspace).
//
// Launch delay: an op's GPU start minus the start of the CPU-side call that launched it (the same
// definition as HostAnalysis's p50/p90, so the chart and those figures agree; it includes the time
// the op waited behind earlier work on its stream, and the launch call's own cost). Holistic Trace
// Analysis measures from the end of the launch call instead, which is shorter by the call's duration
// and can be negative. Ops without a linked launch have no delay.
//
// Queue length: per stream, the ops launched (their launch call started) and not yet finished on the
// GPU, over time. An op enters the queue at its launch call's start (at its GPU start when no launch
// is linked, or when skewed clocks put the launch after the GPU start) and leaves it at its GPU end.
struct QueuePoint {
    int64_t timeNs = 0; // trace time
    int32_t queued = 0; // from timeNs until the next point's timeNs
};

struct StreamQueue {
    int64_t streamTrackId = 0;
    int64_t ops = 0;
    // A step series by time; consecutive points differ in value and the last is 0 (where the queue
    // last empties). When reduced, the stream's span is cut into at most maxPointsPerStream equal
    // buckets and each point holds the largest queue within its bucket, so peaks survive.
    std::vector<QueuePoint> series;
    bool reduced = false;
    int32_t maxQueued = 0;
    double meanQueued = 0; // time-weighted over [firstNs, lastNs)
    int64_t firstNs = 0; // the first op's entry into the queue
    int64_t lastNs = 0; // the last op's GPU end
};

struct LaunchStats {
    std::vector<StreamQueue> queues; // by stream track id
    int64_t launchedOps = 0; // ops with a linked launch
    int64_t minDelayNs = 0;
    int64_t maxDelayNs = 0;
    Histogram launchDelay; // of launchedOps delays (ns)
};

constexpr int kQueuePointsPerStream = 2000;

// maxPointsPerStream <= 0 keeps every change of every stream's queue.
[[nodiscard]] LaunchStats launchStats(
    const std::vector<GpuOp> &ops, int maxPointsPerStream = kQueuePointsPerStream);

} // namespace plumb
