// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/traceselection.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>

namespace plumb {

TraceSelection selectTraces(Workspace &ws, const QStringList &ids)
{
    TraceSelection all;
    SqliteStmt st(ws.db(), "SELECT id, run_id, name FROM trace ORDER BY id");
    while (st.step())
        all.traces.push_back(TraceRef { st.columnInt(0), st.columnInt(1), st.columnText(2) });
    if (ids.isEmpty())
        return all;
    TraceSelection chosen;
    for (const QString &p : ids) {
        bool ok = false;
        const int64_t id = p.toLongLong(&ok);
        const auto it = std::find_if(
            all.traces.begin(), all.traces.end(), [&](const TraceRef &t) { return t.id == id; });
        if (!ok || it == all.traces.end()) {
            chosen.traces.clear();
            chosen.error = QStringLiteral("no trace %1 in %2 (plumb ls lists them)").arg(p, ws.path());
            return chosen;
        }
        chosen.traces.push_back(*it);
    }
    return chosen;
}

std::vector<int64_t> runsOf(const std::vector<TraceRef> &traces)
{
    std::vector<int64_t> runs;
    for (const TraceRef &t : traces)
        if (std::find(runs.begin(), runs.end(), t.runId) == runs.end())
            runs.push_back(t.runId);
    return runs;
}

} // namespace plumb
