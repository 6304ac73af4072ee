// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace plumb {

class SqliteDb;

// Level-of-detail summaries of slice tracks, stored in the workspace at import time (table
// slice_lod), so that a timeline frame costs pixels, not events.
//
// Level L cuts time into buckets of 2^L ns counted from the track's origin (its first slice: bucket
// b = [origin + b*2^L, origin + (b+1)*2^L)), and kTileBuckets consecutive buckets make a tile, the unit
// stored and fetched. For each (bucket, depth) a summary keeps the number of slices starting there, the
// earliest start, the latest end, and the last slice to start (time, duration, name). When the bucket is no
// wider than the minimum visible width, a slice at least that wide is necessarily the last one of its bucket
// and depth (the slices of a depth do not overlap), so drawing from the summary shows every visible slice
// exactly.
//
// Every tile in which a slice starts has a row. A tile stores its buckets only when that halves
// what a reader fetches (summaries <= slices / 2); otherwise the row says "read the slices", which
// are then few. Every row also stores its carry-out: per depth, the slice that starts in or before
// the tile and ends after it, so a window starting anywhere finds the slices reaching into it
// without scanning back.
//
// Levels run from a little below the track's mean slice spacing up to the level where the whole
// track is one tile. Tracks with fewer than kMinSummarisedSlices slices have none: reading them
// raw is cheap.

constexpr int64_t kMinSummarisedSlices = 2048;
constexpr int kTileShift = 10;
constexpr int64_t kTileBuckets = int64_t(1) << kTileShift;

struct SliceSummary {
    int64_t bucket = 0;
    int depth = 0;
    int64_t count = 0;
    int64_t minStartNs = 0; // trace time (slice.ts)
    int64_t maxEndNs = 0;
    int64_t lastTsNs = 0; // the last slice starting in the bucket
    int64_t lastDurNs = 0;
    int64_t lastNameId = 0;

    friend bool operator==(const SliceSummary &, const SliceSummary &) = default;
};

struct CarrySlice {
    int depth = 0;
    int64_t tsNs = 0;
    int64_t durNs = 0;
    int64_t nameId = 0;

    friend bool operator==(const CarrySlice &, const CarrySlice &) = default;
};

struct SummaryTile {
    int level = 0;
    int64_t tile = 0;
    bool hasBuckets = false; // false: read the tile's slices instead
    int64_t sliceCount = 0; // slices starting in the tile
    std::vector<CarrySlice> carryOut; // by depth
    std::vector<SliceSummary> buckets; // by (depth, bucket); empty unless hasBuckets
};

// Builds the summaries of every slice track of the trace (replacing any it had). Runs inside the
// caller's transaction; one ordered scan of each track.
void buildSliceSummaries(SqliteDb &db, int64_t traceId);
// The same for one track of `sliceCount` slices, read back in (ts, id) order (no tiles when it has none).
void buildTrackSliceSummaries(SqliteDb &db, int64_t trackId, int64_t sliceCount);
// Builds them for every trace that has none (workspaces written before summaries existed).
void buildMissingSliceSummaries(SqliteDb &db);

// The levels stored for a track: [lowest, highest] and the origin of their buckets; lowest = -1
// when the track has none.
struct SummaryLevels {
    int lowest = -1;
    int highest = -1;
    int64_t originNs = 0; // trace time of bucket 0's start
    [[nodiscard]] bool isEmpty() const { return lowest < 0; }
    // Tile index of trace time tNs at `level`, and the first trace time of a tile. Two's-complement
    // wrapping arithmetic: exact for every time a trace holds, defined (if meaningless) for a crafted
    // file whose times span more than 2^63 ns.
    [[nodiscard]] int64_t tileOf(int level, int64_t tNs) const
    {
        return int64_t(uint64_t(tNs) - uint64_t(originNs)) >> (level + kTileShift);
    }
    [[nodiscard]] int64_t tileStartNs(int level, int64_t tile) const
    {
        return int64_t(uint64_t(originNs) + (uint64_t(tile) << (level + kTileShift)));
    }
    [[nodiscard]] int64_t bucketStartNs(int level, int64_t bucket) const
    {
        return int64_t(uint64_t(originNs) + (uint64_t(bucket) << level));
    }
};
[[nodiscard]] SummaryLevels summaryLevels(SqliteDb &db, int64_t trackId);

// The levels a track of `sliceCount` slices starting from firstTs to lastTs is summarised at.
[[nodiscard]] SummaryLevels sliceSummaryLevels(int64_t firstTs, int64_t lastTs, int64_t sliceCount);

// Builds the tiles of one track from its slices, given in (ts, id) order, without the database:
// each finished tile goes to `sink` (level, tile index, encoded payload). buildSliceSummaries()
// feeds it from the workspace; TraceSink feeds it from the rows it kept, while its writer thread
// is still inserting them.
// The statement that stores one tile (track_id, level, tile, data), for whichever connection writes it.
inline constexpr const char *kInsertSliceLodSql
    = "INSERT INTO slice_lod(track_id, level, tile, data) VALUES (?,?,?,?)";

class SliceSummaryBuilder {
public:
    using TileSink = std::function<void(int level, int64_t tile, const std::vector<unsigned char> &data)>;
    SliceSummaryBuilder(const SummaryLevels &levels, TileSink sink);
    ~SliceSummaryBuilder();
    SliceSummaryBuilder(const SliceSummaryBuilder &) = delete;
    SliceSummaryBuilder &operator=(const SliceSummaryBuilder &) = delete;
    void add(int64_t ts, int64_t dur, int depth, int64_t nameId);
    void finish(); // flushes the last tile of every level

private:
    struct LevelBuilder;
    void flushTile(LevelBuilder &b);
    SummaryLevels m_levels;
    TileSink m_sink;
    std::vector<LevelBuilder> m_builders;
    std::vector<CarrySlice> m_last; // by depth: the last slice seen (depth -1: none yet)
    std::vector<CarrySlice> m_carry;
    std::vector<unsigned char> m_blob;
};

// The stored tiles of one level of a track with tile index in [firstTile, lastTile], in tile order.
[[nodiscard]] std::vector<SummaryTile> summaryTiles(SqliteDb &db, int64_t trackId,
    const SummaryLevels &levels, int level, int64_t firstTile, int64_t lastTile);
// The last stored tile of a level before `tile` (for its carry-out), if any.
[[nodiscard]] bool summaryTileBefore(
    SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level, int64_t tile, SummaryTile &out);

// Serialisation of a tile's payload, times relative to the tile's start (exposed for tests).
[[nodiscard]] std::vector<unsigned char> encodeSummaryTile(
    const SummaryTile &tile, const SummaryLevels &levels);
[[nodiscard]] SummaryTile decodeSummaryTile(
    int level, int64_t tile, const SummaryLevels &levels, const unsigned char *data, size_t size);

} // namespace plumb
