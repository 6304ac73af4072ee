// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/rankcomparison.h"

#include "analysis/stepbreakdown.h"
#include "analysis/tracesummary.h"
#include "store/eventslocation.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <optional>

namespace plumb {

RankComparison compareRanks(Workspace &ws, int64_t runId, TemporalBreakdown::Mode mode, ReportSource source)
{
    RankComparison c;
    // One trace is no comparison: its windows are not read.
    SqliteStmt count(ws.db(), "SELECT count(*) FROM trace WHERE run_id = ?");
    count.bind(1, runId);
    if (!count.step() || count.columnInt(0) < 2)
        return c;
    SqliteStmt st(ws.db(),
        "SELECT id, coalesce(rank, -1), name FROM trace WHERE run_id = ? ORDER BY coalesce(rank, -1), id");
    st.bind(1, runId);
    std::map<int64_t, WindowSums> stored; // by trace
    if (mode == GpuOpMode::EveryOp && source == ReportSource::Summaries)
        stored = storedWindowSums(ws, runId);
    while (st.step()) {
        RankSummary r;
        r.traceId = st.columnInt(0);
        r.rank = st.columnInt(1);
        r.name = st.columnText(2);
        // Each step's GPU window, averaged: from the summaries stored at import when they count the ops
        // `mode` counts, else from the ops.
        if (const auto it = stored.find(r.traceId); it != stored.end()) {
            const WindowSums &w = it->second;
            r.steps = w.steps;
            const double n = double(std::max(1, w.steps));
            r.windowNs = w.windowNs / n;
            r.computeNs = w.computeNs / n;
            r.commNs = w.commNs / n;
            r.exposedCommNs = w.exposedCommNs / n;
            r.idleNs = w.idleNs / n;
            c.ranks.push_back(r);
            continue;
        }
        std::vector<TemporalBreakdown> windows;
        {
            // A rank of a job merged from shards is read in its shard.
            const std::optional<EventsLocation> at = eventsLocation(ws, r.traceId);
            std::optional<Workspace> shard;
            if (at)
                shard.emplace(at->workspacePath, Workspace::Role::Reader);
            Workspace &events = at ? *shard : ws;
            const int64_t id = at ? at->traceId : r.traceId;
            const auto steps = stepBreakdowns(events, id, mode);
            windows.reserve(steps.size());
            for (const StepBreakdown &s : steps)
                windows.push_back(s.gpu);
            if (windows.empty())
                windows.push_back(temporalBreakdown(events, id, mode));
            r.steps = int(steps.size());
        }
        for (const TemporalBreakdown &b : windows) {
            r.windowNs += double(b.totalNs());
            r.computeNs += double(b.computeNs);
            r.commNs += double(b.commNs);
            r.exposedCommNs += double(b.exposedCommNs);
            r.idleNs += double(b.idleNs());
        }
        const double n = double(windows.size());
        r.windowNs /= n;
        r.computeNs /= n;
        r.commNs /= n;
        r.exposedCommNs /= n;
        r.idleNs /= n;
        c.ranks.push_back(r);
    }
    if (c.ranks.size() < 2)
        return c;
    const auto [shortest, longest] = std::minmax_element(
        c.ranks.begin(), c.ranks.end(), [](auto &a, auto &b) { return a.windowNs < b.windowNs; });
    c.stepSpreadNs = longest->windowNs - shortest->windowNs;
    const auto slowest = std::max_element(
        c.ranks.begin(), c.ranks.end(), [](auto &a, auto &b) { return a.computeNs < b.computeNs; });
    std::vector<double> others;
    double othersComm = 0;
    for (auto it = c.ranks.begin(); it != c.ranks.end(); ++it)
        if (it != slowest) {
            others.push_back(it->computeNs);
            othersComm += it->commNs;
        }
    std::sort(others.begin(), others.end());
    const double median = others.size() % 2 ? others[others.size() / 2]
                                            : (others[others.size() / 2 - 1] + others[others.size() / 2]) / 2;
    if (slowest->computeNs > median * (1.0 + kStragglerMargin)) {
        c.straggler = int(slowest - c.ranks.begin());
        c.othersWaitNs = othersComm / double(others.size()) - slowest->commNs;
    }
    return c;
}

} // namespace plumb
