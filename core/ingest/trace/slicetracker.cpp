// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/slicetracker.h"

#include "ingest/diagnosticlog.h"
#include "ingest/trace/corrtiletracker.h"
#include "ingest/trace/slicelodtracker.h"
#include "ingest/trace/startdepths.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"

#include <algorithm>

namespace plumb {

SliceTracker::SliceTracker(TraceWriter &writer, SliceLodTracker &lod, CorrTileTracker &corrTiles,
    const TrackRegistry &tracks, DiagnosticLog &diagnostics, TraceStats &stats, int64_t firstSliceId)
    : m_writer(writer)
    , m_lod(lod)
    , m_corrTiles(corrTiles)
    , m_tracks(tracks)
    , m_diag(diagnostics)
    , m_stats(stats)
    , m_trackBase(tracks.firstTrackId())
    , m_nextSliceId(firstSliceId)
{
}

TrackRegistry::SliceCounts SliceTracker::counts(int64_t track) const
{
    const auto i = size_t(track - m_trackBase);
    if (i >= m_states.size()) {
        return {};
    }
    const State &s = m_states[i];
    return { s.sliceCount, s.maxDepth, s.maxDurNs };
}

bool SliceTracker::isUnsorted(int64_t track) const
{
    const auto i = size_t(track - m_trackBase);
    return i < m_states.size() && m_states[i].unsorted;
}

// Depth = number of enclosing slices still open at `ts`. Works for input sorted by (ts, dur desc)
// per track; anything else marks the track for repairDepths().
int64_t SliceTracker::depthFor(int64_t track, State &s, int64_t ts, int64_t dur)
{
    if (ts < s.lastTs || (ts == s.lastTs && dur > s.lastDur && !s.openEnds.empty())) {
        if (!s.unsorted) {
            m_diag.report(Severity::Info, QStringLiteral("unsorted-events"), m_tracks.location(track, ts),
                QStringLiteral("Events are not in time order on some tracks; they were sorted "
                               "and their nesting recomputed."));
        }
        s.unsorted = true;
        // The open slices that sort after this one were not open yet at its start: without them the
        // depths that follow stay those of (ts, dur desc) order, so that repairDepths() rewrites only
        // the rows around the few out of place (a late runtime call had put 12,810 of a track's 14,610
        // one level too deep).
        const int64_t end = ts + dur;
        size_t kept = 0;
        for (size_t i = 0; i < s.openEnds.size(); ++i) {
            if (s.openStarts[i] < ts || (s.openStarts[i] == ts && s.openEnds[i] >= end)) {
                s.openStarts[kept] = s.openStarts[i];
                s.openEnds[kept++] = s.openEnds[i];
            }
        }
        s.openStarts.resize(kept);
        s.openEnds.resize(kept);
    }
    s.lastTs = ts;
    s.lastDur = dur;
    while (!s.openEnds.empty() && s.openEnds.back() <= ts) {
        s.openEnds.pop_back();
        s.openStarts.pop_back();
    }
    const int64_t end = ts + dur;
    if (!s.openEnds.empty() && end > s.openEnds.back() && s.openEnds.back() != INT64_MAX && !s.unsorted) {
        const bool gpu = m_tracks.trackKind(track) == TrackKind::GpuStream;
        m_diag.report(Severity::Info,
            gpu ? QStringLiteral("overlapping-gpu-ops") : QStringLiteral("overlapping-slices"),
            m_tracks.location(track, ts),
            gpu ? QStringLiteral("GPU operations overlap on one stream (a profiler timing artefact); "
                                 "the later one is drawn one level below.")
                : QStringLiteral("Slices overlap on one thread without nesting; the later one is "
                                 "drawn one level below."));
    }
    return int64_t(s.openEnds.size());
}

void SliceTracker::emitSlice(int64_t track, State &s, const SliceFields &f, int64_t depth, int64_t id)
{
    m_writer.batch().slices.push_back(TraceBatch::SliceRow { track, f.tsNs, id, f.durNs, depth, f.nameId,
        f.catId, f.corr, f.extId, f.seqNr, f.evIdx, f.rfId, f.argsId });
    ++s.sliceCount;
    s.emittedInOrder
        = s.emittedInOrder && (f.tsNs > s.emittedTs || (f.tsNs == s.emittedTs && id > s.emittedId));
    // Out of order, or with depths that repairDepths() will change: summarised from the workspace.
    static_assert(KeptSlice::kAbsent == kNoValue);
    m_lod.add(track, s.emittedInOrder && !s.unsorted,
        KeptSlice { f.tsNs, f.durNs, depth, f.nameId, f.catId, f.corr, f.extId, f.argsId, id });
    if (f.corr != kNoValue) {
        m_corrTiles.add(track, s.emittedInOrder, f.tsNs, f.corr);
    }
    s.emittedTs = f.tsNs;
    s.emittedId = id;
    s.maxDepth = std::max(s.maxDepth, depth);
    s.maxDurNs = std::max(s.maxDurNs, f.durNs);
    ++m_stats.slices;
    m_stats.startNs = std::min(m_stats.startNs, f.tsNs);
    m_stats.endNs = std::max(m_stats.endNs, f.tsNs + f.durNs);
    m_writer.pushIfFull();
}

void SliceTracker::addSlice(int64_t track, const SliceFields &f)
{
    auto &s = state(track);
    const int64_t depth = depthFor(track, s, f.tsNs, f.durNs);
    s.openEnds.push_back(f.tsNs + f.durNs);
    s.openStarts.push_back(f.tsNs);
    emitSlice(track, s, f, depth, m_nextSliceId++);
}

void SliceTracker::beginSlice(int64_t track, const SliceFields &f)
{
    auto &s = state(track);
    const int64_t depth = depthFor(track, s, f.tsNs, INT64_MAX / 4);
    s.openEnds.push_back(INT64_MAX);
    s.openStarts.push_back(f.tsNs);
    s.openB.push_back(OpenSlice { f, depth, m_nextSliceId++ });
}

bool SliceTracker::endSlice(int64_t track, int64_t tsNs, int64_t argsId)
{
    auto &s = state(track);
    if (s.openB.empty()) {
        return false;
    }
    OpenSlice open = s.openB.back();
    s.openB.pop_back();
    // Replace the innermost open-B marker by the real end so later slices nest correctly.
    for (auto it = s.openEnds.rbegin(); it != s.openEnds.rend(); ++it) {
        if (*it == INT64_MAX) {
            *it = std::max(tsNs, open.fields.tsNs);
            break;
        }
    }
    open.fields.durNs = std::max<int64_t>(0, tsNs - open.fields.tsNs);
    if (argsId != kNoValue) {
        open.fields.argsId = argsId;
    }
    emitSlice(track, s, open.fields, open.depth, open.id);
    return true;
}

void SliceTracker::closeUnterminated(int64_t endNs)
{
    int64_t unterminated = 0;
    for (size_t t = 0; t < m_states.size(); ++t) {
        while (!m_states[t].openB.empty()) {
            const int64_t end = std::max(endNs, m_states[t].openB.back().fields.tsNs);
            endSlice(m_trackBase + int64_t(t), end);
            ++unterminated;
        }
    }
    if (unterminated) {
        m_diag.report(Severity::Warning, QStringLiteral("unterminated-slice"), {},
            QStringLiteral("B (begin) events without a matching E; they were closed at the end of the "
                           "trace."),
            unterminated);
    }
}

// Tracks whose events came out of order (Kineto writes a thread's CPU ops, then its runtime calls):
// recompute depths in (ts, dur desc) order. Rows are read in key order (ts, id) and each group of
// equal timestamps is ordered by duration in memory, so SQLite never sorts. The changed depths are
// written after the read stops, in key order: an UPDATE while the read is open made SQLite save and
// seek its cursor again at every row. The read stops at a group boundary every kRepairBatch changes,
// so memory stays bounded.
void SliceTracker::repairDepths(SqliteDb &db, const SliceLodTracker *kept)
{
    constexpr size_t kRepairBatch = 64 * 1024;
    SqliteStmt select(
        db, "SELECT ts, id, dur, depth FROM slice WHERE track_id = ? AND ts >= ? ORDER BY ts, id");
    SqliteStmt update(db, "UPDATE slice SET depth = ? WHERE track_id = ? AND ts = ? AND id = ?");
    struct Row {
        int64_t ts, id, dur, depth;
    };
    std::vector<Row> group;
    std::vector<Row> changed; // depth = the new one; in key order
    std::vector<int64_t> ends;
    for (size_t t = 0; t < m_states.size(); ++t) {
        auto &s = m_states[t];
        if (!s.unsorted) {
            continue;
        }
        const int64_t track = m_trackBase + int64_t(t);
        // Recomputed from the rows the import kept: only the changes are written.
        if (const SliceLodTracker::DepthRepair *fix = kept ? kept->depthRepair(track) : nullptr) {
            for (const SliceLodTracker::DepthRepair::Change &c : fix->changes) {
                update.bind(1, c.depth).bind(2, track).bind(3, c.ts).bind(4, c.id).run();
            }
            s.maxDepth = fix->maxDepth;
            continue;
        }
        int64_t maxDepth = 0;
        ends.clear();
        group.clear();
        auto flush = [&] {
            nestOneStart(group, ends, [&](const Row &r, int64_t depth) {
                maxDepth = std::max(maxDepth, depth);
                if (depth != r.depth) {
                    changed.push_back(Row { r.ts, r.id, r.dur, depth });
                }
            });
            group.clear();
        };
        auto write = [&] {
            std::sort(changed.begin(), changed.end(),
                [](const Row &a, const Row &b) { return a.ts != b.ts ? a.ts < b.ts : a.id < b.id; });
            for (const Row &r : changed) {
                update.bind(1, r.depth).bind(2, track).bind(3, r.ts).bind(4, r.id).run();
            }
            changed.clear();
        };
        int64_t from = INT64_MIN;
        for (bool more = true; more;) {
            more = false;
            select.bind(1, track).bind(2, from);
            while (select.step()) {
                const Row r { select.columnInt(0), select.columnInt(1), select.columnInt(2),
                    select.columnInt(3) };
                if (!group.empty() && group.front().ts != r.ts) {
                    flush();
                    if (changed.size() >= kRepairBatch) {
                        from = r.ts; // read again from this group, after the writes
                        more = true;
                        break;
                    }
                }
                group.push_back(r);
            }
            if (!more) {
                flush();
            }
            select.reset();
            write();
        }
        s.maxDepth = maxDepth;
    }
}

} // namespace plumb
