// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"
#include "ingest/trace/tracewriter.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace plumb {

class KeptSlices;
class SqliteDb;

// The correlation-id index of one trace's slices (slice_corr_tile, see schema.cpp, migration 11):
// maps each run of kCorrTileSlices consecutive slices with a corr on a track onto one row with its
// time and corr ranges, so that a lookup by corr scans only the tiles that may hold it. Tiles are
// made as the slices pass while a track's slices come in (ts, id) order; a track whose slices did not
// is tiled from the workspace by tileFromWorkspace() instead (tiles made in arrival order could each
// span the whole track).
class CorrTileTracker {
public:
    // Slices with a correlation id per tile: a lookup scans about this many slices per tile.
    static constexpr int64_t kCorrTileSlices = 1024;

    CorrTileTracker(TraceWriter &writer, int64_t firstTrackId);

    // One emitted slice of `track` with correlation id `corr`; `inOrder`: every slice of the track so
    // far came in (ts, id) order.
    void add(int64_t track, bool inOrder, int64_t tsNs, int64_t corr)
    {
        State &s = state(track);
        if (!inOrder) {
            s.fromWorkspace = true;
            return;
        }
        TraceBatch::CorrTile &t = s.tile;
        if (t.count == 0) {
            t.firstTs = tsNs;
        }
        t.lastTs = tsNs;
        t.minCorr = std::min(t.minCorr, corr);
        t.maxCorr = std::max(t.maxCorr, corr);
        if (++t.count == kCorrTileSlices) {
            m_writer.batch().corrTiles.push_back({ track, t });
            t = {};
        }
    }
    // Hands the partly filled tiles to the writer's batch (at the end of the input).
    void flush();
    // After the writer is done: replaces the tiles of the tracks whose slices came out of order by
    // tiles made in (ts, id) order, from the rows the import kept (`kept`) where it kept the track's,
    // else from the workspace.
    void tileFromWorkspace(SqliteDb &db, const KeptSlices *kept = nullptr);

private:
    struct State {
        TraceBatch::CorrTile tile; // the slices with a corr since the last tile was handed over
        bool fromWorkspace = false;
    };
    State &state(int64_t track)
    {
        const auto i = size_t(track - m_trackBase);
        if (i >= m_states.size()) {
            m_states.resize(i + 1);
        }
        return m_states[i];
    }

    TraceWriter &m_writer;
    int64_t m_trackBase;
    std::vector<State> m_states; // by track id - m_trackBase; grown on first use
};

} // namespace plumb
