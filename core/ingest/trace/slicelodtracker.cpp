// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/slicelodtracker.h"
#include "ingest/trace/startdepths.h"

#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "timeline/slicesummary.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

namespace plumb {

SliceLodTracker::SliceLodTracker(TraceWriter &writer, int64_t firstTrackId)
    : m_writer(writer)
    , m_trackBase(firstTrackId)
    , m_kept(std::make_unique<KeptSlices>(firstTrackId, kMaxKeptSummaryBytes))
{
}

void SliceLodTracker::summariseKept(bool keepRows, const std::function<bool(int64_t track)> &unsorted)
{
    // The tracks to summarise, most slices first, taken in turn by this thread and a helper: the
    // writer thread only inserts the last batches now, so a core is free. Each thread hands its tiles
    // to the writer a few MB at a time.
    const KeptSlices &kept = *m_kept;
    const auto repair
        = [&unsorted, &kept](int64_t t) { return unsorted && !kept.isOrdered(t) && unsorted(t); };
    std::vector<int64_t> order;
    for (int64_t t = kept.firstTrack(); t < kept.trackEnd(); ++t) {
        if (kept.canOrder(t) && (kept.count(t) >= kMinSummarisedSlices || repair(t))) {
            order.push_back(t);
        }
    }
    std::stable_sort(
        order.begin(), order.end(), [&kept](int64_t a, int64_t b) { return kept.count(a) > kept.count(b); });
    m_origins.assign(size_t(kept.trackEnd() - m_trackBase), kNoValue);
    m_repairs.assign(m_origins.size(), {});
    m_repaired.assign(m_origins.size(), 0);
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
        std::vector<KeptSlice> group; // a start's slices, in (ts, id) order
        std::vector<int64_t> ends;
        for (size_t i; (i = next++) < order.size();) {
            const int64_t track = order[i];
            const size_t at = size_t(track - m_trackBase);
            std::optional<SliceSummaryBuilder> builder;
            if (kept.count(track) >= kMinSummarisedSlices) {
                builder.emplace(sliceSummaryLevels(kept.minTs(track), kept.maxTs(track), kept.count(track)),
                    [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
                        tiles.push_back({ track, level, tile, data });
                        batchBytes += data.size();
                        if (batchBytes >= kTileBatchBytes) {
                            hand();
                        }
                    });
            }
            if (kept.isOrdered(track)) {
                KeptSlices::Cursor rows = kept.rows(track);
                for (KeptSlice r; rows.next(r);) {
                    builder->add(r.ts, r.dur, int(r.depth), r.name);
                }
            } else {
                // In (ts, id) order, a start at a time: the depths recomputed as repairDepths() does (the
                // longest slice of a start first) where they need it.
                const bool repairs = repair(track);
                DepthRepair &fix = m_repairs[at];
                ends.clear();
                const auto take = [&] {
                    if (repairs) {
                        nestOneStart(group, ends, [&fix](KeptSlice &r, int64_t depth) {
                            fix.maxDepth = std::max(fix.maxDepth, depth);
                            if (depth != r.depth) {
                                fix.changes.push_back({ r.ts, r.id, depth });
                                r.depth = depth;
                            }
                        });
                        // (ts, id) order again for the tiles
                        std::sort(group.begin(), group.end(),
                            [](const KeptSlice &a, const KeptSlice &b) { return a.id < b.id; });
                    }
                    if (builder) {
                        for (const KeptSlice &r : group) {
                            builder->add(r.ts, r.dur, int(r.depth), r.name);
                        }
                    }
                    group.clear();
                };
                KeptSlices::OrderedCursor rows = kept.rowsInOrder(track);
                for (KeptSlice r; rows.next(r);) {
                    if (!group.empty() && group.front().ts != r.ts) {
                        take();
                    }
                    group.push_back(r);
                }
                take();
                if (repairs) {
                    std::sort(fix.changes.begin(), fix.changes.end(), [](const auto &a, const auto &b) {
                        return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
                    });
                    m_repaired[at] = 1;
                }
            }
            if (builder) {
                builder->finish();
                m_origins[at] = kept.minTs(track);
            }
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
