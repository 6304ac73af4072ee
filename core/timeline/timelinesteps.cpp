// SPDX-License-Identifier: GPL-3.0-or-later
// The step markers and stream idle gaps of timelinequery.h: where the training steps are (by the
// step names each trace uses) and where a GPU stream runs nothing.
#include "timeline/timelinequery.h"

#include "store/sqlitedb.h"
#include "store/stringids.h"
#include "store/workspace.h"
#include "timeline/readsnapshot.h"

#include <QRegularExpression>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

namespace {

// A step name: its number and text.
struct StepName {
    int64_t number = 0;
    QString text;
};
using StepNames = std::unordered_map<int64_t, StepName>; // by string id

// Scans a track for slices named in `names` (and, when `categories` is not empty, of one of those
// categories), skipping past each one found (steps do not nest), so rows inside steps are not read.
void scanSteps(SqliteDb &db, const TimelineTrack &track, const StepNames &names,
    const std::unordered_set<int64_t> &categories, std::vector<StepMarker> &out)
{
    std::vector<int64_t> ids;
    for (const auto &[id, name] : names)
        ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    std::string sql
        = "SELECT ts, dur, name_id, cat_id FROM slice WHERE track_id = ?1 AND ts >= ?2 AND dur > 0 "
          "AND name_id IN (";
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i)
            sql += ',';
        sql += std::to_string(ids[i]);
    }
    sql += ") ORDER BY ts, id";
    SqliteStmt st(db, sql);
    int64_t from = INT64_MIN;
    for (bool found = true; found;) {
        found = false;
        st.bind(1, track.id).bind(2, from);
        while (st.step()) {
            if (!categories.empty() && (st.columnIsNull(3) || !categories.count(st.columnInt(3))))
                continue;
            const int64_t ts = st.columnInt(0), dur = st.columnInt(1);
            const StepName &name = names.at(st.columnInt(2));
            out.push_back(StepMarker { name.number, name.text, ts + track.offsetNs, ts + dur + track.offsetNs,
                track.id, track.rank });
            from = ts + dur;
            found = true;
            break;
        }
        st.reset();
    }
}

// String ids whose text matches `re` (after the SQL prefilter `where`), numbered by its first capture.
StepNames stepNames(SqliteDb &db, const char *where, const QRegularExpression &re)
{
    StepNames out;
    SqliteStmt st(db, std::string("SELECT id, str FROM string WHERE ") + where);
    while (st.step()) {
        const QString text = st.columnText(1);
        const auto match = re.match(text);
        bool ok = false;
        const int64_t number = match.hasMatch() ? match.captured(1).toLongLong(&ok) : 0;
        if (ok)
            out.emplace(st.columnInt(0), StepName { number, text });
    }
    return out;
}

} // namespace

std::vector<StepMarker> stepMarkers(Workspace &ws, const QList<TimelineTrack> &tracks)
{
    SqliteDb &db = ws.db();
    ReadSnapshot snapshot(db);
    // Each kind of marker is looked for only in traces where the kind before it found nothing; the
    // string table tells up front whether a kind can exist at all, so its absence costs no scan.
    static const QRegularExpression profilerStep(QStringLiteral("^ProfilerStep#(\\d+)$"));
    static const QRegularExpression rangeStep(
        QStringLiteral("(?:^|[^a-z])(?:step|iteration|iter)[\\s#_:=-]*(\\d+)\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression number(QStringLiteral("^(\\d+)$"));
    std::optional<StepNames> profilerNames, rangeNames, numberNames;
    std::optional<std::unordered_set<int64_t>> annotationCats;

    std::vector<int64_t> traces;
    for (const TimelineTrack &t : tracks)
        if (std::find(traces.begin(), traces.end(), t.traceId) == traces.end())
            traces.push_back(t.traceId);
    auto isCpuThread = [](const TimelineTrack &t) {
        return t.kind == QLatin1String("thread") && t.processKind == QLatin1String("cpu");
    };
    std::vector<StepMarker> out;
    std::set<std::pair<int64_t, int64_t>> seen; // (rank, or -1 - trace id without one; step number)
    for (const int64_t traceId : traces) {
        std::vector<StepMarker> found;
        // PyTorch: ProfilerStep#N on the thread that called profiler.step(). The first CPU thread
        // holding them gives them; other threads would only repeat them.
        if (!profilerNames)
            profilerNames = stepNames(db, "str GLOB 'ProfilerStep#[0-9]*'", profilerStep);
        if (!profilerNames->empty()) {
            for (const TimelineTrack &t : tracks) {
                if (t.traceId == traceId && isCpuThread(t))
                    scanSteps(db, t, *profilerNames, {}, found);
                if (!found.empty())
                    break;
            }
        }
        // NVTX ranges (Nsight Systems; Plumb's CUPTI collector writes them as user annotations)
        // named like a step: "step 12", "train_step_3", "iteration 7".
        if (found.empty()) {
            if (!rangeNames) {
                rangeNames = stepNames(db, "str LIKE '%step%' OR str LIKE '%iter%'", rangeStep);
                annotationCats = stringIdsOf(db, { "nvtx", "user_annotation" });
            }
            if (!rangeNames->empty() && !annotationCats->empty())
                for (const TimelineTrack &t : tracks)
                    if (t.traceId == traceId && isCpuThread(t))
                        scanSteps(db, t, *rangeNames, *annotationCats, found);
        }
        // XPlane: the "Steps" line of a device, its slices named by step number.
        if (found.empty()) {
            if (!numberNames)
                numberNames = stepNames(db, "str GLOB '[0-9]*'", number);
            if (!numberNames->empty())
                for (const TimelineTrack &t : tracks)
                    if (t.traceId == traceId && t.name == QLatin1String("Steps"))
                        scanSteps(db, t, *numberNames, {}, found);
        }
        // One marker per (rank, step): the first track's.
        for (const StepMarker &m : found)
            if (seen.emplace(m.rank >= 0 ? m.rank : -1 - traceId, m.number).second)
                out.push_back(m);
    }
    std::stable_sort(out.begin(), out.end(), [](const StepMarker &a, const StepMarker &b) {
        return std::tie(a.startNs, a.rank, a.number) < std::tie(b.startNs, b.rank, b.number);
    });
    return out;
}

std::vector<IdleGap> idleGaps(
    const std::vector<DrawSlice> &slices, int64_t fromNs, int64_t toNs, int64_t minGapNs)
{
    std::vector<IdleGap> out;
    if (toNs <= fromNs)
        return out;
    std::vector<std::pair<int64_t, int64_t>> busy;
    busy.reserve(slices.size());
    for (const DrawSlice &s : slices)
        if (s.endNs > fromNs && s.startNs < toNs)
            busy.emplace_back(s.startNs, std::max(s.startNs, s.endNs));
    std::sort(busy.begin(), busy.end());
    int64_t idleFrom = fromNs;
    auto addGap = [&](int64_t end) {
        if (end > idleFrom && end - idleFrom >= std::max<int64_t>(1, minGapNs))
            out.push_back(IdleGap { idleFrom, end });
    };
    for (const auto &[start, end] : busy) {
        addGap(std::min(start, toNs));
        idleFrom = std::max(idleFrom, end);
    }
    addGap(toNs);
    return out;
}

} // namespace plumb
