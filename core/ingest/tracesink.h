// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include "ingest/batchwriter.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;
class DiagnosticLog;

constexpr int64_t kNoValue = INT64_MIN; // an absent optional integer (stored as NULL)

// String ids shared by the traces of one parallel import (see ImportRunner): each file is read into a
// scratch workspace of its own while the others are read, and copied into the workspace afterwards
// with its ids shifted; interned strings are the one id space that cannot be shifted (level-of-detail
// tiles hold them), so the files draw them from this pool, seeded with the workspace's strings.
// Thread-safe; a sink asks it once per distinct string.
class StringPool {
public:
    explicit StringPool(SqliteDb &workspace);
    // The id of `str`, and whether the workspace lacked it when the pool was made (then the sink
    // writes it into its scratch workspace, from where it is copied with the trace).
    [[nodiscard]] int64_t intern(std::string_view str, bool *newToWorkspace);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    std::mutex m_mutex;
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> m_ids;
    int64_t m_firstNew = 1;
    int64_t m_next = 1;
};

// The name of the run a single trace forms: its file name without the trace format's extensions.
[[nodiscard]] QString traceRunName(const QString &traceName);
// The id of the run with `key`, added (with `name`, created at `createdNs`) when there is none.
int64_t findOrAddRun(SqliteDb &db, const QString &key, const QString &name, int64_t createdNs);

enum class ProcessKind { Cpu, Gpu, Other };
// CudaApi, CpuSamples, OnCpu and GpuAnnotation are companion tracks of a thread and of a stream (same
// process and tid label): the CUDA runtime/driver calls a thread made, its CPU samples (instants), the
// intervals it was scheduled on a CPU, and the user annotations projected onto a stream, shown beneath
// their thread or stream as Nsight Systems does. (track.kind 'cuda_api', 'cpu_samples', 'on_cpu',
// 'gpu_annotation'.)
enum class TrackKind { Thread, GpuStream, Counter, Global, CudaApi, GpuAnnotation, CpuSamples, OnCpu };

// Counts kept while a trace streams in; written to the trace row.
struct TraceStats {
    int64_t events = 0; // input events read (all phases)
    int64_t slices = 0;
    int64_t kernels = 0;
    int64_t gpuOps = 0; // kernels + memcpy + memset
    int64_t flows = 0; // all flows, including corrFlows
    int64_t corrFlows = 0; // launch flows represented by slice.corr (see addCorrelationFlows)
    int64_t counters = 0;
    int64_t startNs = INT64_MAX;
    int64_t endNs = INT64_MIN;
};

// The fields of one slice as an importer hands them over. Strings are interned ids (intern()).
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
    int64_t argsId = kNoValue; // internArgs()
};

// The write side of one trace import, shared by every trace importer (the "trackers").
//
// Maps what an importer reads onto the workspace model: strings are interned, processes and threads
// keyed by the labels the file uses become process and track rows, slice nesting depth is computed
// per track as slices arrive, flow ends are paired by (category, id) in whatever order they come, and
// counters get one track per series. Rows are handed to a writer thread in batches so parsing and
// SQLite inserts overlap; IDs are assigned here, so nothing waits on the database.
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
    void setTraceName(const QString &name) { m_traceName = name; }
    void setRank(int64_t rank, int64_t worldSize);
    // The trace is one of several files of one job that carry no rank (the hosts of one profiling
    // session): its run is the job's, found by `key`, named `name` when new. A rank set too wins.
    void setJob(const QString &key, const QString &name)
    {
        m_jobKey = key;
        m_jobName = name;
    }
    void setBaseTimeNs(int64_t ns) { m_baseTimeNs = ns; }
    void setMetadataJson(const QByteArray &json) { m_metadataJson = json; }
    void addDevice(int64_t index, const QString &name, const QByteArray &propertiesJson);

    [[nodiscard]] int64_t intern(std::string_view str);
    // Interned args JSON; kNoValue for an empty object.
    [[nodiscard]] int64_t internArgs(std::string_view json);

    // Processes and tracks are keyed by the labels the file uses; returned ids are workspace row ids.
    [[nodiscard]] int64_t process(std::string_view label);
    void setProcessName(int64_t process, std::string_view name);
    void setProcessLabels(int64_t process, std::string_view labels);
    void setProcessSortIndex(int64_t process, int64_t sortIndex);
    void setProcessKind(int64_t process, ProcessKind kind, int64_t deviceIndex = kNoValue);
    [[nodiscard]] int64_t thread(int64_t process, std::string_view tidLabel);
    // The companion track of `track` (a thread or stream) of the given kind, created on first use.
    [[nodiscard]] int64_t companionTrack(int64_t track, TrackKind kind);
    [[nodiscard]] int64_t counterTrack(int64_t process, std::string_view name);
    [[nodiscard]] int64_t globalTrack(std::string_view name);
    void setTrackName(int64_t track, std::string_view name);
    void setTrackSortIndex(int64_t track, int64_t sortIndex);
    // Makes a thread track a GPU stream track.
    void setTrackGpuStream(int64_t track, int64_t stream);
    void setTrackStream(int64_t track, int64_t stream);

    void addSlice(int64_t track, const SliceFields &slice);
    void beginSlice(int64_t track, const SliceFields &slice);
    // Closes the innermost open B slice on the track; false when none is open. argsId, when given,
    // replaces the slice's args (E events may carry args).
    bool endSlice(int64_t track, int64_t tsNs, int64_t argsId = kNoValue);
    void addCounter(int64_t track, int64_t tsNs, double value);
    // Flow ends, paired by (catId, key). A start after an end of the same key pairs as well.
    void flowStart(int64_t catId, int64_t key, int64_t track, int64_t tsNs);
    void flowEnd(int64_t catId, int64_t key, int64_t track, int64_t tsNs);
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
    void relocateFlowEnds(int64_t fromTrack, int64_t toTrack, int64_t catId);

    [[nodiscard]] TraceStats &stats() { return m_stats; }
    [[nodiscard]] int64_t traceId() const { return m_traceId; }

    // Drains the writer, writes trace/run/process/track rows, repairs depths and builds indexes.
    // Throws SqlError (e.g. disk full).
    void finish();

    // Rows per batch handed to the writer thread.
    static constexpr size_t kBatchRows = 16384;
    // Memory for the slices kept to build the timeline summaries from (about 8 bytes a slice); the
    // tracks past it are summarised from the workspace instead.
    static constexpr size_t kMaxKeptSummaryBytes = size_t(96) << 20;
    // Slices with a correlation id per slice_corr_tile row (see schema.cpp, migration 11): a lookup
    // scans about this many slices per tile that may hold the corr.
    static constexpr int64_t kCorrTileSlices = 1024;

    struct SliceRow {
        int64_t track, ts, id, dur;
        int64_t depth, name, cat, corr, ext, seq, evIdx, rfId, args;
    };
    struct CounterRow {
        int64_t track, ts, id;
        double value;
    };
    struct FlowRow {
        int64_t id, cat, key, srcTrack, srcTs, dstTrack, dstTs;
    };
    struct LodTileRow {
        int64_t track;
        int level;
        int64_t tile;
        std::vector<unsigned char> data;
    };
    struct CorrTile {
        int64_t count = 0; // slices in it; the starts are meaningful when > 0
        int64_t firstTs = 0, lastTs = 0;
        int64_t minCorr = INT64_MAX, maxCorr = INT64_MIN;
    };
    struct CorrTileRow {
        int64_t track;
        CorrTile tile;
    };
    struct Batch {
        std::vector<SliceRow> slices;
        std::vector<LodTileRow> lodTiles; // timeline summary tiles (see summariseKeptTracks())
        std::vector<CorrTileRow> corrTiles;
        std::vector<CounterRow> counters;
        std::vector<FlowRow> flows;
        std::vector<std::pair<int64_t, std::string>> strings;
        std::vector<std::pair<int64_t, std::string>> args;
        [[nodiscard]] size_t rows() const { return slices.size() + counters.size() + flows.size(); }
        void clear();
    };

private:
    struct ProcessState {
        std::string label;
        int64_t pid = kNoValue;
        std::string name;
        std::string labels;
        ProcessKind kind = ProcessKind::Cpu;
        int64_t deviceIndex = kNoValue;
        int64_t sortIndex = kNoValue;
    };
    struct OpenSlice {
        SliceFields fields;
        int64_t depth;
        int64_t id;
    };
    struct TrackState {
        int64_t process = kNoValue;
        TrackKind kind = TrackKind::Thread;
        std::string label;
        int64_t tid = kNoValue;
        std::string name;
        int64_t stream = kNoValue;
        int64_t sortIndex = kNoValue;
        std::vector<int64_t> openEnds; // ends of enclosing slices, innermost last (INT64_MAX = open B)
        std::vector<OpenSlice> openB;
        int64_t lastTs = INT64_MIN;
        int64_t lastDur = 0;
        int64_t sliceCount = 0;
        int64_t maxDepth = 0;
        int64_t maxDurNs = 0;
        bool unsorted = false;
        // The slices as emitted (varints: ts minus the previous ts, dur, depth, name), kept so that
        // finish() builds the track's timeline summaries while the writer inserts the last rows,
        // instead of reading every slice back afterwards. Dropped for good (summaryKept false) when a
        // slice comes out of (ts, id) order, the track is marked unsorted (its depths will change), or
        // the kept rows of all tracks pass kMaxKeptSummaryBytes.
        std::vector<unsigned char> summaryRows;
        // The (ts, id) of the slice emitted last, and whether every slice so far came in that order:
        // only then are the timeline summaries and the correlation tiles made as the slices pass.
        int64_t emittedTs = INT64_MIN;
        int64_t emittedId = 0;
        bool emittedInOrder = true;
        int64_t summaryFirstTs = 0;
        bool summaryKept = true;
        bool summarised = false; // its tiles were handed to the writer (origin: summaryFirstTs)
        CorrTile corrTile; // the slices with a corr since the last tile was handed over
        // A slice with a corr came out of order: tiles made in the order slices arrive could each
        // span the whole track, so finish() makes them from the workspace.
        bool corrTilesFromWorkspace = false;
    };
    struct FlowEnd {
        int64_t track;
        int64_t ts;
        bool isStart;
    };

    TrackState &trackState(int64_t track) { return m_tracks[size_t(track - m_trackBase)]; }
    int64_t newTrack(int64_t process, TrackKind kind, std::string_view label);
    QString trackLocation(int64_t track, int64_t ts);
    int64_t depthFor(int64_t track, TrackState &state, int64_t ts, int64_t dur);
    void emitSlice(int64_t track, TrackState &state, const SliceFields &f, int64_t depth, int64_t id);
    void keepForSummary(TrackState &s, const SliceFields &f, int64_t depth);
    void summariseKeptTracks();
    void addToCorrTile(int64_t track, TrackState &s, int64_t ts, int64_t corr);
    void flushCorrTiles();
    void tileCorrsFromWorkspace();
    void emitFlow(int64_t cat, int64_t key, const FlowEnd *src, const FlowEnd *dst);
    void pushBatchIfFull();
    void pushBatch();
    struct Statements;
    void writeBatch(Batch &batch); // on the writer thread
    void repairDepths();
    void writeTraceRows();

    SqliteDb &m_db;
    DiagnosticLog &m_diag;
    int64_t m_sourceId;
    QString m_sourcePath;
    QString m_format;
    QString m_traceName;
    int64_t m_rank = kNoValue;
    int64_t m_worldSize = kNoValue;
    QString m_jobKey, m_jobName; // see setJob()
    int64_t m_baseTimeNs = kNoValue;
    QByteArray m_metadataJson;
    struct Device {
        int64_t index;
        QString name;
        QByteArray json;
    };
    std::vector<Device> m_devices;

    int64_t m_traceId = 0;
    int64_t m_processBase = 0;
    int64_t m_trackBase = 0;
    int64_t m_nextSliceId = 0;
    int64_t m_nextCounterId = 0;
    int64_t m_nextFlowId = 0;
    int64_t m_nextStringId = 0;
    StringPool *m_pool = nullptr;
    int64_t m_nextArgsId = 0;
    bool m_bulkLoad = false;
    bool m_finished = false;

    // Transparent hashing: look strings up by string_view without building a std::string.
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    using StringMap = std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>>;
    StringMap m_strings;
    // Args JSON -> id for deduplication; emptied when its keys pass kMaxArgsDedupeBytes (an args set
    // seen again after that gets a second row: dedupe is best effort, correctness is not).
    StringMap m_argsIds;
    size_t m_argsIdsBytes = 0;
    StringMap m_processByLabel;
    StringMap m_trackByKey;
    std::vector<ProcessState> m_processes;
    std::vector<TrackState> m_tracks;
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
    std::unordered_map<FlowKey, FlowEnd, FlowKeyHash> m_pendingFlows; // one waiting end per key
    int64_t m_danglingFlows = 0;
    struct Relocation {
        int64_t from, to, cat;
    };
    std::vector<Relocation> m_relocations;
    TraceStats m_stats;
    size_t m_summaryBytes = 0; // of all TrackState::summaryRows

    std::unique_ptr<Batch> m_current; // being filled
    std::unique_ptr<Statements> m_statements; // the writer's, prepared on its first batch
    BatchWriter<Batch> m_writer;
};

} // namespace plumb
