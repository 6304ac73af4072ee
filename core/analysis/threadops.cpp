// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/threadops.h"

#include "store/sqlidlist.h"
#include "store/sqlitedb.h"

namespace plumb {

std::vector<ThreadOp> readThreadOps(SqliteDb &db, int64_t traceId, const std::unordered_set<int64_t> &nameIds)
{
    std::vector<ThreadOp> out;
    if (nameIds.empty())
        return out;
    std::vector<int64_t> tracks;
    {
        SqliteStmt st(db, "SELECT id FROM track WHERE trace_id = ? AND kind = 'thread' ORDER BY id");
        st.bind(1, traceId);
        while (st.step())
            tracks.push_back(st.columnInt(0));
    }
    SqliteStmt st(db,
        "SELECT ext_id, name_id, args_id FROM slice WHERE track_id = ? AND ext_id IS NOT NULL "
        "AND args_id IS NOT NULL AND name_id IN ("
            + sqlIdList(nameIds) + ")");
    for (const int64_t track : tracks) {
        st.bind(1, track);
        while (st.step())
            out.push_back(ThreadOp { st.columnInt(0), st.columnInt(1), st.columnInt(2) });
        st.reset();
    }
    return out;
}

} // namespace plumb
