// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracestats.h"
#include "ingest/trace/tracewriter.h"

#include <algorithm>
#include <cstdint>

namespace plumb {

class SqliteDb;

// The counter samples of one trace: maps (track, ts, value) samples onto counter rows with ids in
// arrival order, handed to the writer's batch, and builds the counter tracks' level-of-detail
// summaries (timeline/countersummary.h) once the rows are in the workspace.
class CounterTracker {
public:
    CounterTracker(TraceWriter &writer, TraceStats &stats, int64_t firstCounterId)
        : m_writer(writer)
        , m_stats(stats)
        , m_nextCounterId(firstCounterId)
    {
    }

    void addCounter(int64_t track, int64_t tsNs, double value)
    {
        m_writer.batch().counters.push_back(TraceBatch::CounterRow { track, tsNs, m_nextCounterId++, value });
        ++m_stats.counters;
        m_stats.startNs = std::min(m_stats.startNs, tsNs);
        m_stats.endNs = std::max(m_stats.endNs, tsNs);
        m_writer.pushIfFull();
    }
    // After the writer is done: the summaries of the counter tracks of trace `traceId`.
    static void buildSummaries(SqliteDb &db, int64_t traceId);

    [[nodiscard]] int64_t nextCounterId() const { return m_nextCounterId; }

private:
    TraceWriter &m_writer;
    TraceStats &m_stats;
    int64_t m_nextCounterId;
};

} // namespace plumb
