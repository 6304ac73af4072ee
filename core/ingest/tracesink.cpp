// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/tracesink.h"

#include "ingest/diagnosticlog.h"
#include "store/schema.h"
#include "store/sqlitedb.h"

namespace plumb {

namespace {

int64_t nextIdFromInfo(SqliteDb &db, const char *key)
{
    SqliteStmt st(db, "SELECT value FROM workspace_info WHERE key = ?");
    st.bind(1, std::string_view(key));
    return st.step() ? st.columnInt(0) : 1;
}

void storeNextId(SqliteDb &db, const char *key, int64_t value)
{
    SqliteStmt st(db, "INSERT OR REPLACE INTO workspace_info(key, value) VALUES(?, ?)");
    st.bind(1, std::string_view(key)).bind(2, value).run();
}

} // namespace

TraceSink::TraceSink(SqliteDb &db, DiagnosticLog &diagnostics, int64_t sourceId, const QString &sourcePath,
    const QString &format, StringPool *pool)
    : m_db(db)
    , m_diag(diagnostics)
    , m_traceId(db.queryInt("SELECT max(id) FROM trace", 0) + 1)
    , m_parallel(pool != nullptr)
    , m_record(sourceId, sourcePath, format)
    , m_writer(db, m_traceId)
    , m_strings(db, m_writer, pool)
    , m_tracks(
          db.queryInt("SELECT max(id) FROM process", 0) + 1, db.queryInt("SELECT max(id) FROM track", 0) + 1)
    , m_lod(m_writer, m_tracks.firstTrackId())
    , m_corrTiles(m_writer, m_tracks.firstTrackId())
    , m_slices(
          m_writer, m_lod, m_corrTiles, m_tracks, diagnostics, m_stats, nextIdFromInfo(db, "next_slice_id"))
    , m_flows(m_writer, m_stats, db.queryInt("SELECT max(id) FROM flow", 0) + 1)
    , m_counters(m_writer, m_stats, nextIdFromInfo(db, "next_counter_id"))
{
    m_bulkLoad = db.queryInt("SELECT count(*) FROM (SELECT 1 FROM slice LIMIT 1)") == 0;
    if (m_bulkLoad) {
        db.exec(dropSecondaryIndexesSql());
    }
}

// Abandoned (error or cancel) when not finished: the writer's destructor stops its thread without
// writing what is queued, and the caller rolls back.
TraceSink::~TraceSink() = default;

void TraceSink::finish()
{
    if (m_finished) {
        return;
    }
    m_finished = true;

    // The end of the input: what is still open or waiting is closed, counted and written.
    m_slices.closeUnterminated(m_stats.endNs);
    m_flows.finish(m_diag);
    m_corrTiles.flush();
    m_writer.flush();
    // While the writer thread inserts the last batches. The rows stay for the trace's summaries.
    m_lod.summariseKept(!m_parallel, [this](int64_t track) { return m_slices.isUnsorted(track); });
    m_writer.finish();

    // The connection is ours again: the steps that read or update what was written.
    m_flows.applyRelocations(m_db, m_traceId);
    m_slices.repairDepths(m_db, &m_lod);
    m_lod.dropDepthRepairs();
    m_corrTiles.tileFromWorkspace(m_db, m_lod.kept());
    m_record.write(m_db, m_diag, m_traceId, m_stats);
    m_tracks.writeRows(m_db, m_traceId, [this](int64_t track) { return m_slices.counts(track); });
    m_lod.finishInWorkspace(
        m_db, m_tracks.trackCount(), [this](int64_t track) { return m_slices.counts(track).slices; });
    CounterTracker::buildSummaries(m_db, m_traceId);
    storeNextId(m_db, "next_slice_id", m_slices.nextSliceId());
    storeNextId(m_db, "next_counter_id", m_counters.nextCounterId());
    if (m_bulkLoad && !m_parallel) { // a parallel import's scratch workspace is only copied from
        m_db.exec(secondaryIndexesSql());
    }
}

} // namespace plumb
