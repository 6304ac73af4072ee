// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include "ingest/trace/corrtiletracker.h"
#include "ingest/trace/countertracker.h"
#include "ingest/trace/flowtracker.h"
#include "ingest/trace/slicelodtracker.h"
#include "ingest/trace/slicetracker.h"
#include "ingest/trace/stringinterner.h"
#include "ingest/trace/stringpool.h"
#include "ingest/trace/tracebatch.h"
#include "ingest/trace/tracerecord.h"
#include "ingest/trace/tracestats.h"
#include "ingest/trace/tracewriter.h"
#include "ingest/trace/trackregistry.h"

#include <cstdint>
#include <string_view>

namespace plumb {

class SqliteDb;
class DiagnosticLog;

// The write side of one trace import, shared by every trace importer: a facade over the trackers
// (ingest/trace/), each with one job, as Perfetto's trace_processor importers use them.
//
// Maps what an importer reads onto the workspace model: strings are interned (StringInterner),
// processes and threads keyed by the labels the file uses become process and track rows
// (TrackRegistry), slice nesting depth is computed per track as slices arrive (SliceTracker), flow
// ends are paired by (category, id) in whatever order they come (FlowTracker), counters get one track
// per series (CounterTracker), the timeline's summaries and correlation tiles are made as the slices
// pass (SliceLodTracker, CorrTileTracker), and the trace row names its run (TraceRecord). Rows are
// handed to a writer thread in batches (TraceWriter) so parsing and SQLite inserts overlap; IDs are
// assigned by the trackers, so nothing waits on the database. The per-event calls are inline
// forwards to one non-virtual tracker call.
//
// Caveats it handles and counts in the DiagnosticLog: slices that arrive out of order on a track (their
// depths are recomputed once at finish()), slices that overlap without nesting, E without B, B without
// E (closed at the trace end), flows with a single end (kept, the other end NULL).
//
// The DB connection belongs to the writer thread between construction and finish(); the caller must
// not use it meanwhile. Destroying an unfinished sink stops the thread and leaves the caller to roll
// back the transaction.
class TraceSink {
public:
    // `pool`: string ids from a parallel import's pool instead of the workspace (see StringPool).
    TraceSink(SqliteDb &db, DiagnosticLog &diagnostics, int64_t sourceId, const QString &sourcePath,
        const QString &format, StringPool *pool = nullptr);
    ~TraceSink();
    TraceSink(const TraceSink &) = delete;
    TraceSink &operator=(const TraceSink &) = delete;

    // Trace-level facts (any time before finish()).
    void setTraceName(const QString &name) { m_record.setTraceName(name); }
    void setRank(int64_t rank, int64_t worldSize) { m_record.setRank(rank, worldSize); }
    // The trace is one of several files of one job that carry no rank (the hosts of one profiling
    // session): its run is the job's, found by `key`, named `name` when new. A rank set too wins.
    void setJob(const QString &key, const QString &name) { m_record.setJob(key, name); }
    void setBaseTimeNs(int64_t ns) { m_record.setBaseTimeNs(ns); }
    void setMetadataJson(const QByteArray &json) { m_record.setMetadataJson(json); }
    void setDeviceType(const QString &id) { m_record.setDeviceType(id); }
    void addDevice(int64_t index, const QString &name, const QByteArray &propertiesJson)
    {
        m_record.addDevice(index, name, propertiesJson);
    }

    [[nodiscard]] int64_t intern(std::string_view str) { return m_strings.intern(str); }
    // Interned args JSON; kNoValue for an empty object.
    [[nodiscard]] int64_t internArgs(std::string_view json) { return m_strings.internArgs(json); }

    // Processes and tracks are keyed by the labels the file uses; returned ids are workspace row ids.
    [[nodiscard]] int64_t process(std::string_view label) { return m_tracks.process(label); }
    void setProcessName(int64_t process, std::string_view name) { m_tracks.setProcessName(process, name); }
    void setProcessLabels(int64_t process, std::string_view labels)
    {
        m_tracks.setProcessLabels(process, labels);
    }
    void setProcessSortIndex(int64_t process, int64_t sortIndex)
    {
        m_tracks.setProcessSortIndex(process, sortIndex);
    }
    void setProcessKind(int64_t process, ProcessKind kind, int64_t deviceIndex = kNoValue)
    {
        m_tracks.setProcessKind(process, kind, deviceIndex);
    }
    [[nodiscard]] int64_t thread(int64_t process, std::string_view tidLabel)
    {
        return m_tracks.thread(process, tidLabel);
    }
    // The companion track of `track` (a thread or stream) of the given kind, created on first use.
    [[nodiscard]] int64_t companionTrack(int64_t track, TrackKind kind)
    {
        return m_tracks.companionTrack(track, kind);
    }
    [[nodiscard]] int64_t counterTrack(int64_t process, std::string_view name)
    {
        return m_tracks.counterTrack(process, name);
    }
    [[nodiscard]] int64_t globalTrack(std::string_view name) { return m_tracks.globalTrack(name); }
    void setTrackName(int64_t track, std::string_view name) { m_tracks.setTrackName(track, name); }
    void setTrackSortIndex(int64_t track, int64_t sortIndex) { m_tracks.setTrackSortIndex(track, sortIndex); }
    // Makes a thread track a GPU stream track.
    void setTrackGpuStream(int64_t track, int64_t stream) { m_tracks.setTrackGpuStream(track, stream); }
    void setTrackStream(int64_t track, int64_t stream) { m_tracks.setTrackStream(track, stream); }

    void addSlice(int64_t track, const SliceFields &slice) { m_slices.addSlice(track, slice); }
    void beginSlice(int64_t track, const SliceFields &slice) { m_slices.beginSlice(track, slice); }
    // Closes the innermost open B slice on the track; false when none is open. argsId, when given,
    // replaces the slice's args (E events may carry args).
    bool endSlice(int64_t track, int64_t tsNs, int64_t argsId = kNoValue)
    {
        return m_slices.endSlice(track, tsNs, argsId);
    }
    void addCounter(int64_t track, int64_t tsNs, double value) { m_counters.addCounter(track, tsNs, value); }
    // Flow ends, paired by (catId, key). A start after an end of the same key pairs as well.
    void flowStart(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
    {
        m_flows.flowStart(catId, key, track, tsNs);
    }
    void flowEnd(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
    {
        m_flows.flowEnd(catId, key, track, tsNs);
    }
    // Counts launch->GPU flows that the importer verified to coincide with correlation-linked slices
    // (not stored as rows; see the flow table's comment), or, for a format without flow events, its
    // launch links (CorrLinkCounter).
    void addCorrelationFlows(int64_t n)
    {
        m_stats.flows += n;
        m_stats.corrFlows += n;
    }
    // At finish(), moves the flow ends of category `catId` on `fromTrack` to `toTrack` (for formats
    // that place flow events on a thread while the slice they bind to is on a companion track).
    void relocateFlowEnds(int64_t fromTrack, int64_t toTrack, int64_t catId)
    {
        m_flows.relocateEnds(fromTrack, toTrack, catId);
    }

    [[nodiscard]] TraceStats &stats() { return m_stats; }
    [[nodiscard]] int64_t traceId() const { return m_traceId; }

    // Drains the writer, writes trace/run/process/track rows, repairs depths and builds indexes.
    // Throws SqlError (e.g. disk full).
    void finish();
    // After finish(): the trace's slices as written, for its summaries (writeTraceSummary()); null
    // for a parallel import's scratch workspace, whose ids change when it is copied.
    [[nodiscard]] std::unique_ptr<KeptSlices> takeKeptSlices() { return m_lod.takeKept(); }

    // Rows per batch handed to the writer thread.
    static constexpr size_t kBatchRows = TraceWriter::kBatchRows;
    // Memory for the slices kept to build the timeline and trace summaries from (about 14 bytes a
    // slice); the tracks past it are summarised from the workspace instead.
    static constexpr size_t kMaxKeptSummaryBytes = SliceLodTracker::kMaxKeptSummaryBytes;
    // Slices with a correlation id per slice_corr_tile row (see schema.cpp, migration 11): a lookup
    // scans about this many slices per tile that may hold the corr.
    static constexpr int64_t kCorrTileSlices = CorrTileTracker::kCorrTileSlices;

    using SliceRow = TraceBatch::SliceRow;
    using CounterRow = TraceBatch::CounterRow;
    using FlowRow = TraceBatch::FlowRow;
    using LodTileRow = TraceBatch::LodTileRow;
    using CorrTile = TraceBatch::CorrTile;
    using CorrTileRow = TraceBatch::CorrTileRow;
    using Batch = TraceBatch;

private:
    SqliteDb &m_db;
    DiagnosticLog &m_diag;
    int64_t m_traceId;
    bool m_parallel; // writes a parallel import's scratch workspace (strings from a StringPool)
    bool m_bulkLoad = false; // the workspace had no slices: secondary indexes are rebuilt at finish()
    bool m_finished = false;
    TraceStats m_stats;
    TraceRecord m_record;
    // The trackers. The writer first: the others hand it rows, and it outlives them.
    TraceWriter m_writer;
    StringInterner m_strings;
    TrackRegistry m_tracks;
    SliceLodTracker m_lod;
    CorrTileTracker m_corrTiles;
    SliceTracker m_slices;
    FlowTracker m_flows;
    CounterTracker m_counters;
};

} // namespace plumb
