// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/eventslocation.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

namespace plumb {

std::optional<EventsLocation> eventsLocation(Workspace &ws, int64_t traceId)
{
    SqliteStmt st(ws.db(),
        "SELECT shard_path, shard_trace_id FROM job_rank WHERE trace_id = ? AND shard_path IS NOT NULL");
    st.bind(1, traceId);
    if (!st.step())
        return std::nullopt;
    return EventsLocation { st.columnText(0), st.columnInt(1) };
}

} // namespace plumb
