// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"
#include "store/keptslices.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace plumb {

class SqliteDb;
class TraceWriter;

// The timeline's level-of-detail summaries (slice_lod tiles, see timeline/slicesummary.h) of one
// trace's slice tracks: keeps the slices of each track, as they are emitted, in KeptSlices (compact
// rows), from which summariseKept() builds the tiles (on two threads) while the writer inserts the last
// rows, instead of reading every slice back afterwards. A track that came out of order is read in order
// by merging its ordered runs, and when its depths need repair (SliceTracker::isUnsorted()) they are
// recomputed there too (depthRepair(), which SliceTracker::repairDepths() writes). The tracks KeptSlices
// stopped keeping (past kMaxKeptSummaryBytes, or in too many runs) are summarised from the workspace by
// finishInWorkspace(). The rows may then be handed on (takeKept()), for the trace's summaries.
class SliceLodTracker {
public:
    // Memory for the kept slices of all tracks.
    static constexpr size_t kMaxKeptSummaryBytes = size_t(160) << 20;

    SliceLodTracker(TraceWriter &writer, int64_t firstTrackId);

    // One emitted slice of `track`. `inOrder`: every slice of the track so far came in (ts, id)
    // order and has its final depth.
    void add(int64_t track, bool inOrder, const KeptSlice &slice) { m_kept->add(track, inOrder, slice); }

    // Builds the tiles of the kept tracks with at least kMinSummarisedSlices slices and hands them to
    // the writer (in batches of a few MB), and repairs the depths of the kept tracks `unsorted` names;
    // frees the kept rows unless `keepRows`.
    void summariseKept(bool keepRows = false, const std::function<bool(int64_t track)> &unsorted = {});
    // After the writer is done: records the tile origin of the tracks summariseKept() did, and builds
    // the tiles of the other tracks with enough slices from the workspace.
    void finishInWorkspace(
        SqliteDb &db, int64_t trackCount, const std::function<int64_t(int64_t track)> &sliceCount);
    // The kept rows, after summariseKept(true) (null after summariseKept(false)).
    [[nodiscard]] std::unique_ptr<KeptSlices> takeKept() { return std::move(m_kept); }
    [[nodiscard]] const KeptSlices *kept() const { return m_kept.get(); }

    // A track's depths recomputed by summariseKept() in (ts, dur desc) order, as
    // SliceTracker::repairDepths() does in the workspace: the rows whose depth changes, in (ts, id)
    // order, and the deepest.
    struct DepthRepair {
        struct Change {
            int64_t ts, id, depth;
        };
        std::vector<Change> changes;
        int64_t maxDepth = 0;
    };
    // The repair of `track`, or null when summariseKept() made none.
    [[nodiscard]] const DepthRepair *depthRepair(int64_t track) const
    {
        const auto i = size_t(track - m_trackBase);
        return i < m_repaired.size() && m_repaired[i] ? &m_repairs[i] : nullptr;
    }
    // Frees the repairs, once written.
    void dropDepthRepairs()
    {
        std::vector<DepthRepair>().swap(m_repairs);
        std::vector<char>().swap(m_repaired);
    }

    // For tests: whether `track`'s tiles can come from its kept rows, and the memory the kept rows take.
    [[nodiscard]] bool isKept(int64_t track) const { return m_kept && m_kept->canOrder(track); }
    [[nodiscard]] size_t keptBytes() const { return m_kept ? m_kept->bytes() : 0; }

private:
    TraceWriter &m_writer;
    int64_t m_trackBase;
    std::unique_ptr<KeptSlices> m_kept;
    // By track id - m_trackBase: the origin of the tiles summariseKept() built, kNoValue for none; the
    // depths it repaired, and whether it did.
    std::vector<int64_t> m_origins;
    std::vector<DepthRepair> m_repairs;
    std::vector<char> m_repaired;
};

} // namespace plumb
