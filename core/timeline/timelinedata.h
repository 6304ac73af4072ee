// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// A track as the timeline lists it: with its process, and for the companion tracks (a thread's CUDA
// API calls, a stream's annotations) the track they sit beneath.
//
// Times in the timeline's queries are view times: slice.ts + offsetNs. For one trace offsetNs is 0;
// in a multi-rank run each trace is shifted so that ranks line up on absolute time when every trace
// knows its base time (base_time_ns), and not shifted otherwise.
struct TimelineTrack {
    int64_t id = 0;
    int64_t traceId = 0;
    int64_t rank = -1; // the trace's rank, -1 when unknown
    QString traceName; // the trace's name, for grouping a run's tracks by rank
    int64_t offsetNs = 0; // view time = slice.ts + offsetNs
    int64_t processId = 0; // 0 for trace-wide tracks (global instants)
    QString processName; // "python3 (pid 2910249)", "GPU 0", ...
    QString processKind; // cpu | gpu | other
    QString kind; // thread | gpu_stream | cuda_api | cpu_samples | on_cpu | gpu_annotation | counter | global
    QString name; // as the timeline labels the row
    int64_t parentTrackId = 0; // the thread or stream a companion track belongs to
    int64_t sliceCount = 0;
    int maxDepth = 0;
    int64_t maxDurNs = 0; // longest slice on the track
    // Stored LOD summary levels (slicesummary.h); lodLowest = -1 when the track has none.
    int lodLowest = -1;
    int lodHighest = -1;
    int64_t lodOriginNs = 0;
};

// Tracks of one trace in display order: CPU processes (by sort index, then pid), then GPU devices,
// then other processes, then trace-wide tracks; in a process, threads and streams by sort index and
// id, each followed by its companion tracks, and counters last.
[[nodiscard]] QList<TimelineTrack> timelineTracks(Workspace &ws, int64_t traceId);
// Tracks of every trace of a run: by rank (unknown ranks last, then trace id), each trace's tracks in
// timelineTracks() order, with the offsets that align the ranks.
[[nodiscard]] QList<TimelineTrack> timelineTracksOfRun(Workspace &ws, int64_t runId);

// The view-time extent [startNs, endNs) of the given tracks' slices and counters.
struct TimeRange {
    int64_t startNs = 0;
    int64_t endNs = 0;
    [[nodiscard]] bool isEmpty() const { return endNs <= startNs; }
};
[[nodiscard]] TimeRange timelineExtent(Workspace &ws, const QList<TimelineTrack> &tracks);

// What to draw of one track in a time window. A slice at least `minWidthNs` long is one entry;
// consecutive narrower slices of the same depth with gaps under `minWidthNs` fold into one entry
// that spans them and counts them (Tracy's rule), so a frame costs pixels, not events.
// Times are view times (slice.ts + track.offsetNs).
struct DrawSlice {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int depth = 0;
    int64_t nameId = 0; // name (string id) of the slice; of the last slice of a folded run
    int64_t count = 1; // > 1: a folded run of that many slices
};

// Everything of `track` that is visible in [fromNs, toNs) when slices narrower than minWidthNs fold:
// every slice at least minWidthNs long exactly, the slices crossing fromNs, and folded runs holding
// the rest, so that the counts add up to the slices in the window. Reads the track's stored
// summaries (slicesummary.h) where they are smaller than the raw slices, so the cost follows the
// pixels, not the events. Sorted by (depth, startNs).
[[nodiscard]] std::vector<DrawSlice> drawSlices(
    Workspace &ws, const TimelineTrack &track, int64_t fromNs, int64_t toNs, int64_t minWidthNs);

// A counter track reduced to buckets of bucketNs (view time): min, max and last value of the samples
// in each bucket, so peaks survive any zoom. Only buckets holding samples are returned; a counter
// holds its last value until the next sample.
struct CounterBucket {
    int64_t startNs = 0; // first sample's time in the bucket
    int64_t endNs = 0; // last sample's time in the bucket
    double min = 0, max = 0, first = 0, last = 0;
    int64_t count = 0;
};
[[nodiscard]] std::vector<CounterBucket> drawCounter(
    Workspace &ws, const TimelineTrack &track, int64_t fromNs, int64_t toNs, int64_t bucketNs);
// The value range of a counter track (for a fixed y axis while zooming).
[[nodiscard]] std::pair<double, double> counterRange(Workspace &ws, const TimelineTrack &track);

} // namespace plumb
