// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/slicesummary.h"

#include "store/sqlitedb.h"
#include "timeline/lodtable.h"
#include "timeline/varint.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace plumb {

namespace {

// The payload: flags, slice count, carry-out, then the buckets by (depth, bucket), given as lists
// per depth (each in bucket order).
template <typename DepthLists>
void encodeTile(std::vector<unsigned char> &buffer, const SummaryLevels &levels, int level, int64_t tileIndex,
    bool hasBuckets, int64_t sliceCount, const std::vector<CarrySlice> &carryOut, const DepthLists &byDepth,
    size_t bucketCount)
{
    buffer.clear();
    varint::Appender out(buffer, 4 + 4 * carryOut.size() + 8 * bucketCount);
    const int64_t tileStart = levels.tileStartNs(level, tileIndex);
    out.put(hasBuckets ? 1 : 0);
    out.put(uint64_t(sliceCount));
    out.put(carryOut.size());
    for (const CarrySlice &c : carryOut) {
        out.put(uint64_t(c.depth));
        out.putSigned(c.tsNs - tileStart);
        out.put(uint64_t(c.durNs));
        out.put(uint64_t(c.nameId));
    }
    out.put(bucketCount);
    int depth = 0;
    for (const auto &list : byDepth) {
        int64_t bucket = tileIndex << kTileShift;
        bool first = true;
        for (const SliceSummary &b : list) {
            if (first && b.depth != depth) {
                out.put(uint64_t(b.depth - depth) << 1 | 1);
                depth = b.depth;
            } else {
                out.put(0);
            }
            first = false;
            out.put(uint64_t(b.bucket - bucket));
            bucket = b.bucket;
            const int64_t bucketStart = levels.bucketStartNs(level, b.bucket);
            out.put(uint64_t(b.count));
            out.put(uint64_t(b.minStartNs - bucketStart));
            out.put(uint64_t(b.maxEndNs - b.minStartNs));
            out.put(uint64_t(b.lastTsNs - b.minStartNs));
            out.put(uint64_t(b.lastDurNs));
            out.put(uint64_t(b.lastNameId));
        }
    }
}

} // namespace

std::vector<unsigned char> encodeSummaryTile(const SummaryTile &tile, const SummaryLevels &levels)
{
    std::vector<std::vector<SliceSummary>> byDepth;
    for (const SliceSummary &b : tile.buckets) {
        if (byDepth.empty() || byDepth.back().front().depth != b.depth)
            byDepth.emplace_back();
        byDepth.back().push_back(b);
    }
    std::vector<unsigned char> out;
    encodeTile(out, levels, tile.level, tile.tile, tile.hasBuckets, tile.sliceCount, tile.carryOut, byDepth,
        tile.buckets.size());
    return out;
}

SummaryTile decodeSummaryTile(
    int level, int64_t tileIndex, const SummaryLevels &levels, const unsigned char *data, size_t size)
{
    SummaryTile tile;
    tile.level = level;
    tile.tile = tileIndex;
    varint::Reader r { data, data + size };
    const int64_t tileStart = levels.tileStartNs(level, tileIndex);
    tile.hasBuckets = r.get() & 1;
    tile.sliceCount = int64_t(r.get());
    const uint64_t carries = r.get();
    if (carries > size)
        throw std::runtime_error("bad timeline summary tile");
    tile.carryOut.resize(size_t(carries));
    for (CarrySlice &c : tile.carryOut) {
        c.depth = int(r.get());
        c.tsNs = tileStart + r.getSigned();
        c.durNs = int64_t(r.get());
        c.nameId = int64_t(r.get());
    }
    const uint64_t n = r.get();
    if (n > size)
        throw std::runtime_error("bad timeline summary tile");
    tile.buckets.resize(size_t(n));
    int depth = 0;
    int64_t bucket = tileIndex << kTileShift;
    for (SliceSummary &b : tile.buckets) {
        const uint64_t d = r.get();
        if (d & 1) {
            depth += int(d >> 1);
            bucket = tileIndex << kTileShift;
        }
        b.depth = depth;
        bucket += int64_t(r.get());
        b.bucket = bucket;
        b.count = int64_t(r.get());
        b.minStartNs = levels.bucketStartNs(level, bucket) + int64_t(r.get());
        b.maxEndNs = b.minStartNs + int64_t(r.get());
        b.lastTsNs = b.minStartNs + int64_t(r.get());
        b.lastDurNs = int64_t(r.get());
        b.lastNameId = int64_t(r.get());
    }
    return tile;
}

SummaryLevels sliceSummaryLevels(int64_t firstTs, int64_t lastTs, int64_t sliceCount)
{
    SummaryLevels levels;
    levels.originNs = firstTs;
    // Unsigned: a crafted file's times may span more than INT64_MAX.
    const uint64_t span = uint64_t(lastTs) - uint64_t(firstTs) + 1;
    // From 8x below the mean spacing of slice starts (finer levels hold about one slice per bucket
    // and would not be stored anyway) to the level where one tile holds the whole track.
    const int meanLevel
        = int(std::bit_width(std::max<uint64_t>(1, span / uint64_t(std::max<int64_t>(1, sliceCount))))) - 1;
    levels.lowest = std::max(0, meanLevel - 3);
    // 2^(level + kTileShift) must stay a positive int64_t (tileStartNs()).
    levels.highest
        = std::min(std::max(levels.lowest, int(std::bit_width(span >> kTileShift))), 62 - kTileShift);
    levels.lowest = std::min(levels.lowest, levels.highest);
    return levels;
}

// One level of the build: the open bucket per depth and the finished buckets of the current tile.
struct SliceSummaryBuilder::LevelBuilder {
    int level = 0;
    int64_t tile = INT64_MIN;
    int64_t sliceCount = 0;
    size_t doneCount = 0;
    std::vector<SliceSummary> open; // by depth; count == 0: none
    std::vector<std::vector<SliceSummary>> done; // by depth, in bucket order (capacity kept)
};

SliceSummaryBuilder::SliceSummaryBuilder(const SummaryLevels &levels, TileSink sink)
    : m_levels(levels)
    , m_sink(std::move(sink))
{
    for (int l = levels.lowest; l <= levels.highest; ++l) {
        m_builders.emplace_back();
        m_builders.back().level = l;
    }
}

SliceSummaryBuilder::~SliceSummaryBuilder() = default;

void SliceSummaryBuilder::add(int64_t ts, int64_t dur, int depth, int64_t nameId)
{
    const auto d = size_t(depth);
    if (d >= m_last.size()) {
        m_last.resize(d + 1, CarrySlice { -1, 0, 0, 0 });
        for (LevelBuilder &b : m_builders) {
            b.open.resize(d + 1);
            b.done.resize(d + 1);
        }
    }
    const auto rel = int64_t(uint64_t(ts) - uint64_t(m_levels.originNs)); // wraps only past 2^63 ns
    for (LevelBuilder &b : m_builders) {
        const int64_t bucket = rel >> b.level;
        const int64_t tile = bucket >> kTileShift;
        if (tile != b.tile) {
            flushTile(b);
            b.tile = tile;
        }
        ++b.sliceCount;
        SliceSummary &s = b.open[d];
        if (s.count && s.bucket == bucket) {
            ++s.count;
            s.maxEndNs = std::max(s.maxEndNs, ts + dur);
            s.lastTsNs = ts;
            s.lastDurNs = dur;
            s.lastNameId = nameId;
            continue;
        }
        if (s.count) {
            b.done[d].push_back(s);
            ++b.doneCount;
        }
        s = SliceSummary { bucket, depth, 1, ts, ts + dur, ts, dur, nameId };
    }
    m_last[d] = CarrySlice { depth, ts, dur, nameId };
}

void SliceSummaryBuilder::finish()
{
    for (LevelBuilder &b : m_builders)
        flushTile(b);
}

void SliceSummaryBuilder::flushTile(LevelBuilder &b)
{
    if (b.tile == INT64_MIN || b.sliceCount == 0)
        return;
    for (size_t d = 0; d < b.open.size(); ++d) {
        if (b.open[d].count) {
            b.done[d].push_back(b.open[d]);
            ++b.doneCount;
        }
        b.open[d].count = 0;
    }
    // Summaries pay off when they at least halve what a reader fetches.
    const bool hasBuckets = int64_t(b.doneCount) * 2 <= b.sliceCount;
    const int64_t tileEnd = m_levels.tileStartNs(b.level, b.tile + 1);
    m_carry.clear();
    for (const CarrySlice &c : m_last)
        if (c.depth >= 0 && c.tsNs + c.durNs > tileEnd)
            m_carry.push_back(c);
    static const std::vector<std::vector<SliceSummary>> none;
    encodeTile(m_blob, m_levels, b.level, b.tile, hasBuckets, b.sliceCount, m_carry,
        hasBuckets ? b.done : none, hasBuckets ? b.doneCount : 0);
    m_sink(b.level, b.tile, m_blob);
    for (auto &list : b.done)
        list.clear();
    b.doneCount = 0;
    b.sliceCount = 0;
}

void buildTrackSliceSummaries(SqliteDb &db, int64_t trackId, int64_t sliceCount)
{
    int64_t firstTs = 0, lastTs = 0;
    {
        SqliteStmt range(db,
            "SELECT (SELECT min(ts) FROM slice WHERE track_id = ?1), "
            "(SELECT max(ts) FROM slice WHERE track_id = ?1)");
        range.bind(1, trackId);
        if (!range.step() || range.columnIsNull(0))
            return;
        firstTs = range.columnInt(0);
        lastTs = range.columnInt(1);
    }
    const SummaryLevels levels = sliceSummaryLevels(firstTs, lastTs, sliceCount);
    SqliteStmt insert(db, kInsertSliceLodSql);
    SliceSummaryBuilder builder(levels, [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
        insert.bind(1, trackId).bind(2, level).bind(3, tile).bindBlob(4, data.data(), data.size()).run();
    });
    SqliteStmt st(db, "SELECT ts, dur, depth, name_id FROM slice WHERE track_id = ? ORDER BY ts, id");
    st.bind(1, trackId);
    while (st.step())
        builder.add(
            st.columnInt(0), st.columnInt(1), int(std::max<int64_t>(0, st.columnInt(2))), st.columnInt(3));
    builder.finish();
    SqliteStmt origin(db, "UPDATE track SET lod_origin_ns = ? WHERE id = ?");
    origin.bind(1, firstTs).bind(2, trackId).run();
}

void buildSliceSummaries(SqliteDb &db, int64_t traceId)
{
    std::vector<std::pair<int64_t, int64_t>> tracks;
    {
        SqliteStmt st(db, "SELECT id, slice_count FROM track WHERE trace_id = ? AND kind <> 'counter'");
        st.bind(1, traceId);
        while (st.step())
            tracks.emplace_back(st.columnInt(0), st.columnInt(1));
    }
    SqliteStmt clear(db, "DELETE FROM slice_lod WHERE track_id = ?");
    for (const auto &[track, count] : tracks) {
        clear.bind(1, track).run();
        if (count >= kMinSummarisedSlices)
            buildTrackSliceSummaries(db, track, count);
    }
}

void buildMissingSliceSummaries(SqliteDb &db)
{
    std::vector<int64_t> traces;
    {
        SqliteStmt st(db,
            "SELECT t.id FROM trace t WHERE EXISTS (SELECT 1 FROM track k WHERE k.trace_id = t.id "
            "AND k.slice_count >= ? AND k.kind <> 'counter' AND k.lod_origin_ns IS NULL)");
        st.bind(1, kMinSummarisedSlices);
        while (st.step())
            traces.push_back(st.columnInt(0));
    }
    for (int64_t trace : traces)
        buildSliceSummaries(db, trace);
}

SummaryLevels summaryLevels(SqliteDb &db, int64_t trackId)
{
    return lodtable::levels(db, "slice_lod", trackId);
}

namespace {

SummaryTile decodeBlob(int level, int64_t tile, const SummaryLevels &levels, std::string_view blob)
{
    return decodeSummaryTile(
        level, tile, levels, reinterpret_cast<const unsigned char *>(blob.data()), blob.size());
}

} // namespace

std::vector<SummaryTile> summaryTiles(SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level,
    int64_t firstTile, int64_t lastTile)
{
    return lodtable::tiles<SummaryTile>(db, "slice_lod", trackId, level, firstTile, lastTile,
        [&](int l, int64_t t, std::string_view blob) { return decodeBlob(l, t, levels, blob); });
}

bool summaryTileBefore(
    SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level, int64_t tile, SummaryTile &out)
{
    return lodtable::tileBefore(db, "slice_lod", trackId, level, tile, out,
        [&](int l, int64_t t, std::string_view blob) { return decodeBlob(l, t, levels, blob); });
}

} // namespace plumb
