// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/launchflows.h"

#include "ingest/tracesink.h"

namespace plumb::chrometrace {

LaunchFlows::LaunchFlows(TraceSink &sink, const std::unordered_map<int64_t, int64_t> &apiTracks)
    : m_sink(sink)
    , m_apiTracks(apiTracks)
{
}

void LaunchFlows::add(char ph, int64_t cat, int64_t key, int64_t track, int64_t ts)
{
    m_ac2gCat = cat;
    const bool isStart = ph == 's';
    int64_t endTrack = track;
    bool verified = false;
    if (isStart) {
        const auto api = m_apiTracks.find(track);
        const IdTable::Entry *launch = m_recentLaunch.find(key);
        verified = api != m_apiTracks.end() && launch && launch->track == api->second && launch->ts == ts;
        if (verified) {
            endTrack = api->second;
        }
    } else {
        const IdTable::Entry *op = m_recentGpuOp.find(key);
        verified = op && op->track == track && op->ts == ts;
        // A further op of a launch whose flow was matched already (MTIA: one memcpy call, several dma
        // ops, an f each for the call's one s).
        if (verified && m_matchedStarts.find(key)) {
            ++m_corrFlows;
            return;
        }
    }
    IdTable &mine = isStart ? m_verifiedStarts : m_verifiedEnds;
    IdTable &other = isStart ? m_verifiedEnds : m_verifiedStarts;
    if (IdTable::Entry *partner = other.find(key)) {
        if (verified) {
            IdTable::erase(partner);
            ++m_corrFlows;
            if (isStart) {
                m_corrFlows += takeExtraEnds(key, false);
            }
            m_matchedStarts.exchange({ key, 0, 0 });
            return;
        }
        // The other end was verified, this one is not: both go in as rows.
        flushVerifiedEnd(!isStart, *partner);
        if (isStart) {
            takeExtraEnds(key, true);
        }
        IdTable::erase(partner);
    }
    if (!verified) {
        if (isStart) {
            m_sink.flowStart(cat, key, track, ts);
        } else {
            m_sink.flowEnd(cat, key, track, ts);
        }
        return;
    }
    if (!isStart && mine.find(key)) {
        // A second verified end of the same launch waiting for its start.
        m_extraEnds.emplace(key, IdTable::Entry { key, endTrack, ts });
        return;
    }
    const IdTable::Entry evicted = mine.exchange({ key, endTrack, ts });
    if (evicted.key != kNoValue) {
        flushVerifiedEnd(isStart, evicted);
        if (!isStart) {
            takeExtraEnds(evicted.key, true);
        }
    }
}

int64_t LaunchFlows::takeExtraEnds(int64_t key, bool asRows)
{
    const auto [first, last] = m_extraEnds.equal_range(key);
    int64_t n = 0;
    for (auto it = first; it != last; ++it, ++n) {
        if (asRows) {
            flushVerifiedEnd(false, it->second);
        }
    }
    m_extraEnds.erase(first, last);
    return n;
}

void LaunchFlows::flushVerifiedEnd(bool isStart, const IdTable::Entry &end)
{
    if (isStart) {
        m_sink.flowStart(m_ac2gCat, end.key, end.track, end.ts);
    } else {
        m_sink.flowEnd(m_ac2gCat, end.key, end.track, end.ts);
    }
}

void LaunchFlows::flushVerifiedEnds()
{
    for (bool isStart : { true, false }) {
        for (IdTable::Entry &end : (isStart ? m_verifiedStarts : m_verifiedEnds).entries()) {
            if (end.key != kNoValue) {
                flushVerifiedEnd(isStart, end);
                if (!isStart) {
                    takeExtraEnds(end.key, true);
                }
            }
            IdTable::erase(&end);
        }
    }
}

void LaunchFlows::finish()
{
    flushVerifiedEnds();
    m_sink.addCorrelationFlows(m_corrFlows);
}

} // namespace plumb::chrometrace
