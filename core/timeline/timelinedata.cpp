// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinedata.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/countersummary.h"
#include "timeline/slicesummary.h"
#include "timeline/timescale.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace plumb {

namespace {

int processGroup(const QString &kind, int64_t processId)
{
    if (processId == 0)
        return 3;
    if (kind == QLatin1String("cpu"))
        return 0;
    if (kind == QLatin1String("gpu"))
        return 1;
    return 2;
}

// Where a track sorts beside its thread or stream: the base first, then its companions, in this order;
// a counter after every thread of its process.
enum Companion { Base, CudaApi, CpuSamples, OnCpu, Annotations, Counter };

Companion companionRank(const QString &kind)
{
    if (kind == QLatin1String("cuda_api"))
        return CudaApi;
    if (kind == QLatin1String("cpu_samples"))
        return CpuSamples;
    if (kind == QLatin1String("on_cpu"))
        return OnCpu;
    if (kind == QLatin1String("gpu_annotation"))
        return Annotations;
    if (kind == QLatin1String("counter"))
        return Counter;
    return Base;
}

} // namespace

QList<TimelineTrack> timelineTracks(Workspace &ws, int64_t traceId)
{
    struct Row {
        TimelineTrack t;
        int group;
        int64_t processSort, processNumber, trackSort, trackNumber;
        QString processLabel, label;
        int companion;
    };
    std::vector<Row> rows;
    SqliteStmt st(ws.db(),
        "SELECT k.id, coalesce(k.process_id, 0), coalesce(p.kind, ''), coalesce(p.name, ''), "
        "coalesce(p.labels, ''), coalesce(p.label, ''), coalesce(p.sort_index, 0), "
        "coalesce(p.device_index, p.pid, 0), k.kind, coalesce(k.label, ''), coalesce(k.name, ''), "
        "coalesce(k.sort_index, 0), coalesce(k.stream, k.tid, 0), k.slice_count, k.max_depth, "
        "k.max_dur_ns, coalesce(k.lod_origin_ns, 0), "
        "CASE WHEN k.kind = 'counter' THEN (SELECT min(level) FROM counter_lod l WHERE l.track_id = k.id) "
        "ELSE (SELECT min(level) FROM slice_lod l WHERE l.track_id = k.id) END, "
        "CASE WHEN k.kind = 'counter' THEN (SELECT max(level) FROM counter_lod l WHERE l.track_id = k.id) "
        "ELSE (SELECT max(level) FROM slice_lod l WHERE l.track_id = k.id) END "
        "FROM track k LEFT JOIN process p ON p.id = k.process_id WHERE k.trace_id = ?");
    st.bind(1, traceId);
    while (st.step()) {
        Row r;
        r.t.id = st.columnInt(0);
        r.t.traceId = traceId;
        r.t.processId = st.columnInt(1);
        r.t.processKind = st.columnText(2);
        const QString pname = st.columnText(3), plabels = st.columnText(4);
        r.processLabel = st.columnText(5);
        r.processSort = st.columnInt(6);
        r.processNumber = st.columnInt(7);
        r.t.kind = st.columnText(8);
        r.label = st.columnText(9);
        const QString tname = st.columnText(10);
        r.trackSort = st.columnInt(11);
        r.trackNumber = st.columnInt(12);
        r.t.sliceCount = st.columnInt(13);
        r.t.maxDepth = int(st.columnInt(14));
        r.t.maxDurNs = st.columnInt(15);
        if (!st.columnIsNull(17)) {
            r.t.lodOriginNs = st.columnInt(16);
            r.t.lodLowest = int(st.columnInt(17));
            r.t.lodHighest = int(st.columnInt(18));
        }
        r.group = processGroup(r.t.processKind, r.t.processId);
        r.companion = companionRank(r.t.kind);

        if (r.t.processKind == QLatin1String("gpu") && !plabels.isEmpty())
            r.t.processName = plabels;
        else if (!pname.isEmpty() && pname != r.processLabel)
            r.t.processName = QStringLiteral("%1 (pid %2)").arg(pname, r.processLabel);
        else if (!pname.isEmpty())
            r.t.processName = pname; // XPlane planes: the label is the name
        else
            r.t.processName = r.processLabel.isEmpty() ? QStringLiteral("Trace") : r.processLabel;

        if (r.t.kind == QLatin1String("gpu_stream"))
            r.t.name = QStringLiteral("Stream %1").arg(r.trackNumber);
        else if (r.t.kind == QLatin1String("cuda_api"))
            r.t.name = QStringLiteral("CUDA API");
        else if (r.t.kind == QLatin1String("gpu_annotation"))
            r.t.name = QStringLiteral("Annotations");
        else if (r.t.kind == QLatin1String("cpu_samples"))
            r.t.name = QStringLiteral("CPU samples");
        else if (r.t.kind == QLatin1String("on_cpu"))
            r.t.name = QStringLiteral("On CPU");
        else if (!tname.isEmpty())
            r.t.name = tname;
        else
            r.t.name = QStringLiteral("Thread %1").arg(r.label);
        rows.push_back(std::move(r));
    }

    // Companions sort with the thread or stream of the same process and label.
    std::map<std::pair<int64_t, QString>, const Row *> bases;
    for (const Row &r : rows)
        if (r.companion == Base)
            bases.emplace(std::make_pair(r.t.processId, r.label), &r);
    auto baseOf = [&](const Row &r) -> const Row & {
        if (r.companion != Base && r.companion != Counter) {
            auto it = bases.find({ r.t.processId, r.label });
            if (it != bases.end())
                return *it->second;
        }
        return r;
    };
    for (Row &r : rows) {
        const Row &base = baseOf(r);
        if (&base != &r)
            r.t.parentTrackId = base.t.id;
    }
    // Keys are taken before sorting: `bases` points into `rows`, which the sort moves.
    auto key = [&](const Row &r) {
        const Row &b = baseOf(r);
        const int slot = r.companion == Counter ? 1 : 0;
        return std::make_tuple(r.group, r.processSort, r.processNumber, r.processLabel, slot, b.trackSort,
            b.trackNumber, b.label, r.companion, r.t.id);
    };
    std::vector<std::pair<decltype(key(rows.front())), size_t>> order;
    order.reserve(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        order.emplace_back(key(rows[i]), i);
    std::sort(order.begin(), order.end());
    std::vector<Row> sorted;
    sorted.reserve(rows.size());
    for (const auto &[k, i] : order)
        sorted.push_back(std::move(rows[i]));
    rows = std::move(sorted);

    QList<TimelineTrack> out;
    SqliteStmt trace(ws.db(), "SELECT coalesce(rank, -1), name FROM trace WHERE id = ?");
    trace.bind(1, traceId);
    const bool known = trace.step();
    for (Row &r : rows) {
        if (known) {
            r.t.rank = trace.columnInt(0);
            r.t.traceName = trace.columnText(1);
        }
        out << r.t;
    }
    return out;
}

QList<TimelineTrack> timelineTracksOfRun(Workspace &ws, int64_t runId)
{
    struct TraceRow {
        int64_t id, rank;
        bool hasBase;
        int64_t baseNs;
    };
    std::vector<TraceRow> traces;
    SqliteStmt st(ws.db(),
        "SELECT id, coalesce(rank, -1), base_time_ns IS NOT NULL, coalesce(base_time_ns, 0) "
        "FROM trace WHERE run_id = ?");
    st.bind(1, runId);
    while (st.step())
        traces.push_back({ st.columnInt(0), st.columnInt(1), st.columnInt(2) != 0, st.columnInt(3) });
    std::sort(traces.begin(), traces.end(), [](const TraceRow &a, const TraceRow &b) {
        const bool ua = a.rank < 0, ub = b.rank < 0;
        return std::tie(ua, a.rank, a.id) < std::tie(ub, b.rank, b.id);
    });
    // Align ranks on absolute time only when every trace knows its base time.
    const bool align
        = !traces.empty() && std::all_of(traces.begin(), traces.end(), [](auto &t) { return t.hasBase; });
    int64_t minBase = INT64_MAX;
    for (const auto &t : traces)
        minBase = std::min(minBase, t.baseNs);
    QList<TimelineTrack> out;
    for (const auto &t : traces) {
        QList<TimelineTrack> tracks = timelineTracks(ws, t.id);
        for (TimelineTrack &k : tracks)
            k.offsetNs = align ? t.baseNs - minBase : 0;
        out += tracks;
    }
    return out;
}

TimeRange timelineExtent(Workspace &ws, const QList<TimelineTrack> &tracks)
{
    // The traces' own extents (every event they hold), shifted like their tracks.
    TimeRange range { INT64_MAX, INT64_MIN };
    SqliteStmt st(ws.db(), "SELECT start_ns, end_ns FROM trace WHERE id = ? AND start_ns IS NOT NULL");
    std::vector<int64_t> seen;
    for (const TimelineTrack &t : tracks) {
        if (std::find(seen.begin(), seen.end(), t.traceId) != seen.end())
            continue;
        seen.push_back(t.traceId);
        st.bind(1, t.traceId);
        if (st.step()) {
            range.startNs = std::min(range.startNs, st.columnInt(0) + t.offsetNs);
            range.endNs = std::max(range.endNs, st.columnInt(1) + t.offsetNs);
        }
        st.reset();
    }
    if (range.startNs > range.endNs)
        return {};
    return range;
}

namespace {

// Folds one depth's items, in start order, into draw entries (Tracy's rule): an item at least
// minWidth long is drawn as it is; narrower ones join the current run while the gap to it is under
// minWidth. An item is a raw slice or a bucket summary standing for `count` slices.
class DepthFolder {
public:
    DepthFolder(std::vector<DrawSlice> &out, int depth, int64_t minWidthNs)
        : m_out(out)
        , m_depth(depth)
        , m_minWidth(minWidthNs)
    {
    }

    void slice(int64_t start, int64_t end, int64_t nameId)
    {
        if (end - start >= m_minWidth) {
            flush();
            m_out.push_back({ start, end, m_depth, nameId, 1 });
        } else {
            narrow(start, end, nameId, 1);
        }
    }

    void bucket(const SliceSummary &b)
    {
        if (b.lastDurNs >= m_minWidth) {
            // The wide slice is the bucket's last; the others end before it starts.
            if (b.count > 1)
                narrow(b.minStartNs, b.lastTsNs, b.lastNameId, b.count - 1);
            slice(b.lastTsNs, b.lastTsNs + b.lastDurNs, b.lastNameId);
        } else {
            narrow(b.minStartNs, b.maxEndNs, b.lastNameId, b.count);
        }
    }

    void flush()
    {
        if (m_active)
            m_out.push_back(m_run);
        m_active = false;
    }

private:
    void narrow(int64_t start, int64_t end, int64_t nameId, int64_t count)
    {
        if (m_active && start - m_run.endNs < m_minWidth) {
            m_run.endNs = std::max(m_run.endNs, end);
            m_run.count += count;
            m_run.nameId = nameId;
            return;
        }
        flush();
        m_run = { start, end, m_depth, nameId, count };
        m_active = true;
    }

    std::vector<DrawSlice> &m_out;
    int m_depth;
    int64_t m_minWidth;
    DrawSlice m_run;
    bool m_active = false;
};

struct RawSlice {
    int64_t ts, dur;
    int depth;
    int64_t nameId;
};

// Raw slices of a track starting in [fromTs, toTs), in (ts, id) order.
void readRaw(Workspace &ws, int64_t trackId, int64_t fromTs, int64_t toTs, std::vector<RawSlice> &out)
{
    SqliteStmt st(ws.db(),
        "SELECT ts, dur, depth, name_id FROM slice WHERE track_id = ?1 AND ts >= ?2 AND ts < ?3 "
        "ORDER BY ts, id");
    st.bind(1, trackId).bind(2, fromTs).bind(3, toTs);
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnInt(1), int(std::max<int64_t>(0, st.columnInt(2))),
            st.columnInt(3) });
}

} // namespace

std::vector<DrawSlice> drawSlices(
    Workspace &ws, const TimelineTrack &track, int64_t fromNs, int64_t toNs, int64_t minWidthNs)
{
    std::vector<DrawSlice> out;
    minWidthNs = std::max<int64_t>(1, minWidthNs);
    const int64_t from = fromNs - track.offsetNs, to = toNs - track.offsetNs; // trace time
    if (to <= from)
        return out;

    // Per depth, in start order: slices reaching into the window from before it, then raw slices
    // and bucket summaries starting in it.
    std::vector<std::vector<RawSlice>> raw(size_t(track.maxDepth) + 1);
    std::vector<std::vector<const SliceSummary *>> buckets(raw.size());
    std::vector<SummaryTile> tiles;
    auto depthSlot = [&](int depth) -> size_t {
        if (size_t(depth) >= raw.size()) {
            raw.resize(size_t(depth) + 1);
            buckets.resize(size_t(depth) + 1);
        }
        return size_t(depth);
    };
    std::vector<RawSlice> rows;
    auto addCarry = [&](const SummaryTile &before, int64_t tileStart) {
        for (const CarrySlice &c : before.carryOut)
            if (c.tsNs + c.durNs > tileStart)
                raw[depthSlot(c.depth)].push_back({ c.tsNs, c.durNs, c.depth, c.nameId });
    };

    if (track.lodLowest < 0) {
        // No summaries (a small track): nothing that starts more than the longest slice before the
        // window can reach into it.
        readRaw(ws, track.id, from - track.maxDurNs, to, rows);
    } else {
        const SummaryLevels levels { track.lodLowest, track.lodHighest, track.lodOriginNs };
        const int wanted = lodLevelFor(minWidthNs);
        const int level = std::clamp(wanted, levels.lowest, levels.highest);
        const int64_t firstTile = levels.tileOf(level, from), lastTile = levels.tileOf(level, to - 1);
        SummaryTile before;
        if (summaryTileBefore(ws.db(), track.id, levels, level, firstTile, before))
            addCarry(before, levels.tileStartNs(level, firstTile));
        tiles = summaryTiles(ws.db(), track.id, levels, level, firstTile, lastTile);
        for (const SummaryTile &tile : tiles) {
            // Buckets wider than the minimum width would hide slices: below the lowest level, read raw.
            if (tile.hasBuckets && wanted >= levels.lowest) {
                for (const SliceSummary &b : tile.buckets)
                    buckets[depthSlot(b.depth)].push_back(&b);
            } else {
                readRaw(ws, track.id, levels.tileStartNs(level, tile.tile),
                    levels.tileStartNs(level, tile.tile + 1), rows);
            }
        }
    }
    for (const RawSlice &r : rows)
        raw[depthSlot(r.depth)].push_back(r);

    for (size_t d = 0; d < raw.size(); ++d) {
        DepthFolder folder(out, int(d), minWidthNs);
        auto visible = [&](int64_t start, int64_t end) {
            return start < to && (end > from || (end == from && start == end));
        };
        // Both lists are in start order; raw slices of a depth never share a tile with its buckets,
        // but carried-in slices come first, so merge them.
        std::vector<RawSlice> &rs = raw[d];
        std::stable_sort(
            rs.begin(), rs.end(), [](const RawSlice &a, const RawSlice &b) { return a.ts < b.ts; });
        size_t i = 0, j = 0;
        const auto &bs = buckets[d];
        while (i < rs.size() || j < bs.size()) {
            if (j == bs.size() || (i < rs.size() && rs[i].ts <= bs[j]->minStartNs)) {
                const RawSlice &r = rs[i++];
                if (visible(r.ts, r.ts + r.dur))
                    folder.slice(r.ts + track.offsetNs, r.ts + r.dur + track.offsetNs, r.nameId);
            } else {
                const SliceSummary &b = *bs[j++];
                if (!visible(b.minStartNs, b.maxEndNs))
                    continue;
                SliceSummary shifted = b;
                shifted.minStartNs += track.offsetNs;
                shifted.maxEndNs += track.offsetNs;
                shifted.lastTsNs += track.offsetNs;
                folder.bucket(shifted);
            }
        }
        folder.flush();
    }
    // A bucket straddling the window's end can carry a slice starting after it.
    const int64_t viewTo = toNs;
    std::erase_if(out, [viewTo](const DrawSlice &d) { return d.startNs >= viewTo; });
    return out;
}

std::vector<CounterBucket> drawCounter(
    Workspace &ws, const TimelineTrack &track, int64_t fromNs, int64_t toNs, int64_t bucketNs)
{
    std::vector<CounterBucket> out;
    bucketNs = std::max<int64_t>(1, bucketNs);
    const int64_t from = fromNs - track.offsetNs, to = toNs - track.offsetNs; // trace time
    // Samples and stored buckets alike, in time order: one that ends before the window only sets the
    // value held into it; the others merge into output buckets of bucketNs counted from `from`.
    bool held = false;
    CounterBucket heldValue;
    int64_t current = INT64_MIN;
    auto take = [&](int64_t firstTs, int64_t lastTs, int64_t count, double min, double max, double first,
                    double last) {
        if (lastTs < from) {
            held = true;
            heldValue = { lastTs + track.offsetNs, lastTs + track.offsetNs, last, last, last, last, 1 };
            return;
        }
        if (held) {
            out.push_back(heldValue);
            held = false;
        }
        const int64_t b = std::max<int64_t>(0, firstTs - from) / bucketNs;
        if (b != current || out.empty()) {
            out.push_back({ firstTs + track.offsetNs, lastTs + track.offsetNs, min, max, first, last, 0 });
            current = b;
        }
        CounterBucket &c = out.back();
        c.endNs = lastTs + track.offsetNs;
        c.min = std::min(c.min, min);
        c.max = std::max(c.max, max);
        c.last = last;
        c.count += count;
    };
    auto readRawSamples = [&](int64_t fromTs, int64_t toTs) {
        SqliteStmt st(ws.db(),
            "SELECT ts, value FROM counter WHERE track_id = ? AND ts >= ? AND ts < ? ORDER BY ts, id");
        st.bind(1, track.id).bind(2, fromTs).bind(3, toTs);
        while (st.step()) {
            const int64_t ts = st.columnInt(0);
            const double v = st.columnDouble(1);
            take(ts, ts, 1, v, v, v, v);
        }
    };

    if (track.lodLowest < 0) {
        SqliteStmt before(
            ws.db(), "SELECT ts, value FROM counter WHERE track_id = ? AND ts < ? ORDER BY ts DESC LIMIT 1");
        before.bind(1, track.id).bind(2, from);
        if (before.step()) {
            const double v = before.columnDouble(1);
            take(before.columnInt(0), before.columnInt(0), 1, v, v, v, v);
        }
        readRawSamples(from, to);
    } else {
        const SummaryLevels levels { track.lodLowest, track.lodHighest, track.lodOriginNs };
        const int wanted = lodLevelFor(bucketNs);
        const int level = std::clamp(wanted, levels.lowest, levels.highest);
        const int64_t firstTile = levels.tileOf(level, from), lastTile = levels.tileOf(level, to - 1);
        CounterTile before;
        if (counterTileBefore(ws.db(), track.id, levels, level, firstTile, before))
            take(before.lastTsNs, before.lastTsNs, 1, before.lastValue, before.lastValue, before.lastValue,
                before.lastValue);
        for (const CounterTile &tile : counterTiles(ws.db(), track.id, levels, level, firstTile, lastTile)) {
            if (tile.hasBuckets && wanted >= levels.lowest) {
                for (const CounterSummary &b : tile.buckets)
                    if (b.firstTsNs < to)
                        take(b.firstTsNs, b.lastTsNs, b.count, b.min, b.max, b.first, b.last);
            } else {
                readRawSamples(levels.tileStartNs(level, tile.tile),
                    std::min(to, levels.tileStartNs(level, tile.tile + 1)));
            }
        }
    }
    if (held)
        out.push_back(heldValue);
    return out;
}

std::pair<double, double> counterRange(Workspace &ws, const TimelineTrack &track)
{
    SqliteStmt st(ws.db(), "SELECT min(value), max(value) FROM counter WHERE track_id = ?");
    st.bind(1, track.id);
    if (st.step() && !st.columnIsNull(0))
        return { st.columnDouble(0), st.columnDouble(1) };
    return { 0.0, 0.0 };
}

} // namespace plumb
