// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/slicesummary.h"

#include <cstdint>
#include <vector>

namespace plumb {

class SqliteDb;

// Level-of-detail summaries of counter tracks (table counter_lod), the counterpart of slicesummary.h:
// level L cuts time into buckets of 2^L ns from the track's first sample (track.lod_origin_ns), 1024
// buckets make a tile, and a bucket keeps its samples' count, first and last time, and min, max, first
// and last value, so peaks survive any zoom. A tile stores its buckets only when that quarters what a
// reader fetches, else the reader reads its samples. Every row also keeps the tile's last sample (the
// value held into the next tile). Tracks with fewer than kMinSummarisedSamples samples have none.

constexpr int64_t kMinSummarisedSamples = 4096;

struct CounterSummary {
    int64_t bucket = 0;
    int64_t count = 0;
    int64_t firstTsNs = 0; // trace time
    int64_t lastTsNs = 0;
    double min = 0, max = 0, first = 0, last = 0;
    friend bool operator==(const CounterSummary &, const CounterSummary &) = default;
};

struct CounterTile {
    int level = 0;
    int64_t tile = 0;
    bool hasBuckets = false; // false: read the tile's samples instead
    int64_t sampleCount = 0;
    int64_t lastTsNs = 0; // the tile's last sample
    double lastValue = 0;
    std::vector<CounterSummary> buckets;
};

// Builds the summaries of every counter track of the trace (replacing any). Inside the caller's
// transaction; one ordered scan per track.
void buildCounterSummaries(SqliteDb &db, int64_t traceId);
// Builds them for every trace with enough samples (workspaces written before they existed).
void buildMissingCounterSummaries(SqliteDb &db);

// The tiles of one level of a counter track with index in [firstTile, lastTile], in order.
[[nodiscard]] std::vector<CounterTile> counterTiles(SqliteDb &db, int64_t trackId,
    const SummaryLevels &levels, int level, int64_t firstTile, int64_t lastTile);
// The last stored tile before `tile`, if any.
[[nodiscard]] bool counterTileBefore(
    SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level, int64_t tile, CounterTile &out);
// The levels stored for a counter track (lowest = -1 when none).
[[nodiscard]] SummaryLevels counterSummaryLevels(SqliteDb &db, int64_t trackId);

} // namespace plumb
