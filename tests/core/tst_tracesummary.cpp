// SPDX-License-Identifier: GPL-3.0-or-later
// The summaries written at import (analysis/tracesummary.h) against the analyses computed from the
// events, on every real trace in shared/data, and their upgrade path.

#include "analysis/quantilesketch.h"
#include "analysis/rankcomparison.h"
#include "analysis/tracediff.h"
#include "analysis/tracesummary.h"
#include "builtinimporters.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "present/diffpresent.h"
#include "store/sourceremoval.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#ifdef PLUMB_HAVE_TRACE_GENERATOR
#include "kinetotracegen.h"
#endif

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <memory>

using namespace plumb;

namespace {

// The shared traces this test checks, by folder (named, so that new files there do not change it).
const char *const kTraces[] = {
    "kineto/hta_nccl_data.json.gz",
    "kineto/hta_ns_resolution_rank0.pt.trace.json.gz",
    "kineto/hta_sampled_rank-0.json.gz",
    "kineto/hta_sampled_rank-1.json.gz",
    "kineto/hta_trace_diff_control.json.gz",
    "kineto/hta_trace_diff_test.json.gz",
    "kineto/tracelens_h100_qwen.json.gz",
    "nsys/cloverleaf_nsys2024.5.sqlite",
    "xplane/tf_gpu_multi_worker.xplane.pb",
    "accelerators/hta_mtia_inference_rank_0.json.gz",
    "accelerators/tracelens_mi300_qwen_rocm.json.gz",
};

// The trace's rows of the five summary tables, each column as text (blobs in hex), in key order. Without
// `sliceIds`, the collective calls without the ids of their kernels (which follow the file's order), by
// start.
QStringList summaryRows(Workspace &ws, int64_t traceId, bool sliceIds = true)
{
    QStringList out;
    for (const std::string table :
        { "trace_summary", "step_summary", "op_summary", "stream_summary", "collective_call" }) {
        SqliteStmt st(ws.db(),
            table == "collective_call" && !sliceIds
                ? "SELECT step, collective, process_group, seq, start_ns, end_ns, bytes FROM collective_call "
                  "WHERE trace_id = ? ORDER BY start_ns, process_group, seq"
                : "SELECT * FROM " + table + " WHERE trace_id = ? ORDER BY 1, 2, 3");
        st.bind(1, traceId);
        while (st.step()) {
            QString row = QString::fromStdString(table);
            for (int c = 0; c < st.columnCount(); ++c) {
                const std::string_view b = st.columnBlob(c);
                row += QLatin1Char('|')
                    + (st.columnIsNull(c)
                            ? QStringLiteral("NULL")
                            : QString::fromLatin1(QByteArray(b.data(), qsizetype(b.size())).toHex()));
            }
            out << row;
        }
    }
    return out;
}

int64_t queryInt(Workspace &ws, const std::string &sql, int64_t traceId)
{
    SqliteStmt st(ws.db(), sql);
    st.bind(1, traceId);
    return st.step() ? st.columnInt(0) : -1;
}

} // namespace

// In the tests that read the shared traces.
#define SKIP_WITHOUT_SHARED_TRACES()                                                                         \
    if (m_traces.empty())                                                                                    \
    QSKIP("the shared traces are not there")

class TestTraceSummary : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;
    std::vector<int64_t> m_traces;

private slots:
    void initTestCase()
    {
        QStringList paths;
        for (const char *t : kTraces) {
            const QString p = QStringLiteral(PLUMB_SHARED_DATA "/traces/") + QLatin1String(t);
            if (QFileInfo::exists(p))
                paths << p;
        }
        if (paths.isEmpty())
            return; // the tests of the shared traces skip
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(m_ws, paths);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Workspace ws(m_ws, Workspace::Role::Reader);
        SqliteStmt st(ws.db(), "SELECT id FROM trace ORDER BY id");
        while (st.step())
            m_traces.push_back(st.columnInt(0));
        QCOMPARE(m_traces.size(), size_t(paths.size()));
    }

    // The stored analyses are those computed from the events, field for field (the encoding covers every
    // field of DoctorReport but the run's ranks: a field it missed would not compile), and so is the
    // report finished from them.
    void reportEqualsEvents()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        Workspace ws(m_ws, Workspace::Role::Reader);
        QVERIFY(!traceSummariesMissing(ws));
        for (int64_t id : m_traces) {
            const std::optional<DoctorReport> stored = storedReport(ws, id);
            QVERIFY2(stored, qPrintable(QStringLiteral("trace %1 has no stored report").arg(id)));
            const DoctorReport events = traceAnalyses(ws, id, readGpuOps(ws, id, GpuOpMode::EveryOp));
            QVERIFY2(encodeReport(*stored) == encodeReport(events), qPrintable(QString::number(id)));
            QCOMPARE(stored->verdict.headline, events.verdict.headline);
            QCOMPARE(stored->stepTime.steps.size(), events.stepTime.steps.size());
            // Finished with the trace's run weighed in, from the summaries and from the events alike.
            const DoctorReport fromSummaries = doctorReport(ws, id, GpuOpMode::EveryOp);
            const DoctorReport fromEvents
                = doctorReport(ws, id, GpuOpMode::EveryOp, nullptr, {}, ReportSource::Events);
            QVERIFY2(
                encodeReport(fromSummaries) == encodeReport(fromEvents), qPrintable(QString::number(id)));
            QCOMPARE(fromSummaries.verdict.evidence, fromEvents.verdict.evidence);
        }
    }

    // Each trace imported alone, on one core, has its summaries written from the slices its import kept
    // (in memory, the tracks it wrote out of order read from the workspace): the same rows, byte for
    // byte, as written again from the events.
    void keptSlicesEqualEvents()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        int traces = 0;
        for (const char *t : kTraces) {
            const QString path = QStringLiteral(PLUMB_SHARED_DATA "/traces/") + QLatin1String(t);
            if (!QFileInfo::exists(path))
                continue;
            QTemporaryDir dir;
            const QString wsPath = dir.filePath(QStringLiteral("k.plumb"));
            ImportRunner runner(registry, wsPath);
            runner.setJobs(1);
            const std::vector<FileImportResult> results = runner.run({ path });
            QCOMPARE(results.size(), size_t(1));
            QVERIFY2(results[0].status == FileImportResult::Status::Imported, qPrintable(results[0].message));
            Workspace ws(wsPath, Workspace::Role::Writer);
            const int64_t id = ws.db().queryInt("SELECT max(id) FROM trace");
            const QStringList kept = summaryRows(ws, id);
            QVERIFY2(kept.size() > 1, t);
            writeTraceSummary(ws, id);
            const QStringList events = summaryRows(ws, id);
            QCOMPARE(kept.size(), events.size());
            for (qsizetype i = 0; i < kept.size(); ++i)
                QVERIFY2(kept[i] == events[i],
                    qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(t), kept[i].left(200))));
            ++traces;
        }
        QVERIFY(traces > 0);
    }

    // A generated trace whose GPU activity comes out of order, as CUPTI's buffers can (every second chunk
    // written before the one ahead of it: each runtime-call track and stream in ordered runs), has the
    // summaries, timeline tiles, depths and correlation tiles of the same trace written in order: the
    // readers that need the workspace's order get it from the kept rows too. Needs no shared file.
    void activityInRunsEqualsInOrder()
    {
#ifndef PLUMB_HAVE_TRACE_GENERATOR
        QSKIP("built without the benchmarks' trace generator (PLUMB_BUILD_BENCHMARKS=OFF)");
#else
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        QTemporaryDir dir;
        std::vector<std::unique_ptr<Workspace>> ws;
        for (const int swap : { 0, 2 }) {
            bench::KinetoTraceOptions options;
            options.events = 60'000;
            options.seed = 3;
            options.swapActivityChunks = swap;
            const QString trace = dir.filePath(QStringLiteral("t%1.json").arg(swap));
            std::string error;
            QVERIFY2(bench::writeKinetoTrace(trace.toStdString(), options, nullptr, &error), error.c_str());
            const QString wsPath = dir.filePath(QStringLiteral("t%1.plumb").arg(swap));
            ImportRunner runner(registry, wsPath);
            runner.setJobs(1);
            const std::vector<FileImportResult> results = runner.run({ trace });
            QCOMPARE(results.size(), size_t(1));
            QVERIFY2(results[0].status == FileImportResult::Status::Imported, qPrintable(results[0].message));
            ws.push_back(std::make_unique<Workspace>(wsPath, Workspace::Role::Reader));
        }
        // Tracks whose slices were written out of (ts, id) order: none in order, several swapped.
        const auto outOfOrder = [](Workspace &w) {
            return w.db().queryInt(
                "SELECT count(DISTINCT track_id) FROM (SELECT track_id, ts, lag(ts) OVER "
                "(PARTITION BY track_id ORDER BY id) AS before FROM slice) WHERE ts < before");
        };
        QCOMPARE(outOfOrder(*ws[0]), int64_t(0));
        QVERIFY2(outOfOrder(*ws[1]) >= 3, qPrintable(QString::number(outOfOrder(*ws[1]))));
        const QStringList inOrder = summaryRows(*ws[0], 1, false), swapped = summaryRows(*ws[1], 1, false);
        QVERIFY(inOrder.size() > 100);
        QCOMPARE(swapped, inOrder);
        for (const char *sql :
            { "SELECT id, kind, name, slice_count, max_depth, lod_origin_ns FROM track ORDER BY id",
                "SELECT track_id, level, tile, hex(data) FROM slice_lod ORDER BY 1, 2, 3",
                "SELECT track_id, first_ts, last_ts, min_corr, max_corr FROM slice_corr_tile ORDER BY 1, 2",
                "SELECT track_id, ts, dur, depth, name_id, corr FROM slice ORDER BY 1, 2, 3, 4, 5, 6" }) {
            QStringList rows[2];
            for (size_t i = 0; i < 2; ++i) {
                SqliteStmt st(ws[i]->db(), sql);
                while (st.step()) {
                    QStringList row;
                    for (int c = 0; c < st.columnCount(); ++c)
                        row << QString::fromStdString(std::string(st.columnView(c)));
                    rows[i] << row.join(QLatin1Char('|'));
                }
            }
            QVERIFY(!rows[0].isEmpty());
            QCOMPARE(rows[1], rows[0]);
        }
#endif
    }

    // A run of several ranks compared from the step rows summed by SQLite, as from each rank's events.
    void rankComparisonEqualsEvents()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        Workspace ws(m_ws, Workspace::Role::Reader);
        SqliteStmt runs(ws.db(), "SELECT run_id FROM trace GROUP BY run_id HAVING count(*) > 1");
        int compared = 0;
        while (runs.step()) {
            const int64_t run = runs.columnInt(0);
            const RankComparison a = compareRanks(ws, run, GpuOpMode::EveryOp);
            const RankComparison b = compareRanks(ws, run, GpuOpMode::EveryOp, ReportSource::Events);
            QCOMPARE(a.ranks.size(), b.ranks.size());
            for (size_t i = 0; i < a.ranks.size(); ++i) {
                const RankSummary &x = a.ranks[i], &y = b.ranks[i];
                QCOMPARE(x.traceId, y.traceId);
                QCOMPARE(x.steps, y.steps);
                QVERIFY2(x.windowNs == y.windowNs && x.computeNs == y.computeNs && x.commNs == y.commNs
                        && x.exposedCommNs == y.exposedCommNs && x.idleNs == y.idleNs,
                    qPrintable(QStringLiteral("run %1, trace %2").arg(run).arg(x.traceId)));
            }
            QCOMPARE(a.straggler, b.straggler);
            QVERIFY(a.stepSpreadNs == b.stepSpreadNs && a.othersWaitNs == b.othersWaitNs);
            ++compared;
        }
        QVERIFY(compared > 0);
    }

    // The report's analyses share one pass over the CPU tracks between two connections (step time's
    // host parts, the host analysis's slices, the CPU ops of FLOPs and collectives): each equals the
    // analysis computed on its own, on one connection, reading what it needs itself.
    void sharedHostPassEqualsEachAnalysis()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        Workspace ws(m_ws, Workspace::Role::Reader);
        int split = 0; // traces with steps, whose tracks were shared out
        for (int64_t id : m_traces) {
            const std::vector<GpuOp> ops = readGpuOps(ws, id, GpuOpMode::EveryOp);
            const DoctorReport shared = traceAnalyses(ws, id, ops);
            DoctorReport apart = shared;
            apart.stepTime = stepTimeBreakdown(ws, id, ops);
            apart.host = hostAnalysis(ws, id, ops);
            apart.flops = flopsSummary(ws, id);
            apart.collectives = collectiveStats(ws, id);
            QVERIFY2(encodeReport(apart) == encodeReport(shared), qPrintable(QString::number(id)));

            // The tracks shared out between two connections however the scans interleave (here the
            // first takes one track, the second the rest): the same taps and breakdown as one scan.
            Workspace other(m_ws, Workspace::Role::Reader);
            auto run = [&](bool split) {
                HostSliceTap slices;
                slices.names = hostActivityNames(ws.db());
                ThreadOpTap threadOps;
                threadOps.names = flopsOpNameIds(ws.db());
                threadOps.names.merge(collectiveParamNameIds(ws.db()));
                StepTimeHostPass pass(ws, id, {}, &slices, &threadOps);
                if (split)
                    pass.scan(other.db(), 1);
                pass.scan(ws.db());
                pass.takeThreadOps();
                const StepTimeBreakdown b = pass.finish(ops);
                QByteArray out;
                for (const StepTime &t : b.steps)
                    for (const StepTimePartInfo &p : stepTimeParts())
                        out += QByteArray::number(qlonglong(t.parts.*p.member)) + ' ';
                for (const ThreadOp &o : threadOps.ops)
                    out += QByteArray::number(qlonglong(o.extId)) + ':'
                        + QByteArray::number(qlonglong(o.argsId)) + ' ';
                std::sort(slices.slices.begin(), slices.slices.end(), [](const auto &x, const auto &y) {
                    return std::tie(x.trackId, x.tsNs, x.durNs, x.nameId)
                        < std::tie(y.trackId, y.tsNs, y.durNs, y.nameId);
                });
                for (const HostSliceTap::Slice &s : slices.slices)
                    out += QByteArray::number(qlonglong(s.tsNs)) + '/'
                        + QByteArray::number(qlonglong(s.durNs)) + ' ';
                return out;
            };
            QVERIFY2(run(true) == run(false), qPrintable(QString::number(id)));
            split += shared.stepTime.steps.empty() ? 0 : 1;
        }
        QVERIFY(split > 0);
    }

    // The per-step tables: each step's GPU window and step time, ops by name (their sketches within 1%
    // of the exact percentiles), idle per stream and the collective calls, against the analyses.
    void tablesEqualAnalyses()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        Workspace ws(m_ws, Workspace::Role::Reader);
        int sketchesChecked = 0;
        for (int64_t id : m_traces) {
            const std::vector<GpuOp> ops = readGpuOps(ws, id, GpuOpMode::EveryOp);
            const std::vector<StepBreakdown> steps = stepBreakdowns(ws, id, ops);
            const StepTimeBreakdown stepTime = stepTimeBreakdown(ws, id, ops);
            QCOMPARE(queryInt(ws, "SELECT steps FROM trace_summary WHERE trace_id = ?", id),
                int64_t(steps.size()));
            SqliteStmt st(ws.db(),
                "SELECT step, name, start_ns, end_ns, gpu_ops, compute_ns, comm_ns, exposed_comm_ns, "
                "busy_ns, "
                "st_compute_ns + st_exposed_comm_ns + st_exposed_memory_ns + st_input_pipeline_ns + "
                "st_synchronization_ns + st_runtime_ns + st_other_cpu_ns + st_idle_ns, launched_ops, "
                "launch_delay_sketch FROM step_summary WHERE trace_id = ? ORDER BY step");
            st.bind(1, id);
            // Each step's ops as its GPU window counts them.
            std::vector<std::vector<GpuOp>> stepOps(steps.size());
            forEachStepOps(steps, ops, [&](size_t i, const std::vector<GpuOp> &o) { stepOps[i] = o; });
            size_t rows = 0;
            while (st.step()) {
                ++rows;
                const int64_t step = st.columnInt(0);
                // The ops with a launch, and the launch delays' sketch: their count and median.
                std::vector<int64_t> delays;
                for (const GpuOp &op : step < 0 ? ops : stepOps[size_t(step)])
                    if (op.launchNs >= 0)
                        delays.push_back(op.startNs - op.launchNs);
                QCOMPARE(st.columnInt(10), int64_t(delays.size()));
                QCOMPARE(st.columnIsNull(11), delays.empty());
                if (!delays.empty()) {
                    QuantileSketch sketch;
                    const std::string_view blob = st.columnBlob(11);
                    QVERIFY(QuantileSketch::decode(QByteArray(blob.data(), qsizetype(blob.size())), sketch));
                    QCOMPARE(sketch.count(), int64_t(delays.size()));
                    const size_t mid = (delays.size() + 1) / 2 - 1; // nearest rank
                    std::nth_element(delays.begin(), delays.begin() + ptrdiff_t(mid), delays.end());
                    const double exact = double(delays[mid]), got = double(sketch.quantile(0.5));
                    QVERIFY2(std::abs(got - exact) <= 0.01 * std::abs(exact) + 0.5,
                        qPrintable(QStringLiteral("step %1 launch delay p50: %2 against %3")
                                       .arg(step)
                                       .arg(got)
                                       .arg(exact)));
                }
                if (step < 0) {
                    const TemporalBreakdown all = breakdownOf(ops);
                    QCOMPARE(st.columnInt(4), all.ops);
                    QCOMPARE(st.columnInt(5), all.computeNs);
                    QCOMPARE(st.columnInt(8), all.busyNs);
                    QCOMPARE(st.columnInt(9), stepTime.total.wallNs());
                    continue;
                }
                const StepBreakdown &b = steps[size_t(step)];
                const StepTime &t = stepTime.steps[size_t(step)];
                QCOMPARE(st.columnText(1), t.name);
                QCOMPARE(st.columnInt(2), t.startNs);
                QCOMPARE(st.columnInt(3), t.endNs);
                QCOMPARE(st.columnInt(4), b.gpu.ops);
                QCOMPARE(st.columnInt(5), b.gpu.computeNs);
                QCOMPARE(st.columnInt(6), b.gpu.commNs);
                QCOMPARE(st.columnInt(7), b.gpu.exposedCommNs);
                QCOMPARE(st.columnInt(8), b.gpu.busyNs);
                QCOMPARE(st.columnInt(9), t.wallNs());
            }
            QCOMPARE(rows, steps.size() + 1);

            // Ops by name over the whole trace: the kernel table's counts, times and percentiles.
            std::map<QString, KernelStats> kernels;
            for (const KernelStats &k : kernelTable(ws, ops))
                kernels[k.name] = k;
            SqliteStmt op(ws.db(),
                "SELECT n.str, o.count, o.total_ns, o.min_ns, o.max_ns, o.sketch FROM op_summary o "
                "JOIN string n ON n.id = o.name_id WHERE o.trace_id = ? AND o.step = -1");
            op.bind(1, id);
            size_t names = 0;
            while (op.step()) {
                ++names;
                const auto k = kernels.find(op.columnText(0));
                QVERIFY(k != kernels.end());
                QCOMPARE(op.columnInt(1), k->second.count);
                QCOMPARE(op.columnInt(2), k->second.totalNs);
                QCOMPARE(op.columnInt(3), k->second.minNs);
                QCOMPARE(op.columnInt(4), k->second.maxNs);
                QuantileSketch sketch;
                const std::string_view blob = op.columnBlob(5);
                QVERIFY(QuantileSketch::decode(QByteArray(blob.data(), qsizetype(blob.size())), sketch));
                QCOMPARE(sketch.count(), k->second.count);
                for (auto [q, exact] : { std::pair { 0.5, k->second.p50Ns }, { 0.9, k->second.p90Ns },
                         { 0.99, k->second.p99Ns } }) {
                    const double got = double(sketch.quantile(q));
                    QVERIFY2(std::abs(got - double(exact)) <= 0.01 * double(exact) + 0.5,
                        qPrintable(QStringLiteral("%1 p%2: %3 against %4")
                                       .arg(k->first)
                                       .arg(q)
                                       .arg(got)
                                       .arg(exact)));
                }
                ++sketchesChecked;
            }
            QCOMPARE(names, kernels.size());
            // Each step's ops by name add up to the ops launched in the step.
            for (size_t s = 0; s < steps.size(); ++s) {
                SqliteStmt sum(ws.db(),
                    "SELECT coalesce(sum(count), 0) FROM op_summary WHERE trace_id = ? AND step = ?");
                sum.bind(1, id).bind(2, int64_t(s));
                QVERIFY(sum.step());
                QCOMPARE(sum.columnInt(0), steps[s].gpu.ops);
            }

            // Per stream over the whole trace: its ops, their union, and the idle between them.
            SqliteStmt idle(ws.db(),
                "SELECT track_id, host_wait_ns, kernel_wait_ns, other_idle_ns, gaps, ops, busy_ns "
                "FROM stream_summary WHERE trace_id = ? AND step = -1 ORDER BY track_id");
            idle.bind(1, id);
            std::map<int64_t, StreamIdle> expected;
            for (const StreamIdle &s : idleBreakdown(ws, ops))
                expected[s.streamTrackId] = s;
            std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> spans;
            for (const GpuOp &op : ops)
                spans[op.streamTrackId].emplace_back(op.startNs, op.endNs);
            size_t streams = 0;
            while (idle.step()) {
                ++streams;
                const StreamIdle &e = expected.at(idle.columnInt(0));
                QCOMPARE(idle.columnInt(1), e.hostWaitNs);
                QCOMPARE(idle.columnInt(2), e.kernelWaitNs);
                QCOMPARE(idle.columnInt(3), e.otherNs);
                QCOMPARE(idle.columnInt(4), e.gaps);
                std::vector<std::pair<int64_t, int64_t>> &v = spans[idle.columnInt(0)];
                QCOMPARE(idle.columnInt(5), int64_t(v.size()));
                std::sort(v.begin(), v.end());
                int64_t busy = 0, coveredTo = INT64_MIN;
                for (const auto &[a, b] : v) {
                    busy += std::max<int64_t>(0, b - std::max(a, coveredTo));
                    coveredTo = std::max(coveredTo, b);
                }
                QCOMPARE(idle.columnInt(6), busy);
            }
            QCOMPARE(streams, expected.size());

            // Collective calls: as many as the collective table counts, each group's in sequence.
            int64_t calls = 0;
            for (const CollectiveStats &c : collectiveStats(ws, id))
                calls += c.count;
            QCOMPARE(queryInt(ws, "SELECT count(*) FROM collective_call WHERE trace_id = ?", id), calls);
            QCOMPARE(queryInt(ws,
                         "SELECT count(*) FROM (SELECT process_group, max(seq) + 1 - count(*) AS gap "
                         "FROM collective_call WHERE trace_id = ? GROUP BY process_group) WHERE gap <> 0",
                         id),
                int64_t(0));
            // Each names its kernel: a slice of a GPU stream of the trace, starting and ending as it does.
            QCOMPARE(
                queryInt(ws,
                    "SELECT count(*) FROM collective_call c JOIN slice s ON s.id = c.slice_id JOIN track k "
                    "ON "
                    "k.id = s.track_id WHERE c.trace_id = ?1 AND k.trace_id = ?1 AND k.kind = 'gpu_stream' "
                    "AND s.ts = c.start_ns AND s.ts + s.dur = c.end_ns",
                    id),
                calls);
        }
        QVERIFY(sketchesChecked > 100);
    }

    // The diff of two traces from their stored reports is the diff from their events, every pair of
    // consecutive traces (with steps and without, one GPU and several ranks).
    void diffEqualsEvents()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        Workspace ws(m_ws, Workspace::Role::Reader);
        for (size_t i = 0; i + 1 < m_traces.size(); ++i) {
            const int64_t a = m_traces[i], b = m_traces[i + 1];
            const TraceDiff stored = diffTraces(ws, a, b, GpuOpMode::EveryOp);
            const TraceDiff events = diffTraces(ws, a, b, GpuOpMode::EveryOp, {}, ReportSource::Events);
            QCOMPARE(diffJson(stored, GpuOpMode::EveryOp, componentName(stored.a.verdict.component),
                         componentName(stored.b.verdict.component)),
                diffJson(events, GpuOpMode::EveryOp, componentName(events.a.verdict.component),
                    componentName(events.b.verdict.component)));
            QCOMPARE(diffHeadline(stored), diffHeadline(events));
        }
    }

    // A workspace imported before summaries existed (or by analyses of another version) gets them at
    // the next import, and until then the doctor computes from the events.
    void missingAndStale()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.plumb"));
        QVERIFY(QFile::copy(m_ws, path));
        {
            Workspace ws(path, Workspace::Role::Writer);
            ws.db().exec("DELETE FROM trace_summary WHERE trace_id = 1");
            ws.db().exec("UPDATE trace_summary SET version = version - 1 WHERE trace_id = 2");
            QVERIFY(traceSummariesMissing(ws));
            QVERIFY(!storedReport(ws, 1));
            QVERIFY(!storedReport(ws, 2));
            QVERIFY(!storedWindowSums(ws, queryInt(ws, "SELECT run_id FROM trace WHERE id = ?", 2)).count(2));
            const DoctorReport fallback = doctorReport(ws, 1, GpuOpMode::EveryOp);
            QCOMPARE(fallback.verdict.headline,
                doctorReport(ws, 1, readGpuOps(ws, 1, GpuOpMode::EveryOp), {}).verdict.headline);
            QCOMPARE(writeMissingTraceSummaries(ws), 2);
            QVERIFY(!traceSummariesMissing(ws));
            QVERIFY(storedReport(ws, 1));
            QVERIFY(storedReport(ws, 2));
            QCOMPARE(writeMissingTraceSummaries(ws), 0);
        }
        // A schema-13 workspace: the migration adds the tables, the next import fills them.
        const QString old = dir.filePath(QStringLiteral("old.plumb"));
        createWorkspaceAtSchema(old, 13);
        const QString trace = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/hta_nccl_data.json.gz");
        const QString error = importIntoWorkspace(old, { trace });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Workspace ws(old, Workspace::Role::Reader);
        QVERIFY(!traceSummariesMissing(ws));
        QVERIFY(storedReport(ws, 1));
    }

    // Removing a source removes its traces' summaries.
    void removedWithSource()
    {
        SKIP_WITHOUT_SHARED_TRACES();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.plumb"));
        QVERIFY(QFile::copy(m_ws, path));
        Workspace ws(path, Workspace::Role::Writer);
        const int64_t source = queryInt(ws, "SELECT source_id FROM trace WHERE id = ?", 1);
        const SourceRemoval removed = removeSource(ws.db(), source);
        QVERIFY2(removed.blocker.isEmpty(), qPrintable(removed.blocker));
        for (const char *table :
            { "trace_summary", "step_summary", "op_summary", "stream_summary", "collective_call" })
            QCOMPARE(queryInt(ws, std::string("SELECT count(*) FROM ") + table + " WHERE trace_id = ?", 1),
                int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTraceSummary)
#include "tst_tracesummary.moc"
