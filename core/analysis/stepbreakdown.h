// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/temporalbreakdown.h"
#include "timeline/timelinequery.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace plumb {

class Workspace;

// The temporal breakdown of each training step. Steps come from the CPU side (ProfilerStep#N,
// step-named NVTX ranges, XPlane Steps: see stepMarkers()); a step's GPU work is the ops launched
// from inside it (by launch time), or for ops without a launch, those starting inside it. Its window
// runs from its first op's start to its last op's end, so the queueing of GPU work behind the CPU is
// attributed to the step that launched it.
struct StepBreakdown {
    int64_t number = 0;
    QString name;
    int64_t cpuStartNs = 0; // the step on the CPU (trace time)
    int64_t cpuEndNs = 0;
    TemporalBreakdown gpu;
};

// The trace's steps on the CPU: one rank's step markers (the first stepMarkers() gives; a trace normally
// holds one rank), by start. What stepBreakdowns() and stepTimeBreakdown() both count, so their steps
// pair up by index.
[[nodiscard]] std::vector<StepMarker> traceSteps(Workspace &ws, int64_t traceId);

[[nodiscard]] std::vector<StepBreakdown> stepBreakdowns(
    Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode);
// The step (index into `steps`, sorted by start as stepBreakdowns() returns them) that owns `op`: the
// one its launch (else its start) falls in; -1 when none.
[[nodiscard]] int owningStep(const std::vector<StepBreakdown> &steps, const GpuOp &op);
// Calls fn(i, ops) for each step i of `steps` in order with the ops it owns (owningStep()), in their
// order in `ops`: one step's copied at a time, into a buffer reused.
void forEachStepOps(const std::vector<StepBreakdown> &steps, const std::vector<GpuOp> &ops,
    const std::function<void(size_t, const std::vector<GpuOp> &)> &fn);
// The same over ops already read (readGpuOps() of the trace in the wanted mode).
[[nodiscard]] std::vector<StepBreakdown> stepBreakdowns(
    Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops);

} // namespace plumb
