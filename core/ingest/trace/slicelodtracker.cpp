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
    , m_kept(std::make_unique<KeptSlices>(firstTrackId, kMaxKeptSummaryBytes))
{
}

void SliceLodTracker::summariseKept(bool keepRows)
{
    // The tracks to summarise, most slices first, taken in turn by this thread and a helper: the
    // writer thread only inserts the last batches now, so a core is free. Each thread hands its tiles
    // to the writer a few MB at a time.
    const KeptSlices &kept = *m_kept;
    std::vector<int64_t> order;
    for (int64_t t = kept.firstTrack(); t < kept.trackEnd(); ++t) {
        if (kept.isKept(t) && kept.isOrdered(t) && kept.count(t) >= kMinSummarisedSlices) {
            order.push_back(t);
        }
    }
    std::stable_sort(
        order.begin(), order.end(), [&kept](int64_t a, int64_t b) { return kept.count(a) > kept.count(b); });
    m_origins.assign(size_t(kept.trackEnd() - m_trackBase), kNoValue);
    std::atomic<size_t> next { 0 };
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
            const int64_t track = order[i];
            SliceSummaryBuilder builder(
                sliceSummaryLevels(kept.firstTs(track), kept.lastTs(track), kept.count(track)),
                [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
                    tiles.push_back({ track, level, tile, data });
                    batchBytes += data.size();
                    if (batchBytes >= kTileBatchBytes) {
                        hand();
                    }
                });
            KeptSlices::Cursor rows = kept.rows(track);
            for (KeptSlice r; rows.next(r);) {
                builder.add(r.ts, r.dur, int(r.depth), r.name);
            }
            builder.finish();
            m_origins[size_t(track - m_trackBase)] = kept.firstTs(track);
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
    std::exception_ptr error;
    try {
        summarise();
    } catch (...) {
        error = std::current_exception();
        next = order.size();
    }
    if (helper.joinable()) {
        helper.join();
    }
    if (!keepRows) {
        m_kept.reset();
    }
    if (error) {
        std::rethrow_exception(error);
    }
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
        if (size_t(t) < m_origins.size() && m_origins[size_t(t)] != kNoValue) {
            origin.bind(1, m_origins[size_t(t)]).bind(2, track).run();
        } else if (const int64_t n = sliceCount(track); n >= kMinSummarisedSlices) {
            buildTrackSliceSummaries(db, track, n);
        }
    }
}

} // namespace plumb
