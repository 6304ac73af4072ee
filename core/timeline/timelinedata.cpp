#include "timelinedata.h"

#include "sqlitedb.h"
#include "workspace.h"

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

int companionRank(const QString &kind)
{
    if (kind == QLatin1String("cuda_api"))
        return 1;
    if (kind == QLatin1String("gpu_annotation"))
        return 2;
    if (kind == QLatin1String("counter"))
        return 3;
    return 0;
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
                  "k.max_dur_ns FROM track k LEFT JOIN process p ON p.id = k.process_id WHERE k.trace_id = ?");
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
        r.group = processGroup(r.t.processKind, r.t.processId);
        r.companion = companionRank(r.t.kind);

        if (r.t.processKind == QLatin1String("gpu") && !plabels.isEmpty())
            r.t.processName = plabels;
        else if (!pname.isEmpty())
            r.t.processName = QStringLiteral("%1 (pid %2)").arg(pname, r.processLabel);
        else
            r.t.processName = r.processLabel.isEmpty() ? QStringLiteral("Trace") : r.processLabel;

        if (r.t.kind == QLatin1String("gpu_stream"))
            r.t.name = QStringLiteral("Stream %1").arg(r.trackNumber);
        else if (r.t.kind == QLatin1String("cuda_api"))
            r.t.name = QStringLiteral("CUDA API");
        else if (r.t.kind == QLatin1String("gpu_annotation"))
            r.t.name = QStringLiteral("Annotations");
        else if (!tname.isEmpty())
            r.t.name = tname;
        else
            r.t.name = QStringLiteral("Thread %1").arg(r.label);
        rows.push_back(std::move(r));
    }

    // Companions sort with the thread or stream of the same process and label.
    std::map<std::pair<int64_t, QString>, const Row *> bases;
    for (const Row &r : rows)
        if (r.companion == 0)
            bases.emplace(std::make_pair(r.t.processId, r.label), &r);
    auto baseOf = [&](const Row &r) -> const Row & {
        if (r.companion == 1 || r.companion == 2) {
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
    auto key = [&](const Row &r) {
        const Row &b = baseOf(r);
        const int slot = r.companion == 3 ? 1 : 0; // counters after every thread of the process
        return std::make_tuple(r.group, r.processSort, r.processNumber, r.processLabel, slot, b.trackSort,
                               b.trackNumber, b.label, r.companion, r.t.id);
    };
    std::sort(rows.begin(), rows.end(), [&](const Row &a, const Row &b) { return key(a) < key(b); });

    QList<TimelineTrack> out;
    for (const Row &r : rows)
        out << r.t;
    return out;
}

std::vector<DrawSlice> drawSlices(Workspace &ws, const TimelineTrack &track, int64_t fromNs, int64_t toNs,
                                  int64_t minWidthNs)
{
    std::vector<DrawSlice> out;
    // One range scan of the (track, ts) key: nothing that starts more than the track's longest slice
    // before the window can reach into it.
    SqliteStmt st(ws.db(), "SELECT ts, dur, depth, name_id, id FROM slice "
                           "WHERE track_id = ?1 AND ts >= ?2 AND ts < ?3 ORDER BY ts, id");
    st.bind(1, track.id).bind(2, fromNs - track.maxDurNs).bind(3, toNs);
    std::vector<DrawSlice> open(size_t(track.maxDepth) + 1);
    std::vector<bool> active(open.size(), false);
    auto flush = [&](size_t d) {
        if (active[d]) {
            out.push_back(open[d]);
            active[d] = false;
        }
    };
    while (st.step()) {
        const int64_t ts = st.columnInt(0), dur = st.columnInt(1);
        if (ts + dur < fromNs || (ts + dur == fromNs && dur > 0))
            continue; // ended before the window
        const auto depth = size_t(std::max<int64_t>(0, st.columnInt(2)));
        if (depth >= open.size()) {
            open.resize(depth + 1);
            active.resize(depth + 1, false);
        }
        const DrawSlice slice { ts, ts + dur, int(depth), st.columnInt(3), 1 };
        if (dur >= minWidthNs) {
            flush(depth);
            out.push_back(slice);
            continue;
        }
        if (active[depth] && ts - open[depth].endNs < minWidthNs) {
            open[depth].endNs = std::max(open[depth].endNs, slice.endNs);
            ++open[depth].count;
            continue;
        }
        flush(depth);
        open[depth] = slice;
        active[depth] = true;
    }
    for (size_t d = 0; d < open.size(); ++d)
        flush(d);
    return out;
}

} // namespace plumb
