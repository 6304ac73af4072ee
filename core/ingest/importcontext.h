// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/diagnosticlog.h"
#include "ingest/importoptions.h"
#include "ingest/inputfile.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace plumb {

class LineageSink;
class MetricSink;
class ServingSink;
class SqliteDb;
class StringPool;
class TraceSink;

// What an importer gets for one file: the input stream, the diagnostics log, the sinks that write
// into the workspace, and checkpoint() to call at chunk boundaries (progress and cancellation).
class ImportContext {
public:
    using ProgressFn = std::function<void(int64_t doneBytes, int64_t totalBytes)>;

    ImportContext(SqliteDb &db, InputFile &input, int64_t sourceId, const QString &format,
        const std::atomic_bool *cancel, ProgressFn progress);
    ~ImportContext();

    [[nodiscard]] InputFile &input() { return m_input; }
    [[nodiscard]] DiagnosticLog &diagnostics() { return m_diagnostics; }
    [[nodiscard]] int64_t sourceId() const { return m_sourceId; }
    // The trace being written for this file, created on first use.
    [[nodiscard]] TraceSink &traceSink();
    [[nodiscard]] bool hasTraceSink() const { return m_traceSink != nullptr; }
    // The runs, params and metric series being written for this file (experiment logs), created on
    // first use. A file is a trace or an experiment log: both sinks assign string ids, so an
    // importer uses one of them (std::logic_error otherwise).
    [[nodiscard]] MetricSink &metricSink();
    [[nodiscard]] bool hasMetricSink() const { return m_metricSink != nullptr; }
    // The lineage nodes and edges being written for this file (ML Metadata, OpenLineage), created on
    // first use; it shares no string table with the others, so any importer may use it.
    [[nodiscard]] LineageSink &lineageSink();
    // The import's connection, inside its transaction: for a format whose rows no sink writes (job
    // lifecycle events), written on the caller's thread.
    [[nodiscard]] SqliteDb &db() { return m_db; }
    // The LLM-serving requests being written for this file, created on first use (own label table).
    [[nodiscard]] ServingSink &servingSink();
    // What the user told this import beyond the path (command-line flags, an import dialog).
    [[nodiscard]] const ImportOptions &options() const { return m_options; }
    void setOptions(const ImportOptions &options) { m_options = options; }

    // This file is read into the scratch workspace of a parallel import (see ImportRunner): its trace
    // takes string ids from `pool`, and the other sinks, whose rows would not be copied, are refused.
    void setParallelTrace(StringPool *pool) { m_pool = pool; }

    // Throws ImportCancelled when the user cancelled; reports progress (throttled by the caller).
    void checkpoint();
    // The same where another thread reads the input: progress at `compressedOffset`, as it read it.
    void checkpoint(int64_t compressedOffset);
    // Number of records the importer read (events, lines, rows): the source's event_count.
    int64_t recordsRead = 0;
    // Set by an importer of a format that is only ever appended to (Importer::resumable()): the
    // byte after the last complete record it read, where the next import of this file continues
    // (see ImportRunner). -1: the file cannot be continued.
    int64_t resumeOffset = -1;

    // Called by the runner after read(): flushes every sink. Throws SqlError.
    void finish();

private:
    SqliteDb &m_db;
    InputFile &m_input;
    int64_t m_sourceId;
    QString m_format;
    const std::atomic_bool *m_cancel;
    ProgressFn m_progress;
    DiagnosticLog m_diagnostics;
    std::unique_ptr<TraceSink> m_traceSink;
    std::unique_ptr<MetricSink> m_metricSink;
    std::unique_ptr<LineageSink> m_lineageSink;
    std::unique_ptr<ServingSink> m_servingSink;
    ImportOptions m_options;
    StringPool *m_pool = nullptr;
};

} // namespace plumb
