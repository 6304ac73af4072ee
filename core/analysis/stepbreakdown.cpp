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

void forEachStepOps(const std::vector<StepBreakdown> &steps, const std::vector<GpuOp> &ops,
    const std::function<void(size_t, const std::vector<GpuOp> &)> &fn)
{
    // The ops' indices grouped by step (a counting sort, stable): 4 bytes an op, not a copy of each.
    std::vector<int32_t> owner(ops.size());
    std::vector<size_t> first(steps.size() + 1);
    for (size_t i = 0; i < ops.size(); ++i)
        if ((owner[i] = owningStep(steps, ops[i])) >= 0)
            ++first[size_t(owner[i]) + 1];
    for (size_t s = 0; s < steps.size(); ++s)
        first[s + 1] += first[s];
    std::vector<uint32_t> byStep(first.back());
    std::vector<size_t> next(first.begin(), first.end() - 1);
    for (size_t i = 0; i < ops.size(); ++i)
        if (owner[i] >= 0)
            byStep[next[size_t(owner[i])]++] = uint32_t(i);
    owner = {};
    std::vector<GpuOp> stepOps;
    for (size_t s = 0; s < steps.size(); ++s) {
        stepOps.clear();
        for (size_t k = first[s]; k < first[s + 1]; ++k)
            stepOps.push_back(ops[byStep[k]]);
        fn(s, stepOps);
    }
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
    forEachStepOps(
        out, ops, [&out](size_t i, const std::vector<GpuOp> &stepOps) { out[i].gpu = breakdownOf(stepOps); });
    return out;
}

} // namespace plumb
