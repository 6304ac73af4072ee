// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;

enum class ProcessKind { Cpu, Gpu, Other };
// CudaApi, CpuSamples, OnCpu and GpuAnnotation are companion tracks of a thread and of a stream (same
// process and tid label): the CUDA runtime/driver calls a thread made, its CPU samples (instants), the
// intervals it was scheduled on a CPU, and the user annotations projected onto a stream, shown beneath
// their thread or stream as Nsight Systems does. (track.kind 'cuda_api', 'cpu_samples', 'on_cpu',
// 'gpu_annotation'.)
enum class TrackKind { Thread, GpuStream, Counter, Global, CudaApi, GpuAnnotation, CpuSamples, OnCpu };

// The processes and tracks of one trace: maps the labels a file uses for them (a pid, a tid, a counter
// or track name) onto process and track row ids, assigned in order of first use from the workspace's
// next free ids, and keeps what the importer says about each (names, kinds, sort order, streams)
// until writeRows() writes them at the end of the import. A label that reads as an integer also
// becomes the pid or tid.
class TrackRegistry {
public:
    // What the slice tracker knows about a track when the rows are written.
    struct SliceCounts {
        int64_t slices = 0;
        int64_t maxDepth = 0;
        int64_t maxDurNs = 0;
    };

    TrackRegistry(int64_t firstProcessId, int64_t firstTrackId);

    [[nodiscard]] int64_t process(std::string_view label);
    void setProcessName(int64_t process, std::string_view name) { processState(process).name.assign(name); }
    void setProcessLabels(int64_t process, std::string_view labels)
    {
        processState(process).labels.assign(labels);
    }
    void setProcessSortIndex(int64_t process, int64_t sortIndex)
    {
        processState(process).sortIndex = sortIndex;
    }
    void setProcessKind(int64_t process, ProcessKind kind, int64_t deviceIndex = kNoValue);

    [[nodiscard]] int64_t thread(int64_t process, std::string_view tidLabel);
    // The companion track of `track` (a thread or stream) of the given kind, created on first use.
    [[nodiscard]] int64_t companionTrack(int64_t track, TrackKind kind);
    [[nodiscard]] int64_t counterTrack(int64_t process, std::string_view name);
    [[nodiscard]] int64_t globalTrack(std::string_view name);
    void setTrackName(int64_t track, std::string_view name) { trackState(track).name.assign(name); }
    void setTrackSortIndex(int64_t track, int64_t sortIndex) { trackState(track).sortIndex = sortIndex; }
    // Makes a thread track a GPU stream track.
    void setTrackGpuStream(int64_t track, int64_t stream);
    void setTrackStream(int64_t track, int64_t stream) { trackState(track).stream = stream; }

    [[nodiscard]] int64_t firstTrackId() const { return m_trackBase; }
    [[nodiscard]] int64_t trackCount() const { return int64_t(m_tracks.size()); }
    [[nodiscard]] TrackKind trackKind(int64_t track) const { return trackState(track).kind; }
    // Where an event on `track` at `ts` is, for a diagnostic ("pid 1 tid 2, ts 3 ns").
    [[nodiscard]] QString location(int64_t track, int64_t ts) const;

    // Writes the process and track rows of trace `traceId`.
    void writeRows(
        SqliteDb &db, int64_t traceId, const std::function<SliceCounts(int64_t track)> &counts) const;

private:
    struct ProcessState {
        std::string label;
        int64_t pid = kNoValue;
        std::string name;
        std::string labels;
        ProcessKind kind = ProcessKind::Cpu;
        int64_t deviceIndex = kNoValue;
        int64_t sortIndex = kNoValue;
    };
    struct TrackState {
        int64_t process = kNoValue;
        TrackKind kind = TrackKind::Thread;
        std::string label;
        int64_t tid = kNoValue;
        std::string name;
        int64_t stream = kNoValue;
        int64_t sortIndex = kNoValue;
    };
    ProcessState &processState(int64_t process) { return m_processes[size_t(process - m_processBase)]; }
    TrackState &trackState(int64_t track) { return m_tracks[size_t(track - m_trackBase)]; }
    const TrackState &trackState(int64_t track) const { return m_tracks[size_t(track - m_trackBase)]; }
    int64_t newTrack(int64_t process, TrackKind kind, std::string_view label);

    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    using StringMap = std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>>;

    int64_t m_processBase;
    int64_t m_trackBase;
    StringMap m_processByLabel;
    StringMap m_trackByKey; // "t:<process>:<tid label>", "k:<track>:<kind>", "c:<process>:<name>", "g:<name>"
    std::vector<ProcessState> m_processes; // by id - m_processBase
    std::vector<TrackState> m_tracks; // by id - m_trackBase
};

} // namespace plumb
