// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinequery.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/readsnapshot.h"
#include "timeline/slicesummary.h"
#include "util/saturating.h"

#include <QRegularExpression>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace plumb {

namespace {

// findNext/findPrevious probe all tracks in one time window, then in one twice as wide beyond it,
// and so on: a hit close by costs a few rows, a far one about twice the rows before it. The first
// window holds about kFirstSearchWindowSlices slices of the tracks on average, at least 1 µs.
constexpr int64_t kFirstSearchWindowSlices = 16;
constexpr int64_t kMinSearchWindowNs = 1000;
// A backward walk that has read this many rows without its answer finishes the LOD tile it is in
// and takes the slices open across the tile's start from the tile before's carry-out.
constexpr int64_t kWalkRowsBeforeCarry = 2048;
// Name sets up to this size are filtered inside SQLite (name_id IN (...)), larger ones row by row.
constexpr size_t kMaxSqlNameIds = 4096;

// One slice row as the walks read it; ts in trace time. id is -1 for a slice taken from an LOD
// tile's carry-out (see BackwardRows); idOf() finds it.
struct Row {
    int64_t ts = 0;
    int64_t id = 0;
    int64_t dur = 0;
    int depth = 0;
    int64_t nameId = 0;
    [[nodiscard]] int64_t end() const { return ts + dur; }
};

constexpr std::string_view kRowColumns = "ts, id, dur, depth, name_id";

Row readRow(const SqliteStmt &st)
{
    return Row { st.columnInt(0), st.columnInt(1), st.columnInt(2),
        int(std::max<int64_t>(0, st.columnInt(3))), st.columnInt(4) };
}

std::string rowQuery(std::string_view where, std::string_view order)
{
    std::string sql = "SELECT ";
    sql += kRowColumns;
    sql += " FROM slice WHERE ";
    sql += where;
    sql += " ORDER BY ";
    sql += order;
    return sql;
}

int64_t idOf(SqliteDb &db, int64_t trackId, const Row &r)
{
    if (r.id >= 0)
        return r.id;
    SqliteStmt st(
        db, "SELECT id FROM slice WHERE track_id = ?1 AND ts = ?2 AND dur = ?3 AND depth = ?4 LIMIT 1");
    st.bind(1, trackId).bind(2, r.ts).bind(3, r.dur).bind(4, r.depth);
    return st.step() ? st.columnInt(0) : -1;
}

// A track's slices with ts in [loTs, hiTs], backwards in key order. When a walk is long (a
// top-level slice spanning much of the track, as Python stacks have), it is cut short: after
// kWalkRowsBeforeCarry rows it reads on to the start of the lowest-level LOD tile it is in, then
// yields the slices open across that start, from the tile before's carry-out, instead of
// everything further back. Any slice open across a time before the cut is either read or one of
// those. Rows are not cut above noCutAboveTs (a caller's window that must be read whole).
class BackwardRows {
public:
    BackwardRows(SqliteDb &db, int64_t trackId, int64_t hiTs, int64_t loTs, int64_t noCutAboveTs)
        : m_db(db)
        , m_trackId(trackId)
        , m_noCutAboveTs(noCutAboveTs)
        , m_st(db, rowQuery("track_id = ?1 AND ts <= ?2 AND ts >= ?3", "ts DESC, id DESC"))
    {
        m_st.bind(1, trackId).bind(2, hiTs).bind(3, loTs);
    }

    bool next(Row &r)
    {
        if (!m_inCarry) {
            if (m_st.step()) {
                r = readRow(m_st);
                if (r.ts >= m_cutTs) {
                    if (++m_rows >= kWalkRowsBeforeCarry && !m_cutTried && r.ts < m_noCutAboveTs)
                        cutAt(r.ts);
                    return true;
                }
            }
            m_inCarry = true;
        }
        if (m_carryPos >= m_carry.size())
            return false;
        r = m_carry[m_carryPos++];
        return true;
    }

private:
    void cutAt(int64_t ts)
    {
        m_cutTried = true;
        const SummaryLevels levels = summaryLevels(m_db, m_trackId);
        if (levels.isEmpty() || ts < levels.originNs)
            return;
        const int64_t tile = levels.tileOf(levels.lowest, ts);
        const int64_t tileStart = levels.tileStartNs(levels.lowest, tile);
        SummaryTile before;
        if (summaryTileBefore(m_db, m_trackId, levels, levels.lowest, tile, before))
            for (const CarrySlice &c : before.carryOut)
                if (c.tsNs < tileStart && c.tsNs + c.durNs > tileStart)
                    m_carry.push_back(Row { c.tsNs, -1, c.durNs, c.depth, c.nameId });
        std::sort(m_carry.begin(), m_carry.end(),
            [](const Row &a, const Row &b) { return std::tie(a.ts, a.depth) > std::tie(b.ts, b.depth); });
        m_cutTs = tileStart;
    }

    SqliteDb &m_db;
    int64_t m_trackId;
    int64_t m_noCutAboveTs;
    SqliteStmt m_st;
    int64_t m_rows = 0;
    int64_t m_cutTs = INT64_MIN; // rows before it come from m_carry
    bool m_cutTried = false;
    bool m_inCarry = false;
    std::vector<Row> m_carry;
    size_t m_carryPos = 0;
};

// Walking a track's slices backwards from a time T, in key order (ts, id) descending, finds the
// slices open at T without reading every slice that starts within the track's longest duration
// before T. Depth is the number of slices still open when a slice starts (TraceSink), and a slice
// is only closed (popped) once a later one starts at or after its end, so: once a slice at depth d
// has been seen at or before T, no slice further back at depth >= d can still be open at T. The
// walk keeps that "floor" and stops when it reaches 0. Slices with equal ts are one group (their
// order within it is by duration, not by id), and the floor moves only between groups.
class BackwardWalk {
public:
    explicit BackwardWalk(int64_t limitTs)
        : m_limitTs(limitTs)
    {
    }
    // Called for every row; returns the floor that applied before the row's ts group.
    int enter(const Row &r)
    {
        if (!m_started || r.ts != m_groupTs) {
            m_floor = std::min(m_floor, m_groupFloor);
            m_groupFloor = INT_MAX;
            m_groupTs = r.ts;
            m_started = true;
        }
        if (r.ts <= m_limitTs)
            m_groupFloor = std::min(m_groupFloor, r.depth);
        return m_floor;
    }
    [[nodiscard]] bool newGroup(const Row &r) const { return !m_started || r.ts != m_groupTs; }
    // The floor once the current group is done.
    [[nodiscard]] int floorAfterGroup(const Row &r) const
    {
        return newGroup(r) ? std::min(m_floor, m_groupFloor) : m_floor;
    }

private:
    int64_t m_limitTs;
    int m_floor = INT_MAX;
    int m_groupFloor = INT_MAX;
    int64_t m_groupTs = 0;
    bool m_started = false;
};

// The deepest slice of the track at depth <= maxDepth with ts <= t < ts + dur (trace time), or an
// instant (dur 0) within tolNs of t when one is at least as deep (instants are drawn on top).
std::optional<Row> deepestAt(
    SqliteDb &db, int64_t trackId, int64_t maxDurNs, int64_t t, int maxDepth, int64_t tolNs)
{
    tolNs = std::max<int64_t>(0, tolNs);
    const int64_t instantFloorTs = satSub(t, tolNs);
    BackwardRows rows(db, trackId, satAdd(t, tolNs), satSub(t, std::max(maxDurNs, tolNs)), instantFloorTs);
    BackwardWalk walk(t);
    std::optional<Row> container, instant;
    Row r;
    while (rows.next(r)) {
        if (walk.newGroup(r) && (container || walk.floorAfterGroup(r) == 0) && r.ts < instantFloorTs)
            break;
        const int floor = walk.enter(r);
        if (r.depth > maxDepth)
            continue;
        if (r.dur == 0) {
            const int64_t dist = r.ts > t ? r.ts - t : t - r.ts;
            if (dist <= tolNs
                && (!instant || r.depth > instant->depth
                    || (r.depth == instant->depth && dist < std::abs(instant->ts - t))))
                instant = r;
        } else if (r.ts <= t && t < r.end() && r.depth < floor
            && (!container || (container->ts == r.ts && r.depth > container->depth))) {
            container = r;
        }
    }
    std::optional<Row> best
        = instant && (!container || instant->depth >= container->depth) ? instant : container;
    if (best)
        best->id = idOf(db, trackId, *best);
    return best;
}

// The slices of the track open across trace time t (ts < t < ts + dur), sorted by (ts, depth).
std::vector<Row> openAcross(SqliteDb &db, int64_t trackId, int64_t maxDurNs, int64_t t)
{
    std::vector<Row> out;
    if (t == INT64_MIN)
        return out;
    BackwardRows rows(db, trackId, t - 1, satSub(t, maxDurNs), t);
    BackwardWalk walk(t);
    Row r;
    while (rows.next(r)) {
        if (walk.newGroup(r) && walk.floorAfterGroup(r) == 0)
            break;
        const int floor = walk.enter(r);
        if (r.dur > 0 && r.end() > t && r.depth < floor)
            out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const Row &a, const Row &b) {
        return std::tie(a.ts, a.depth, a.dur) < std::tie(b.ts, b.depth, b.dur);
    });
    return out;
}

QString promotedArgs(QString json, const SqliteStmt &st, int firstCol)
{
    static const char *const keys[]
        = { "correlation", "External id", "Sequence number", "Ev Idx", "Record function id" };
    QString extra;
    for (int k = 0; k < 5; ++k) {
        if (st.columnIsNull(firstCol + k))
            continue;
        if (!extra.isEmpty())
            extra += QLatin1Char(',');
        extra += QLatin1Char('"') + QLatin1String(keys[k]) + QLatin1String("\":")
            + QString::number(st.columnInt(firstCol + k));
    }
    if (extra.isEmpty())
        return json;
    if (json.size() < 2 || !json.endsWith(QLatin1Char('}')))
        return QLatin1Char('{') + extra + QLatin1Char('}');
    json.chop(1);
    if (json.trimmed() != QLatin1String("{"))
        json += QLatin1Char(',');
    return json + extra + QLatin1Char('}');
}

// The slices of a trace with correlation id `corr`, in (ts, track, id) order: the tiles whose corr
// range holds it (see slice_corr_tile in schema.cpp), each a range of starts on its track to scan.
std::vector<SliceKey> slicesWithCorr(SqliteDb &db, int64_t traceId, int64_t corr)
{
    SqliteStmt tiles(db,
        "SELECT c.track_id, c.first_ts, c.last_ts FROM track k "
        "JOIN slice_corr_tile c ON c.track_id = k.id "
        "WHERE k.trace_id = ?1 AND c.min_corr <= ?2 AND c.max_corr >= ?2");
    tiles.bind(1, traceId).bind(2, corr);
    SqliteStmt slices(
        db, "SELECT ts, id FROM slice WHERE track_id = ?1 AND ts >= ?2 AND ts <= ?3 AND corr = ?4");
    std::vector<SliceKey> keys;
    while (tiles.step()) {
        slices.bind(1, tiles.columnInt(0))
            .bind(2, tiles.columnInt(1))
            .bind(3, tiles.columnInt(2))
            .bind(4, corr);
        while (slices.step())
            keys.push_back(SliceKey { tiles.columnInt(0), slices.columnInt(0), slices.columnInt(1) });
        slices.reset();
    }
    // Tiles of one track may share starts at their edges.
    const auto order = [](const SliceKey &k) { return std::tie(k.tsNs, k.trackId, k.id); };
    std::sort(
        keys.begin(), keys.end(), [&](const SliceKey &a, const SliceKey &b) { return order(a) < order(b); });
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::optional<SliceInfo> fetchInfo(SqliteDb &db, const SliceKey &key, int64_t offsetNs)
{
    SqliteStmt st(db,
        "SELECT s.dur, s.depth, coalesce(n.str, ''), coalesce(c.str, ''), coalesce(a.json, ''), "
        "s.corr, s.ext_id, s.seq_nr, s.ev_idx, s.rf_id "
        "FROM slice s LEFT JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id "
        "LEFT JOIN args a ON a.id = s.args_id WHERE s.track_id = ?1 AND s.ts = ?2 AND s.id = ?3");
    st.bind(1, key.trackId).bind(2, key.tsNs).bind(3, key.id);
    if (!st.step())
        return std::nullopt;
    SliceInfo info;
    info.key = key;
    info.startNs = key.tsNs + offsetNs;
    info.durNs = st.columnInt(0);
    info.depth = int(st.columnInt(1));
    info.name = st.columnText(2);
    info.category = st.columnText(3);
    info.argsJson = promotedArgs(st.columnText(4), st, 5);
    info.corr = st.columnIsNull(5) ? -1 : st.columnInt(5);
    return info;
}

// A name filter as SQL when the set is small enough to inline; otherwise rows are checked in C++.
std::string nameFilterSql(const NameMatcher &matcher)
{
    if (matcher.nameIds.size() > kMaxSqlNameIds)
        return {};
    std::vector<int64_t> ids(matcher.nameIds.begin(), matcher.nameIds.end());
    std::sort(ids.begin(), ids.end());
    std::string sql = " AND name_id IN (";
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i)
            sql += ',';
        sql += std::to_string(ids[i]);
    }
    sql += ')';
    return sql;
}

bool isCpuSide(const QString &kind)
{
    return kind == QLatin1String("thread") || kind == QLatin1String("cuda_api");
}

bool isGpuSide(const QString &kind)
{
    return kind == QLatin1String("gpu_stream");
}

const TimelineTrack *findTrack(const QList<TimelineTrack> &tracks, int64_t id)
{
    for (const TimelineTrack &t : tracks)
        if (t.id == id)
            return &t;
    return nullptr;
}

} // namespace

std::optional<SliceInfo> sliceAt(
    Workspace &ws, const TimelineTrack &track, int64_t tNs, int depth, int64_t toleranceNs)
{
    ReadSnapshot snapshot(ws.db());
    const auto row = deepestAt(ws.db(), track.id, track.maxDurNs, satSub(tNs, track.offsetNs),
        depth < 0 ? INT_MAX : depth, toleranceNs);
    if (!row)
        return std::nullopt;
    return fetchInfo(ws.db(), SliceKey { track.id, row->ts, row->id }, track.offsetNs);
}

std::optional<SliceInfo> sliceByKey(Workspace &ws, const TimelineTrack &track, const SliceKey &key)
{
    return fetchInfo(ws.db(), key, track.offsetNs);
}

std::vector<SliceLink> sliceLinks(Workspace &ws, const QList<TimelineTrack> &tracks, const SliceInfo &slice)
{
    SqliteDb &db = ws.db();
    ReadSnapshot snapshot(db);
    // What a link needs of a track: its trace, kind and longest slice, from the list or the workspace.
    struct Facts {
        int64_t traceId = 0;
        QString kind;
        int64_t maxDurNs = 0;
        bool exists = false;
    };
    std::map<int64_t, Facts> cache;
    auto facts = [&](int64_t trackId) -> const Facts & {
        auto it = cache.find(trackId);
        if (it != cache.end())
            return it->second;
        Facts f;
        if (const TimelineTrack *t = findTrack(tracks, trackId)) {
            f = Facts { t->traceId, t->kind, t->maxDurNs, true };
        } else {
            SqliteStmt st(db, "SELECT trace_id, kind, max_dur_ns FROM track WHERE id = ?1");
            st.bind(1, trackId);
            if (st.step())
                f = Facts { st.columnInt(0), st.columnText(1), st.columnInt(2), true };
        }
        return cache.emplace(trackId, f).first->second;
    };
    const Facts self = facts(slice.key.trackId);
    if (!self.exists)
        return {};
    // Offsets are per trace: a linked track off the list takes its trace's offset from a listed track.
    const int64_t selfOffset = slice.startNs - slice.key.tsNs;
    auto offsetOf = [&](int64_t trackId) {
        if (const TimelineTrack *t = findTrack(tracks, trackId))
            return t->offsetNs;
        const int64_t traceId = facts(trackId).traceId;
        for (const TimelineTrack &t : tracks)
            if (t.traceId == traceId)
                return t.offsetNs;
        return selfOffset;
    };

    std::vector<SliceLink> out;
    auto linked = [&](const SliceKey &key) {
        return key == slice.key
            || std::any_of(out.begin(), out.end(), [&](const SliceLink &l) { return l.slice.key == key; });
    };

    if (slice.corr != -1) {
        for (const SliceKey &key : slicesWithCorr(db, self.traceId, slice.corr)) {
            if (key == slice.key)
                continue;
            const QString &kind = facts(key.trackId).kind;
            SliceLink link;
            if (isCpuSide(self.kind) && isGpuSide(kind)) {
                link.kind = SliceLink::Kind::Launches;
                link.relation = QStringLiteral("launches");
            } else if (isGpuSide(self.kind) && isCpuSide(kind)) {
                link.kind = SliceLink::Kind::LaunchedBy;
                link.relation = QStringLiteral("launched by");
            } else {
                continue;
            }
            auto info = fetchInfo(db, key, offsetOf(key.trackId));
            if (!info)
                continue;
            link.slice = std::move(*info);
            out.push_back(std::move(link));
        }
    }

    // Flow ends on this slice's track inside it that bind to it (the deepest slice enclosing the end).
    const int64_t lastTs = slice.durNs > 0 ? slice.key.tsNs + slice.durNs - 1 : slice.key.tsNs;
    for (const bool outgoing : { true, false }) {
        SqliteStmt st(db,
            outgoing ? "SELECT f.src_ts, f.dst_track, f.dst_ts, coalesce(c.str, '') FROM flow f "
                       "LEFT JOIN string c ON c.id = f.cat_id "
                       "WHERE f.src_track = ?1 AND f.src_ts >= ?2 AND f.src_ts <= ?3 "
                       "AND f.dst_track IS NOT NULL ORDER BY f.src_ts, f.id"
                     : "SELECT f.dst_ts, f.src_track, f.src_ts, coalesce(c.str, '') FROM flow f "
                       "LEFT JOIN string c ON c.id = f.cat_id "
                       "WHERE f.dst_track = ?1 AND f.dst_ts >= ?2 AND f.dst_ts <= ?3 "
                       "AND f.src_track IS NOT NULL ORDER BY f.dst_ts, f.id");
        st.bind(1, slice.key.trackId).bind(2, slice.key.tsNs).bind(3, lastTs);
        struct End {
            int64_t ownTs, otherTrack, otherTs;
            QString cat;
        };
        std::vector<End> ends;
        while (st.step())
            ends.push_back(End { st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnText(3) });
        for (const End &e : ends) {
            const auto own = deepestAt(db, slice.key.trackId, self.maxDurNs, e.ownTs, INT_MAX, 0);
            if (!own || own->ts != slice.key.tsNs || own->id != slice.key.id)
                continue;
            const Facts &other = facts(e.otherTrack);
            if (!other.exists)
                continue;
            const auto row = deepestAt(db, e.otherTrack, other.maxDurNs, e.otherTs, INT_MAX, 0);
            if (!row)
                continue;
            const SliceKey key { e.otherTrack, row->ts, row->id };
            if (linked(key))
                continue;
            auto info = fetchInfo(db, key, offsetOf(e.otherTrack));
            if (!info)
                continue;
            SliceLink link;
            link.kind = outgoing ? SliceLink::Kind::FlowTo : SliceLink::Kind::FlowFrom;
            link.relation = outgoing ? QStringLiteral("flow to") : QStringLiteral("flow from");
            if (!e.cat.isEmpty())
                link.relation += QStringLiteral(" (") + e.cat + QLatin1Char(')');
            link.slice = std::move(*info);
            out.push_back(std::move(link));
        }
    }
    return out;
}

NameMatcher matchNames(Workspace &ws, const QString &pattern, bool regex)
{
    NameMatcher m;
    if (pattern.isEmpty())
        return m;
    SqliteDb &db = ws.db();
    if (regex) {
        QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            m.errorMessage
                = QStringLiteral("%1 (at character %2)").arg(re.errorString()).arg(re.patternErrorOffset());
            return m;
        }
        re.optimize();
        SqliteStmt st(db, "SELECT id, str FROM string");
        while (st.step())
            if (re.match(st.columnText(1)).hasMatch())
                m.nameIds.insert(st.columnInt(0));
        return m;
    }
    bool ascii = true;
    for (const QChar c : pattern)
        ascii &= c.unicode() < 0x80;
    if (ascii) {
        // LIKE folds ASCII case, which is all an ASCII pattern needs.
        QString like = QStringLiteral("%");
        for (const QChar c : pattern) {
            if (c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('\\'))
                like += QLatin1Char('\\');
            like += c;
        }
        like += QLatin1Char('%');
        SqliteStmt st(db, "SELECT id FROM string WHERE str LIKE ?1 ESCAPE '\\'");
        st.bind(1, like);
        while (st.step())
            m.nameIds.insert(st.columnInt(0));
        return m;
    }
    SqliteStmt st(db, "SELECT id, str FROM string");
    while (st.step())
        if (st.columnText(1).contains(pattern, Qt::CaseInsensitive))
            m.nameIds.insert(st.columnInt(0));
    return m;
}

namespace {

struct TrackSpan {
    const TimelineTrack *track;
    int64_t firstNs; // view time of the first and last slice start
    int64_t lastNs;
};

std::vector<TrackSpan> trackSpans(SqliteDb &db, const QList<TimelineTrack> &tracks)
{
    std::vector<TrackSpan> out;
    SqliteStmt first(db, "SELECT ts FROM slice WHERE track_id = ?1 ORDER BY ts LIMIT 1");
    SqliteStmt last(db, "SELECT ts FROM slice WHERE track_id = ?1 ORDER BY ts DESC LIMIT 1");
    for (const TimelineTrack &t : tracks) {
        first.bind(1, t.id);
        last.bind(1, t.id);
        if (first.step() && last.step())
            out.push_back(TrackSpan {
                &t, satAdd(first.columnInt(0), t.offsetNs), satAdd(last.columnInt(0), t.offsetNs) });
        first.reset();
        last.reset();
    }
    return out;
}

std::optional<SearchHit> search(Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher,
    int64_t fromNs, bool forward)
{
    if (matcher.nameIds.empty())
        return std::nullopt;
    SqliteDb &db = ws.db();
    ReadSnapshot snapshot(db);
    const std::vector<TrackSpan> spans = trackSpans(db, tracks);
    if (spans.empty())
        return std::nullopt;
    int64_t lo = INT64_MAX, hi = INT64_MIN, slices = 0;
    for (const TrackSpan &s : spans) {
        lo = std::min(lo, s.firstNs);
        hi = std::max(hi, s.lastNs);
        slices += std::max<int64_t>(1, s.track->sliceCount);
    }
    const std::string filter = nameFilterSql(matcher);
    const bool checkRows = filter.empty();
    SqliteStmt st(db,
        rowQuery("track_id = ?1 AND ts >= ?2 AND ts < ?3" + filter, forward ? "ts, id" : "ts DESC, id DESC"));
    // The window [winLo, winHi) in view time moves away from fromNs, doubling its width.
    int64_t width = std::max(
        kMinSearchWindowNs, int64_t(double(hi - lo) / double(slices) * double(kFirstSearchWindowSlices)));
    int64_t winLo = 0, winHi = 0;
    if (forward) {
        winLo = std::max(satAdd(fromNs, 1), lo);
        winHi = satAdd(winLo, width);
    } else {
        winHi = std::min(fromNs, satAdd(hi, 1));
        winLo = satSub(winHi, width);
    }
    while (forward ? winLo <= hi : winHi > lo) {
        std::optional<SearchHit> best;
        for (const TrackSpan &s : spans) {
            if (s.lastNs < winLo || s.firstNs >= winHi)
                continue;
            const TimelineTrack &t = *s.track;
            st.bind(1, t.id).bind(2, satSub(winLo, t.offsetNs)).bind(3, satSub(winHi, t.offsetNs));
            std::optional<SearchHit> hit;
            while (st.step()) {
                const Row r = readRow(st);
                if (hit && hit->key.tsNs != r.ts)
                    break;
                if (checkRows && !matcher.matches(r.nameId))
                    continue;
                // Among slices starting together on a track, the outermost one.
                if (!hit || r.depth < hit->depth)
                    hit = SearchHit { SliceKey { t.id, r.ts, r.id }, r.ts + t.offsetNs, r.dur, r.depth };
            }
            st.reset();
            if (hit && (!best || (forward ? hit->startNs < best->startNs : hit->startNs > best->startNs)))
                best = hit;
        }
        if (best)
            return best;
        width = width > INT64_MAX / 4 ? width : width * 2;
        if (forward) {
            winLo = winHi;
            winHi = satAdd(winLo, width);
        } else {
            winHi = winLo;
            winLo = satSub(winHi, width);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<SearchHit> findNext(
    Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher, int64_t afterNs)
{
    return search(ws, tracks, matcher, afterNs, true);
}

std::optional<SearchHit> findPrevious(
    Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher, int64_t beforeNs)
{
    return search(ws, tracks, matcher, beforeNs, false);
}

int64_t countMatches(Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher)
{
    if (matcher.nameIds.empty())
        return 0;
    ReadSnapshot snapshot(ws.db());
    const std::string filter = nameFilterSql(matcher);
    int64_t n = 0;
    if (!filter.empty()) {
        SqliteStmt st(ws.db(), "SELECT count(*) FROM slice WHERE track_id = ?1" + filter);
        for (const TimelineTrack &t : tracks) {
            st.bind(1, t.id);
            if (st.step())
                n += st.columnInt(0);
            st.reset();
        }
        return n;
    }
    SqliteStmt st(ws.db(), "SELECT name_id FROM slice WHERE track_id = ?1");
    for (const TimelineTrack &t : tracks) {
        st.bind(1, t.id);
        while (st.step())
            n += matcher.matches(st.columnInt(0));
        st.reset();
    }
    return n;
}

QHash<int64_t, QString> namesOf(Workspace &ws, const std::vector<int64_t> &nameIds)
{
    ReadSnapshot snapshot(ws.db());
    QHash<int64_t, QString> out;
    SqliteStmt st(ws.db(), "SELECT str FROM string WHERE id = ?1");
    for (const int64_t id : nameIds) {
        if (out.contains(id))
            continue;
        st.bind(1, id);
        if (st.step())
            out.insert(id, st.columnText(0));
        st.reset();
    }
    return out;
}

std::vector<RangeAggregateRow> rangeAggregate(
    Workspace &ws, const QList<TimelineTrack> &tracks, int64_t fromNs, int64_t toNs)
{
    if (toNs <= fromNs)
        return {};
    SqliteDb &db = ws.db();
    ReadSnapshot snapshot(db);
    struct Acc {
        int64_t count = 0, totalNs = 0, selfNs = 0, maxNs = 0;
    };
    std::unordered_map<int64_t, Acc> byName; // node-based: Acc pointers stay valid
    // The latest slice seen at each depth, a candidate parent for the next depth down.
    struct Open {
        int64_t ts = 0, end = 0;
        Acc *acc = nullptr;
    };
    std::vector<Open> open;
    std::vector<Row> group;
    SqliteStmt st(db, rowQuery("track_id = ?1 AND ts >= ?2 AND ts < ?3", "ts, id"));
    for (const TimelineTrack &track : tracks) {
        if (track.kind == QLatin1String("counter"))
            continue;
        const int64_t from = satSub(fromNs, track.offsetNs), to = satSub(toNs, track.offsetNs);
        open.assign(size_t(std::max(0, track.maxDepth)) + 1, Open {});
        auto visit = [&](const Row &r) {
            const int64_t clipped = std::max<int64_t>(0, std::min(r.end(), to) - std::max(r.ts, from));
            Acc &a = byName[r.nameId];
            ++a.count;
            a.totalNs += clipped;
            a.selfNs += clipped;
            a.maxNs = std::max(a.maxNs, clipped);
            if (size_t(r.depth) >= open.size())
                open.resize(size_t(r.depth) + 1);
            if (r.depth > 0) {
                const Open &p = open[size_t(r.depth) - 1];
                if (p.acc && p.ts <= r.ts && r.end() <= p.end)
                    p.acc->selfNs -= clipped;
            }
            open[size_t(r.depth)] = Open { r.ts, r.end(), &a };
        };
        // Within one ts, slices were stacked outermost first (instants before the slice they precede).
        auto flush = [&] {
            std::sort(group.begin(), group.end(), [](const Row &a, const Row &b) {
                return std::tie(a.depth, a.dur) < std::tie(b.depth, b.dur);
            });
            for (const Row &r : group)
                visit(r);
            group.clear();
        };
        for (const Row &r : openAcross(db, track.id, track.maxDurNs, from))
            visit(r);
        st.bind(1, track.id).bind(2, from).bind(3, to);
        while (st.step()) {
            const Row r = readRow(st);
            if (!group.empty() && group.front().ts != r.ts)
                flush();
            group.push_back(r);
        }
        flush();
        st.reset();
    }

    std::vector<int64_t> ids;
    ids.reserve(byName.size());
    for (const auto &[id, acc] : byName)
        ids.push_back(id);
    const QHash<int64_t, QString> names = namesOf(ws, ids);
    // The same name may have one string id per trace: merge by text.
    std::map<QString, RangeAggregateRow> rows;
    for (const auto &[id, acc] : byName) {
        const QString name = names.value(id);
        RangeAggregateRow &row = rows[name];
        row.name = name;
        row.count += acc.count;
        row.totalNs += acc.totalNs;
        row.selfNs += acc.selfNs;
        row.maxNs = std::max(row.maxNs, acc.maxNs);
    }
    std::vector<RangeAggregateRow> out;
    out.reserve(rows.size());
    for (auto &[name, row] : rows)
        out.push_back(std::move(row));
    std::stable_sort(out.begin(), out.end(),
        [](const RangeAggregateRow &a, const RangeAggregateRow &b) { return a.totalNs > b.totalNs; });
    return out;
}

} // namespace plumb
