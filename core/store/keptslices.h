// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/varint.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace plumb {

// One slice as the workspace's slice table holds it, the columns the import's summaries read (its
// seq, event index and record id aside). An absent column (NULL) is kAbsent.
struct KeptSlice {
    static constexpr int64_t kAbsent = INT64_MIN;
    int64_t ts = 0, dur = 0, depth = 0, name = 0;
    int64_t cat = kAbsent, corr = kAbsent, ext = kAbsent, args = kAbsent;
    int64_t id = 0;
};

// A trace's slices kept in memory by its import, track by track as they are written (in (ts, id) order
// on most tracks, see isOrdered()): compact rows (varints; ts, correlation, External id, args id and id as
// the difference from the track's row before; about 14 bytes a slice). The timeline's level-of-detail tiles
// (SliceLodTracker) and then the trace's summaries (writeTraceSummary()) are computed from them instead of
// reading the events back. A track stops being kept, for good, when the rows of all tracks pass the budget:
// it is then read from the workspace, as is a track whose rows came in more than kMaxRuns ordered runs
// where the reader needs them in order, and for the tiles one whose depths the import repairs afterwards.
class KeptSlices {
public:
    KeptSlices(int64_t firstTrackId, size_t maxBytes)
        : m_trackBase(firstTrackId)
        , m_maxBytes(maxBytes)
    {
    }

    // The optional columns' last values on a track, which the next row's are written against.
    struct Last {
        int64_t corr = 0, ext = 0, args = 0, id = 0;
    };
    // Where a run of rows starts: its first row's chunk and offset there, the start and optional columns
    // that row is written against, and its index on the track.
    struct RunStart {
        size_t chunk, offset;
        int64_t prevTs;
        Last last;
        int64_t row;
    };

    // One emitted slice of `track`. `inOrder`: every slice of the track so far came in (ts, id)
    // order and has its final depth.
    void add(int64_t track, bool inOrder, const KeptSlice &r)
    {
        Track &s = state(track);
        if (!s.kept) {
            return;
        }
        if (m_bytes.load(std::memory_order_relaxed) > m_maxBytes) {
            drop(s);
            return;
        }
        s.ordered = s.ordered && inOrder;
        if (s.count == 0) {
            s.firstTs = r.ts;
            s.lastTs = r.ts;
            s.minTs = r.ts;
            s.maxTs = r.ts;
        }
        s.minTs = std::min(s.minTs, r.ts);
        s.maxTs = std::max(s.maxTs, r.ts);
        const bool runEnds = s.count > 0 && (r.ts < s.lastTs || (r.ts == s.lastTs && r.id < s.last.id));
        // Rows go to chunks that are never regrown (no copy, no slack but the last chunk's), each
        // twice the one before up to kMaxChunkBytes; a row never spans two.
        if (s.chunks.empty()
            || s.chunks.back().size() + kRowRoom * varint::kMaxBytes > s.chunks.back().capacity()) {
            const size_t bytes = s.chunks.empty() ? kMinChunkBytes
                                                  : std::min(2 * s.chunks.back().capacity(), kMaxChunkBytes);
            s.chunks.emplace_back().reserve(bytes);
            m_bytes.fetch_add(bytes, std::memory_order_relaxed);
        }
        if (runEnds && s.runs.size() < kMaxRuns) {
            // A new (ts, id) ordered run starts at this row: where, and the values it is written against.
            s.runs.push_back({ s.chunks.size() - 1, s.chunks.back().size(), s.lastTs, s.last, s.count });
        }
        {
            varint::Appender out(s.chunks.back(), kRowRoom);
            out.put(uint64_t(r.ts) - uint64_t(s.lastTs)); // >= 0, but may pass INT64_MAX
            out.putSigned(r.dur);
            // The depth, and in its low 4 bits which optional columns follow: bit 0 cat, 1 corr, 2
            // ext, 3 args.
            const unsigned present = unsigned(r.cat != KeptSlice::kAbsent)
                | unsigned(r.corr != KeptSlice::kAbsent) << 1 | unsigned(r.ext != KeptSlice::kAbsent) << 2
                | unsigned(r.args != KeptSlice::kAbsent) << 3;
            out.put(uint64_t(std::max<int64_t>(0, r.depth)) << 4 | present);
            out.putSigned(r.name);
            if (r.cat != KeptSlice::kAbsent) {
                out.putSigned(r.cat);
            }
            putDelta(out, r.corr, s.last.corr);
            putDelta(out, r.ext, s.last.ext);
            putDelta(out, r.args, s.last.args);
            putDelta(out, r.id, s.last.id);
        }
        s.lastTs = r.ts;
        ++s.count;
        s.corrs = s.corrs || r.corr != KeptSlice::kAbsent;
    }

    // A track's rows, in the order they were added.
    class Cursor {
    public:
        // Reads the next row into `r`; false at the end.
        bool next(KeptSlice &r)
        {
            if (m_left == 0) {
                return false;
            }
            --m_left;
            while (m_in.p == m_in.end) {
                if (m_chunk == m_chunks->size()) {
                    return false;
                }
                const std::vector<unsigned char> &c = (*m_chunks)[m_chunk++];
                m_in = { c.data(), c.data() + c.size() };
            }
            m_ts = int64_t(uint64_t(m_ts) + m_in.get());
            r.ts = m_ts;
            r.dur = m_in.getSigned();
            const uint64_t depth = m_in.get();
            const uint64_t present = depth & 15;
            r.depth = int64_t(depth >> 4);
            r.name = m_in.getSigned();
            r.cat = present & 1 ? m_in.getSigned() : KeptSlice::kAbsent;
            r.corr = getDelta(present & 2, m_last.corr);
            r.ext = getDelta(present & 4, m_last.ext);
            r.args = getDelta(present & 8, m_last.args);
            r.id = getDelta(true, m_last.id);
            return true;
        }

    private:
        friend class KeptSlices;
        Cursor(const std::vector<std::vector<unsigned char>> &chunks, int64_t firstTs)
            : m_chunks(&chunks)
            , m_ts(firstTs)
        {
        }
        // The `rows` rows from one run's start on.
        Cursor(const std::vector<std::vector<unsigned char>> &chunks, const RunStart &run, int64_t rows)
            : m_chunks(&chunks)
            , m_chunk(run.chunk + 1)
            , m_in { chunks[run.chunk].data() + run.offset,
                chunks[run.chunk].data() + chunks[run.chunk].size() }
            , m_ts(run.prevTs)
            , m_last(run.last)
            , m_left(rows)
        {
        }
        int64_t getDelta(bool present, int64_t &last)
        {
            if (!present) {
                return KeptSlice::kAbsent;
            }
            last = int64_t(uint64_t(last) + uint64_t(m_in.getSigned()));
            return last;
        }
        const std::vector<std::vector<unsigned char>> *m_chunks;
        size_t m_chunk = 0; // the next to read
        varint::Reader m_in { nullptr, nullptr };
        int64_t m_ts;
        Last m_last;
        int64_t m_left = INT64_MAX; // rows still to read
    };

    // A track's rows in (ts, id) order: the ordered runs they came in, merged.
    class OrderedCursor {
    public:
        // Reads the next row into `r`; false at the end.
        bool next(KeptSlice &r)
        {
            if (m_runs.size() == 1) {
                return m_runs[0].next(r);
            }
            if (m_heap.empty()) {
                return false;
            }
            std::pop_heap(m_heap.begin(), m_heap.end(), later);
            const size_t i = m_heap.back().run;
            r = m_heads[i];
            if (m_runs[i].next(m_heads[i])) {
                m_heap.back() = { m_heads[i].ts, m_heads[i].id, i };
                std::push_heap(m_heap.begin(), m_heap.end(), later);
            } else {
                m_heap.pop_back();
            }
            return true;
        }

    private:
        friend class KeptSlices;
        explicit OrderedCursor(std::vector<Cursor> runs)
            : m_runs(std::move(runs))
            , m_heads(m_runs.size())
        {
            if (m_runs.size() == 1) {
                return;
            }
            for (size_t i = 0; i < m_runs.size(); ++i) {
                if (m_runs[i].next(m_heads[i])) {
                    m_heap.push_back({ m_heads[i].ts, m_heads[i].id, i });
                }
            }
            std::make_heap(m_heap.begin(), m_heap.end(), later);
        }
        struct Head {
            int64_t ts, id;
            size_t run;
        };
        static bool later(const Head &a, const Head &b) { return a.ts != b.ts ? a.ts > b.ts : a.id > b.id; }
        std::vector<Cursor> m_runs;
        std::vector<KeptSlice> m_heads; // each run's next row
        std::vector<Head> m_heap; // the runs with a row left, the earliest first
    };

    // Whether `track`'s rows are kept: every slice the import wrote on it, in the order it wrote them.
    // A track that had no slice counts as kept (it has none).
    [[nodiscard]] bool isKept(int64_t track) const
    {
        const Track *s = find(track);
        return !s || s->kept;
    }
    // Whether they came in (ts, id) order, each with its final depth (the workspace's order).
    [[nodiscard]] bool isOrdered(int64_t track) const
    {
        const Track *s = find(track);
        return !s || s->ordered;
    }
    // Whether rowsInOrder() can read `track`: it is kept, and its rows came in at most kMaxRuns runs in
    // (ts, id) order (Kineto writes CUPTI's activity buffer by buffer: a stream's kernels and a thread's
    // runtime calls come in a few runs).
    [[nodiscard]] bool canOrder(int64_t track) const
    {
        const Track *s = find(track);
        return !s || (s->kept && s->runs.size() < kMaxRuns);
    }
    // The track's rows in the order they came; isKept(track) must hold.
    [[nodiscard]] Cursor rows(int64_t track) const
    {
        const Track *s = find(track);
        return s ? Cursor(s->chunks, s->firstTs) : Cursor(noChunks(), 0);
    }
    // The track's rows in (ts, id) order, the workspace's; canOrder(track) must hold. Their depths are
    // final only where isOrdered(track).
    [[nodiscard]] OrderedCursor rowsInOrder(int64_t track) const
    {
        const Track *s = find(track);
        std::vector<Cursor> runs;
        if (!s || s->runs.empty()) {
            runs.push_back(rows(track));
            return OrderedCursor(std::move(runs));
        }
        runs.reserve(s->runs.size() + 1);
        for (size_t i = 0; i <= s->runs.size(); ++i) {
            const RunStart start = i == 0 ? RunStart { 0, 0, s->firstTs, Last {}, 0 } : s->runs[i - 1];
            const int64_t end = i < s->runs.size() ? s->runs[i].row : s->count;
            runs.push_back(Cursor(s->chunks, start, end - start.row));
        }
        return OrderedCursor(std::move(runs));
    }
    // Kept slices of `track`, its earliest and latest start (0 when it has none).
    [[nodiscard]] int64_t count(int64_t track) const
    {
        const Track *s = find(track);
        return s ? s->count : 0;
    }
    [[nodiscard]] int64_t minTs(int64_t track) const
    {
        const Track *s = find(track);
        return s ? s->minTs : 0;
    }
    [[nodiscard]] int64_t maxTs(int64_t track) const
    {
        const Track *s = find(track);
        return s ? s->maxTs : 0;
    }
    // Whether a row of `track` had a correlation id.
    [[nodiscard]] bool hasCorrelation(int64_t track) const
    {
        const Track *s = find(track);
        return s && s->corrs;
    }
    // Frees a track's rows; it is no longer kept. Calls for different tracks may run at once, but none
    // while add() runs or another thread reads the track.
    void release(int64_t track)
    {
        const auto i = size_t(track - m_trackBase);
        if (i < m_tracks.size()) {
            drop(m_tracks[i]);
        }
    }
    // The tracks that ever had a slice, by id: m_trackBase up to this.
    [[nodiscard]] int64_t trackEnd() const { return m_trackBase + int64_t(m_tracks.size()); }
    [[nodiscard]] int64_t firstTrack() const { return m_trackBase; }
    // Memory of the kept rows (their capacity).
    [[nodiscard]] size_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }

    // Ordered runs of a track that rowsInOrder() merges, at most.
    static constexpr size_t kMaxRuns = 64;

private:
    static constexpr size_t kRowRoom = 10; // varints in a row at most
    static constexpr size_t kMinChunkBytes = size_t(4) << 10;
    static constexpr size_t kMaxChunkBytes = size_t(1) << 20;
    struct Track {
        std::vector<std::vector<unsigned char>> chunks;
        int64_t firstTs = 0; // of the first kept slice
        int64_t lastTs = 0; // of the last kept slice
        int64_t minTs = 0, maxTs = 0; // of the kept slices
        int64_t count = 0; // kept slices
        Last last;
        std::vector<RunStart>
            runs; // where the second and later (ts, id) ordered runs start (kMaxRuns of them: too many)
        bool kept = true;
        bool ordered = true;
        bool corrs = false; // a row had a correlation id
    };
    static const std::vector<std::vector<unsigned char>> &noChunks()
    {
        static const std::vector<std::vector<unsigned char>> none;
        return none;
    }
    static void putDelta(varint::Appender &out, int64_t v, int64_t &last)
    {
        if (v != KeptSlice::kAbsent) {
            out.putSigned(int64_t(uint64_t(v) - uint64_t(last)));
            last = v;
        }
    }
    Track &state(int64_t track)
    {
        const auto i = size_t(track - m_trackBase);
        if (i >= m_tracks.size()) {
            m_tracks.resize(i + 1);
        }
        return m_tracks[i];
    }
    [[nodiscard]] const Track *find(int64_t track) const
    {
        const auto i = size_t(track - m_trackBase);
        return i < m_tracks.size() ? &m_tracks[i] : nullptr;
    }
    void drop(Track &s)
    {
        size_t bytes = 0;
        for (const std::vector<unsigned char> &c : s.chunks) {
            bytes += c.capacity();
        }
        m_bytes.fetch_sub(bytes, std::memory_order_relaxed);
        std::vector<std::vector<unsigned char>>().swap(s.chunks);
        std::vector<RunStart>().swap(s.runs);
        s.kept = false;
    }

    int64_t m_trackBase;
    size_t m_maxBytes;
    std::vector<Track> m_tracks; // by track id - m_trackBase; grown on first use
    std::atomic<size_t> m_bytes { 0 }; // of all Track::chunks
};

} // namespace plumb
