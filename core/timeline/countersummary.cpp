// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/countersummary.h"

#include "store/sqlitedb.h"
#include "timeline/lodtable.h"
#include "timeline/varint.h"

#include <algorithm>
#include <bit>

namespace plumb {

namespace {

void encode(std::vector<unsigned char> &out, const SummaryLevels &levels, const CounterTile &t)
{
    out.clear();
    const int64_t tileStart = levels.tileStartNs(t.level, t.tile);
    varint::put(out, t.hasBuckets ? 1 : 0);
    varint::put(out, uint64_t(t.sampleCount));
    varint::putSigned(out, t.lastTsNs - tileStart);
    varint::putDouble(out, t.lastValue);
    varint::put(out, t.buckets.size());
    int64_t bucket = t.tile << kTileShift;
    for (const CounterSummary &b : t.buckets) {
        varint::put(out, uint64_t(b.bucket - bucket));
        bucket = b.bucket;
        varint::put(out, uint64_t(b.count));
        varint::put(out, uint64_t(b.firstTsNs - levels.bucketStartNs(t.level, b.bucket)));
        varint::put(out, uint64_t(b.lastTsNs - b.firstTsNs));
        varint::putDouble(out, b.min);
        varint::putDouble(out, b.max);
        varint::putDouble(out, b.first);
        varint::putDouble(out, b.last);
    }
}

CounterTile decode(int level, int64_t tileIndex, const SummaryLevels &levels, std::string_view blob)
{
    CounterTile t;
    t.level = level;
    t.tile = tileIndex;
    varint::Reader r { reinterpret_cast<const unsigned char *>(blob.data()),
        reinterpret_cast<const unsigned char *>(blob.data()) + blob.size() };
    const int64_t tileStart = levels.tileStartNs(level, tileIndex);
    t.hasBuckets = r.get() & 1;
    t.sampleCount = int64_t(r.get());
    t.lastTsNs = tileStart + r.getSigned();
    t.lastValue = r.getDouble();
    const uint64_t n = r.get();
    if (n > blob.size())
        throw std::runtime_error("bad counter summary tile");
    t.buckets.resize(size_t(n));
    int64_t bucket = tileIndex << kTileShift;
    for (CounterSummary &b : t.buckets) {
        bucket += int64_t(r.get());
        b.bucket = bucket;
        b.count = int64_t(r.get());
        b.firstTsNs = levels.bucketStartNs(level, bucket) + int64_t(r.get());
        b.lastTsNs = b.firstTsNs + int64_t(r.get());
        b.min = r.getDouble();
        b.max = r.getDouble();
        b.first = r.getDouble();
        b.last = r.getDouble();
    }
    return t;
}

void summariseCounterTrack(SqliteDb &db, int64_t trackId, int64_t sampleCount)
{
    SummaryLevels levels;
    {
        SqliteStmt range(db,
            "SELECT (SELECT min(ts) FROM counter WHERE track_id = ?1), "
            "(SELECT max(ts) FROM counter WHERE track_id = ?1)");
        range.bind(1, trackId);
        if (!range.step() || range.columnIsNull(0))
            return;
        levels.originNs = range.columnInt(0);
        const auto span = uint64_t(range.columnInt(1) - levels.originNs) + 1;
        // From the mean sample spacing (a finer bucket holds one sample) to one tile for the track.
        const int meanLevel = int(std::bit_width(std::max<uint64_t>(1, span / uint64_t(sampleCount)))) - 1;
        levels.lowest = std::max(0, meanLevel);
        levels.highest = std::max(levels.lowest, int(std::bit_width(span >> kTileShift)));
    }
    std::vector<CounterTile> open(size_t(levels.highest - levels.lowest + 1));
    for (size_t i = 0; i < open.size(); ++i) {
        open[i].level = levels.lowest + int(i);
        open[i].tile = INT64_MIN;
    }
    SqliteStmt insert(db, "INSERT INTO counter_lod(track_id, level, tile, data) VALUES (?,?,?,?)");
    std::vector<unsigned char> blob;
    auto flush = [&](CounterTile &t) {
        if (t.tile == INT64_MIN || t.sampleCount == 0)
            return;
        // Buckets are 4 doubles each: worth storing when they quarter the samples a reader reads.
        t.hasBuckets = int64_t(t.buckets.size()) * 4 <= t.sampleCount;
        if (!t.hasBuckets)
            t.buckets.clear();
        encode(blob, levels, t);
        insert.bind(1, trackId).bind(2, t.level).bind(3, t.tile).bindBlob(4, blob.data(), blob.size()).run();
        t.buckets.clear();
        t.sampleCount = 0;
    };
    SqliteStmt st(db, "SELECT ts, value FROM counter WHERE track_id = ? ORDER BY ts, id");
    st.bind(1, trackId);
    while (st.step()) {
        const int64_t ts = st.columnInt(0);
        const double v = st.columnDouble(1);
        const int64_t rel = ts - levels.originNs;
        for (CounterTile &t : open) {
            const int64_t bucket = rel >> t.level;
            if ((bucket >> kTileShift) != t.tile) {
                flush(t);
                t.tile = bucket >> kTileShift;
            }
            ++t.sampleCount;
            t.lastTsNs = ts;
            t.lastValue = v;
            if (t.buckets.empty() || t.buckets.back().bucket != bucket) {
                t.buckets.push_back({ bucket, 1, ts, ts, v, v, v, v });
                continue;
            }
            CounterSummary &b = t.buckets.back();
            ++b.count;
            b.lastTsNs = ts;
            b.min = std::min(b.min, v);
            b.max = std::max(b.max, v);
            b.last = v;
        }
    }
    for (CounterTile &t : open)
        flush(t);
    SqliteStmt origin(db, "UPDATE track SET lod_origin_ns = ? WHERE id = ?");
    origin.bind(1, levels.originNs).bind(2, trackId).run();
}

} // namespace

void buildCounterSummaries(SqliteDb &db, int64_t traceId)
{
    std::vector<int64_t> tracks;
    {
        SqliteStmt st(db, "SELECT id FROM track WHERE trace_id = ? AND kind = 'counter'");
        st.bind(1, traceId);
        while (st.step())
            tracks.push_back(st.columnInt(0));
    }
    SqliteStmt clear(db, "DELETE FROM counter_lod WHERE track_id = ?");
    SqliteStmt count(db, "SELECT count(*) FROM counter WHERE track_id = ?");
    for (int64_t track : tracks) {
        clear.bind(1, track).run();
        count.bind(1, track);
        const int64_t samples = count.step() ? count.columnInt(0) : 0;
        count.reset();
        if (samples >= kMinSummarisedSamples)
            summariseCounterTrack(db, track, samples);
    }
}

void buildMissingCounterSummaries(SqliteDb &db)
{
    std::vector<int64_t> traces;
    {
        SqliteStmt st(db, "SELECT id FROM trace WHERE counter_count >= ?");
        st.bind(1, kMinSummarisedSamples);
        while (st.step())
            traces.push_back(st.columnInt(0));
    }
    for (int64_t trace : traces)
        buildCounterSummaries(db, trace);
}

SummaryLevels counterSummaryLevels(SqliteDb &db, int64_t trackId)
{
    return lodtable::levels(db, "counter_lod", trackId);
}

std::vector<CounterTile> counterTiles(SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level,
    int64_t firstTile, int64_t lastTile)
{
    return lodtable::tiles<CounterTile>(db, "counter_lod", trackId, level, firstTile, lastTile,
        [&](int l, int64_t t, std::string_view blob) { return decode(l, t, levels, blob); });
}

bool counterTileBefore(
    SqliteDb &db, int64_t trackId, const SummaryLevels &levels, int level, int64_t tile, CounterTile &out)
{
    return lodtable::tileBefore(db, "counter_lod", trackId, level, tile, out,
        [&](int l, int64_t t, std::string_view blob) { return decode(l, t, levels, blob); });
}

} // namespace plumb
