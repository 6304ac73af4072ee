// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/trackslices.h"

#include "store/sqlitedb.h"

namespace plumb {

void forEachTrackSlice(SqliteDb &db, const KeptSlices *kept, int64_t track, const std::string &where,
    const std::function<void(const KeptSlice &)> &f)
{
    KeptSlice r;
    if (kept && kept->canOrder(track)) {
        KeptSlices::OrderedCursor rows = kept->rowsInOrder(track);
        while (rows.next(r))
            f(r);
        return;
    }
    SqliteStmt st(db,
        "SELECT ts, dur, name_id, cat_id, corr, ext_id, args_id, id FROM slice WHERE track_id = ?"
            + (where.empty() ? std::string() : " AND (" + where + ")") + " ORDER BY ts, id");
    st.bind(1, track);
    const auto optional = [&st](int c) { return st.columnIsNull(c) ? KeptSlice::kAbsent : st.columnInt(c); };
    while (st.step()) {
        r.ts = st.columnInt(0);
        r.dur = st.columnInt(1);
        r.name = st.columnInt(2);
        r.cat = optional(3);
        r.corr = optional(4);
        r.ext = optional(5);
        r.args = optional(6);
        r.id = st.columnInt(7);
        f(r);
    }
}

std::vector<int64_t> gpuStreamTracks(SqliteDb &db, int64_t traceId)
{
    SqliteStmt st(db, "SELECT id FROM track WHERE trace_id = ? AND kind = 'gpu_stream' ORDER BY id");
    st.bind(1, traceId);
    std::vector<int64_t> out;
    while (st.step())
        out.push_back(st.columnInt(0));
    return out;
}

} // namespace plumb
