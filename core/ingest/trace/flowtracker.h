// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracestats.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace plumb {

class DiagnosticLog;
class SqliteDb;
class TraceWriter;

// The flows (arrows between slices) of one trace: maps flow start and end events, paired by
// (category, id) in whatever order they come, onto flow rows (src and dst track and time) handed to
// the writer's batch. An end with no partner (two starts or two ends of one key, or one left at the
// end of the input) becomes a row with the other end NULL, counted as a dangling-flow diagnostic.
// Flow ends placed on a thread while the slice they bind to is on a companion track are moved after
// the load (relocateEnds()).
class FlowTracker {
public:
    FlowTracker(TraceWriter &writer, TraceStats &stats, int64_t firstFlowId);

    // Flow ends, paired by (catId, key). A start after an end of the same key pairs as well.
    void flowStart(int64_t catId, int64_t key, int64_t track, int64_t tsNs);
    void flowEnd(int64_t catId, int64_t key, int64_t track, int64_t tsNs);
    // At applyRelocations(), moves the flow ends of category `catId` on `fromTrack` to `toTrack`.
    void relocateEnds(int64_t fromTrack, int64_t toTrack, int64_t catId)
    {
        m_relocations.push_back(Relocation { fromTrack, toTrack, catId });
    }
    // At the end of the input: writes the ends still waiting as dangling flows, with a diagnostic.
    void finish(DiagnosticLog &diagnostics);
    // After the writer is done: applies relocateEnds() to the flow rows of trace `traceId`.
    void applyRelocations(SqliteDb &db, int64_t traceId);

    [[nodiscard]] int64_t danglingFlows() const { return m_danglingFlows; }

private:
    struct FlowEnd {
        int64_t track;
        int64_t ts;
        bool isStart;
    };
    struct FlowKey {
        int64_t cat;
        int64_t key;
        bool operator==(const FlowKey &) const = default;
    };
    struct FlowKeyHash {
        size_t operator()(const FlowKey &k) const noexcept
        {
            // Unsigned: ids come from the file, and a signed product may overflow.
            return std::hash<uint64_t>()(uint64_t(k.key) * 1000003u + uint64_t(k.cat));
        }
    };
    struct Relocation {
        int64_t from, to, cat;
    };
    void emitFlow(int64_t cat, int64_t key, const FlowEnd *src, const FlowEnd *dst);

    TraceWriter &m_writer;
    TraceStats &m_stats;
    int64_t m_nextFlowId;
    std::unordered_map<FlowKey, FlowEnd, FlowKeyHash> m_pending; // one waiting end per key
    int64_t m_danglingFlows = 0;
    std::vector<Relocation> m_relocations;
};

} // namespace plumb
