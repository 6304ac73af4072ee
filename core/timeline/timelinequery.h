// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinedata.h"

#include <QHash>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

namespace plumb {

class Workspace;

// Read-side questions the timeline asks about slices: what is under the mouse, what is linked to it,
// what matches a search, what a selected time range holds, where the steps are. All times are view
// times (slice.ts + track.offsetNs); functions that take tracks apply their offsets.

// Identifies one slice: the slice table's key.
struct SliceKey {
    int64_t trackId = 0;
    int64_t tsNs = 0; // slice.ts (trace time, without the track's offset)
    int64_t id = 0;
    friend bool operator==(const SliceKey &, const SliceKey &) = default;
};

// A slice with what the details pane shows.
struct SliceInfo {
    SliceKey key;
    int64_t startNs = 0; // view time
    int64_t durNs = 0;
    int depth = 0;
    QString name;
    QString category;
    QString argsJson; // compact JSON object, "" when none; promoted ids added (correlation, ...)
    int64_t corr = -1; // CUDA correlation id, -1 when none
};

// The deepest slice of `track` at `depth` or less that contains view time tNs (start <= tNs < end);
// when depth is negative, the deepest one at any depth. Instants (dur 0) match within toleranceNs,
// and win over a slice as deep as they are. `track` as timelineTracks() gives it (its maxDurNs
// bounds the search). Cost: the slices between tNs and the start of the top-level slice before it,
// read backwards along the (track, ts) key; past 2048 of them, those of one LOD tile (the slices
// open across its start come from the tile before's carry-out).
[[nodiscard]] std::optional<SliceInfo> sliceAt(
    Workspace &ws, const TimelineTrack &track, int64_t tNs, int depth, int64_t toleranceNs = 0);
[[nodiscard]] std::optional<SliceInfo> sliceByKey(
    Workspace &ws, const TimelineTrack &track, const SliceKey &key);

// A slice linked to another one: the CUDA launch and the GPU work it started (same correlation id
// and trace; a thread or CUDA API slice launches, a gpu_stream slice is launched), or the other end
// of a flow arrow. A flow end belongs to the deepest slice that contains its time on its track (a
// slice's start counts, its end does not), so a flow starting at an op is not also its parent's.
struct SliceLink {
    enum class Kind { LaunchedBy, Launches, FlowFrom, FlowTo };
    Kind kind = Kind::Launches;
    SliceInfo slice; // the linked slice (its track is slice.key.trackId)
    QString relation; // "launched by", "launches", "flow from (ac2g)", ...
};
// Links of `slice` among `tracks` (the tracks on screen, for their offsets): launch links first,
// then flows. A linked slice on a track that is not listed is still returned, with the offset of a
// listed track of its trace.
[[nodiscard]] std::vector<SliceLink> sliceLinks(
    Workspace &ws, const QList<TimelineTrack> &tracks, const SliceInfo &slice);

// Name search over the tracks' slices. `pattern` is a substring (case-insensitive) or, with
// regex, a QRegularExpression (case-insensitive); an invalid regex matches nothing and sets
// errorMessage.
struct NameMatcher {
    std::unordered_set<int64_t> nameIds; // string ids of matching names, for highlighting
    QString errorMessage;
    [[nodiscard]] bool matches(int64_t nameId) const { return nameIds.count(nameId) != 0; }
};
[[nodiscard]] NameMatcher matchNames(Workspace &ws, const QString &pattern, bool regex);

struct SearchHit {
    SliceKey key;
    int64_t startNs = 0; // view time
    int64_t durNs = 0;
    int depth = 0;
};
// The first match starting after view time afterNs (forward) or the last one starting before
// beforeNs (backward), both strict, over all the tracks; ties in time go to the earlier track, and
// on one track to the outermost slice. Probes all tracks in windows that double in width, so the
// cost follows the distance to the hit.
[[nodiscard]] std::optional<SearchHit> findNext(
    Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher, int64_t afterNs);
[[nodiscard]] std::optional<SearchHit> findPrevious(
    Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher, int64_t beforeNs);
// How many slices of the tracks match. Reads every slice of the tracks (names have no index): run
// it off the GUI thread on large traces.
[[nodiscard]] int64_t countMatches(
    Workspace &ws, const QList<TimelineTrack> &tracks, const NameMatcher &matcher);

// What a selected time range holds, per slice name, over the selected tracks. A slice counts when
// it overlaps [fromNs, toNs); its time is clipped to the range. Self time is its clipped time minus
// the clipped time of its direct children (slices one level deeper on the same track that it
// contains). An instant counts when it lies in the range, with time 0. Rows by name (the same text
// in several traces is one row), largest total first. Reads the slices starting in the range and,
// per track, those open across fromNs the way sliceAt() finds them.
struct RangeAggregateRow {
    QString name;
    int64_t count = 0;
    int64_t totalNs = 0;
    int64_t selfNs = 0;
    int64_t maxNs = 0; // longest clipped duration
    [[nodiscard]] double meanNs() const { return count ? double(totalNs) / double(count) : 0.0; }
};
[[nodiscard]] std::vector<RangeAggregateRow> rangeAggregate(
    Workspace &ws, const QList<TimelineTrack> &tracks, int64_t fromNs, int64_t toNs);

// Training steps, for the markers across the top, per trace the first kind found of: slices named
// "ProfilerStep#N" on a CPU thread (PyTorch; from the first thread that has them), NVTX ranges or
// user annotations on CPU threads named like a step ("step 12", "train_step_3", "iteration 7"), or
// the slices of XPlane "Steps" lines, named by step number. Sorted by start, one per (rank, step)
// from the first track that has it; a trace without a rank counts as a rank of its own.
struct StepMarker {
    int64_t number = 0;
    QString name;
    int64_t startNs = 0; // view time
    int64_t endNs = 0;
    int64_t trackId = 0;
    int64_t rank = -1;
};
[[nodiscard]] std::vector<StepMarker> stepMarkers(Workspace &ws, const QList<TimelineTrack> &tracks);

// Idle gaps of a GPU stream inside [fromNs, toNs): stretches at least minGapNs long where none of
// `slices` runs (drawSlices() of the stream; every depth counts, deeper entries on a stream being
// ops that overlap the one above), clipped to the window. Pass the window clipped to the stream's
// extent (first start to last end), so that the time before its first op and after its last one
// is not called idle.
struct IdleGap {
    int64_t startNs = 0;
    int64_t endNs = 0;
};
[[nodiscard]] std::vector<IdleGap> idleGaps(
    const std::vector<DrawSlice> &slices, int64_t fromNs, int64_t toNs, int64_t minGapNs);

// String table lookups for drawing (names of DrawSlice::nameId).
[[nodiscard]] QHash<int64_t, QString> namesOf(Workspace &ws, const std::vector<int64_t> &nameIds);

} // namespace plumb
