#include "stepbreakdown.h"

#include "timelinedata.h"
#include "timelinequery.h"

#include <algorithm>

namespace plumb {

std::vector<StepBreakdown> stepBreakdowns(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    return stepBreakdowns(ws, traceId, readGpuOps(ws, traceId, mode == TemporalBreakdown::Mode::LinkedOnly));
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
    for (const GpuOp &op : ops) {
        const int64_t t = op.launchNs >= 0 ? op.launchNs : op.startNs;
        // The last step starting at or before t, if t is inside it.
        auto it = std::upper_bound(out.begin(), out.end(), t,
                                   [](int64_t v, const StepBreakdown &s) { return v < s.cpuStartNs; });
        if (it == out.begin())
            continue;
        --it;
        if (t < it->cpuEndNs)
            perStep[size_t(it - out.begin())].push_back(op);
    }
    for (size_t i = 0; i < out.size(); ++i)
        out[i].gpu = breakdownOf(perStep[i]);
    return out;
}

} // namespace plumb
