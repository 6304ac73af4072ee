// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/stepbreakdown.h"

#include "util/allocatortuning.h"

#include "timeline/timelinedata.h"
#include "timeline/timelinequery.h"

#include <algorithm>

namespace plumb {

int owningStep(const std::vector<StepBreakdown> &steps, const GpuOp &op)
{
    const int64_t t = op.launchNs >= 0 ? op.launchNs : op.startNs;
    // The last step starting at or before t, if t is inside it.
    auto it = std::upper_bound(
        steps.begin(), steps.end(), t, [](int64_t v, const StepBreakdown &s) { return v < s.cpuStartNs; });
    if (it == steps.begin())
        return -1;
    --it;
    return t < it->cpuEndNs ? int(it - steps.begin()) : -1;
}

std::vector<std::vector<GpuOp>> opsByStep(
    const std::vector<StepBreakdown> &steps, const std::vector<GpuOp> &ops)
{
    // One pass to size each step's vector and one to fill it: no regrowth of million-op vectors.
    std::vector<int32_t> owner(ops.size());
    std::vector<size_t> counts(steps.size());
    for (size_t i = 0; i < ops.size(); ++i)
        if ((owner[i] = owningStep(steps, ops[i])) >= 0)
            ++counts[size_t(owner[i])];
    std::vector<std::vector<GpuOp>> owned(steps.size());
    for (size_t s = 0; s < steps.size(); ++s) {
        owned[s].reserve(counts[s]);
        adviseHugePages(owned[s]);
    }
    for (size_t i = 0; i < ops.size(); ++i)
        if (owner[i] >= 0)
            owned[size_t(owner[i])].push_back(ops[i]);
    return owned;
}

std::vector<StepMarker> traceSteps(Workspace &ws, int64_t traceId)
{
    std::vector<StepMarker> markers = stepMarkers(ws, timelineTracks(ws, traceId));
    if (markers.empty())
        return markers;
    const int64_t rank = markers.front().rank;
    std::erase_if(markers, [rank](const StepMarker &m) { return m.rank != rank; });
    std::stable_sort(markers.begin(), markers.end(),
        [](const StepMarker &a, const StepMarker &b) { return a.startNs < b.startNs; });
    return markers;
}

std::vector<StepBreakdown> stepBreakdowns(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    return stepBreakdowns(ws, traceId, readGpuOps(ws, traceId, mode));
}

std::vector<StepBreakdown> stepBreakdowns(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops)
{
    std::vector<StepBreakdown> out;
    for (const StepMarker &m : traceSteps(ws, traceId)) {
        StepBreakdown s;
        s.number = m.number;
        s.name = m.name;
        s.cpuStartNs = m.startNs; // offsets are 0 for one trace's tracks
        s.cpuEndNs = m.endNs;
        out.push_back(std::move(s));
    }
    if (out.empty())
        return out;
    const std::vector<std::vector<GpuOp>> perStep = opsByStep(out, ops);
    for (size_t i = 0; i < out.size(); ++i)
        out[i].gpu = breakdownOf(perStep[i]);
    return out;
}

} // namespace plumb
