// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/viewchoice.h"

namespace plumb {

ViewChoice chooseView(const ImportContent &content)
{
    using View = ViewChoice::View;
    ViewChoice c;
    if (!content.traces.isEmpty()) {
        const auto &t = content.traces;
        if (t.size() == 2 && t[0].runId != t[1].runId) {
            c.view = View::Diff;
            c.baselineTraceId = t[0].id;
            c.traceId = t[1].id;
        } else {
            c.view = View::Doctor;
            c.traceId = t[0].id;
        }
    } else if (content.servingRequests > 0) {
        c.view = View::Slo;
        c.runIds = content.servingRuns;
    } else if (content.lifecycleEvents > 0 && !content.lifecycleRuns.isEmpty()) {
        c.view = View::Goodput;
        c.runIds = { content.lifecycleRuns.front() };
    } else if (!content.metricRuns.isEmpty()) {
        c.view = View::Experiments;
        c.runIds = content.metricRuns;
    } else if (!content.lineageNodes.isEmpty()) {
        c.view = View::Lineage;
        c.nodeId = content.lineageNodes.front();
    }
    return c;
}

} // namespace plumb
