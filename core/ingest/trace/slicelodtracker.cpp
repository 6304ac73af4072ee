// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/slicelodtracker.h"

#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "timeline/slicesummary.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <mutex>
#include <thread>

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
    // The tracks to summarise, most slices first, taken in turn by this thread and a helper: the
    // writer thread only inserts the last batches now, so a core is free. Each thread hands its tiles
    // to the writer a few MB at a time.
    std::vector<size_t> order;
    for (size_t t = 0; t < m_states.size(); ++t) {
        if (m_states[t].kept && m_states[t].count >= kMinSummarisedSlices) {
            order.push_back(t);
        }
    }
    std::stable_sort(order.begin(), order.end(),
        [this](size_t a, size_t b) { return m_states[a].count > m_states[b].count; });
    std::atomic<size_t> next { 0 };
    std::atomic<size_t> freed { 0 }; // bytes of kept rows
    std::mutex writerMutex; // the writer's batch being filled, and push()
    auto summarise = [&] {
        constexpr size_t kTileBatchBytes = size_t(4) << 20;
        std::vector<TraceBatch::LodTileRow> tiles;
        size_t batchBytes = 0;
        auto hand = [&] {
            const std::lock_guard lock(writerMutex);
            std::vector<TraceBatch::LodTileRow> &out = m_writer.batch().lodTiles;
            std::move(tiles.begin(), tiles.end(), std::back_inserter(out));
            tiles.clear();
            batchBytes = 0;
            m_writer.push();
        };
        for (size_t i; (i = next++) < order.size();) {
            State &s = m_states[order[i]];
            const int64_t track = m_trackBase + int64_t(order[i]);
            SliceSummaryBuilder builder(sliceSummaryLevels(s.firstTs, s.lastTs, s.count),
                [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
                    tiles.push_back({ track, level, tile, data });
                    batchBytes += data.size();
                    if (batchBytes >= kTileBatchBytes) {
                        hand();
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
            s.summarised = true;
            freed += s.rows.capacity();
            std::vector<unsigned char>().swap(s.rows);
        }
        if (!tiles.empty()) {
            hand();
        }
    };
    std::exception_ptr helperError;
    std::thread helper;
    if (order.size() > 1) {
        helper = std::thread([&] {
            try {
                summarise();
            } catch (...) {
                helperError = std::current_exception();
                next = order.size(); // the other thread takes no further track
            }
        });
    }
    try {
        summarise();
    } catch (...) {
        next = order.size();
        if (helper.joinable()) {
            helper.join();
        }
        m_bytes -= freed;
        throw;
    }
    if (helper.joinable()) {
        helper.join();
    }
    m_bytes -= freed;
    if (helperError) {
        std::rethrow_exception(helperError);
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
