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
// rows, instead of reading every slice back afterwards. The tracks KeptSlices stopped keeping (out of
// order, depths to be repaired, past kMaxKeptSummaryBytes) are summarised from the workspace by
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
    // the writer (in batches of a few MB); frees the kept rows unless `keepRows`.
    void summariseKept(bool keepRows = false);
    // After the writer is done: records the tile origin of the tracks summariseKept() did, and builds
    // the tiles of the other tracks with enough slices from the workspace.
    void finishInWorkspace(
        SqliteDb &db, int64_t trackCount, const std::function<int64_t(int64_t track)> &sliceCount);
    // The kept rows, after summariseKept(true) (null after summariseKept(false)).
    [[nodiscard]] std::unique_ptr<KeptSlices> takeKept() { return std::move(m_kept); }

    // For tests: whether `track`'s tiles can come from its kept rows (kept, in order), and the memory
    // the kept rows take.
    [[nodiscard]] bool isKept(int64_t track) const
    {
        return m_kept && m_kept->isKept(track) && m_kept->isOrdered(track);
    }
    [[nodiscard]] size_t keptBytes() const { return m_kept ? m_kept->bytes() : 0; }

private:
    TraceWriter &m_writer;
    int64_t m_trackBase;
    std::unique_ptr<KeptSlices> m_kept;
    // By track id - m_trackBase: the origin of the tiles summariseKept() built, kNoValue for none.
    std::vector<int64_t> m_origins;
};

} // namespace plumb
