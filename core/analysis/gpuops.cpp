#include "gpuops.h"

#include "sqlitedb.h"
#include "workspace.h"

#include <algorithm>
#include <cmath>
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

struct Launch {
    int64_t corr, ts, dur;
};

// Launches by correlation id. CUPTI's ids count up, so they usually fill a range densely: then a
// table indexed by id (no hashing, one allocation); else a sorted vector searched by id.
class LaunchIndex {
public:
    [[nodiscard]] size_t size() const { return m_count; }
    [[nodiscard]] const Launch *find(int64_t corr) const
    {
        if (m_dense) {
            if (corr < m_min || corr - m_min >= int64_t(m_table.size()))
                return nullptr;
            const Launch &l = m_table[size_t(corr - m_min)];
            return l.ts == kNone ? nullptr : &l;
        }
        auto it = std::lower_bound(m_table.begin(), m_table.end(), corr, [](const Launch &l, int64_t c) { return l.corr < c; });
        return it != m_table.end() && it->corr == corr ? &*it : nullptr;
    }
    void build(std::vector<Launch> calls)
    {
        m_count = calls.size();
        if (calls.empty())
            return;
        const auto [lo, hi] = std::minmax_element(calls.begin(), calls.end(), [](const Launch &a, const Launch &b) { return a.corr < b.corr; });
        m_min = lo->corr;
        const uint64_t range = uint64_t(hi->corr - lo->corr) + 1;
        m_dense = range <= 4 * uint64_t(calls.size()) + 1024;
        if (m_dense) {
            m_table.assign(size_t(range), Launch { 0, kNone, 0 });
            for (const Launch &l : calls) {
                Launch &slot = m_table[size_t(l.corr - m_min)];
                if (slot.ts == kNone || l.ts < slot.ts)
                    slot = l;
            }
            return;
        }
        std::sort(calls.begin(), calls.end(), [](const Launch &a, const Launch &b) { return a.corr != b.corr ? a.corr < b.corr : a.ts < b.ts; });
        calls.erase(std::unique(calls.begin(), calls.end(), [](const Launch &a, const Launch &b) { return a.corr == b.corr; }), calls.end());
        m_table = std::move(calls);
    }

private:
    static constexpr int64_t kNone = INT64_MIN;
    std::vector<Launch> m_table;
    int64_t m_min = 0;
    size_t m_count = 0;
    bool m_dense = false;
};

LaunchIndex readLaunches(SqliteDb &db, int64_t traceId)
{
    std::vector<Launch> calls;
    SqliteStmt st(db, "SELECT s.corr, s.ts, s.dur FROM slice s JOIN track k ON k.id = s.track_id "
                      "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api') AND s.corr IS NOT NULL");
    st.bind(1, traceId);
    while (st.step())
        calls.push_back({ st.columnInt(0), st.columnInt(1), st.columnInt(2) });
    LaunchIndex index;
    index.build(std::move(calls));
    return index;
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
    const LaunchIndex launches = readLaunches(db, traceId);
    // Names of communication (and, for HTA, memory) kernels, decided once per name.
    const std::unordered_set<int64_t> commNames =
        stringIds(db, hta ? "SELECT id FROM string WHERE str GLOB 'nccl*'" : "SELECT id FROM string WHERE str LIKE '%nccl%'");
    const std::unordered_set<int64_t> memoryNames =
        hta ? stringIds(db, "SELECT id FROM string WHERE str GLOB '*Memcpy*' OR str GLOB '*Memset*'")
            : std::unordered_set<int64_t> {};

    std::vector<GpuOp> ops;
    ops.reserve(launches.size()); // about one op per launch: regrowing a million-op vector costs more than the scan
    std::vector<size_t> runs; // where each track's ops (in start order already: the slice key) begin
    SqliteStmt st(db, "SELECT s.ts, s.dur, s.name_id, s.cat_id, s.corr, s.track_id, s.args_id FROM slice s "
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
        if (!st.columnIsNull(4))
            if (const Launch *l = launches.find(st.columnInt(4))) {
                op.launchNs = l->ts;
                op.launchDurNs = l->dur;
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
        op.argsId = st.columnIsNull(6) ? -1 : st.columnInt(6);
        if (ops.empty() || ops.back().streamTrackId != op.streamTrackId)
            runs.push_back(ops.size());
        ops.push_back(op);
    }
    // Merge the tracks' runs (each sorted by start, as the slice key orders them) pairwise.
    auto byStart = [](const GpuOp &a, const GpuOp &b) { return a.startNs < b.startNs; };
    runs.push_back(ops.size());
    while (runs.size() > 2) {
        std::vector<size_t> next;
        size_t i = 0;
        for (; i + 2 < runs.size(); i += 2) {
            std::inplace_merge(ops.begin() + ptrdiff_t(runs[i]), ops.begin() + ptrdiff_t(runs[i + 1]),
                               ops.begin() + ptrdiff_t(runs[i + 2]), byStart);
            next.push_back(runs[i]);
        }
        if (i + 1 < runs.size())
            next.push_back(runs[i]); // an odd run left over
        next.push_back(ops.size());
        runs = std::move(next);
    }
    if (!std::is_sorted(ops.begin(), ops.end(), byStart)) // (only if a query plan ever stops reading in key order)
        std::sort(ops.begin(), ops.end(), byStart);
    return ops;
}

} // namespace plumb
