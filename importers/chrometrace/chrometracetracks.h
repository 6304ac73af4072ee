// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chrometrace/traceevent.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace plumb {
class TraceSink;
} // namespace plumb

namespace plumb::chrometrace {

// A Chrome trace's pids and tids onto processes and tracks: `pid` -> process, `tid` -> thread track
// (older Kineto writes a GPU stream as "stream 7" in some events and 7 in others: one track), a
// thread's CUDA calls on its CudaApi companion track; M (metadata) events name and order them, and
// Kineto's "GPU n" process labels make a process a device. Consecutive events mostly share a thread,
// so the last (pid, tid) is cached.
class ChromeTraceTracks {
public:
    explicit ChromeTraceTracks(TraceSink &sink);

    [[nodiscard]] int64_t trackFor(const Label &pid, const Label &tid);
    // The process of `pid` ("0" when the event has none).
    [[nodiscard]] int64_t process(const Label &pid);
    // The CUDA API companion track of a thread track.
    [[nodiscard]] int64_t apiTrack(int64_t thread);
    // Marks a GPU track; true the first time.
    [[nodiscard]] bool addGpuTrack(int64_t track) { return m_gpuTracks.insert(track).second; }
    [[nodiscard]] const std::unordered_map<int64_t, int64_t> &apiTracks() const { return m_apiTracks; }
    // Applies an M event (process and thread names, sort order, labels); false for other kinds.
    [[nodiscard]] bool applyMetadata(const TraceEvent &e);
    // After the last event: launch-to-kernel flows start (and, in some Kineto versions, also end) at a
    // CUDA call, which lives on the thread's CUDA API track, not on the thread's op track.
    void relocateLaunchFlowEnds();

private:
    TraceSink &m_sink;
    std::string m_lastPid, m_lastTid;
    int64_t m_lastTrack = -1;
    std::unordered_set<int64_t> m_gpuTracks;
    std::unordered_map<int64_t, int64_t> m_apiTracks; // thread track -> its CUDA API track
};

} // namespace plumb::chrometrace
