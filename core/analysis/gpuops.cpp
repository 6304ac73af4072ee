#include "gpuops.h"

#include "sqlitedb.h"
#include "workspace.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

std::vector<GpuOp> readGpuOps(Workspace &ws, int64_t traceId, bool linkedOnly, int64_t fromNs, int64_t toNs)
{
    SqliteDb &db = ws.db();
    const int64_t catKernel = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'kernel'), -1)");
    const int64_t catMemcpy = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'gpu_memcpy'), -1)");
    const int64_t catMemset = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'gpu_memset'), -1)");

    // CPU-side launches of this trace by correlation id: the first call holding the id (the runtime
    // launch; a driver call under it has the same id and starts later).
    // Sized from the trace's counts: a million-op trace would otherwise rehash and regrow repeatedly.
    const auto expected = size_t(std::max<int64_t>(0, [&] {
        SqliteStmt n(db, "SELECT gpu_op_count FROM trace WHERE id = ?");
        n.bind(1, traceId);
        return n.step() ? n.columnInt(0) : 0;
    }()));
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> launches; // corr -> (ts, dur)
    launches.reserve(expected);
    {
        SqliteStmt st(db, "SELECT s.corr, s.ts, s.dur FROM slice s JOIN track k ON k.id = s.track_id "
                          "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api') AND s.corr IS NOT NULL");
        st.bind(1, traceId);
        while (st.step()) {
            const std::pair<int64_t, int64_t> call { st.columnInt(1), st.columnInt(2) };
            auto [it, inserted] = launches.emplace(st.columnInt(0), call);
            if (!inserted && call.first < it->second.first)
                it->second = call;
        }
    }
    // Names of communication kernels, decided once per name.
    std::unordered_set<int64_t> commNames;
    {
        SqliteStmt st(db, "SELECT id FROM string WHERE str LIKE '%nccl%'");
        while (st.step())
            commNames.insert(st.columnInt(0));
    }

    std::vector<GpuOp> ops;
    ops.reserve(expected);
    SqliteStmt st(db, "SELECT s.ts, s.dur, s.name_id, s.cat_id, s.corr, s.track_id FROM slice s "
                      "JOIN track k ON k.id = s.track_id "
                      "WHERE k.trace_id = ?1 AND k.kind = 'gpu_stream' AND s.ts >= ?2 AND s.ts < ?3");
    st.bind(1, traceId).bind(2, fromNs).bind(3, toNs);
    while (st.step()) {
        const int64_t cat = st.columnIsNull(3) ? -1 : st.columnInt(3);
        GpuOp op;
        op.nameId = st.columnInt(2);
        if (cat == catKernel)
            op.kind = commNames.count(op.nameId) ? GpuOp::Kind::Comm : GpuOp::Kind::Compute;
        else if (cat == catMemcpy || cat == catMemset)
            op.kind = GpuOp::Kind::Memory;
        else
            continue; // not a GPU op (e.g. a marker on the stream)
        if (!st.columnIsNull(4)) {
            auto it = launches.find(st.columnInt(4));
            if (it != launches.end()) {
                op.launchNs = it->second.first;
                op.launchDurNs = it->second.second;
            }
        }
        if (linkedOnly && op.launchNs < 0)
            continue;
        op.startNs = st.columnInt(0);
        op.endNs = op.startNs + st.columnInt(1);
        op.streamTrackId = st.columnInt(5);
        ops.push_back(op);
    }
    std::sort(ops.begin(), ops.end(), [](const GpuOp &a, const GpuOp &b) { return a.startNs < b.startNs; });
    return ops;
}

} // namespace plumb
