// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/tracesink.h"

#include "ingest/diagnosticlog.h"
#include "store/schema.h"
#include "store/sqlitedb.h"
#include "text/textnumbers.h"
#include "timeline/countersummary.h"
#include "timeline/slicesummary.h"
#include "timeline/varint.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstring>

#include <algorithm>
#include <iterator>
#include <tuple>

namespace plumb {

namespace {

constexpr size_t kMaxArgsDedupeBytes = size_t(64) << 20; // args JSON kept in memory for deduplication
// Multi-row VALUES: fewer statement steps. 128 rows took 0.96x the CPU time of 32 inserting 1M slices
// in a standalone test (12 pairs); 128 x 13 parameters stay far below SQLite's limit of 32,766.
constexpr int kRowsPerInsert = 128;
constexpr int kSliceColumns = 13;
constexpr int kFirstNullable = 6; // cat_id .. args_id may be NULL
constexpr int kFlowColumns = 8;
constexpr size_t kMaxQueuedBatches = 3; // filled batches waiting for the writer

std::string multiRowInsert(const char *head, int columns)
{
    std::string row = "(?";
    for (int c = 1; c < columns; ++c)
        row += ",?";
    row += ')';
    std::string sql = head;
    for (int r = 0; r < kRowsPerInsert; ++r)
        sql += (r ? "," : "") + row;
    return sql;
}

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

void bindNullable(SqliteStmt &st, int index, int64_t v)
{
    if (v == kNoValue)
        st.bindNull(index);
    else
        st.bind(index, v);
}

std::string_view kindName(TrackKind k)
{
    switch (k) {
    case TrackKind::Thread:
        return "thread";
    case TrackKind::GpuStream:
        return "gpu_stream";
    case TrackKind::Counter:
        return "counter";
    case TrackKind::Global:
        return "global";
    case TrackKind::CudaApi:
        return "cuda_api";
    case TrackKind::GpuAnnotation:
        return "gpu_annotation";
    case TrackKind::CpuSamples:
        return "cpu_samples";
    case TrackKind::OnCpu:
        return "on_cpu";
    }
    return "thread";
}

std::string_view processKindName(ProcessKind k)
{
    switch (k) {
    case ProcessKind::Cpu:
        return "cpu";
    case ProcessKind::Gpu:
        return "gpu";
    case ProcessKind::Other:
        return "other";
    }
    return "cpu";
}

} // namespace

StringPool::StringPool(SqliteDb &workspace)
{
    SqliteStmt st(workspace, "SELECT id, str FROM string");
    while (st.step()) {
        m_ids.emplace(std::string(st.columnView(1)), st.columnInt(0));
        m_next = std::max(m_next, st.columnInt(0) + 1);
    }
    m_firstNew = m_next;
}

int64_t StringPool::intern(std::string_view str, bool *newToWorkspace)
{
    std::lock_guard lock(m_mutex);
    auto it = m_ids.find(str);
    if (it == m_ids.end())
        it = m_ids.emplace(std::string(str), m_next++).first;
    *newToWorkspace = it->second >= m_firstNew;
    return it->second;
}

QString traceRunName(const QString &traceName)
{
    QString name = traceName;
    for (const char *suffix : { ".gz", ".json", ".pt.trace", ".sqlite", ".xplane.pb" })
        if (name.endsWith(QLatin1String(suffix)))
            name.chop(qsizetype(strlen(suffix)));
    return name;
}

int64_t findOrAddRun(SqliteDb &db, const QString &key, const QString &name, int64_t createdNs)
{
    SqliteStmt find(db, "SELECT id FROM main.run WHERE key = ?");
    find.bind(1, key);
    if (find.step())
        return find.columnInt(0);
    SqliteStmt ins(db, "INSERT INTO main.run(key, name, created_at_ns) VALUES (?, ?, ?)");
    ins.bind(1, key).bind(2, name).bind(3, createdNs).run();
    return db.queryInt("SELECT last_insert_rowid()");
}

void TraceSink::Batch::clear()
{
    slices.clear();
    counters.clear();
    flows.clear();
    strings.clear();
    args.clear();
    lodTiles.clear();
    corrTiles.clear();
}

TraceSink::TraceSink(SqliteDb &db, DiagnosticLog &diagnostics, int64_t sourceId, const QString &sourcePath,
    const QString &format, StringPool *pool)
    : m_db(db)
    , m_diag(diagnostics)
    , m_sourceId(sourceId)
    , m_sourcePath(sourcePath)
    , m_format(format)
    , m_traceName(QFileInfo(sourcePath).fileName())
    , m_pool(pool)
    , m_writer(kMaxQueuedBatches, [this](Batch &b) { writeBatch(b); })
{
    m_traceId = db.queryInt("SELECT max(id) FROM trace", 0) + 1;
    m_processBase = db.queryInt("SELECT max(id) FROM process", 0) + 1;
    m_trackBase = db.queryInt("SELECT max(id) FROM track", 0) + 1;
    m_nextFlowId = db.queryInt("SELECT max(id) FROM flow", 0) + 1;
    m_nextArgsId = db.queryInt("SELECT max(id) FROM args", 0) + 1;
    m_nextStringId = db.queryInt("SELECT max(id) FROM string", 0) + 1;
    m_nextSliceId = nextIdFromInfo(db, "next_slice_id");
    m_nextCounterId = nextIdFromInfo(db, "next_counter_id");
    if (!m_pool) {
        SqliteStmt st(db, "SELECT id, str FROM string");
        while (st.step())
            m_strings.emplace(std::string(st.columnView(1)), st.columnInt(0));
    }
    m_bulkLoad = db.queryInt("SELECT count(*) FROM (SELECT 1 FROM slice LIMIT 1)") == 0;
    if (m_bulkLoad)
        db.exec(dropSecondaryIndexesSql());

    m_argsIds.reserve(1 << 16); // skips the rehashes of a growing table on args-heavy traces
    m_current = std::make_unique<Batch>();
}

TraceSink::~TraceSink()
{
    // Abandoned (error or cancel) when not finished: the caller rolls back, so queued rows need not
    // be written. Before any member goes: the writer uses them.
    m_writer.abandon();
}

void TraceSink::setRank(int64_t rank, int64_t worldSize)
{
    m_rank = rank;
    m_worldSize = worldSize;
}

void TraceSink::addDevice(int64_t index, const QString &name, const QByteArray &propertiesJson)
{
    for (auto &d : m_devices) {
        if (d.index == index) {
            d = Device { index, name, propertiesJson };
            return;
        }
    }
    m_devices.push_back(Device { index, name, propertiesJson });
}

int64_t TraceSink::intern(std::string_view str)
{
    auto it = m_strings.find(str);
    if (it != m_strings.end())
        return it->second;
    bool write = true;
    const int64_t id = m_pool ? m_pool->intern(str, &write) : m_nextStringId++;
    m_strings.emplace(std::string(str), id);
    if (write)
        m_current->strings.emplace_back(id, std::string(str));
    return id;
}

int64_t TraceSink::internArgs(std::string_view json)
{
    if (json.empty() || json == "{}")
        return kNoValue;
    auto it = m_argsIds.find(json);
    if (it != m_argsIds.end())
        return it->second;
    if (m_argsIdsBytes + json.size() > kMaxArgsDedupeBytes) {
        m_argsIds.clear();
        m_argsIdsBytes = 0;
    }
    const int64_t id = m_nextArgsId++;
    m_argsIds.emplace(std::string(json), id);
    m_argsIdsBytes += json.size() + 64; // the string and the node around it
    m_current->args.emplace_back(id, std::string(json));
    return id;
}

int64_t TraceSink::process(std::string_view label)
{
    auto it = m_processByLabel.find(label);
    if (it != m_processByLabel.end())
        return it->second;
    const std::string key(label);
    const int64_t id = m_processBase + int64_t(m_processes.size());
    ProcessState p;
    p.label = key;
    if (auto n = parseNumber<int64_t>(label))
        p.pid = *n;
    else
        p.kind = ProcessKind::Other;
    m_processes.push_back(std::move(p));
    m_processByLabel.emplace(key, id);
    return id;
}

void TraceSink::setProcessName(int64_t process, std::string_view name)
{
    m_processes[size_t(process - m_processBase)].name.assign(name);
}

void TraceSink::setProcessLabels(int64_t process, std::string_view labels)
{
    m_processes[size_t(process - m_processBase)].labels.assign(labels);
}

void TraceSink::setProcessSortIndex(int64_t process, int64_t sortIndex)
{
    m_processes[size_t(process - m_processBase)].sortIndex = sortIndex;
}

void TraceSink::setProcessKind(int64_t process, ProcessKind kind, int64_t deviceIndex)
{
    auto &p = m_processes[size_t(process - m_processBase)];
    p.kind = kind;
    if (deviceIndex != kNoValue)
        p.deviceIndex = deviceIndex;
}

int64_t TraceSink::newTrack(int64_t process, TrackKind kind, std::string_view label)
{
    const int64_t id = m_trackBase + int64_t(m_tracks.size());
    TrackState t;
    t.process = process;
    t.kind = kind;
    t.label.assign(label);
    if (kind != TrackKind::Counter && kind != TrackKind::Global)
        if (auto n = parseNumber<int64_t>(label))
            t.tid = *n;
    m_tracks.push_back(std::move(t));
    return id;
}

int64_t TraceSink::thread(int64_t process, std::string_view tidLabel)
{
    thread_local std::string key;
    key.assign("t:");
    key.append(std::to_string(process));
    key.push_back(':');
    key.append(tidLabel);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end())
        return it->second;
    const int64_t id = newTrack(process, TrackKind::Thread, tidLabel);
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TraceSink::companionTrack(int64_t track, TrackKind kind)
{
    std::string key = "k:" + std::to_string(track) + ':' + std::to_string(int(kind));
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end())
        return it->second;
    const TrackState &parent = trackState(track);
    const int64_t process = parent.process;
    const std::string label = parent.label;
    const int64_t tid = parent.tid;
    const int64_t id = newTrack(process, kind, label);
    trackState(id).tid = tid;
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TraceSink::counterTrack(int64_t process, std::string_view name)
{
    std::string key = "c:" + std::to_string(process) + ':' + std::string(name);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end())
        return it->second;
    const int64_t id = newTrack(process, TrackKind::Counter, {});
    trackState(id).name.assign(name);
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TraceSink::globalTrack(std::string_view name)
{
    std::string key = "g:" + std::string(name);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end())
        return it->second;
    const int64_t id = newTrack(kNoValue, TrackKind::Global, {});
    trackState(id).name.assign(name);
    m_trackByKey.emplace(key, id);
    return id;
}

void TraceSink::setTrackName(int64_t track, std::string_view name)
{
    trackState(track).name.assign(name);
}

void TraceSink::setTrackSortIndex(int64_t track, int64_t sortIndex)
{
    trackState(track).sortIndex = sortIndex;
}

void TraceSink::setTrackStream(int64_t track, int64_t stream)
{
    trackState(track).stream = stream;
}

void TraceSink::setTrackGpuStream(int64_t track, int64_t stream)
{
    auto &t = trackState(track);
    t.kind = TrackKind::GpuStream;
    t.stream = stream;
}

QString TraceSink::trackLocation(int64_t track, int64_t ts)
{
    const auto &t = trackState(track);
    const QString pid = t.process == kNoValue
        ? QString()
        : QString::fromStdString(m_processes[size_t(t.process - m_processBase)].label);
    return QStringLiteral("pid %1 tid %2, ts %3 ns").arg(pid, QString::fromStdString(t.label)).arg(ts);
}

// Depth = number of enclosing slices still open at `ts`. Works for input sorted by (ts, dur desc)
// per track; anything else marks the track for repairDepths().
int64_t TraceSink::depthFor(int64_t track, TrackState &s, int64_t ts, int64_t dur)
{
    if (ts < s.lastTs || (ts == s.lastTs && dur > s.lastDur && !s.openEnds.empty())) {
        if (!s.unsorted)
            m_diag.report(Severity::Info, QStringLiteral("unsorted-events"), trackLocation(track, ts),
                QStringLiteral("Events are not in time order on some tracks; they were sorted "
                               "and their nesting recomputed."));
        s.unsorted = true;
    }
    s.lastTs = ts;
    s.lastDur = dur;
    while (!s.openEnds.empty() && s.openEnds.back() <= ts)
        s.openEnds.pop_back();
    const int64_t end = ts + dur;
    if (!s.openEnds.empty() && end > s.openEnds.back() && s.openEnds.back() != INT64_MAX && !s.unsorted) {
        const bool gpu = s.kind == TrackKind::GpuStream;
        m_diag.report(Severity::Info,
            gpu ? QStringLiteral("overlapping-gpu-ops") : QStringLiteral("overlapping-slices"),
            trackLocation(track, ts),
            gpu ? QStringLiteral("GPU operations overlap on one stream (a profiler timing artefact); "
                                 "the later one is drawn one level below.")
                : QStringLiteral("Slices overlap on one thread without nesting; the later one is "
                                 "drawn one level below."));
    }
    return int64_t(s.openEnds.size());
}

void TraceSink::emitSlice(int64_t track, TrackState &s, const SliceFields &f, int64_t depth, int64_t id)
{
    m_current->slices.push_back(SliceRow { track, f.tsNs, id, f.durNs, depth, f.nameId, f.catId, f.corr,
        f.extId, f.seqNr, f.evIdx, f.rfId, f.argsId });
    ++s.sliceCount;
    s.emittedInOrder
        = s.emittedInOrder && (f.tsNs > s.emittedTs || (f.tsNs == s.emittedTs && id > s.emittedId));
    if (s.summaryKept)
        keepForSummary(s, f, depth);
    if (f.corr != kNoValue)
        addToCorrTile(track, s, f.tsNs, f.corr);
    s.emittedTs = f.tsNs;
    s.emittedId = id;
    s.maxDepth = std::max(s.maxDepth, depth);
    s.maxDurNs = std::max(s.maxDurNs, f.durNs);
    ++m_stats.slices;
    m_stats.startNs = std::min(m_stats.startNs, f.tsNs);
    m_stats.endNs = std::max(m_stats.endNs, f.tsNs + f.durNs);
    pushBatchIfFull();
}

void TraceSink::keepForSummary(TrackState &s, const SliceFields &f, int64_t depth)
{
    // Out of order, or with depths that repairDepths() will change: summarised from the workspace.
    if (!s.emittedInOrder || s.unsorted || m_summaryBytes > kMaxKeptSummaryBytes) {
        m_summaryBytes -= s.summaryRows.capacity();
        std::vector<unsigned char>().swap(s.summaryRows);
        s.summaryKept = false;
        return;
    }
    if (s.summaryRows.empty())
        s.summaryFirstTs = f.tsNs;
    const int64_t previousTs = s.summaryRows.empty() ? f.tsNs : s.emittedTs;
    const size_t capacity = s.summaryRows.capacity();
    {
        varint::Appender out(s.summaryRows, 4);
        out.put(uint64_t(f.tsNs) - uint64_t(previousTs)); // >= 0, but may pass INT64_MAX
        out.putSigned(f.durNs);
        out.put(uint64_t(std::max<int64_t>(0, depth)));
        out.putSigned(f.nameId);
    }
    m_summaryBytes += s.summaryRows.capacity() - capacity;
}

// The timeline summaries of the tracks whose rows were kept in order and whose depths are final (no
// repairDepths()), handed to the writer as batches of tiles; the others are summarised from the
// workspace once the writer is done.
void TraceSink::summariseKeptTracks()
{
    constexpr size_t kTileBatchBytes = size_t(4) << 20;
    size_t batchBytes = 0;
    for (size_t t = 0; t < m_tracks.size(); ++t) {
        TrackState &s = m_tracks[t];
        if (!s.summaryKept || s.unsorted || s.sliceCount < kMinSummarisedSlices)
            continue;
        const int64_t track = m_trackBase + int64_t(t);
        SliceSummaryBuilder builder(sliceSummaryLevels(s.summaryFirstTs, s.emittedTs, s.sliceCount),
            [&](int level, int64_t tile, const std::vector<unsigned char> &data) {
                m_current->lodTiles.push_back({ track, level, tile, data });
                batchBytes += data.size();
                if (batchBytes >= kTileBatchBytes) {
                    pushBatch();
                    batchBytes = 0;
                }
            });
        varint::Reader r { s.summaryRows.data(), s.summaryRows.data() + s.summaryRows.size() };
        int64_t ts = s.summaryFirstTs;
        while (r.p != r.end) {
            ts = int64_t(uint64_t(ts) + r.get());
            const int64_t dur = r.getSigned();
            const auto depth = int(r.get());
            builder.add(ts, dur, depth, r.getSigned());
        }
        builder.finish();
        std::vector<unsigned char>().swap(s.summaryRows);
        s.summarised = true;
    }
    if (!m_current->lodTiles.empty())
        pushBatch();
}

// Tiles of the slices with a corr as they arrive, while the track's slices arrive in (ts, id) order
// (see slice_corr_tile in schema.cpp); past that, the track's tiles are made from the workspace.
void TraceSink::addToCorrTile(int64_t track, TrackState &s, int64_t ts, int64_t corr)
{
    if (!s.emittedInOrder) {
        s.corrTilesFromWorkspace = true;
        return;
    }
    CorrTile &t = s.corrTile;
    if (t.count == 0)
        t.firstTs = ts;
    t.lastTs = ts;
    t.minCorr = std::min(t.minCorr, corr);
    t.maxCorr = std::max(t.maxCorr, corr);
    if (++t.count == kCorrTileSlices) {
        m_current->corrTiles.push_back({ track, t });
        t = {};
    }
}

void TraceSink::flushCorrTiles()
{
    for (size_t t = 0; t < m_tracks.size(); ++t)
        if (m_tracks[t].corrTile.count > 0) {
            m_current->corrTiles.push_back({ m_trackBase + int64_t(t), m_tracks[t].corrTile });
            m_tracks[t].corrTile = {};
        }
}

// After the writer is done: the tiles of the tracks whose slices with a corr came out of time
// order, in (ts, id) order, each covering a stretch of its track instead of all of it.
void TraceSink::tileCorrsFromWorkspace()
{
    SqliteStmt clear(m_db, "DELETE FROM slice_corr_tile WHERE track_id = ?");
    SqliteStmt tile(m_db,
        "INSERT OR IGNORE INTO slice_corr_tile(track_id, first_ts, last_ts, min_corr, max_corr) "
        "SELECT ?1, min(ts), max(ts), min(corr), max(corr) FROM (SELECT ts, corr, "
        "(row_number() OVER (ORDER BY ts, id) - 1) / ?2 AS tile FROM slice "
        "WHERE track_id = ?1 AND corr IS NOT NULL) GROUP BY tile");
    for (size_t t = 0; t < m_tracks.size(); ++t)
        if (m_tracks[t].corrTilesFromWorkspace) {
            const int64_t track = m_trackBase + int64_t(t);
            clear.bind(1, track).run();
            tile.bind(1, track).bind(2, kCorrTileSlices).run();
        }
}

void TraceSink::addSlice(int64_t track, const SliceFields &f)
{
    auto &s = trackState(track);
    const int64_t depth = depthFor(track, s, f.tsNs, f.durNs);
    s.openEnds.push_back(f.tsNs + f.durNs);
    emitSlice(track, s, f, depth, m_nextSliceId++);
}

void TraceSink::beginSlice(int64_t track, const SliceFields &f)
{
    auto &s = trackState(track);
    const int64_t depth = depthFor(track, s, f.tsNs, INT64_MAX / 4);
    s.openEnds.push_back(INT64_MAX);
    s.openB.push_back(OpenSlice { f, depth, m_nextSliceId++ });
}

bool TraceSink::endSlice(int64_t track, int64_t tsNs, int64_t argsId)
{
    auto &s = trackState(track);
    if (s.openB.empty())
        return false;
    OpenSlice open = s.openB.back();
    s.openB.pop_back();
    // Replace the innermost open-B marker by the real end so later slices nest correctly.
    for (auto it = s.openEnds.rbegin(); it != s.openEnds.rend(); ++it) {
        if (*it == INT64_MAX) {
            *it = std::max(tsNs, open.fields.tsNs);
            break;
        }
    }
    open.fields.durNs = std::max<int64_t>(0, tsNs - open.fields.tsNs);
    if (argsId != kNoValue)
        open.fields.argsId = argsId;
    emitSlice(track, s, open.fields, open.depth, open.id);
    return true;
}

void TraceSink::addCounter(int64_t track, int64_t tsNs, double value)
{
    m_current->counters.push_back(CounterRow { track, tsNs, m_nextCounterId++, value });
    ++m_stats.counters;
    m_stats.startNs = std::min(m_stats.startNs, tsNs);
    m_stats.endNs = std::max(m_stats.endNs, tsNs);
    pushBatchIfFull();
}

void TraceSink::emitFlow(int64_t cat, int64_t key, const FlowEnd *src, const FlowEnd *dst)
{
    m_current->flows.push_back(FlowRow { m_nextFlowId++, cat, key, src ? src->track : kNoValue,
        src ? src->ts : kNoValue, dst ? dst->track : kNoValue, dst ? dst->ts : kNoValue });
    ++m_stats.flows;
    pushBatchIfFull();
}

void TraceSink::flowStart(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
{
    const FlowEnd here { track, tsNs, true };
    auto [it, inserted] = m_pendingFlows.try_emplace(FlowKey { catId, key }, here);
    if (inserted)
        return;
    if (!it->second.isStart) {
        emitFlow(catId, key, &here, &it->second); // the end came first in the file
        m_pendingFlows.erase(it);
    } else {
        emitFlow(catId, key, &it->second, nullptr); // two starts: the first one dangles
        ++m_danglingFlows;
        it->second = here;
    }
}

void TraceSink::flowEnd(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
{
    const FlowEnd here { track, tsNs, false };
    auto [it, inserted] = m_pendingFlows.try_emplace(FlowKey { catId, key }, here);
    if (inserted)
        return;
    if (it->second.isStart) {
        emitFlow(catId, key, &it->second, &here);
        m_pendingFlows.erase(it);
    } else {
        emitFlow(catId, key, nullptr, &it->second);
        ++m_danglingFlows;
        it->second = here;
    }
}

void TraceSink::relocateFlowEnds(int64_t fromTrack, int64_t toTrack, int64_t catId)
{
    m_relocations.push_back(Relocation { fromTrack, toTrack, catId });
}

void TraceSink::pushBatchIfFull()
{
    if (m_current->rows() >= kBatchRows)
        pushBatch();
}

void TraceSink::pushBatch()
{
    // In key order, the writer appends to each track's run of the clustered slice table instead of
    // hopping between them (a thread and its CUDA API track alternate, for one): fewer b-tree seeks
    // and page splits on the writer thread, which is the slower one. Sorted here, on the producer.
    auto byKey = [](const SliceRow &a, const SliceRow &b) {
        return std::tie(a.track, a.ts, a.id) < std::tie(b.track, b.ts, b.id);
    };
    auto &slices = m_current->slices;
    if (!std::is_sorted(slices.begin(), slices.end(), byKey))
        std::sort(slices.begin(), slices.end(), byKey);
    std::unique_ptr<Batch> next = m_writer.push(std::move(m_current));
    m_current = next ? std::move(next) : std::make_unique<Batch>();
}

// Prepared once per import on the writer thread, which owns the connection during the load.
// OR FAIL on the multi-row INSERTs: a statement that may abort after writing some of its rows keeps a
// statement journal, a copy of every page it touches (14% of the writer's work on an Nsight import).
// FAIL keeps the rows written before a failure, and a failed import rolls its transaction back anyway.
struct TraceSink::Statements {
    explicit Statements(SqliteDb &db)
        : db(db)
        , sliceOne(db,
              "INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id, corr, ext_id, seq_nr, "
              "ev_idx, rf_id, args_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
        , counter(db, "INSERT INTO counter(track_id, ts, id, value) VALUES (?,?,?,?)")
        , flowMulti(db,
              multiRowInsert("INSERT OR FAIL INTO flow(id, trace_id, cat_id, flow_key, src_track, src_ts, "
                             "dst_track, dst_ts) VALUES ",
                  kFlowColumns))
        , flow(db,
              "INSERT INTO flow(id, trace_id, cat_id, flow_key, src_track, src_ts, dst_track, dst_ts) "
              "VALUES (?,?,?,?,?,?,?,?)")
        , str(db, "INSERT INTO string(id, str) VALUES (?, ?)")
        , args(db, "INSERT INTO args(id, json) VALUES (?, ?)")
        , lodTile(db, kInsertSliceLodSql)
        , corrTile(db,
              "INSERT OR IGNORE INTO slice_corr_tile(track_id, first_ts, last_ts, min_corr, max_corr) "
              "VALUES (?,?,?,?,?)")
    {
    }
    // The multi-row slice INSERT with NULL written into the SQL for the nullable columns that are NULL
    // in all of a chunk's rows (bit c: the c-th nullable column): fewer values to bind (four of
    // thirteen in most Nsight and XPlane rows). Prepared on first use; at most 2^7.
    SqliteStmt &sliceMulti(uint32_t nullMask)
    {
        auto &stmt = sliceMultiByMask[nullMask];
        if (!stmt) {
            static const char *const names[kSliceColumns] = { "track_id", "ts", "id", "dur", "depth",
                "name_id", "cat_id", "corr", "ext_id", "seq_nr", "ev_idx", "rf_id", "args_id" };
            std::string sql = "INSERT OR FAIL INTO slice(";
            std::string row = "(";
            for (int c = 0; c < kSliceColumns; ++c) {
                sql += c ? "," : "";
                sql += names[c];
                row += c ? "," : "";
                row += c >= kFirstNullable && (nullMask >> (c - kFirstNullable)) & 1 ? "NULL" : "?";
            }
            sql += ") VALUES ";
            row += ')';
            for (int r = 0; r < kRowsPerInsert; ++r)
                sql += (r ? "," : "") + row;
            stmt = std::make_unique<SqliteStmt>(db, sql);
        }
        return *stmt;
    }
    SqliteDb &db;
    std::unordered_map<uint32_t, std::unique_ptr<SqliteStmt>> sliceMultiByMask;
    SqliteStmt sliceOne, counter, flowMulti, flow, str, args, lodTile, corrTile;
};

void TraceSink::writeBatch(Batch &b)
{
    if (!m_statements)
        m_statements = std::make_unique<Statements>(m_db);
    Statements &st = *m_statements;
    for (const auto &[id, s] : b.strings)
        st.str.bind(1, id).bind(2, std::string_view(s)).run();
    for (const auto &[id, s] : b.args)
        st.args.bind(1, id).bind(2, std::string_view(s)).run();
    for (const LodTileRow &t : b.lodTiles)
        st.lodTile.bind(1, t.track)
            .bind(2, t.level)
            .bind(3, t.tile)
            .bindBlob(4, t.data.data(), t.data.size())
            .run();
    for (const auto &[track, t] : b.corrTiles)
        st.corrTile.bind(1, track)
            .bind(2, t.firstTs)
            .bind(3, t.lastTs)
            .bind(4, t.minCorr)
            .bind(5, t.maxCorr)
            .run();

    auto bindSlice = [](SqliteStmt &stmt, int base, const SliceRow &r) {
        stmt.bind(base + 1, r.track).bind(base + 2, r.ts).bind(base + 3, r.id).bind(base + 4, r.dur);
        stmt.bind(base + 5, r.depth).bind(base + 6, r.name);
        bindNullable(stmt, base + 7, r.cat);
        bindNullable(stmt, base + 8, r.corr);
        bindNullable(stmt, base + 9, r.ext);
        bindNullable(stmt, base + 10, r.seq);
        bindNullable(stmt, base + 11, r.evIdx);
        bindNullable(stmt, base + 12, r.rfId);
        bindNullable(stmt, base + 13, r.args);
    };
    auto nullMask = [](const SliceRow &r) {
        const int64_t nullable[] = { r.cat, r.corr, r.ext, r.seq, r.evIdx, r.rfId, r.args };
        uint32_t mask = 0;
        for (size_t c = 0; c < std::size(nullable); ++c)
            mask |= uint32_t(nullable[c] == kNoValue) << c;
        return mask;
    };
    size_t i = 0;
    const size_t n = b.slices.size();
    for (; i + kRowsPerInsert <= n; i += kRowsPerInsert) {
        uint32_t mask = (1u << (kSliceColumns - kFirstNullable)) - 1;
        for (int r = 0; r < kRowsPerInsert; ++r)
            mask &= nullMask(b.slices[i + size_t(r)]);
        SqliteStmt &stmt = st.sliceMulti(mask);
        int param = 0;
        for (int r = 0; r < kRowsPerInsert; ++r) {
            const SliceRow &row = b.slices[i + size_t(r)];
            const int64_t values[kSliceColumns] = { row.track, row.ts, row.id, row.dur, row.depth, row.name,
                row.cat, row.corr, row.ext, row.seq, row.evIdx, row.rfId, row.args };
            for (int c = 0; c < kSliceColumns; ++c) {
                if (c < kFirstNullable)
                    stmt.bind(++param, values[c]);
                else if (!((mask >> (c - kFirstNullable)) & 1))
                    bindNullable(stmt, ++param, values[c]);
            }
        }
        stmt.step();
        stmt.resetKeepBindings();
    }
    for (; i < n; ++i) {
        bindSlice(st.sliceOne, 0, b.slices[i]);
        st.sliceOne.step();
        st.sliceOne.resetKeepBindings();
    }
    for (const auto &c : b.counters)
        st.counter.bind(1, c.track).bind(2, c.ts).bind(3, c.id).bind(4, c.value).run();
    auto bindFlow = [this](SqliteStmt &stmt, int base, const FlowRow &f) {
        stmt.bind(base + 1, f.id).bind(base + 2, m_traceId);
        bindNullable(stmt, base + 3, f.cat);
        bindNullable(stmt, base + 4, f.key);
        bindNullable(stmt, base + 5, f.srcTrack);
        bindNullable(stmt, base + 6, f.srcTs);
        bindNullable(stmt, base + 7, f.dstTrack);
        bindNullable(stmt, base + 8, f.dstTs);
    };
    const size_t nf = b.flows.size();
    for (i = 0; i + kRowsPerInsert <= nf; i += kRowsPerInsert) {
        for (int r = 0; r < kRowsPerInsert; ++r)
            bindFlow(st.flowMulti, r * kFlowColumns, b.flows[i + size_t(r)]);
        st.flowMulti.step();
        st.flowMulti.resetKeepBindings();
    }
    for (; i < nf; ++i) {
        bindFlow(st.flow, 0, b.flows[i]);
        st.flow.step();
        st.flow.resetKeepBindings();
    }
}

void TraceSink::finish()
{
    if (m_finished)
        return;
    m_finished = true;

    // B without E: close at the end of the trace so the time is not lost.
    int64_t unterminated = 0;
    for (size_t t = 0; t < m_tracks.size(); ++t) {
        auto &s = m_tracks[t];
        while (!s.openB.empty()) {
            const int64_t end = std::max(m_stats.endNs, s.openB.back().fields.tsNs);
            endSlice(m_trackBase + int64_t(t), end);
            ++unterminated;
        }
    }
    if (unterminated)
        m_diag.report(Severity::Warning, QStringLiteral("unterminated-slice"), {},
            QStringLiteral("B (begin) events without a matching E; they were closed at the end of the "
                           "trace."),
            unterminated);
    for (const auto &[key, end] : m_pendingFlows) {
        emitFlow(key.cat, key.key, end.isStart ? &end : nullptr, end.isStart ? nullptr : &end);
        ++m_danglingFlows;
    }
    m_pendingFlows.clear();
    if (m_danglingFlows)
        m_diag.report(Severity::Info, QStringLiteral("dangling-flow"), {},
            QStringLiteral("Flow events with only one end (for example a launch whose kernel was not "
                           "captured); kept with the other end empty."),
            m_danglingFlows);

    flushCorrTiles();
    if (m_current->rows() || !m_current->strings.empty() || !m_current->args.empty()
        || !m_current->corrTiles.empty())
        pushBatch();
    // While the writer thread inserts the last batches.
    summariseKeptTracks();
    m_writer.finish();
    m_statements.reset();
    for (const auto &r : m_relocations) {
        for (const char *sql :
            { "UPDATE flow SET src_track = ? WHERE trace_id = ? AND src_track = ? AND cat_id = ?",
                "UPDATE flow SET dst_track = ? WHERE trace_id = ? AND dst_track = ? AND cat_id = ?" }) {
            SqliteStmt st(m_db, sql);
            st.bind(1, r.to).bind(2, m_traceId).bind(3, r.from).bind(4, r.cat).run();
        }
    }
    repairDepths();
    tileCorrsFromWorkspace();
    writeTraceRows();
    {
        SqliteStmt origin(m_db, "UPDATE track SET lod_origin_ns = ? WHERE id = ?");
        for (size_t t = 0; t < m_tracks.size(); ++t) {
            const int64_t track = m_trackBase + int64_t(t);
            if (m_tracks[t].summarised)
                origin.bind(1, m_tracks[t].summaryFirstTs).bind(2, track).run();
            else if (m_tracks[t].sliceCount >= kMinSummarisedSlices)
                buildTrackSliceSummaries(m_db, track, m_tracks[t].sliceCount);
        }
    }
    buildCounterSummaries(m_db, m_traceId);
    storeNextId(m_db, "next_slice_id", m_nextSliceId);
    storeNextId(m_db, "next_counter_id", m_nextCounterId);
    if (m_bulkLoad && !m_pool) // a parallel import's scratch workspace is only copied from
        m_db.exec(secondaryIndexesSql());
}

// Tracks whose events came out of order (Kineto writes a thread's CPU ops, then its runtime calls):
// recompute depths in (ts, dur desc) order. Rows are read in key order (ts, id) and each group of
// equal timestamps is ordered by duration in memory, so SQLite never sorts.
void TraceSink::repairDepths()
{
    SqliteStmt select(m_db, "SELECT ts, id, dur, depth FROM slice WHERE track_id = ? ORDER BY ts, id");
    SqliteStmt update(m_db, "UPDATE slice SET depth = ? WHERE track_id = ? AND ts = ? AND id = ?");
    struct Row {
        int64_t ts, id, dur, depth;
    };
    std::vector<Row> group;
    std::vector<int64_t> ends;
    for (size_t t = 0; t < m_tracks.size(); ++t) {
        auto &s = m_tracks[t];
        if (!s.unsorted)
            continue;
        const int64_t track = m_trackBase + int64_t(t);
        int64_t maxDepth = 0;
        ends.clear();
        group.clear();
        auto flush = [&] {
            std::stable_sort(
                group.begin(), group.end(), [](const Row &a, const Row &b) { return a.dur > b.dur; });
            for (const Row &r : group) {
                while (!ends.empty() && ends.back() <= r.ts)
                    ends.pop_back();
                const auto depth = int64_t(ends.size());
                ends.push_back(r.ts + r.dur);
                maxDepth = std::max(maxDepth, depth);
                if (depth != r.depth)
                    update.bind(1, depth).bind(2, track).bind(3, r.ts).bind(4, r.id).run();
            }
            group.clear();
        };
        select.bind(1, track);
        while (select.step()) {
            const Row r { select.columnInt(0), select.columnInt(1), select.columnInt(2),
                select.columnInt(3) };
            if (!group.empty() && group.front().ts != r.ts)
                flush();
            group.push_back(r);
        }
        flush();
        select.reset();
        s.maxDepth = maxDepth;
    }
}

void TraceSink::writeTraceRows()
{
    // Run: the ranks of one multi-rank job (same folder, same world size, file names that differ
    // only in their numbers, e.g. rank-0.json / rank-1.json) form one run, as do the files of a job
    // named by setJob(); any other trace is its own run.
    const QFileInfo info(m_sourcePath);
    if (m_rank == kNoValue) {
        // Per-rank files without a rank inside (older profilers) usually say it in their name.
        static const QRegularExpression rankInName(
            QStringLiteral("(?:^|[^a-z])rank[-_]?([0-9]+)"), QRegularExpression::CaseInsensitiveOption);
        const auto match = rankInName.match(info.fileName());
        if (match.hasMatch()) {
            m_rank = match.captured(1).toLongLong();
            m_diag.report(Severity::Warning, QStringLiteral("rank-from-file-name"), {},
                QStringLiteral("The trace does not say which rank wrote it; rank %1 was taken from the "
                               "file name.")
                    .arg(m_rank));
        }
    }
    QString runKey, runName;
    if (m_rank != kNoValue && m_worldSize != 1) {
        QString pattern = info.fileName();
        static const QRegularExpression digits(QStringLiteral("[0-9]+"));
        pattern.replace(digits, QStringLiteral("*"));
        runKey
            = QStringLiteral("trace-job:%1:%2:%3")
                  .arg(info.absolutePath(),
                      m_worldSize == kNoValue ? QStringLiteral("?") : QString::number(m_worldSize), pattern);
        runName = pattern;
        // A second file with a rank the run already has is another job.
        SqliteStmt dup(m_db,
            "SELECT count(*) FROM trace t JOIN run r ON r.id = t.run_id WHERE r.key = ? AND t.rank = ?");
        dup.bind(1, runKey).bind(2, m_rank);
        if (dup.step() && dup.columnInt(0) > 0) {
            runKey = QStringLiteral("source:%1").arg(m_sourceId);
            runName = m_traceName;
        }
    } else if (!m_jobKey.isEmpty()) {
        runKey = QStringLiteral("trace-job:") + m_jobKey; // kept by a parallel import's merge
        runName = m_jobName;
    } else {
        runKey = QStringLiteral("source:%1").arg(m_sourceId);
        runName = m_traceName;
    }
    runName = traceRunName(runName);
    const int64_t runId
        = findOrAddRun(m_db, runKey, runName, int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000);

    SqliteStmt trace(m_db,
        "INSERT INTO trace(id, run_id, source_id, format, name, rank, world_size, "
        "base_time_ns, start_ns, end_ns, event_count, slice_count, kernel_count, "
        "gpu_op_count, flow_count, counter_count, metadata, corr_flow_count) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    trace.bind(1, m_traceId).bind(2, runId).bind(3, m_sourceId).bind(4, m_format).bind(5, m_traceName);
    bindNullable(trace, 6, m_rank);
    bindNullable(trace, 7, m_worldSize);
    bindNullable(trace, 8, m_baseTimeNs);
    bindNullable(trace, 9, m_stats.startNs == INT64_MAX ? kNoValue : m_stats.startNs);
    bindNullable(trace, 10, m_stats.endNs == INT64_MIN ? kNoValue : m_stats.endNs);
    trace.bind(11, m_stats.events)
        .bind(12, m_stats.slices)
        .bind(13, m_stats.kernels)
        .bind(14, m_stats.gpuOps);
    trace.bind(15, m_stats.flows).bind(16, m_stats.counters).bind(18, m_stats.corrFlows);
    if (m_metadataJson.isEmpty())
        trace.bindNull(17);
    else
        trace.bind(17, std::string_view(m_metadataJson.constData(), size_t(m_metadataJson.size())));
    trace.run();

    SqliteStmt dev(m_db, "INSERT INTO device(trace_id, device_index, name, properties) VALUES (?,?,?,?)");
    for (const auto &d : m_devices) {
        dev.bind(1, m_traceId).bind(2, d.index).bind(3, d.name);
        dev.bind(4, std::string_view(d.json.constData(), size_t(d.json.size()))).run();
    }

    SqliteStmt proc(m_db,
        "INSERT INTO process(id, trace_id, pid, label, name, kind, device_index, sort_index, "
        "labels) VALUES (?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; i < m_processes.size(); ++i) {
        const auto &p = m_processes[i];
        proc.bind(1, m_processBase + int64_t(i)).bind(2, m_traceId);
        bindNullable(proc, 3, p.pid);
        proc.bind(4, std::string_view(p.label));
        if (p.name.empty())
            proc.bindNull(5);
        else
            proc.bind(5, std::string_view(p.name));
        proc.bind(6, processKindName(p.kind));
        bindNullable(proc, 7, p.deviceIndex);
        bindNullable(proc, 8, p.sortIndex);
        if (p.labels.empty())
            proc.bindNull(9);
        else
            proc.bind(9, std::string_view(p.labels));
        proc.run();
    }

    SqliteStmt track(m_db,
        "INSERT INTO track(id, trace_id, process_id, kind, tid, label, name, stream, "
        "sort_index, slice_count, max_depth, max_dur_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; i < m_tracks.size(); ++i) {
        const auto &t = m_tracks[i];
        track.bind(1, m_trackBase + int64_t(i)).bind(2, m_traceId);
        bindNullable(track, 3, t.process);
        track.bind(4, kindName(t.kind));
        bindNullable(track, 5, t.tid);
        if (t.label.empty())
            track.bindNull(6);
        else
            track.bind(6, std::string_view(t.label));
        if (t.name.empty())
            track.bindNull(7);
        else
            track.bind(7, std::string_view(t.name));
        bindNullable(track, 8, t.stream);
        bindNullable(track, 9, t.sortIndex);
        track.bind(10, t.sliceCount).bind(11, t.maxDepth).bind(12, t.maxDurNs);
        track.run();
    }
}

} // namespace plumb
