// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/slicelodtracker.h"

#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "timeline/slicesummary.h"

namespace plumb {

SliceLodTracker::SliceLodTracker(TraceWriter &writer, int64_t firstTrackId)
    : m_writer(writer)
    , m_trackBase(firstTrackId)
{
}

void SliceLodTracker::drop(State &s)
{
    m_bytes -= s.rows.capacity();
    std::vector<unsigned char>().swap(s.rows);
    s.kept = false;
}

bool SliceLodTracker::isKept(int64_t track) const
{
    const auto i = size_t(track - m_trackBase);
    return i >= m_states.size() || m_states[i].kept;
}

void SliceLodTracker::summariseKept()
{
    constexpr size_t kTileBatchBytes = size_t(4) << 20;
    size_t batchBytes = 0;
    for (size_t t = 0; t < m_states.size(); ++t) {
        State &s = m_states[t];
        if (!s.kept || s.count < kMinSummarisedSlices) {
            continue;
        }
        const int64_t track = m_trackBase + int64_t(t);
        SliceSummaryBuilder builder(sliceSummaryLevels(s.firstTs, s.lastTs, s.count),
            [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
                m_writer.batch().lodTiles.push_back({ track, level, tile, data });
                batchBytes += data.size();
                if (batchBytes >= kTileBatchBytes) {
                    m_writer.push();
                    batchBytes = 0;
                }
            });
        varint::Reader r { s.rows.data(), s.rows.data() + s.rows.size() };
        int64_t ts = s.firstTs;
        while (r.p != r.end) {
            ts = int64_t(uint64_t(ts) + r.get());
            const int64_t dur = r.getSigned();
            const auto depth = int(r.get());
            builder.add(ts, dur, depth, r.getSigned());
        }
        builder.finish();
        m_bytes -= s.rows.capacity();
        std::vector<unsigned char>().swap(s.rows);
        s.summarised = true;
    }
    if (!m_writer.batch().lodTiles.empty()) {
        m_writer.push();
    }
}

void SliceLodTracker::finishInWorkspace(
    SqliteDb &db, int64_t trackCount, const std::function<int64_t(int64_t track)> &sliceCount)
{
    SqliteStmt origin(db, "UPDATE track SET lod_origin_ns = ? WHERE id = ?");
    for (int64_t t = 0; t < trackCount; ++t) {
        const int64_t track = m_trackBase + t;
        const State *s = size_t(t) < m_states.size() ? &m_states[size_t(t)] : nullptr;
        if (s && s->summarised) {
            origin.bind(1, s->firstTs).bind(2, track).run();
        } else if (const int64_t n = sliceCount(track); n >= kMinSummarisedSlices) {
            buildTrackSliceSummaries(db, track, n);
        }
    }
}

} // namespace plumb
