// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/gpuops.h"

#include "analysis/devicebackend.h"
#include "store/keptslices.h"
#include "store/sqlitedb.h"
#include "store/sqlitestate.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <future>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>

namespace plumb {

namespace {

// Times as HTA reads them: the file's microseconds as a double (which at epoch-based timestamps,
// ~1.7e15 us, keeps only quarter microseconds), the start rounded up and the end (start + duration,
// in doubles) rounded down to whole microseconds. Trace time is the file's microseconds times 1000,
// so this is exact for Kineto traces.
double fileMicros(int64_t ns)
{
    return double(static_cast<long double>(ns) / 1000.0L);
}
int64_t htaStart(int64_t ns)
{
    return htaStartNs(ns);
}

} // namespace

int64_t htaStartNs(int64_t ns)
{
    return int64_t(std::ceil(fileMicros(ns))) * 1000;
}
int64_t htaEndNs(int64_t ns, int64_t durNs)
{
    return int64_t(std::floor(fileMicros(ns) + double(durNs) / 1000.0)) * 1000;
}

namespace {

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
    const std::unordered_set<int64_t> stepNames
        = stringIds(db, "SELECT id FROM string WHERE str GLOB 'ProfilerStep*'");
    if (stepNames.size() < 2)
        return INT64_MAX;
    std::unordered_set<int64_t> seen;
    int64_t last = INT64_MIN;
    SqliteStmt st(db,
        "SELECT s.name_id, s.ts FROM slice s JOIN track k ON k.id = s.track_id "
        "WHERE k.trace_id = ? AND k.kind = 'thread' AND s.name_id IN "
        "(SELECT id FROM string WHERE str GLOB 'ProfilerStep*')");
    st.bind(1, traceId);
    while (st.step()) {
        seen.insert(st.columnInt(0));
        last = std::max(last, htaStart(st.columnInt(1)));
    }
    return seen.size() >= 2 ? last : INT64_MAX;
}

struct LaunchTime {
    int64_t ts, dur;
};
struct Launch {
    int64_t corr;
    LaunchTime time;
};

// Times an analysis can add and subtract without overflow: within 2^62 ns of the trace's zero, a
// duration from 0 to 2^62.
bool saneTimes(int64_t ts, int64_t dur)
{
    constexpr int64_t kLimit = int64_t(1) << 62;
    return ts > -kLimit && ts < kLimit && dur >= 0 && dur < kLimit;
}

// Launches by correlation id. CUPTI's ids count up, so they usually fill a range densely: then a
// table indexed by id (no hashing, one allocation); else a sorted vector searched by id.
class LaunchIndex {
public:
    [[nodiscard]] size_t size() const { return m_count; }
    [[nodiscard]] const LaunchTime *find(int64_t corr) const
    {
        if (m_dense) {
            if (corr < m_min || corr - m_min >= int64_t(m_times.size()))
                return nullptr;
            const LaunchTime &l = m_times[size_t(corr - m_min)];
            return l.ts == kNone ? nullptr : &l;
        }
        auto it = std::lower_bound(
            m_table.begin(), m_table.end(), corr, [](const Launch &l, int64_t c) { return l.corr < c; });
        return it != m_table.end() && it->corr == corr ? &it->time : nullptr;
    }
    // Whether `count` calls with ids from lo to hi fill the range densely enough for a table.
    static bool dense(int64_t lo, int64_t hi, size_t count)
    {
        return uint64_t(hi - lo) + 1 <= 4 * uint64_t(count) + 1024;
    }
    // A table for ids lo..hi, then add() each call (what build() does with them in a vector).
    void startDense(int64_t lo, int64_t hi, size_t count)
    {
        m_count = count;
        m_dense = true;
        m_min = lo;
        const auto range = size_t(uint64_t(hi - lo) + 1);
        m_times.reserve(range);
        adviseHugePages(m_times);
        m_times.assign(range, LaunchTime { kNone, 0 });
    }
    void add(int64_t corr, LaunchTime time)
    {
        LaunchTime &slot = m_times[size_t(corr - m_min)];
        if (slot.ts == kNone || time.ts < slot.ts)
            slot = time;
    }
    void build(std::vector<Launch> calls)
    {
        if (calls.empty())
            return;
        const auto [lo, hi] = std::minmax_element(
            calls.begin(), calls.end(), [](const Launch &a, const Launch &b) { return a.corr < b.corr; });
        if (dense(lo->corr, hi->corr, calls.size())) { // indexed by id: no id kept
            startDense(lo->corr, hi->corr, calls.size());
            for (const Launch &l : calls)
                add(l.corr, l.time);
            return;
        }
        m_count = calls.size();
        std::sort(calls.begin(), calls.end(), [](const Launch &a, const Launch &b) {
            return a.corr != b.corr ? a.corr < b.corr : a.time.ts < b.time.ts;
        });
        calls.erase(std::unique(calls.begin(), calls.end(),
                        [](const Launch &a, const Launch &b) { return a.corr == b.corr; }),
            calls.end());
        m_table = std::move(calls);
    }

private:
    static constexpr int64_t kNone = INT64_MIN;
    std::vector<LaunchTime> m_times; // dense: by id - m_min
    std::vector<Launch> m_table; // else: sorted by id
    int64_t m_min = 0;
    size_t m_count = 0;
    bool m_dense = false;
};

LaunchIndex readLaunches(SqliteDb &db, int64_t traceId, const KeptSlices *kept)
{
    // Only the CPU tracks holding slices with an id: those with correlation tiles (slice_corr_tile, one
    // per 1,024 such slices), mostly the CUDA API tracks; a thread's own slices rarely carry one, and
    // reading them all took as long again. Reserved for the tiles' slices at most (and backed by huge
    // pages) instead of regrown.
    std::vector<int64_t> tracks;
    int64_t tiles = 0;
    {
        SqliteStmt st(db,
            "SELECT k.id, (SELECT count(*) FROM slice_corr_tile c WHERE c.track_id = k.id) FROM track k "
            "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api')");
        st.bind(1, traceId);
        while (st.step())
            if (st.columnInt(1) > 0) {
                tracks.push_back(st.columnInt(0));
                tiles += st.columnInt(1);
            }
    }
    LaunchIndex index;
    // Every track kept by the import: the table filled from the rows, read twice (first for the ids'
    // range), with no vector of the calls (1.4M on the 1.86 GB trace: 35 MB at the summaries' peak).
    const auto keptCalls = [kept](int64_t track, const auto &f) {
        KeptSlices::Cursor rows = kept->rows(track);
        for (KeptSlice r; rows.next(r);)
            if (r.corr != KeptSlice::kAbsent && saneTimes(r.ts, r.dur))
                f(r);
    };
    if (kept && std::all_of(tracks.begin(), tracks.end(), [kept](int64_t t) { return kept->isKept(t); })) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        size_t count = 0;
        for (const int64_t track : tracks)
            keptCalls(track, [&](const KeptSlice &r) {
                lo = std::min(lo, r.corr);
                hi = std::max(hi, r.corr);
                ++count;
            });
        if (count > 0 && LaunchIndex::dense(lo, hi, count)) {
            index.startDense(lo, hi, count);
            for (const int64_t track : tracks)
                keptCalls(track, [&index](const KeptSlice &r) { index.add(r.corr, { r.ts, r.dur }); });
            return index;
        }
    }
    std::vector<Launch> calls;
    calls.reserve(size_t(tiles) * 1024);
    adviseHugePages(calls);
    SqliteStmt st(db, "SELECT corr, ts, dur FROM slice WHERE track_id = ? AND corr IS NOT NULL");
    for (const int64_t track : tracks) {
        if (kept && kept->isKept(track)) {
            keptCalls(track, [&calls](const KeptSlice &r) { calls.push_back({ r.corr, { r.ts, r.dur } }); });
            continue;
        }
        st.bind(1, track);
        while (st.step())
            if (saneTimes(st.columnInt(1), st.columnInt(2)))
                calls.push_back({ st.columnInt(0), { st.columnInt(1), st.columnInt(2) } });
        st.reset();
    }
    index.build(std::move(calls));
    return index;
}

} // namespace

namespace {

// One GPU stream's slices starting in [fromNs, toNs), in start order: the rows the import kept, else a
// statement over the workspace.
class StreamCursor {
public:
    StreamCursor(SqliteDb &db, const KeptSlices *kept, int64_t track, int64_t fromNs, int64_t toNs)
        : m_toNs(toNs)
    {
        if (kept && kept->canOrder(track)) {
            m_rows.emplace(kept->rowsInOrder(track));
            m_fromNs = fromNs;
            return;
        }
        m_st = std::make_unique<SqliteStmt>(db,
            "SELECT ts, dur, name_id, cat_id, corr, args_id FROM slice "
            "WHERE track_id = ?1 AND ts >= ?2 AND ts < ?3 ORDER BY ts");
        m_st->bind(1, track).bind(2, fromNs).bind(3, toNs);
    }
    // The next slice into row(); false at the end.
    bool next()
    {
        if (m_rows) {
            while (m_rows->next(m_row))
                if (m_row.ts >= m_fromNs)
                    return m_row.ts < m_toNs;
            return false;
        }
        if (!m_st->step())
            return false;
        const auto optional
            = [this](int c) { return m_st->columnIsNull(c) ? KeptSlice::kAbsent : m_st->columnInt(c); };
        m_row.ts = m_st->columnInt(0);
        m_row.dur = m_st->columnInt(1);
        m_row.name = m_st->columnInt(2);
        m_row.cat = optional(3);
        m_row.corr = optional(4);
        m_row.args = optional(5);
        return true;
    }
    [[nodiscard]] const KeptSlice &row() const { return m_row; }

private:
    std::optional<KeptSlices::OrderedCursor> m_rows;
    std::unique_ptr<SqliteStmt> m_st;
    int64_t m_fromNs = INT64_MIN, m_toNs;
    KeptSlice m_row;
};

} // namespace

std::vector<GpuOp> readGpuOps(
    Workspace &ws, int64_t traceId, GpuOpMode mode, int64_t fromNs, int64_t toNs, const KeptSlices *kept)
{
    SqliteDb &db = ws.db();
    const bool hta = mode == GpuOpMode::Hta;
    const int64_t cutoff = hta ? htaCutoff(db, traceId) : INT64_MAX;
    const bool linkedOnly = mode == GpuOpMode::LinkedOnly || cutoff != INT64_MAX;
    // Device-op categories by role, from the backend table (CUDA's kernel, MTIA's mtia_ccp_events...);
    // a CUDA graph launch traced whole (Nsight's --cuda-graph-trace=graph) is compute, its kernels unseen.
    // (A handful: a flat list searched in order beats a hash per op.)
    std::vector<std::pair<int64_t, const BackendCategory *>> opCats;
    {
        SqliteStmt st(db,
            "SELECT id, str FROM string WHERE str IN ("
                + sqlCategoryList(
                    { CategoryRole::Kernel, CategoryRole::Memcpy, CategoryRole::Memset, CategoryRole::Graph })
                + ")");
        while (st.step())
            opCats.emplace_back(st.columnInt(0), backendCategory(st.columnView(1)));
    }

    // CPU-side launches of this trace by correlation id: the first call holding the id (the runtime
    // launch; a driver call under it has the same id and starts later).
    // Read on a second connection while this one reads the GPU ops (a reader sees the same committed
    // data; a writer's uncommitted view, or a workspace in memory, stays on this thread).
    LaunchIndex launches;
    std::future<LaunchIndex> launchesRead;
    if (!inWriteTransaction(db) && QFileInfo(ws.path()).isFile())
        launchesRead = std::async(std::launch::async, [path = ws.path(), traceId, kept] {
            Workspace second(path, Workspace::Role::Reader);
            const SqliteReadTransaction snapshot(second.db());
            return readLaunches(second.db(), traceId, kept);
        });
    else
        launches = readLaunches(db, traceId, kept);
    // Names of communication (and, for HTA, memory) kernels, decided once per name.
    const std::unordered_set<int64_t> commNames = stringIds(db,
        hta ? "SELECT id FROM string WHERE str GLOB 'nccl*'"
            : "SELECT id FROM string WHERE str LIKE '%nccl%'");
    // HTA's memory kernels: Memcpy/Memset anywhere in the name (as its releases up to 0.2 read them)
    // or a name starting with dma (its newer rule, for MTIA's dma_request).
    const std::unordered_set<int64_t> memoryNames = hta
        ? stringIds(
            db, "SELECT id FROM string WHERE str GLOB '*Memcpy*' OR str GLOB '*Memset*' OR str GLOB 'dma*'")
        : std::unordered_set<int64_t> {};
    // Per category with name rules (MTIA's dma*, HTA's untyped pe_exe): the names that match, by id.
    std::unordered_set<int64_t> backendMemoryNames, htaUntypedNames, waitNames;
    auto namesWhere = [&](const char *sql, std::string_view text, std::unordered_set<int64_t> &into) {
        SqliteStmt st(db, sql);
        st.bind(1, text);
        while (st.step())
            into.insert(st.columnInt(0));
    };
    for (const auto &[id, c] : opCats) {
        for (std::string_view prefix : c->memoryNamePrefixes)
            namesWhere(
                "SELECT id FROM string WHERE substr(str, 1, length(?1)) = ?1", prefix, backendMemoryNames);
        if (hta)
            for (std::string_view name : c->htaUntypedOps)
                namesWhere("SELECT id FROM string WHERE str = ?1", name, htaUntypedNames);
        else
            for (std::string_view name : c->waitOps)
                namesWhere("SELECT id FROM string WHERE str = ?1", name, waitNames);
    }

    // How each name is classed, decided once per name id (ids are dense: a table, not a hash).
    enum : int8_t { kUnclassed = 0, kCommName = 1, kMemoryName = 2, kOtherName = 3 };
    std::vector<int8_t> nameClass;
    auto classOf = [&](int64_t nameId) -> int {
        if (nameId < 0 || nameId > (int64_t(1) << 26))
            return commNames.count(nameId) ? kCommName : memoryNames.count(nameId) ? kMemoryName : kOtherName;
        if (size_t(nameId) >= nameClass.size())
            nameClass.resize(size_t(nameId) + 1, kUnclassed);
        int8_t &c = nameClass[size_t(nameId)];
        if (c == kUnclassed)
            c = commNames.count(nameId) ? kCommName : memoryNames.count(nameId) ? kMemoryName : kOtherName;
        return int(c);
    };

    // One cursor per GPU stream track, each in start order (the slice key), merged as they are read:
    // the ops come out in start order with no sort and no second copy of them.
    std::vector<int64_t> tracks;
    int64_t opCount = 0;
    {
        SqliteStmt t(
            db, "SELECT id, slice_count FROM track WHERE trace_id = ? AND kind = 'gpu_stream' ORDER BY id");
        t.bind(1, traceId);
        while (t.step()) {
            tracks.push_back(t.columnInt(0));
            opCount += t.columnInt(1);
        }
    }
    std::vector<StreamCursor> cursors; // those with a row to give
    std::vector<int64_t> cursorTrack; // the track id of each
    std::vector<int64_t> cursorTs; // the start of its current row
    for (int64_t track : tracks) {
        StreamCursor cursor(db, kept, track, fromNs, toNs);
        if (cursor.next()) {
            cursorTs.push_back(cursor.row().ts);
            cursors.push_back(std::move(cursor));
            cursorTrack.push_back(track);
        }
    }
    auto later = [&](size_t x, size_t y) { return cursorTs[x] > cursorTs[y]; };
    std::vector<size_t> heap;
    for (size_t c = 0; c < cursors.size(); ++c)
        heap.push_back(c);
    std::make_heap(heap.begin(), heap.end(), later);

    std::vector<GpuOp> ops;
    std::vector<int64_t> corrs; // of each op, linked to its launch once the launches are read
    constexpr int64_t kNoCorr = KeptSlice::kAbsent; // a NULL corr
    // Every op of the window at most: regrowing a million-op vector costs more than the scan.
    const size_t expected
        = size_t(fromNs == INT64_MIN && toNs == INT64_MAX ? opCount : std::max<int64_t>(opCount / 16, 1024));
    ops.reserve(expected);
    corrs.reserve(expected);
    adviseHugePages(ops);
    adviseHugePages(corrs);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const size_t c = heap.back();
        StreamCursor &cursor = cursors[c];
        const KeptSlice &row = cursor.row();
        const int64_t cat = row.cat == KeptSlice::kAbsent ? -1 : row.cat;
        GpuOp op;
        op.nameId = row.name;
        const BackendCategory *opCat = nullptr; // else e.g. a marker on the stream
        for (const auto &[id, c] : opCats)
            if (id == cat)
                opCat = c;
        // (A stream's wait for another's event is no work of the device's: see BackendCategory::waitOps.)
        // A damaged file's op with times no analysis can subtract (beyond 2^62 ns, 146 years, from the
        // trace's zero, or a negative duration) is no device work either: passed over like a marker.
        const bool keep = opCat != nullptr && !(!opCat->waitOps.empty() && waitNames.count(op.nameId))
            && saneTimes(cursorTs[c], row.dur);
        const CategoryRole role = keep ? opCat->role : CategoryRole::None;
        const bool memoryOp = role == CategoryRole::Memcpy || role == CategoryRole::Memset
            || (keep && !opCat->memoryNamePrefixes.empty() && backendMemoryNames.count(op.nameId));
        const int named = classOf(op.nameId);
        if (named == kCommName && (hta || role == CategoryRole::Kernel))
            op.kind = GpuOp::Kind::Comm;
        else if (hta ? named == kMemoryName : memoryOp)
            op.kind = GpuOp::Kind::Memory;
        else
            op.kind = GpuOp::Kind::Compute;
        if (hta && keep && !opCat->htaUntypedOps.empty() && htaUntypedNames.count(op.nameId)) {
            op.untyped = true;
            op.kind = GpuOp::Kind::Memory;
        }
        if (keep) {
            corrs.push_back(row.corr);
            op.startNs = cursorTs[c];
            op.endNs = op.startNs + row.dur;
            if (hta) {
                op.endNs = std::max(htaStart(op.startNs), htaEndNs(op.startNs, row.dur));
                op.startNs = htaStart(op.startNs);
            }
            op.streamTrackId = cursorTrack[c];
            op.argsId = row.args == KeptSlice::kAbsent ? -1 : row.args;
            ops.push_back(op);
        }
        if (cursor.next()) {
            cursorTs[c] = cursor.row().ts;
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }

    // Each op's launch; in linked-only modes an op without one (or, for HTA, launched after the
    // cut) is dropped.
    if (launchesRead.valid())
        launches = launchesRead.get(); // rethrows what the other connection threw
    size_t linked = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
        GpuOp op = ops[i];
        if (corrs[i] != kNoCorr)
            if (const LaunchTime *l = launches.find(corrs[i])) {
                op.launchNs = hta ? htaStart(l->ts) : l->ts;
                op.launchDurNs = l->dur;
            }
        if (linkedOnly && (op.launchNs < 0 || op.launchNs >= cutoff))
            continue;
        ops[linked++] = op;
    }
    ops.resize(linked);
    return ops;
}

QString gpuOpModeName(GpuOpMode mode)
{
    switch (mode) {
    case GpuOpMode::EveryOp:
        return QStringLiteral("every");
    case GpuOpMode::LinkedOnly:
        return QStringLiteral("linked");
    case GpuOpMode::Hta:
        return QStringLiteral("hta");
    }
    return {};
}

} // namespace plumb
