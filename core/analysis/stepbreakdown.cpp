#include "stepbreakdown.h"

#include "timelinedata.h"
#include "timelinequery.h"

#include <algorithm>

namespace plumb {

int owningStep(const std::vector<StepBreakdown> &steps, const GpuOp &op)
{
    const int64_t t = op.launchNs >= 0 ? op.launchNs : op.startNs;
    // The last step starting at or before t, if t is inside it.
    auto it = std::upper_bound(steps.begin(), steps.end(), t,
                               [](int64_t v, const StepBreakdown &s) { return v < s.cpuStartNs; });
    if (it == steps.begin())
        return -1;
    --it;
    return t < it->cpuEndNs ? int(it - steps.begin()) : -1;
}

std::vector<StepBreakdown> stepBreakdowns(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    return stepBreakdowns(ws, traceId, readGpuOps(ws, traceId, mode));
}

std::vector<StepBreakdown> stepBreakdowns(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops)
{
    std::vector<StepBreakdown> out;
    const QList<TimelineTrack> tracks = timelineTracks(ws, traceId);
    for (const StepMarker &m : stepMarkers(ws, tracks)) {
        StepBreakdown s;
        s.number = m.number;
        s.name = m.name;
        s.cpuStartNs = m.startNs; // offsets are 0 for one trace's tracks
        s.cpuEndNs = m.endNs;
        out.push_back(std::move(s));
    }
    if (out.empty())
        return out;
    std::sort(out.begin(), out.end(), [](const StepBreakdown &a, const StepBreakdown &b) { return a.cpuStartNs < b.cpuStartNs; });
    std::vector<std::vector<GpuOp>> perStep(out.size());
    for (const GpuOp &op : ops)
        if (const int step = owningStep(out, op); step >= 0)
            perStep[size_t(step)].push_back(op);
    for (size_t i = 0; i < out.size(); ++i)
        out[i].gpu = breakdownOf(perStep[i]);
    return out;
}

} // namespace plumb
