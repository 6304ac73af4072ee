// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chrometrace/idtable.h"

#include <cstdint>
#include <unordered_map>

namespace plumb {
class TraceSink;
} // namespace plumb

namespace plumb::chrometrace {

// Launch flows (ac2g): Kineto writes one per launch, s at the CUDA call and f at the GPU op, with the
// correlation id as flow id (MTIA: an f at each of the device ops one call made). When both ends are exactly
// the slices carrying that correlation, the flow is the slice.corr link itself and is only counted (see the
// flow table's comment); every other end goes to the sink as an ordinary flow end. Each end is checked
// against the slice written just before it (Kineto writes a launch's s right after the CUDA call, a kernel's
// f right after the kernel) and waits, verified, for the other end, which may come first.
class LaunchFlows {
public:
    // `apiTracks`: each thread track's CUDA API track, as the reader makes them.
    LaunchFlows(TraceSink &sink, const std::unordered_map<int64_t, int64_t> &apiTracks);

    // The CUDA call (on its API track) and the GPU op that carry correlation `corr`.
    void recordLaunch(int64_t corr, int64_t track, int64_t ts)
    {
        m_recentLaunch.exchange({ corr, track, ts });
    }
    void recordGpuOp(int64_t corr, int64_t track, int64_t ts) { m_recentGpuOp.exchange({ corr, track, ts }); }
    // An ac2g flow's start (ph 's') or end (ph 'f') on a thread or stream track.
    void add(char ph, int64_t cat, int64_t key, int64_t track, int64_t ts);
    // After the last event: the verified ends still waiting go in as rows, the matched ones are counted.
    void finish();

private:
    void flushVerifiedEnd(bool isStart, const IdTable::Entry &end);
    void flushVerifiedEnds();
    // Removes the further verified ends waiting for `key`'s start (flushed as rows with `asRows`);
    // returns how many there were.
    int64_t takeExtraEnds(int64_t key, bool asRows);

    TraceSink &m_sink;
    const std::unordered_map<int64_t, int64_t> &m_apiTracks;
    IdTable m_recentLaunch { kRecentCorrSlots }; // corr -> CUDA API slice
    IdTable m_recentGpuOp { kRecentCorrSlots }; // corr -> GPU op slice
    IdTable m_verifiedStarts { kRecentCorrSlots }; // flow id -> start that matched its launch
    IdTable m_verifiedEnds { kRecentCorrSlots }; // flow id -> end that matched its GPU op
    // Further verified ends of one flow id waiting for its start (a launch that made several device
    // ops, each with an f: MTIA); empty for CUDA, whose launches have one f each.
    std::unordered_multimap<int64_t, IdTable::Entry> m_extraEnds;
    IdTable m_matchedStarts { kRecentCorrSlots }; // flow ids whose start matched: further ends count too
    int64_t m_ac2gCat = kNoValue;
    int64_t m_corrFlows = 0;
};

} // namespace plumb::chrometrace
