// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/tracesummary.h"

#include "analysis/quantilesketch.h"
#include "store/eventslocation.h"
#include "store/keptslices.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDataStream>
#include <QHash>
#include <QIODevice>
#include <QtGlobal>

#include <algorithm>
#include <future>
#include <map>

namespace plumb {

// ---- The report's encoding -------------------------------------------------------------------------
// QDataStream over every field: the verdict and the kernel table first (what a job's merge reads of each
// rank: decodeVerdictInputs() stops there), then the rest in declaration order. kReportEncoding changes with
// the layout (and with it kTraceSummaryVersion, so stored reports are written again).

namespace {

constexpr quint32 kReportMagic = 0x504c4d52; // "PLMR"
constexpr quint32 kReportEncoding = 3;

template <typename T> void put(QDataStream &s, const std::vector<T> &v);
template <typename T> void get(QDataStream &s, std::vector<T> &v);

template <typename E>
requires std::is_enum_v<E>
void put(QDataStream &s, E e)
{
    s << qint32(e);
}
template <typename E>
requires std::is_enum_v<E>
void get(QDataStream &s, E &e)
{
    qint32 v = 0;
    s >> v;
    e = E(v);
}
void put(QDataStream &s, int64_t v)
{
    s << qint64(v);
}
void get(QDataStream &s, int64_t &v)
{
    qint64 x = 0;
    s >> x;
    v = x;
}
void put(QDataStream &s, int32_t v)
{
    s << qint32(v);
}
void get(QDataStream &s, int32_t &v)
{
    qint32 x = 0;
    s >> x;
    v = x;
}
void put(QDataStream &s, double v)
{
    s << v;
}
void get(QDataStream &s, double &v)
{
    s >> v;
}
void put(QDataStream &s, bool v)
{
    s << v;
}
void get(QDataStream &s, bool &v)
{
    s >> v;
}
void put(QDataStream &s, const QString &v)
{
    s << v;
}
void get(QDataStream &s, QString &v)
{
    s >> v;
}
void put(QDataStream &s, const QStringList &v)
{
    s << v;
}
void get(QDataStream &s, QStringList &v)
{
    s >> v;
}
template <typename A, typename B> void put(QDataStream &s, const std::pair<A, B> &p)
{
    put(s, p.first);
    put(s, p.second);
}
template <typename A, typename B> void get(QDataStream &s, std::pair<A, B> &p)
{
    get(s, p.first);
    get(s, p.second);
}

// Each struct's fields, once: `f` is put or get.
#define PLUMB_FIELDS(Type, ...)                                                                              \
    void put(QDataStream &s, const Type &x)                                                                  \
    {                                                                                                        \
        auto fields = [&s](const auto &...f) { (put(s, f), ...); };                                          \
        const auto &[__VA_ARGS__] = x;                                                                       \
        fields(__VA_ARGS__);                                                                                 \
    }                                                                                                        \
    void get(QDataStream &s, Type &x)                                                                        \
    {                                                                                                        \
        auto fields = [&s](auto &...f) { (get(s, f), ...); };                                                \
        auto &[__VA_ARGS__] = x;                                                                             \
        fields(__VA_ARGS__);                                                                                 \
    }

void put(QDataStream &s, const std::array<int64_t, 8> &a)
{
    for (int64_t v : a)
        put(s, v);
}
void get(QDataStream &s, std::array<int64_t, 8> &a)
{
    for (int64_t &v : a)
        get(s, v);
}

PLUMB_FIELDS(Histogram, edges, counts, logSpaced)
PLUMB_FIELDS(TemporalBreakdown, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
PLUMB_FIELDS(StepBreakdown, number, name, cpuStartNs, cpuEndNs, gpu)
PLUMB_FIELDS(StepTimeParts, a0, a1, a2, a3, a4, a5, a6, a7)
PLUMB_FIELDS(StepTime, step, name, startNs, spanStartNs, endNs, parts)
PLUMB_FIELDS(StepTimeBreakdown, steps, total)
PLUMB_FIELDS(KernelStats, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
PLUMB_FIELDS(StreamIdle, a0, a1, a2, a3, a4, a5)
PLUMB_FIELDS(HostAnalysis::Activity, timeNs, count, ranges)
PLUMB_FIELDS(HostAnalysis, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
PLUMB_FIELDS(QueuePoint, timeNs, queued)
PLUMB_FIELDS(StreamQueue, a0, a1, a2, a3, a4, a5, a6, a7)
PLUMB_FIELDS(LaunchStats, queues, launchedOps, minDelayNs, maxDelayNs, launchDelay)
PLUMB_FIELDS(MemcpyKindStats, kind, count, bytes, timeNs, pageable)
PLUMB_FIELDS(CollectiveStats, a0, a1, a2, a3, a4, a5, a6, a7)
PLUMB_FIELDS(FlopsEntry, op, shape, dtype, count, flops, kernelNs)
PLUMB_FIELDS(FlopsSummary, a0, a1, a2, a3, a4, a5, a6, a7)
PLUMB_FIELDS(Verdict::Cost, component, ns)
PLUMB_FIELDS(Verdict::Where, startNs, endNs, label)
PLUMB_FIELDS(Verdict, a0, a1, a2, a3, a4, a5, a6, a7, a8)

#undef PLUMB_FIELDS

template <typename T> void put(QDataStream &s, const std::vector<T> &v)
{
    s << quint64(v.size());
    for (const T &x : v)
        put(s, x);
}
template <typename T> void get(QDataStream &s, std::vector<T> &v)
{
    quint64 n = 0;
    s >> n;
    v.clear();
    for (quint64 i = 0; i < n && s.status() == QDataStream::Ok; ++i)
        get(s, v.emplace_back());
}

} // namespace

QByteArray encodeReport(const DoctorReport &r)
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << kReportMagic << kReportEncoding;
    // Every field (a field added to DoctorReport fails to compile here until it is encoded), but not the
    // run's ranks: those are compared when the report is read (other ranks may come later).
    const auto &[overall, steps, stepTime, kernels, idle, host, launch, copies, collectives, flops, verdict,
        stepVerdicts, ranks, backend, deviceNoun]
        = r;
    Q_UNUSED(ranks);
    put(s, verdict);
    put(s, kernels);
    put(s, overall);
    put(s, steps);
    put(s, stepTime);
    put(s, idle);
    put(s, host);
    put(s, launch);
    put(s, copies);
    put(s, collectives);
    put(s, flops);
    put(s, stepVerdicts);
    put(s, backend);
    put(s, deviceNoun);
    return out;
}

namespace {

// The report's head (its verdict and kernel table) into `r`: whether the bytes are a report of this
// encoding.
bool decodeHead(QDataStream &s, DoctorReport &r)
{
    s.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0, encoding = 0;
    s >> magic >> encoding;
    if (magic != kReportMagic || encoding != kReportEncoding)
        return false;
    get(s, r.verdict);
    get(s, r.kernels);
    return s.status() == QDataStream::Ok;
}

} // namespace

std::optional<DoctorReport> decodeReport(const QByteArray &bytes)
{
    QDataStream s(bytes);
    DoctorReport r;
    if (!decodeHead(s, r))
        return std::nullopt;
    get(s, r.overall);
    get(s, r.steps);
    get(s, r.stepTime);
    get(s, r.idle);
    get(s, r.host);
    get(s, r.launch);
    get(s, r.copies);
    get(s, r.collectives);
    get(s, r.flops);
    get(s, r.stepVerdicts);
    get(s, r.backend);
    get(s, r.deviceNoun);
    if (s.status() != QDataStream::Ok || !s.atEnd())
        return std::nullopt;
    return r;
}

std::optional<DoctorReport> decodeVerdictInputs(const QByteArray &bytes)
{
    QDataStream s(bytes);
    DoctorReport r;
    if (!decodeHead(s, r))
        return std::nullopt;
    return r;
}

// ---- Writing -------------------------------------------------------------------------------------------

namespace {

constexpr int64_t kWholeTrace = -1;

const char *kindName(GpuOp::Kind k)
{
    switch (k) {
    case GpuOp::Kind::Compute:
        return "compute";
    case GpuOp::Kind::Comm:
        return "comm";
    case GpuOp::Kind::Memory:
        return "memory";
    }
    return "compute";
}

void bindBlob(SqliteStmt &st, int index, const QByteArray &b)
{
    st.bindBlob(index, b.constData(), size_t(b.size()));
}

struct OpGroup {
    GpuOp::Kind kind = GpuOp::Kind::Compute;
    int64_t count = 0, totalNs = 0, minNs = 0, maxNs = 0;
    QuantileSketch sketch;
};

// The rows of one step (or of the whole trace), computed before any is written: per name, the ops'
// count, time and durations; per stream, its ops and busy time (their union); the launch delays.
struct StepRows {
    std::map<int64_t, OpGroup> byName;
    std::map<int64_t, std::pair<int64_t, int64_t>> streams; // track -> (ops, busy ns)
    QuantileSketch delays;
};

StepRows stepRows(const std::vector<GpuOp> &ops)
{
    StepRows rows;
    std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> spans;
    for (const GpuOp &op : ops) {
        const int64_t dur = op.endNs - op.startNs; // readGpuOps() keeps only times that subtract
        OpGroup &g = rows.byName[op.nameId];
        g.kind = op.kind;
        g.minNs = g.count ? std::min(g.minNs, dur) : dur;
        g.maxNs = g.count ? std::max(g.maxNs, dur) : dur;
        ++g.count;
        g.totalNs += dur;
        g.sketch.add(dur);
        spans[op.streamTrackId].emplace_back(op.startNs, op.endNs);
        if (op.launchNs >= 0)
            rows.delays.add(op.startNs - op.launchNs);
    }
    for (auto &[track, v] : spans) {
        int64_t busy = 0;
        const int64_t count = int64_t(v.size());
        for (const auto &[a, b] : uniteIntervals(std::move(v)))
            busy += b - a;
        rows.streams[track] = { count, busy };
    }
    return rows;
}

void writeOps(SqliteStmt &st, int64_t traceId, int64_t step, const std::map<int64_t, OpGroup> &byName)
{
    for (const auto &[nameId, g] : byName) {
        st.bind(1, traceId).bind(2, step).bind(3, nameId).bind(4, std::string_view(kindName(g.kind)));
        st.bind(5, g.count).bind(6, g.totalNs).bind(7, g.minNs).bind(8, g.maxNs);
        bindBlob(st, 9, g.sketch.encode());
        st.run();
    }
}

// Per stream: ops, busy time and idle between them by cause.
void writeStreams(SqliteStmt &st, int64_t traceId, int64_t step,
    const std::map<int64_t, std::pair<int64_t, int64_t>> &streams, const std::vector<StreamIdle> &idles)
{
    for (const StreamIdle &idle : idles) {
        const auto it = streams.find(idle.streamTrackId);
        const auto [count, busy] = it != streams.end() ? it->second : std::pair<int64_t, int64_t> {};
        st.bind(1, traceId).bind(2, step).bind(3, idle.streamTrackId);
        if (idle.stream >= 0)
            st.bind(4, idle.stream);
        else
            st.bindNull(4);
        st.bind(5, count).bind(6, busy).bind(7, idle.hostWaitNs).bind(8, idle.kernelWaitNs);
        st.bind(9, idle.otherNs).bind(10, idle.gaps);
        st.run();
    }
}

void writeStep(SqliteStmt &st, int64_t traceId, int64_t step, const QString &name, int64_t startNs,
    int64_t endNs, const TemporalBreakdown &gpu, const StepTimeParts &parts, const QuantileSketch &delays)
{
    int c = 0;
    auto bind = [&st, &c](int64_t v) { st.bind(++c, v); };
    bind(traceId);
    bind(step);
    if (name.isNull())
        st.bindNull(++c);
    else
        st.bind(++c, name);
    bind(startNs);
    bind(endNs);
    bind(gpu.ops);
    if (gpu.ops > 0) {
        bind(gpu.startNs);
        bind(gpu.endNs);
    } else {
        st.bindNull(++c);
        st.bindNull(++c);
    }
    for (int64_t v : { gpu.computeNs, gpu.commNs, gpu.memoryNs, gpu.exposedCommNs, gpu.exposedMemoryNs,
             gpu.busyNs, parts.computeNs, parts.exposedCommNs, parts.exposedMemoryNs, parts.inputPipelineNs,
             parts.synchronizationNs, parts.runtimeNs, parts.otherCpuNs, parts.idleNs, delays.count() })
        bind(v);
    if (delays.empty())
        st.bindNull(++c);
    else
        bindBlob(st, ++c, delays.encode());
    st.run();
}

} // namespace

void writeTraceSummary(Workspace &ws, int64_t traceId, std::unique_ptr<KeptSlices> kept)
{
    SqliteDb &db = ws.db();
    // Read first, with no write transaction open: the report's host side then reads on a second
    // connection in parallel (doctorReport()).
    std::vector<GpuOp> ops;
    DoctorReport r;
    std::vector<CollectiveCall> calls;
    {
        const SqliteReadTransaction snapshot(db);
        r = traceAnalyses(ws, traceId, GpuOpMode::EveryOp, {}, &calls, &ops, kept.get());
    }
    kept.reset(); // before the rows' maps and sketches are made
    SqliteTransaction tx(db);
    for (const char *table :
        { "trace_summary", "step_summary", "op_summary", "stream_summary", "collective_call" }) {
        SqliteStmt del(db, std::string("DELETE FROM ") + table + " WHERE trace_id = ?");
        del.bind(1, traceId);
        del.run();
    }

    SqliteStmt stepRow(db,
        "INSERT INTO step_summary(trace_id, step, name, start_ns, end_ns, gpu_ops, gpu_start_ns, gpu_end_ns, "
        "compute_ns, comm_ns, memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns, st_compute_ns, "
        "st_exposed_comm_ns, st_exposed_memory_ns, st_input_pipeline_ns, st_synchronization_ns, "
        "st_runtime_ns, "
        "st_other_cpu_ns, st_idle_ns, launched_ops, launch_delay_sketch) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStmt opRow(db,
        "INSERT INTO op_summary(trace_id, step, name_id, kind, count, total_ns, min_ns, max_ns, sketch) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStmt streamRow(db,
        "INSERT INTO stream_summary(trace_id, step, track_id, stream, ops, busy_ns, host_wait_ns, "
        "kernel_wait_ns, other_idle_ns, gaps) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");

    // The whole trace's rows on a second thread (as many ops as all the steps' together), while this
    // one computes and writes each step's.
    std::future<StepRows> wholeRows = std::async(std::launch::async, [&ops] { return stepRows(ops); });
    // steps[i] and stepTime.steps[i] are the same step (traceSteps() gives both).
    const size_t stepCount = r.stepTime.steps.size() == r.steps.size() ? r.steps.size() : 0;
    // Each step's ops (those it launched, as its GPU window counts them), one step at a time.
    if (stepCount)
        forEachStepOps(r.steps, ops, [&](size_t i, const std::vector<GpuOp> &stepOps) {
            const StepTime &t = r.stepTime.steps[i];
            const StepRows rows = stepRows(stepOps);
            writeStep(stepRow, traceId, int64_t(i), t.name, t.startNs, t.endNs, r.steps[i].gpu, t.parts,
                rows.delays);
            writeOps(opRow, traceId, int64_t(i), rows.byName);
            writeStreams(streamRow, traceId, int64_t(i), rows.streams, idleBreakdown(ws, stepOps));
        });
    const StepRows whole = wholeRows.get(); // rethrows what the other thread threw
    const int64_t startNs = stepCount ? r.stepTime.steps.front().startNs : r.overall.startNs;
    const int64_t endNs = stepCount ? r.stepTime.steps.back().endNs : r.overall.endNs;
    writeStep(
        stepRow, traceId, kWholeTrace, QString(), startNs, endNs, r.overall, r.stepTime.total, whole.delays);
    writeOps(opRow, traceId, kWholeTrace, whole.byName);
    // The report's idle is the whole trace's.
    writeStreams(streamRow, traceId, kWholeTrace, whole.streams, r.idle);

    SqliteStmt callRow(db,
        "INSERT INTO collective_call(trace_id, slice_id, step, collective, process_group, seq, start_ns, "
        "end_ns, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const CollectiveCall &c : calls) {
        int64_t step = kWholeTrace;
        for (size_t i = 0; i < stepCount && step == kWholeTrace; ++i)
            if (c.startNs >= r.stepTime.steps[i].startNs && c.startNs < r.stepTime.steps[i].endNs)
                step = int64_t(i);
        callRow.bind(1, traceId).bind(2, c.sliceId).bind(3, step).bind(4, c.collective);
        if (c.processGroup.isEmpty())
            callRow.bindNull(5);
        else
            callRow.bind(5, c.processGroup);
        callRow.bind(6, c.seq).bind(7, c.startNs).bind(8, c.endNs).bind(9, c.bytes);
        callRow.run();
    }

    SqliteStmt report(
        db, "INSERT INTO trace_summary(trace_id, version, mode, steps, report) VALUES (?, ?, 'every', ?, ?)");
    report.bind(1, traceId).bind(2, kTraceSummaryVersion).bind(3, int64_t(stepCount));
    bindBlob(report, 4, encodeReport(r));
    report.run();
    tx.commit();
}

static const char *kMissingSql
    = "SELECT t.id FROM trace t LEFT JOIN trace_summary s ON s.trace_id = t.id AND s.version = ? "
      "WHERE s.trace_id IS NULL ORDER BY t.id";

int writeMissingTraceSummaries(Workspace &ws, const std::function<bool()> &cancelled)
{
    std::vector<int64_t> missing;
    {
        SqliteStmt st(ws.db(), kMissingSql);
        st.bind(1, kTraceSummaryVersion);
        while (st.step())
            missing.push_back(st.columnInt(0));
    }
    int written = 0;
    for (int64_t traceId : missing) {
        if (cancelled && cancelled())
            break;
        writeTraceSummary(ws, traceId);
        ++written;
    }
    return written;
}

bool traceSummariesMissing(Workspace &ws)
{
    SqliteStmt st(ws.db(), kMissingSql);
    st.bind(1, kTraceSummaryVersion);
    return st.step();
}

// ---- Reading -------------------------------------------------------------------------------------------

bool reportIsSummarised(GpuOpMode mode, const StepTimeOptions &stepOptions)
{
    return mode == GpuOpMode::EveryOp && stepOptions.inputPatterns.isEmpty();
}

std::optional<DoctorReport> storedReport(Workspace &ws, int64_t traceId)
{
    SqliteStmt st(
        ws.db(), "SELECT report FROM trace_summary WHERE trace_id = ? AND version = ? AND mode = 'every'");
    st.bind(1, traceId).bind(2, kTraceSummaryVersion);
    if (!st.step())
        return std::nullopt;
    const std::string_view b = st.columnBlob(0);
    // A rank of a job merged from shards: its analyses are in its shard.
    if (b.empty())
        if (const std::optional<EventsLocation> at = eventsLocation(ws, traceId)) {
            Workspace shard(at->workspacePath, Workspace::Role::Reader);
            return storedReport(shard, at->traceId);
        }
    return decodeReport(QByteArray::fromRawData(b.data(), qsizetype(b.size())));
}

std::vector<KernelStats> storedStepOps(Workspace &ws, int64_t traceId)
{
    // A rank of a job merged from shards: the job keeps its ops over the whole trace only.
    if (const std::optional<EventsLocation> at = eventsLocation(ws, traceId)) {
        Workspace shard(at->workspacePath, Workspace::Role::Reader);
        return storedStepOps(shard, at->traceId);
    }
    SqliteStmt st(ws.db(),
        "SELECT n.str, o.kind, o.count, o.total_ns, o.min_ns, o.max_ns, o.sketch "
        "FROM trace_summary t JOIN op_summary o ON o.trace_id = t.trace_id LEFT JOIN string n ON n.id = "
        "o.name_id "
        "WHERE t.trace_id = ? AND t.version = ? AND o.step >= 0 ORDER BY o.name_id");
    st.bind(1, traceId).bind(2, kTraceSummaryVersion);
    std::vector<KernelStats> out;
    std::vector<QuantileSketch> sketches;
    QHash<QString, size_t> index;
    int64_t all = 0;
    while (st.step()) {
        const QString name = st.columnText(0);
        auto it = index.find(name);
        if (it == index.end()) {
            it = index.insert(name, out.size());
            KernelStats k;
            k.name = name;
            const std::string_view kind = st.columnView(1);
            k.kind = kind == "comm" ? GpuOp::Kind::Comm
                : kind == "memory"  ? GpuOp::Kind::Memory
                                    : GpuOp::Kind::Compute;
            k.minNs = st.columnInt(4);
            out.push_back(k);
            sketches.emplace_back();
        }
        KernelStats &k = out[*it];
        k.count += st.columnInt(2);
        k.totalNs += st.columnInt(3);
        k.minNs = std::min(k.minNs, st.columnInt(4));
        k.maxNs = std::max(k.maxNs, st.columnInt(5));
        all += st.columnInt(3);
        const std::string_view blob = st.columnBlob(6);
        QuantileSketch s;
        if (QuantileSketch::decode(QByteArray::fromRawData(blob.data(), qsizetype(blob.size())), s))
            sketches[*it].merge(s);
    }
    for (size_t i = 0; i < out.size(); ++i) {
        out[i].p50Ns = sketches[i].quantile(0.50);
        out[i].p90Ns = sketches[i].quantile(0.90);
        out[i].p99Ns = sketches[i].quantile(0.99);
        out[i].share = all ? double(out[i].totalNs) / double(all) : 0.0;
    }
    std::sort(out.begin(), out.end(), [](const KernelStats &a, const KernelStats &b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

std::map<int64_t, WindowSums> storedWindowSums(Workspace &ws, int64_t runId)
{
    // Each trace's whole window (step -1), then its steps' summed over them: simple aggregates over the rows
    // in the table's order (a GROUP BY that sorts, or an expression per row and figure, cost seconds over a
    // job's millions of step rows).
    const std::string traces = "trace_id IN (SELECT t.id FROM trace t JOIN trace_summary ts ON ts.trace_id = "
                               "t.id WHERE t.run_id = ? AND ts.version = ?)";
    std::map<int64_t, WindowSums> out;
    const auto read = [&](const SqliteStmt &st, WindowSums &w, int c) {
        w.windowNs = double(st.columnInt(c));
        w.computeNs = double(st.columnInt(c + 1));
        w.commNs = double(st.columnInt(c + 2));
        w.exposedCommNs = double(st.columnInt(c + 3));
        w.idleNs = double(st.columnInt(c) - st.columnInt(c + 4));
    };
    SqliteStmt whole(ws.db(),
        "SELECT trace_id, coalesce(gpu_end_ns, 0) - coalesce(gpu_start_ns, 0), compute_ns, comm_ns, "
        "exposed_comm_ns, busy_ns FROM step_summary WHERE "
            + traces + " AND step = -1");
    whole.bind(1, runId).bind(2, kTraceSummaryVersion);
    while (whole.step())
        read(whole, out[whole.columnInt(0)], 1);
    SqliteStmt steps(ws.db(),
        "SELECT trace_id, count(*), sum(coalesce(gpu_end_ns, 0) - coalesce(gpu_start_ns, 0)), "
        "sum(compute_ns), "
        "sum(comm_ns), sum(exposed_comm_ns), sum(busy_ns) FROM step_summary WHERE "
            + traces + " AND step >= 0 GROUP BY trace_id");
    steps.bind(1, runId).bind(2, kTraceSummaryVersion);
    while (steps.step()) {
        const auto it = out.find(steps.columnInt(0));
        if (it == out.end())
            continue; // no whole-trace row: not a complete summary
        it->second.steps = int(steps.columnInt(1));
        read(steps, it->second, 2);
    }
    return out;
}

} // namespace plumb
