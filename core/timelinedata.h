#pragma once

#include <QList>
#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// A track as the timeline lists it: with its process, and for the companion tracks (a thread's CUDA
// API calls, a stream's annotations) the track they sit beneath.
struct TimelineTrack {
    int64_t id = 0;
    int64_t traceId = 0;
    int64_t processId = 0;      // 0 for trace-wide tracks (global instants)
    QString processName;        // "python3 (pid 2910249)", "GPU 0", ...
    QString processKind;        // cpu | gpu | other
    QString kind;               // thread | gpu_stream | cuda_api | gpu_annotation | counter | global
    QString name;               // as the timeline labels the row
    int64_t parentTrackId = 0;  // the thread or stream a companion track belongs to
    int64_t sliceCount = 0;
    int maxDepth = 0;
    int64_t maxDurNs = 0;       // longest slice on the track
};

// Tracks of one trace in display order: CPU processes (by sort index, then pid), then GPU devices,
// then other processes, then trace-wide tracks; in a process, threads and streams by sort index and
// id, each followed by its companion tracks, and counters last.
[[nodiscard]] QList<TimelineTrack> timelineTracks(Workspace &ws, int64_t traceId);

// What to draw of one track in a time window. A slice at least `minWidthNs` long is one entry;
// consecutive narrower slices of the same depth with gaps under `minWidthNs` fold into one entry
// that spans them and counts them (Tracy's rule), so a frame costs pixels, not events.
struct DrawSlice {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int depth = 0;
    int64_t nameId = 0;   // the first slice's name (string id)
    int64_t sliceId = 0;  // the first slice's id
    int64_t count = 1;    // > 1: a folded run of that many slices
};

[[nodiscard]] std::vector<DrawSlice> drawSlices(Workspace &ws, const TimelineTrack &track, int64_t fromNs,
                                                int64_t toNs, int64_t minWidthNs);

} // namespace plumb
