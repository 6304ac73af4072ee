// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/corrtiletracker.h"

#include "store/keptslices.h"
#include "store/sqlitedb.h"

namespace plumb {

CorrTileTracker::CorrTileTracker(TraceWriter &writer, int64_t firstTrackId)
    : m_writer(writer)
    , m_trackBase(firstTrackId)
{
}

void CorrTileTracker::flush()
{
    for (size_t t = 0; t < m_states.size(); ++t) {
        if (m_states[t].tile.count > 0) {
            m_writer.batch().corrTiles.push_back({ m_trackBase + int64_t(t), m_states[t].tile });
            m_states[t].tile = {};
        }
    }
}

// One read of each track in key order (the kept rows' ordered runs merged, else the workspace's), tiled
// here: the same rows as migration 11's window query
// (row_number() over (ts, id), GROUP BY tile), which SQLite answered by copying the track's rows into
// a window and sorting them again for the GROUP BY: 8x slower.
void CorrTileTracker::tileFromWorkspace(SqliteDb &db, const KeptSlices *kept)
{
    SqliteStmt clear(db, "DELETE FROM slice_corr_tile WHERE track_id = ?");
    SqliteStmt select(
        db, "SELECT ts, corr FROM slice WHERE track_id = ? AND corr IS NOT NULL ORDER BY ts, id");
    SqliteStmt insert(db,
        "INSERT OR IGNORE INTO slice_corr_tile(track_id, first_ts, last_ts, min_corr, max_corr) "
        "VALUES (?,?,?,?,?)");
    std::vector<TraceBatch::CorrTile> tiles;
    for (size_t t = 0; t < m_states.size(); ++t) {
        if (!m_states[t].fromWorkspace) {
            continue;
        }
        const int64_t track = m_trackBase + int64_t(t);
        TraceBatch::CorrTile tile;
        tiles.clear();
        const auto take = [&](int64_t ts, int64_t corr) {
            if (tile.count == 0) {
                tile.firstTs = ts;
            }
            tile.lastTs = ts;
            tile.minCorr = std::min(tile.minCorr, corr);
            tile.maxCorr = std::max(tile.maxCorr, corr);
            if (++tile.count == kCorrTileSlices) {
                tiles.push_back(tile);
                tile = {};
            }
        };
        if (kept && kept->canOrder(track)) {
            KeptSlices::OrderedCursor rows = kept->rowsInOrder(track);
            for (KeptSlice r; rows.next(r);) {
                if (r.corr != KeptSlice::kAbsent) {
                    take(r.ts, r.corr);
                }
            }
        } else {
            select.bind(1, track);
            while (select.step()) {
                take(select.columnInt(0), select.columnInt(1));
            }
            select.reset();
        }
        if (tile.count > 0) {
            tiles.push_back(tile);
        }
        clear.bind(1, track).run();
        for (const TraceBatch::CorrTile &c : tiles) {
            insert.bind(1, track)
                .bind(2, c.firstTs)
                .bind(3, c.lastTs)
                .bind(4, c.minCorr)
                .bind(5, c.maxCorr)
                .run();
        }
    }
}

} // namespace plumb
