// SPDX-License-Identifier: GPL-3.0-or-later
// The doctor's verdict on generated traces with a known answer: one per component, plus a mixed case
// that must come out inconclusive. The generator is the Gen class below.

#include "analysis/doctorreport.h"
#include "analysis/verdict.h"
#include "importhelpers.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace plumb;

namespace {

// Builds a small Kineto trace: CPU ranges and launches on pid 1 / tid 1, GPU ops on pid 0, stream 7.
// Times in µs.
class Gen {
public:
    void cpu(const char *name, double ts, double dur, int tid = 1)
    {
        add(QStringLiteral("\"name\":\"%1\",\"pid\":1,\"tid\":%4,\"ts\":%2,\"dur\":%3")
                .arg(QLatin1String(name))
                .arg(ts)
                .arg(dur)
                .arg(tid));
    }
    // A launch at `launchTs` taking `launchDur`, and the op it starts on the GPU.
    void op(const char *cat, const char *name, double launchTs, double launchDur, double ts, double dur,
        int stream = 7)
    {
        ++m_corr;
        add(QStringLiteral(
            "\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%1,\"dur\":%2,"
            "\"args\":{\"correlation\":%3}")
                .arg(launchTs)
                .arg(launchDur)
                .arg(m_corr));
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":0,\"tid\":%6,\"ts\":%3,\"dur\":%4,"
                           "\"args\":{\"correlation\":%5,\"stream\":%6}")
                .arg(QLatin1String(cat), QLatin1String(name))
                .arg(ts)
                .arg(dur)
                .arg(m_corr)
                .arg(stream));
    }
    [[nodiscard]] QByteArray json() const
    {
        return QByteArray("{\"traceEvents\": [\n") + m_events.join(QStringLiteral(",\n")).toUtf8()
            + QByteArray("\n]}\n");
    }

private:
    void add(const QString &fields) { m_events << QStringLiteral("{\"ph\":\"X\",") + fields + u'}'; }
    QStringList m_events;
    int m_corr = 0;
};

} // namespace

class TestVerdict : public QObject {
    Q_OBJECT

    // The verdict on a generated trace, every GPU op counted; `addRows` writes into the workspace
    // first what the generator cannot (Nsight's CPU samples, thread scheduling).
    static void verdictOf(
        const QByteArray &json, Verdict &v, const std::function<void(SqliteDb &)> &addRows = {})
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"), json);
        QVERIFY(!ws.isEmpty());
        if (addRows) {
            Workspace w(ws, Workspace::Role::Writer);
            addRows(w.db());
        }
        Workspace workspace(ws, Workspace::Role::Reader);
        v = diagnose(workspace, 1, TemporalBreakdown::Mode::EveryOp);
    }

    // knownAnswers' launch-bound case: kernels at 10i+9..10i+11 µs, the GPU idle 8 µs in each of 199
    // stretches.
    static Gen launchBound()
    {
        Gen g;
        for (int i = 0; i < 200; ++i)
            g.op("kernel", "elementwise", 10 * i, 8, 10 * i + 9, 2);
        return g;
    }

    // The "top kernels: " evidence of `g`'s verdict, which must be compute-bound.
    static void topKernelsOf(const Gen &g, QStringList &named)
    {
        Verdict v;
        verdictOf(g.json(), v);
        QCOMPARE(int(v.component), int(Verdict::Component::GpuCompute));
        named = v.evidence.filter(QStringLiteral("top kernels: "));
    }

private slots:
    // GPU ops that span no time (one kernel of zero duration): no window to take shares of, so the verdict
    // is inconclusive and says why, never "nan%".
    void zeroLengthWindowIsInconclusive()
    {
        Verdict v;
        verdictOf("{\"traceEvents\": [\n"
                  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                  "\"ts\":1,\"dur\":2,\"args\":{\"correlation\":1}},\n"
                  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":5,\"dur\":0,"
                  "\"args\":{\"correlation\":1,\"stream\":7,\"device\":0}}\n"
                  "]}\n",
            v);
        QCOMPARE(int(v.component), int(Verdict::Component::Inconclusive));
        QCOMPARE(
            v.headline, QStringLiteral("Inconclusive: the GPU ops span no time (a zero-length window)."));
        const QString all = v.headline + v.evidence.join(QLatin1Char('\n'));
        QVERIFY2(!all.contains(QLatin1String("nan")), qPrintable(all));
    }

    void knownAnswers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("expected");
        using C = Verdict::Component;
        {
            Gen g; // kernels back to back, queued well ahead
            for (int i = 0; i < 20; ++i)
                g.op("kernel", "gemm", i, 1, 10 + 100 * i, 100);
            QTest::newRow("compute-bound") << g.json() << int(C::GpuCompute);
        }
        {
            Gen g; // tiny kernels, each launched just in time: the GPU waits on the host
            for (int i = 0; i < 200; ++i)
                g.op("kernel", "elementwise", 10 * i, 8, 10 * i + 9, 2);
            QTest::newRow("launch-bound") << g.json() << int(C::HostLaunch);
        }
        {
            Gen g; // a batch is fetched before every step's work
            for (int i = 0; i < 10; ++i) {
                g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1000 * i, 800);
                g.op("kernel", "gemm", 1000 * i + 800, 5, 1000 * i + 810, 150);
            }
            QTest::newRow("input-bound") << g.json() << int(C::InputPipeline);
        }
        {
            Gen g; // .item() after every kernel: the queue runs dry while the host catches up
            for (int i = 0; i < 10; ++i) {
                g.op("kernel", "gemm", 300 * i, 3, 300 * i + 5, 50);
                g.cpu("aten::item", 300 * i + 4, 52);
            }
            QTest::newRow("sync-bound") << g.json() << int(C::Synchronization);
        }
        {
            Gen g; // big host-to-device copies between short kernels, all queued ahead
            for (int i = 0; i < 10; ++i) {
                g.op("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", i, 1, 250 * i, 200);
                g.op("kernel", "gemm", i + 0.5, 0.2, 250 * i + 200, 50);
            }
            QTest::newRow("copy-bound") << g.json() << int(C::MemoryCopies);
        }
        {
            Gen g; // all-reduces with nothing to overlap them
            for (int i = 0; i < 10; ++i) {
                g.op("kernel", "gemm", i, 1, 200 * i, 50);
                g.op("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", i + 0.5, 0.2, 200 * i + 50, 150);
            }
            QTest::newRow("comm-bound") << g.json() << int(C::ExposedCommunication);
        }
        {
            Gen g; // an MPI job: each step's result exchanged on the host before the next step's kernel
            for (int i = 0; i < 10; ++i) {
                g.op("kernel", "stencil", 1000 * i, 5, 1000 * i + 10, 150);
                g.cpu("MPI_Allreduce", 1000 * i + 170, 700);
            }
            QTest::newRow("mpi-bound") << g.json() << int(C::ExposedCommunication);
        }
        {
            Gen g; // input and launch gaps of about the same size
            for (int i = 0; i < 10; ++i) {
                g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1000 * i, 500);
                g.op("kernel", "gemm", 1000 * i + 500, 5, 1000 * i + 505, 10);
                g.op("kernel", "gemm", 1000 * i + 900, 5, 1000 * i + 905, 10);
            }
            QTest::newRow("mixed") << g.json() << int(C::Inconclusive);
        }
        {
            Gen g; // a little of everything: computation 60%, copies 14%, communication 14%, idle 12%
            for (int i = 0; i < 10; ++i) {
                g.op("kernel", "gemm", 100 * i, 1, 100 * i + 2, 60);
                g.op("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", 100 * i + 1, 0.5, 100 * i + 62, 14);
                g.op("kernel", "ncclKernel_AllReduce", 100 * i + 1.5, 0.2, 100 * i + 76, 14);
            }
            QTest::newRow("weak evidence") << g.json() << int(C::Inconclusive);
        }
    }
    // Two ranks of one job, three steps each: rank 1 computes 130 µs a step, rank 0 only 50 µs and then
    // waits in the all-reduce for rank 1. Rank 0 alone looks communication-bound; weighed with its run,
    // the straggler is what limits it, and rank 1 (computing 93% of its window) is compute-bound and told
    // that it is the straggler.
    void straggler()
    {
        QTemporaryDir tmp;
        const QString job = tmp.filePath(QStringLiteral("job"));
        QVERIFY(QDir().mkpath(job));
        for (int rank : { 0, 1 }) {
            const int gemm = rank == 1 ? 130 : 50, allReduce = rank == 1 ? 10 : 90;
            QStringList events;
            for (int step = 0; step < 3; ++step) {
                const int t0 = 140 * step; // back to back: step N+1's gemm starts as step N's all-reduce ends
                events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%"
                                         "1\",\"pid\":1,\"tid\":1,\"ts\":%2,\"dur\":140}")
                              .arg(step)
                              .arg(t0)
                       << QStringLiteral(
                              "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":"
                              "1,\"tid\":1,\"ts\":%1,\"dur\":2,\"args\":{\"correlation\":%2}}")
                              .arg(t0 + 1)
                              .arg(2 * step + 1)
                       << QStringLiteral(
                              "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":"
                              "1,\"tid\":1,\"ts\":%1,\"dur\":2,\"args\":{\"correlation\":%2}}")
                              .arg(t0 + 4)
                              .arg(2 * step + 2)
                       << QStringLiteral(
                              "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":"
                              "%1,\"dur\":%2,\"args\":{\"correlation\":%3,\"stream\":7}}")
                              .arg(t0 + 10)
                              .arg(gemm)
                              .arg(2 * step + 1)
                       << QStringLiteral(
                              "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,"
                              "\"tid\":8,\"ts\":%1,\"dur\":%2,\"args\":{\"correlation\":%3,\"stream\":8}}")
                              .arg(t0 + 10 + gemm)
                              .arg(allReduce)
                              .arg(2 * step + 2);
            }
            const QByteArray json = QStringLiteral(
                "{\"distributedInfo\": {\"rank\": %1, \"world_size\": 2}, \"traceEvents\": [\n%2\n]}\n")
                                        .arg(rank)
                                        .arg(events.join(QStringLiteral(",\n")))
                                        .toUtf8();
            QVERIFY(writeTestFile(QStringLiteral("%1/rank-%2.json").arg(job).arg(rank), json));
        }
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { job });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const int64_t rank0 = ws.db().queryInt("SELECT id FROM trace WHERE rank = 0");
        const int64_t rank1 = ws.db().queryInt("SELECT id FROM trace WHERE rank = 1");
        using C = Verdict::Component;
        QCOMPARE(diagnose(ws, rank0, GpuOpMode::EveryOp).component, C::ExposedCommunication); // alone
        const DoctorReport r0 = doctorReport(ws, rank0, GpuOpMode::EveryOp);
        QCOMPARE(r0.ranks.ranks.size(), size_t(2));
        QVERIFY2(r0.verdict.component == C::StragglerRank,
            qPrintable(r0.verdict.headline + u'\n' + r0.verdict.evidence.join(u'\n')));
        QCOMPARE(r0.verdict.costOf(C::StragglerRank), Q_INT64_C(3 * 80000)); // 80 µs a step, three steps
        QCOMPARE(r0.verdict.costOf(C::ExposedCommunication), Q_INT64_C(3 * 10000));
        QVERIFY(!r0.verdict.tunables.isEmpty());
        QCOMPARE(r0.verdict.where.size(), size_t(3)); // every step waited
        const DoctorReport r1 = doctorReport(ws, rank1, GpuOpMode::EveryOp);
        QCOMPARE(r1.verdict.component, C::GpuCompute);
        QVERIFY(r1.verdict.evidence.join(u'\n').contains(QStringLiteral("straggler")));
    }

    // Per-step verdicts, on step time: of two steps, one waits on the input pipeline and one computes;
    // each step's verdict says so, and the overall verdict points at the step its component cost most
    // step time in.
    void perStep()
    {
        Gen g;
        g.cpu("ProfilerStep#1", 0, 1000);
        g.op("kernel", "gemm", 0, 5, 10, 50);
        g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 60, 800);
        g.op("kernel", "gemm", 860, 5, 870, 130);
        g.cpu("ProfilerStep#2", 1000, 1000);
        for (int i = 0; i < 10; ++i)
            g.op("kernel", "gemm", 1000 + i, 1, 1005 + 100 * i, 100);
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const DoctorReport r = doctorReport(ws, 1, GpuOpMode::EveryOp);
        QCOMPARE(r.steps.size(), size_t(2));
        QCOMPARE(r.stepVerdicts.size(), size_t(2));
        QCOMPARE(r.stepTime.steps.size(), size_t(2));
        QCOMPARE(r.stepVerdicts[0].component, Verdict::Component::InputPipeline);
        QCOMPARE(r.stepTime.steps[0].parts.inputPipelineNs, Q_INT64_C(800000));
        QCOMPARE(r.stepVerdicts[1].component, Verdict::Component::GpuCompute);
        QCOMPARE(r.stepTime.steps[1].parts.inputPipelineNs, Q_INT64_C(0));
        QCOMPARE(r.verdict.component, Verdict::Component::InputPipeline);
        QCOMPARE(r.verdict.where.size(), size_t(1)); // step 1 only: step 2 had no input wait
        QCOMPARE(r.verdict.where[0].startNs, r.stepTime.steps[0].startNs);
        QCOMPARE(r.verdict.where[0].endNs, r.stepTime.steps[0].endNs);
        QVERIFY2(r.verdict.where[0].label.startsWith(QStringLiteral("ProfilerStep#1 (800 µs of 1.00 ms)")),
            qPrintable(r.verdict.where[0].label));
        QVERIFY(
            r.verdict.evidence.join(u'\n').contains(QStringLiteral("step time 1.00 ms a step over 2 steps")));
    }

    void knownAnswers()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, expected);
        Verdict v;
        verdictOf(json, v);
        QVERIFY2(int(v.component) == expected,
            qPrintable(
                QStringLiteral("%1 (expected %2)\n%3")
                    .arg(v.headline, componentName(Verdict::Component(expected)), v.evidence.join(u'\n'))));
        QVERIFY(!v.headline.isEmpty());
        QVERIFY(!v.evidence.isEmpty());
        if (v.component != Verdict::Component::Inconclusive)
            QVERIFY(!v.tunables.isEmpty());
        else
            QVERIFY(v.runnerUp != Verdict::Component::Inconclusive); // the runner-up is shown
    }

    // Host MPI calls: the GPU idle while the host exchanges data is communication (not launch
    // overhead), said in the evidence, with MPI's tunables and the longest such gaps pointed at.
    void mpiOnTheHost()
    {
        Gen g; // each step launched once the previous exchange returned; the exchanges grow longer
        double t = 0, longestGapStart = 0;
        for (int i = 0; i < 10; ++i) {
            g.op("kernel", "stencil", t, 5, t + 10, 150);
            if (i == 8)
                longestGapStart = t + 160;
            g.cpu("MPI_Allreduce", t + 170, 700 + 10 * i);
            t += 170 + 700 + 10 * i + 10;
        }
        Verdict v;
        verdictOf(g.json(), v);
        QCOMPARE(int(v.component), int(Verdict::Component::ExposedCommunication));
        QVERIFY2(v.headline.startsWith(
                     QLatin1String("Limited by exposed communication in the host's MPI calls, the GPU "
                                   "idle meanwhile: ")),
            qPrintable(v.headline));
        QVERIFY2(!v.evidence.filter(QStringLiteral("in MPI calls ")).isEmpty(),
            qPrintable(v.evidence.join(u'\n')));
        QVERIFY(v.tunables.join(u' ').contains(QLatin1String("MPI")));
        QVERIFY(!v.where.empty());
        QCOMPARE(
            v.where.front().startNs, int64_t(longestGapStart * 1000)); // before the last step: the longest
    }

    // A progress thread that sits in MPI_Wait all along does not make the launching thread's idle gaps
    // communication: only MPI calls on a thread that launches GPU work count.
    void mpiOnAProgressThread()
    {
        Gen g; // tiny kernels launched just in time, as in knownAnswers' launch-bound case
        for (int i = 0; i < 200; ++i)
            g.op("kernel", "elementwise", 10 * i, 8, 10 * i + 9, 2);
        g.cpu("MPI_Wait", 0, 2010, 2);
        Verdict v;
        verdictOf(g.json(), v);
        QCOMPARE(int(v.component), int(Verdict::Component::HostLaunch));
        QVERIFY2(
            v.evidence.filter(QStringLiteral("in MPI calls ")).isEmpty(), qPrintable(v.evidence.join(u'\n')));
    }

    // A host-side verdict says what the host was doing while the GPU idled, from its CPU samples (the
    // Nsight importer's 'cpu_samples' rows, written here into the workspace as it lays them out): the
    // samples in idle stretches by function, most first; those taken while a kernel ran are not, nor
    // those of a thread that launches nothing (a profiler's or a data loader's).
    void cpuSamplesWhileIdle()
    {
        Verdict v;
        verdictOf(launchBound().json(), v, [](SqliteDb &db) {
            db.exec("INSERT INTO string(id, str) VALUES (9001, 'cudaLaunchKernel'), (9002, "
                    "'_PyEval_EvalFrameDefault'), "
                    "(9003, 'busy'), (9004, 'cpu_sample')");
            db.exec("INSERT INTO track(id, trace_id, process_id, kind, label, slice_count) SELECT 9001, 1, "
                    "process_id, "
                    "'cpu_samples', label, 2001 FROM track WHERE kind = 'thread' LIMIT 1");
            db.exec("INSERT INTO track(id, trace_id, process_id, kind, label, slice_count) SELECT 9002, 1, "
                    "process_id, "
                    "'cpu_samples', 'profiler thread', 200 FROM track WHERE kind = 'thread' LIMIT 1");
            // One sample a µs: in the idle stretches 6 in 8 in the launch call, 2 in Python; in kernels
            // "busy".
            SqliteStmt sample(db,
                "INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id) "
                "VALUES (?4, ?1, ?2, 0, 0, ?3, 9004)");
            for (int t = 0; t <= 2000; ++t) {
                const int phase = t % 10;
                sample.bind(1, int64_t(t) * 1000)
                    .bind(2, int64_t(900000) + t)
                    .bind(3,
                        phase == 9 || phase == 0 ? 9003
                            : phase <= 6         ? 9001
                                                 : 9002)
                    .bind(4, 9001)
                    .run();
            }
            for (int t = 0; t < 200; ++t)
                sample.bind(1, int64_t(10 * t + 12) * 1000)
                    .bind(2, int64_t(t))
                    .bind(3, 9003)
                    .bind(4, 9002)
                    .run();
        });
        QCOMPARE(int(v.component), int(Verdict::Component::HostLaunch));
        // 199 stretches of 8 samples each.
        const QStringList line = v.evidence.filter(QStringLiteral("CPU samples while the GPU was idle"));
        QCOMPARE(line.size(), 1);
        QCOMPARE(line[0],
            QStringLiteral("CPU samples while the GPU was idle (1,592 of 2,001): cudaLaunchKernel 75%, "
                           "_PyEval_EvalFrameDefault 25%"));
    }

    // Nsight's thread scheduling: the share of the GPU's idle time the launching thread spent on no CPU
    // (another thread's scheduling does not count), as evidence for a host-side verdict.
    void offCpuWhileIdle()
    {
        Verdict v;
        verdictOf(launchBound().json(), v, [](SqliteDb &db) {
            db.exec("INSERT INTO string(id, str) VALUES (9001, 'CPU 3'), (9002, 'sched')");
            db.exec("INSERT INTO track(id, trace_id, process_id, kind, label, slice_count) SELECT 9001, 1, "
                    "process_id, "
                    "'on_cpu', label, 201 FROM track WHERE kind = 'thread' LIMIT 1");
            db.exec("INSERT INTO track(id, trace_id, process_id, kind, label, slice_count) SELECT 9002, 1, "
                    "process_id, "
                    "'on_cpu', 'loader thread', 1 FROM track WHERE kind = 'thread' LIMIT 1");
            // The launching thread on a CPU at 10j+1..10j+7 µs: 6 of each idle stretch's 8 µs.
            SqliteStmt slice(db,
                "INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id) "
                "VALUES (?4, ?1, ?2, ?3, 0, 9001, 9002)");
            for (int j = 0; j <= 200; ++j)
                slice.bind(1, int64_t(10 * j + 1) * 1000)
                    .bind(2, int64_t(900000) + j)
                    .bind(3, 6000)
                    .bind(4, 9001)
                    .run();
            // The other thread on a CPU only at the start and the end: off it through every stretch.
            slice.bind(1, 0).bind(2, 990000).bind(3, 1000).bind(4, 9002).run();
            slice.bind(1, 2005000).bind(2, 990001).bind(3, 1000).bind(4, 9002).run();
            db.exec("UPDATE track SET slice_count = 2 WHERE id = 9002");
        });
        QCOMPARE(int(v.component), int(Verdict::Component::HostLaunch));
        const QStringList line = v.evidence.filter(QStringLiteral("While the GPU was idle"));
        QCOMPARE(line.size(), 1);
        QCOMPARE(line[0],
            QStringLiteral("While the GPU was idle, the launching thread was on no CPU 25% of the time "
                           "(0.398 of 1.592 ms, from the threads' scheduling): it was mostly running, so "
                           "its own CPU work is what the GPU waited for"));
    }

    // A compute-bound verdict names its top kernels; a C++ template signature longer than the
    // sentence allows is cut with an ellipsis, a short name kept whole.
    void topKernelsElided()
    {
        const QString longName
            = QStringLiteral("void clover::par_ranged2d_kernel<PdV_kernel(bool, int, int, "
                             "clover::Buffer2D<double>, clover::Buffer2D<double>)>(int, int)");
        Gen g;
        for (int i = 0; i < 20; ++i)
            g.op("kernel", i % 2 ? "gemm" : longName.toUtf8().constData(), i, 1, 10 + 100 * i, 100);
        QStringList named;
        topKernelsOf(g, named);
        QCOMPARE(named.size(), 1);
        QVERIFY2(named[0].contains(longName.left(59) + QChar(0x2026) + QStringLiteral(" (50.0%)")),
            qPrintable(named[0]));
        QVERIFY2(named[0].contains(QStringLiteral("gemm (50.0%)")), qPrintable(named[0]));
    }

    // The kernels a compute-bound verdict names are computation: a copy the kernels hid, however long,
    // is not among them (it is in the GPU ops table).
    void topKernelsAreComputation()
    {
        Gen g;
        for (int i = 0; i < 20; ++i)
            g.op("kernel", i % 2 ? "gemm" : "conv", i, 1, 10 + 100 * i, 100);
        g.op("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 0, 1, 200, 1500, 8);
        QStringList named;
        topKernelsOf(g, named);
        QCOMPARE(named.size(), 1);
        QVERIFY2(!named[0].contains(QStringLiteral("Memcpy")), qPrintable(named[0]));
        QVERIFY2(named[0].contains(QStringLiteral("gemm (")) && named[0].contains(QStringLiteral("conv (")),
            qPrintable(named[0]));
    }
};

QTEST_GUILESS_MAIN(TestVerdict)
#include "tst_verdict.moc"
