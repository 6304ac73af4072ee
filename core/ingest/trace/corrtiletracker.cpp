// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/corrtiletracker.h"

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

void CorrTileTracker::tileFromWorkspace(SqliteDb &db)
{
    SqliteStmt clear(db, "DELETE FROM slice_corr_tile WHERE track_id = ?");
    SqliteStmt tile(db,
        "INSERT OR IGNORE INTO slice_corr_tile(track_id, first_ts, last_ts, min_corr, max_corr) "
        "SELECT ?1, min(ts), max(ts), min(corr), max(corr) FROM (SELECT ts, corr, "
        "(row_number() OVER (ORDER BY ts, id) - 1) / ?2 AS tile FROM slice "
        "WHERE track_id = ?1 AND corr IS NOT NULL) GROUP BY tile");
    for (size_t t = 0; t < m_states.size(); ++t) {
        if (m_states[t].fromWorkspace) {
            const int64_t track = m_trackBase + int64_t(t);
            clear.bind(1, track).run();
            tile.bind(1, track).bind(2, kCorrTileSlices).run();
        }
    }
}

} // namespace plumb
