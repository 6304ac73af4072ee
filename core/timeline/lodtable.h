// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/sqlitedb.h"
#include "timeline/slicesummary.h"

#include <string>
#include <string_view>
#include <vector>

namespace plumb::lodtable {

// The storage shared by slice_lod and counter_lod: rows (track_id, level, tile, data), the levels a
// track has, a range of tiles of a level, and the last tile before one. `decode(level, tile, blob)`
// turns a row's data into the caller's tile type.

inline SummaryLevels levels(SqliteDb &db, std::string_view table, int64_t trackId)
{
    SummaryLevels levels;
    SqliteStmt st(db,
        "SELECT min(l.level), max(l.level), k.lod_origin_ns FROM " + std::string(table)
            + " l JOIN track k ON k.id = l.track_id WHERE l.track_id = ?");
    st.bind(1, trackId);
    if (st.step() && !st.columnIsNull(0)) {
        levels.lowest = int(st.columnInt(0));
        levels.highest = int(st.columnInt(1));
        levels.originNs = st.columnInt(2);
    }
    return levels;
}

template <typename Tile, typename Decode>
std::vector<Tile> tiles(SqliteDb &db, std::string_view table, int64_t trackId, int level, int64_t firstTile,
    int64_t lastTile, Decode decode)
{
    std::vector<Tile> out;
    SqliteStmt st(db,
        "SELECT tile, data FROM " + std::string(table)
            + " WHERE track_id = ? AND level = ? AND tile BETWEEN ? AND ? ORDER BY tile");
    st.bind(1, trackId).bind(2, level).bind(3, firstTile).bind(4, lastTile);
    while (st.step())
        out.push_back(decode(level, st.columnInt(0), st.columnBlob(1)));
    return out;
}

template <typename Tile, typename Decode>
bool tileBefore(
    SqliteDb &db, std::string_view table, int64_t trackId, int level, int64_t tile, Tile &out, Decode decode)
{
    SqliteStmt st(db,
        "SELECT tile, data FROM " + std::string(table)
            + " WHERE track_id = ? AND level = ? AND tile < ? ORDER BY tile DESC LIMIT 1");
    st.bind(1, trackId).bind(2, level).bind(3, tile);
    if (!st.step())
        return false;
    out = decode(level, st.columnInt(0), st.columnBlob(1));
    return true;
}

} // namespace plumb::lodtable
