// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/batchwriter.h"
#include "ingest/trace/tracebatch.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;

// The write side of a trace import's rows: maps the TraceBatch the trackers fill on the parsing
// thread onto multi-row INSERTs run by a writer thread (BatchWriter), so that parsing and SQLite
// inserts overlap. At most kMaxQueuedBatches filled batches wait, so memory stays flat.
//
// The connection belongs to the writer thread from the first push() to finish(); the caller must not
// use it meanwhile. Destroying an unfinished writer stops the thread without writing what is queued
// (the caller rolls the transaction back).
class TraceWriter {
public:
    // Rows per batch handed to the writer thread.
    static constexpr size_t kBatchRows = 16384;
    static constexpr size_t kMaxQueuedBatches = 3;

    // `traceId`: written into every flow row.
    TraceWriter(SqliteDb &db, int64_t traceId);
    ~TraceWriter();
    TraceWriter(const TraceWriter &) = delete;
    TraceWriter &operator=(const TraceWriter &) = delete;

    // The batch being filled.
    [[nodiscard]] TraceBatch &batch() { return *m_current; }
    void pushIfFull()
    {
        if (m_current->rows() >= kBatchRows) {
            push();
        }
    }
    // Hands the batch being filled to the writer thread (slices sorted by (track, ts, id) first).
    void push();
    // push() when the batch being filled holds anything.
    void flush()
    {
        if (!m_current->empty()) {
            push();
        }
    }
    // Writes what is queued and ends the thread; the connection is the caller's again. Rethrows the
    // writer's error (SqlError, e.g. disk full).
    void finish();

private:
    struct Statements;
    void write(TraceBatch &batch); // on the writer thread

    SqliteDb &m_db;
    int64_t m_traceId;
    // Puts the rows in (track, ts, id) order (push()).
    void sortSlices(std::vector<TraceBatch::SliceRow> &slices);
    // sortSlices()'s scratch on the parsing thread, kept so that it allocates nothing after the first
    // batches: each track's row count and last row (then: its next output position), the track ->
    // run index, and the rows in order.
    struct TrackRun {
        int64_t track;
        size_t count;
        size_t last;
    };
    std::vector<TrackRun> m_trackRuns;
    std::unordered_map<int64_t, size_t> m_trackIndex;
    std::vector<TraceBatch::SliceRow> m_sortedSlices;
    std::unique_ptr<TraceBatch> m_current; // being filled
    std::unique_ptr<Statements> m_statements; // the writer's, prepared on its first batch
    BatchWriter<TraceBatch> m_writer; // last: its thread uses the members above
};

} // namespace plumb
