// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace plumb {

constexpr int64_t kNoValue = INT64_MIN; // an absent optional integer (stored as NULL)

// One batch of a trace import's rows, filled by the trackers on the parsing thread and written by
// the TraceWriter's thread: maps the rows of the slice, counter, flow, string, args, slice_lod and
// slice_corr_tile tables onto plain vectors. Ids are final (assigned by the trackers); kNoValue is
// written as NULL.
struct TraceBatch {
    struct SliceRow {
        int64_t track, ts, id, dur;
        int64_t depth, name, cat, corr, ext, seq, evIdx, rfId, args;
    };
    struct CounterRow {
        int64_t track, ts, id;
        double value;
    };
    struct FlowRow {
        int64_t id, cat, key, srcTrack, srcTs, dstTrack, dstTs;
    };
    struct LodTileRow {
        int64_t track;
        int level;
        int64_t tile;
        std::vector<unsigned char> data;
    };
    struct CorrTile {
        int64_t count = 0; // slices in it; the starts are meaningful when > 0
        int64_t firstTs = 0, lastTs = 0;
        int64_t minCorr = INT64_MAX, maxCorr = INT64_MIN;
    };
    struct CorrTileRow {
        int64_t track;
        CorrTile tile;
    };

    std::vector<SliceRow> slices;
    std::vector<LodTileRow> lodTiles; // timeline summary tiles (see SliceLodTracker)
    std::vector<CorrTileRow> corrTiles;
    std::vector<CounterRow> counters;
    std::vector<FlowRow> flows;
    std::vector<std::pair<int64_t, std::string>> strings;
    std::vector<std::pair<int64_t, std::string>> args;

    // The rows that count towards a full batch (strings, args and tiles ride along).
    [[nodiscard]] size_t rows() const { return slices.size() + counters.size() + flows.size(); }
    [[nodiscard]] bool empty() const
    {
        return rows() == 0 && strings.empty() && args.empty() && lodTiles.empty() && corrTiles.empty();
    }
    void clear()
    {
        slices.clear();
        counters.clear();
        flows.clear();
        strings.clear();
        args.clear();
        lodTiles.clear();
        corrTiles.clear();
    }
};

} // namespace plumb
