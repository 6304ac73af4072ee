#include "temporalbreakdown.h"

#include "sqlitedb.h"
#include "workspace.h"

#include <algorithm>
#include <unordered_set>

namespace plumb {

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// Sorted, disjoint union of the intervals.
Intervals unite(Intervals v)
{
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto &[a, b] : v) {
        if (b <= a)
            continue;
        if (!out.empty() && a <= out.back().second)
            out.back().second = std::max(out.back().second, b);
        else
            out.emplace_back(a, b);
    }
    return out;
}

int64_t length(const Intervals &u)
{
    int64_t n = 0;
    for (const auto &[a, b] : u)
        n += b - a;
    return n;
}

// Length of `a` not covered by `b` (both sorted and disjoint).
int64_t lengthOutside(const Intervals &a, const Intervals &b)
{
    int64_t n = 0;
    size_t j = 0;
    for (const auto &[s, e] : a) {
        int64_t cursor = s;
        while (j < b.size() && b[j].second <= cursor)
            ++j;
        for (size_t k = j; k < b.size() && b[k].first < e; ++k) {
            if (b[k].first > cursor)
                n += b[k].first - cursor;
            cursor = std::max(cursor, b[k].second);
            if (cursor >= e)
                break;
        }
        if (cursor < e)
            n += e - cursor;
    }
    return n;
}

} // namespace

TemporalBreakdown breakdownOf(std::vector<GpuOpInterval> ops)
{
    TemporalBreakdown r;
    if (ops.empty())
        return r;
    Intervals all, compute, comm, memory;
    r.startNs = INT64_MAX;
    r.endNs = INT64_MIN;
    for (const GpuOpInterval &op : ops) {
        r.startNs = std::min(r.startNs, op.startNs);
        r.endNs = std::max(r.endNs, op.endNs);
        all.emplace_back(op.startNs, op.endNs);
        (op.kind == GpuOpInterval::Kind::Compute ? compute : op.kind == GpuOpInterval::Kind::Comm ? comm : memory)
            .emplace_back(op.startNs, op.endNs);
    }
    r.ops = int64_t(ops.size());
    const Intervals uCompute = unite(std::move(compute)), uComm = unite(std::move(comm)),
                    uMemory = unite(std::move(memory));
    r.busyNs = length(unite(std::move(all)));
    r.computeNs = length(uCompute);
    r.commNs = length(uComm);
    r.memoryNs = length(uMemory);
    r.exposedCommNs = lengthOutside(uComm, uCompute);
    Intervals computeOrComm = uCompute;
    computeOrComm.insert(computeOrComm.end(), uComm.begin(), uComm.end());
    r.exposedMemoryNs = lengthOutside(uMemory, unite(std::move(computeOrComm)));
    return r;
}

TemporalBreakdown temporalBreakdown(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    return temporalBreakdown(ws, traceId, mode, INT64_MIN, INT64_MAX);
}

TemporalBreakdown temporalBreakdown(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, int64_t fromNs,
                                    int64_t toNs)
{
    SqliteDb &db = ws.db();
    const int64_t catKernel = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'kernel'), -1)");
    const int64_t catMemcpy = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'gpu_memcpy'), -1)");
    const int64_t catMemset = db.queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'gpu_memset'), -1)");

    // Correlation ids of the CPU-side launches of this trace (LinkedOnly).
    std::unordered_set<int64_t> launched;
    if (mode == TemporalBreakdown::Mode::LinkedOnly) {
        SqliteStmt st(db, "SELECT s.corr FROM slice s JOIN track k ON k.id = s.track_id WHERE k.trace_id = ? AND "
                          "k.kind IN ('thread', 'cuda_api') AND s.corr IS NOT NULL");
        st.bind(1, traceId);
        while (st.step())
            launched.insert(st.columnInt(0));
    }
    // Names of communication kernels, decided once per name.
    std::unordered_set<int64_t> commNames;
    {
        SqliteStmt st(db, "SELECT id FROM string WHERE str LIKE '%nccl%'");
        while (st.step())
            commNames.insert(st.columnInt(0));
    }

    std::vector<GpuOpInterval> ops;
    SqliteStmt st(db, "SELECT s.ts, s.dur, s.name_id, s.cat_id, s.corr FROM slice s JOIN track k ON k.id = s.track_id "
                      "WHERE k.trace_id = ?1 AND k.kind = 'gpu_stream' AND s.ts >= ?2 AND s.ts < ?3");
    st.bind(1, traceId).bind(2, fromNs).bind(3, toNs);
    while (st.step()) {
        const int64_t cat = st.columnIsNull(3) ? -1 : st.columnInt(3);
        GpuOpInterval op;
        if (cat == catKernel)
            op.kind = commNames.count(st.columnInt(2)) ? GpuOpInterval::Kind::Comm : GpuOpInterval::Kind::Compute;
        else if (cat == catMemcpy || cat == catMemset)
            op.kind = GpuOpInterval::Kind::Memory;
        else
            continue; // not a GPU op (e.g. a marker on the stream)
        if (mode == TemporalBreakdown::Mode::LinkedOnly && (st.columnIsNull(4) || !launched.count(st.columnInt(4))))
            continue;
        op.startNs = st.columnInt(0);
        op.endNs = std::min(op.startNs + st.columnInt(1), toNs);
        ops.push_back(op);
    }
    return breakdownOf(std::move(ops));
}

} // namespace plumb
