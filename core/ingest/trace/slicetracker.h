// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"
#include "ingest/trace/tracestats.h"
#include "ingest/trace/trackregistry.h"

#include <cstdint>
#include <vector>

namespace plumb {

class CorrTileTracker;
class DiagnosticLog;
class SliceLodTracker;
class SqliteDb;
class TraceWriter;

// The fields of one slice as an importer hands them over. Strings are interned ids.
struct SliceFields {
    int64_t tsNs = 0;
    int64_t durNs = 0;
    int64_t nameId = 0;
    int64_t catId = kNoValue;
    int64_t corr = kNoValue; // CUDA correlation id
    int64_t extId = kNoValue; // PyTorch External id
    int64_t seqNr = kNoValue; // autograd Sequence number
    int64_t evIdx = kNoValue; // profiler event index
    int64_t rfId = kNoValue; // record function id
    int64_t argsId = kNoValue; // interned args
};

// The slices of one trace: maps complete (X) slices and begin/end (B/E) pairs onto slice rows with an
// id and a nesting depth per track, computed as they arrive (depth = the enclosing slices still open
// at the start), and hands each row to the writer's batch, the level-of-detail tracker and the
// correlation tiles. Ids are assigned in order of arrival (a B slice's at its begin).
//
// Caveats it handles and counts in the DiagnosticLog: slices that arrive out of (ts, dur desc) order
// on a track mark it unsorted, and repairDepths() recomputes its depths (from the kept rows or the
// workspace); slices
// that overlap without nesting go one level below; an E without a B is refused (endSlice() is false);
// B without E is closed at the trace end by closeUnterminated().
class SliceTracker {
public:
    SliceTracker(TraceWriter &writer, SliceLodTracker &lod, CorrTileTracker &corrTiles,
        const TrackRegistry &tracks, DiagnosticLog &diagnostics, TraceStats &stats, int64_t firstSliceId);

    void addSlice(int64_t track, const SliceFields &slice);
    void beginSlice(int64_t track, const SliceFields &slice);
    // Closes the innermost open B slice on the track; false when none is open. argsId, when given,
    // replaces the slice's args (E events may carry args).
    bool endSlice(int64_t track, int64_t tsNs, int64_t argsId = kNoValue);
    // Closes every open B slice at the trace end (`endNs`, or its start when later), with a warning.
    void closeUnterminated(int64_t endNs);
    // After the writer is done: writes the depths of the unsorted tracks recomputed from the kept rows
    // (`kept`'s depthRepair()), and recomputes the others' in the workspace.
    void repairDepths(SqliteDb &db, const SliceLodTracker *kept = nullptr);

    [[nodiscard]] int64_t nextSliceId() const { return m_nextSliceId; }
    [[nodiscard]] TrackRegistry::SliceCounts counts(int64_t track) const;
    [[nodiscard]] bool isUnsorted(int64_t track) const;

private:
    struct OpenSlice {
        SliceFields fields;
        int64_t depth;
        int64_t id;
    };
    struct State {
        std::vector<int64_t> openEnds; // ends of enclosing slices, innermost last (INT64_MAX = open B)
        std::vector<int64_t> openStarts; // their starts, in step with openEnds
        std::vector<OpenSlice> openB;
        int64_t lastTs = INT64_MIN; // of the last slice that arrived (its depth computed)
        int64_t lastDur = 0;
        int64_t sliceCount = 0;
        int64_t maxDepth = 0;
        int64_t maxDurNs = 0;
        bool unsorted = false;
        // The (ts, id) of the slice emitted last, and whether every slice so far came in that order.
        int64_t emittedTs = INT64_MIN;
        int64_t emittedId = 0;
        bool emittedInOrder = true;
    };
    State &state(int64_t track)
    {
        const auto i = size_t(track - m_trackBase);
        if (i >= m_states.size()) {
            m_states.resize(i + 1);
        }
        return m_states[i];
    }
    int64_t depthFor(int64_t track, State &s, int64_t ts, int64_t dur);
    void emitSlice(int64_t track, State &s, const SliceFields &f, int64_t depth, int64_t id);

    TraceWriter &m_writer;
    SliceLodTracker &m_lod;
    CorrTileTracker &m_corrTiles;
    const TrackRegistry &m_tracks;
    DiagnosticLog &m_diag;
    TraceStats &m_stats;
    int64_t m_trackBase;
    int64_t m_nextSliceId;
    std::vector<State> m_states; // by track id - m_trackBase; grown on first use
};

} // namespace plumb
