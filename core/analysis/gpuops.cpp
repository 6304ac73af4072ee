#include "gpuops.h"

#include "sqlitedb.h"
#include "workspace.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

namespace {

// Times as HTA reads them: the file's microseconds as a double (which at epoch-based timestamps,
// ~1.7e15 us, keeps only quarter microseconds), the start rounded up and the end (start + duration,
// in doubles) rounded down to whole microseconds. Trace time is the file's microseconds times 1000,
// so this is exact for Kineto traces.
double fileMicros(int64_t ns) { return double(static_cast<long double>(ns) / 1000.0L); }
int64_t htaStart(int64_t ns) { return int64_t(std::ceil(fileMicros(ns))) * 1000; }
int64_t htaEnd(int64_t ns, int64_t durNs) { return int64_t(std::floor(fileMicros(ns) + double(durNs) / 1000.0)) * 1000; }

std::unordered_set<int64_t> stringIds(SqliteDb &db, const char *sql)
{
    std::unordered_set<int64_t> ids;
    SqliteStmt st(db, sql);
    while (st.step())
        ids.insert(st.columnInt(0));
    return ids;
}

// HTA's cut: the start of the last ProfilerStep#N when the trace has at least two of them (CPU
// calls from then on, and the GPU work they launched, do not count); INT64_MAX otherwise.
int64_t htaCutoff(SqliteDb &db, int64_t traceId)
{
    const std::unordered_set<int64_t> stepNames = stringIds(db, "SELECT id FROM string WHERE str GLOB 'ProfilerStep*'");
    if (stepNames.size() < 2)
        return INT64_MAX;
    std::unordered_set<int64_t> seen;
    int64_t last = INT64_MIN;
    SqliteStmt st(db, "SELECT s.name_id, s.ts FROM slice s JOIN track k ON k.id = s.track_id "
                      "WHERE k.trace_id = ? AND k.kind = 'thread' AND s.name_id IN "
                      "(SELECT id FROM string WHERE str GLOB 'ProfilerStep*')");
    st.bind(1, traceId);
    while (st.step()) {
        seen.insert(st.columnInt(0));
        last = std::max(last, htaStart(st.columnInt(1)));
    }
    return seen.size() >= 2 ? last : INT64_MAX;
}

} // namespace

std::vector<GpuOp> readGpuOps(Workspace &ws, int64_t traceId, GpuOpMode mode, int64_t fromNs, int64_t toNs)
{
    SqliteDb &db = ws.db();
    const bool hta = mode == GpuOpMode::Hta;
    const int64_t cutoff = hta ? htaCutoff(db, traceId) : INT64_MAX;
    const bool linkedOnly = mode == GpuOpMode::LinkedOnly || cutoff != INT64_MAX;
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
    // Names of communication (and, for HTA, memory) kernels, decided once per name.
    const std::unordered_set<int64_t> commNames =
        stringIds(db, hta ? "SELECT id FROM string WHERE str GLOB 'nccl*'" : "SELECT id FROM string WHERE str LIKE '%nccl%'");
    const std::unordered_set<int64_t> memoryNames =
        hta ? stringIds(db, "SELECT id FROM string WHERE str GLOB '*Memcpy*' OR str GLOB '*Memset*'")
            : std::unordered_set<int64_t> {};

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
        if (cat != catKernel && cat != catMemcpy && cat != catMemset)
            continue; // not a GPU op (e.g. a marker on the stream)
        if (commNames.count(op.nameId) && (hta || cat == catKernel))
            op.kind = GpuOp::Kind::Comm;
        else if (hta ? memoryNames.count(op.nameId) > 0 : cat != catKernel)
            op.kind = GpuOp::Kind::Memory;
        else
            op.kind = GpuOp::Kind::Compute;
        if (!st.columnIsNull(4)) {
            auto it = launches.find(st.columnInt(4));
            if (it != launches.end()) {
                op.launchNs = it->second.first;
                op.launchDurNs = it->second.second;
            }
        }
        if (hta && op.launchNs >= 0)
            op.launchNs = htaStart(op.launchNs);
        if (linkedOnly && (op.launchNs < 0 || op.launchNs >= cutoff))
            continue;
        op.startNs = st.columnInt(0);
        op.endNs = op.startNs + st.columnInt(1);
        if (hta) {
            op.endNs = std::max(htaStart(op.startNs), htaEnd(op.startNs, st.columnInt(1)));
            op.startNs = htaStart(op.startNs);
        }
        op.streamTrackId = st.columnInt(5);
        ops.push_back(op);
    }
    std::sort(ops.begin(), ops.end(), [](const GpuOp &a, const GpuOp &b) { return a.startNs < b.startNs; });
    return ops;
}

} // namespace plumb
