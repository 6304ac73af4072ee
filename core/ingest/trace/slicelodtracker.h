// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"
#include "timeline/varint.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace plumb {

class SqliteDb;
class TraceWriter;

// The timeline's level-of-detail summaries (slice_lod tiles, see timeline/slicesummary.h) of one
// trace's slice tracks: maps the slices of each track, as they are emitted, onto compact kept rows
// (varints: ts minus the previous ts, dur, depth, name; about 8 bytes a slice), from which
// summariseKept() builds the tiles (on two threads) while the writer inserts the last rows, instead of
// reading every slice back afterwards. A track stops being kept, for good, when a slice comes out of (ts, id)
// order or its depths will be repaired, or when the kept rows of all tracks pass kMaxKeptSummaryBytes; such
// tracks are summarised from the workspace by finishInWorkspace().
class SliceLodTracker {
public:
    // Memory for the kept slices of all tracks.
    static constexpr size_t kMaxKeptSummaryBytes = size_t(96) << 20;

    SliceLodTracker(TraceWriter &writer, int64_t firstTrackId);

    // One emitted slice of `track`. `inOrder`: every slice of the track so far came in (ts, id)
    // order and has its final depth.
    void add(int64_t track, bool inOrder, int64_t tsNs, int64_t durNs, int64_t depth, int64_t nameId)
    {
        State &s = state(track);
        if (!s.kept) {
            return;
        }
        if (!inOrder || m_bytes > kMaxKeptSummaryBytes) {
            drop(s);
            return;
        }
        if (s.rows.empty()) {
            s.firstTs = tsNs;
            s.lastTs = tsNs;
        }
        const size_t capacity = s.rows.capacity();
        {
            varint::Appender out(s.rows, 4);
            out.put(uint64_t(tsNs) - uint64_t(s.lastTs)); // >= 0, but may pass INT64_MAX
            out.putSigned(durNs);
            out.put(uint64_t(std::max<int64_t>(0, depth)));
            out.putSigned(nameId);
        }
        s.lastTs = tsNs;
        ++s.count;
        m_bytes += s.rows.capacity() - capacity;
    }

    // Builds the tiles of the kept tracks with at least kMinSummarisedSlices slices and hands them to
    // the writer (in batches of a few MB), freeing the kept rows.
    void summariseKept();
    // After the writer is done: records the tile origin of the tracks summariseKept() did, and builds
    // the tiles of the other tracks with enough slices from the workspace.
    void finishInWorkspace(
        SqliteDb &db, int64_t trackCount, const std::function<int64_t(int64_t track)> &sliceCount);

    // For tests: whether `track`'s rows are still kept, and the memory they take.
    [[nodiscard]] bool isKept(int64_t track) const;
    [[nodiscard]] size_t keptBytes() const { return m_bytes; }

private:
    struct State {
        std::vector<unsigned char> rows;
        int64_t firstTs = 0; // of the first kept slice: the origin of the track's tiles
        int64_t lastTs = 0; // of the last kept slice
        int64_t count = 0; // kept slices
        bool kept = true;
        bool summarised = false; // its tiles were handed to the writer
    };
    State &state(int64_t track)
    {
        const auto i = size_t(track - m_trackBase);
        if (i >= m_states.size()) {
            m_states.resize(i + 1);
        }
        return m_states[i];
    }
    void drop(State &s);

    TraceWriter &m_writer;
    int64_t m_trackBase;
    std::vector<State> m_states; // by track id - m_trackBase; grown on first use
    size_t m_bytes = 0; // of all State::rows
};

} // namespace plumb
