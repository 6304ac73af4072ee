// SPDX-License-Identifier: GPL-3.0-or-later
// The GPU temporal breakdown: unions and exposure against a brute force over nanoseconds, and the
// real TraceLens trace against TraceLens's own figures (the CSV beside it) in both modes.

#include "analysis/collectives.h"
#include "analysis/hostanalysis.h"
#include "analysis/idlebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/memcpystats.h"
#include "analysis/rankcomparison.h"
#include "analysis/stepbreakdown.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/tracediff.h"
#include "importhelpers.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <random>

using namespace plumb;

class TestTemporalBreakdown : public QObject {
    Q_OBJECT

private slots:
    void knownAnswer()
    {
        using K = GpuOp::Kind;
        auto op = [](int64_t a, int64_t b, K k) {
            GpuOp o;
            o.startNs = a;
            o.endNs = b;
            o.kind = k;
            return o;
        };
        // compute [0,10) and [20,30); comm [5,25) on another stream; memcpy [28,40); idle [40,50) then
        // a compute op [50,60).
        const auto r = breakdownOf({ op(0, 10, K::Compute), op(20, 30, K::Compute), op(5, 25, K::Comm),
            op(28, 40, K::Memory), op(50, 60, K::Compute) });
        QCOMPARE(r.totalNs(), Q_INT64_C(60));
        QCOMPARE(r.busyNs, Q_INT64_C(50));
        QCOMPARE(r.idleNs(), Q_INT64_C(10));
        QCOMPARE(r.computeNs, Q_INT64_C(30));
        QCOMPARE(r.commNs, Q_INT64_C(20));
        QCOMPARE(r.exposedCommNs, Q_INT64_C(10)); // [10,20)
        QCOMPARE(r.commOverlap(), 0.5);
        QCOMPARE(r.memoryNs, Q_INT64_C(12));
        QCOMPARE(r.exposedMemoryNs, Q_INT64_C(10)); // [30,40)
        QCOMPARE(r.ops, Q_INT64_C(5));
        QCOMPARE(breakdownOf({}).totalNs(), Q_INT64_C(0));
    }

    void matchesBruteForce()
    {
        std::mt19937 rng(3);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<GpuOp> ops;
            std::uniform_int_distribution<int> n(1, 30), start(0, 400), len(0, 60), kind(0, 2), fifth(0, 4);
            for (int i = n(rng); i > 0; --i) {
                const int s = start(rng);
                GpuOp o;
                o.startNs = s;
                o.endNs = s + len(rng);
                o.kind = GpuOp::Kind(kind(rng));
                o.untyped = fifth(rng) == 0; // busy, of no kind (HTA's view of MTIA's pe_exe)
                ops.push_back(o);
            }
            const auto r = breakdownOf(ops);
            int64_t busy = 0, compute = 0, comm = 0, memory = 0, exComm = 0, exMemory = 0;
            std::array<int64_t, 8> byKinds {};
            for (int t = 0; t < 500; ++t) {
                bool c = false, m = false, y = false, u = false;
                for (const auto &op : ops)
                    if (op.startNs <= t && t < op.endNs)
                        (op.untyped                               ? u
                                : op.kind == GpuOp::Kind::Compute ? c
                                : op.kind == GpuOp::Kind::Comm    ? m
                                                                  : y)
                            = true;
                busy += c || m || y || u;
                compute += c;
                comm += m;
                memory += y;
                exComm += m && !c;
                exMemory += y && !c && !m;
                if (c || m || y)
                    ++byKinds[size_t(c) | size_t(m) << 1 | size_t(y) << 2];
            }
            QCOMPARE(r.byKinds, byKinds);
            QCOMPARE(r.busyNs, busy);
            QCOMPARE(r.computeNs, compute);
            QCOMPARE(r.commNs, comm);
            QCOMPARE(r.memoryNs, memory);
            QCOMPARE(r.exposedCommNs, exComm);
            QCOMPARE(r.exposedMemoryNs, exMemory);
        }
    }

    // Steps take the GPU work they launched, even when it runs after the step ended on the CPU; ops
    // without a launch go to the step they start in (every-op mode only).
    void stepsTakeWhatTheyLaunched()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("steps.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
            "\"ts\":100,\"dur\":100},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "10,\"dur\":5,\"args\":{\"correlation\":1}},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "110,\"dur\":5,\"args\":{\"correlation\":2}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":150,\"dur\":50,"
            "\"args\":{\"correlation\":1,\"stream\":7}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":8,\"ts\":"
            "170,\"dur\":60,\"args\":{\"correlation\":2,\"stream\":8}},\n"
            "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset "
            "(Device)\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":10,\"args\":{\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);

        const auto every = stepBreakdowns(ws, 1, TemporalBreakdown::Mode::EveryOp);
        QCOMPARE(every.size(), size_t(2));
        QCOMPARE(every[0].number, Q_INT64_C(1));
        QCOMPARE(every[0].gpu.ops, Q_INT64_C(1)); // gemm, launched at 10 µs
        QCOMPARE(every[0].gpu.totalNs(), Q_INT64_C(50000));
        QCOMPARE(every[1].gpu.ops, Q_INT64_C(2)); // the all-reduce and the memset
        QCOMPARE(every[1].gpu.startNs, Q_INT64_C(120000));
        QCOMPARE(every[1].gpu.endNs, Q_INT64_C(230000));
        QCOMPARE(every[1].gpu.exposedCommNs, Q_INT64_C(60000));
        QCOMPARE(every[1].gpu.exposedMemoryNs, Q_INT64_C(10000));
        QCOMPARE(every[1].gpu.idleNs(), Q_INT64_C(40000));
        const auto linked = stepBreakdowns(ws, 1, TemporalBreakdown::Mode::LinkedOnly);
        QCOMPARE(linked[1].gpu.ops, Q_INT64_C(1));
        // The whole trace: the all-reduce overlaps the gemm for 30 µs.
        const auto all = temporalBreakdown(ws, 1, TemporalBreakdown::Mode::EveryOp);
        QCOMPARE(all.computeNs, Q_INT64_C(50000));
        QCOMPARE(all.exposedCommNs, Q_INT64_C(30000));

        // Stream 7: the memset [120,130) then the gemm [150,200) launched at 10 µs, before the memset
        // ended: a 20 µs kernel wait. Stream 8 has one op, no gap. With a 10 µs threshold it is other;
        // and had the gemm been launched after 130 µs it would be host wait.
        const auto idle = idleBreakdown(ws, readGpuOps(ws, 1, GpuOpMode::EveryOp));
        QCOMPARE(idle.size(), size_t(2));
        QCOMPARE(idle[0].stream, Q_INT64_C(7));
        QCOMPARE(idle[0].kernelWaitNs, Q_INT64_C(20000));
        QCOMPARE(idle[0].hostWaitNs + idle[0].otherNs, Q_INT64_C(0));
        QCOMPARE(idle[1].gaps, Q_INT64_C(0));
        QCOMPARE(
            idleBreakdown(ws, readGpuOps(ws, 1, GpuOpMode::EveryOp), 10000)[0].otherNs, Q_INT64_C(20000));
        std::vector<GpuOp> late = readGpuOps(ws, 1, GpuOpMode::EveryOp);
        for (GpuOp &op : late)
            if (op.launchNs >= 0)
                op.launchNs = 140000;
        QCOMPARE(idleBreakdown(ws, late)[0].hostWaitNs, Q_INT64_C(20000));

        const auto kernels = kernelTable(ws, readGpuOps(ws, 1, GpuOpMode::EveryOp));
        QCOMPARE(kernels.size(), size_t(3));
        QCOMPARE(kernels[0].name, QStringLiteral("ncclKernel_AllReduce"));
        QCOMPARE(int(kernels[0].kind), int(GpuOp::Kind::Comm));
        QCOMPARE(kernels[2].name, QStringLiteral("Memset (Device)"));
        QCOMPARE(int(kernels[2].kind), int(GpuOp::Kind::Memory));
    }

    // The host side: input pipeline, blocking syncs and the optimizer as unions per thread (nested
    // matches once), launch delays and ops shorter than their launch.
    void hostSide()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("host.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"name\":\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\",\"pid\":"
            "1,\"tid\":1,\"ts\":0,\"dur\":40},\n"
            "{\"ph\":\"X\",\"name\":\"_SingleProcessDataLoaderIter.__next__\",\"pid\":1,\"tid\":1,\"ts\":5,"
            "\"dur\":30},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "50,\"dur\":8,\"args\":{\"correlation\":1}},\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":"
            "60,\"dur\":8,\"args\":{\"correlation\":2}},\n"
            "{\"ph\":\"X\",\"name\":\"aten::item\",\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":20},\n"
            "{\"ph\":\"X\",\"name\":\"aten::_local_scalar_dense\",\"pid\":1,\"tid\":1,\"ts\":72,\"dur\":15},"
            "\n"
            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":1,\"tid\":1,"
            "\"ts\":75,\"dur\":10},\n"
            "{\"ph\":\"X\",\"name\":\"Optimizer.step#SGD.step\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":25},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"tiny\",\"pid\":0,\"tid\":7,\"ts\":55,\"dur\":2,"
            "\"args\":{\"correlation\":1,\"stream\":7}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"big\",\"pid\":0,\"tid\":7,\"ts\":80,\"dur\":30,"
            "\"args\":{\"correlation\":2,\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const HostAnalysis h = hostAnalysis(ws, 1, readGpuOps(ws, 1, GpuOpMode::EveryOp));
        QCOMPARE(h.inputPipeline.count, Q_INT64_C(2));
        QCOMPARE(h.inputPipeline.timeNs, Q_INT64_C(40000)); // the inner __next__ is inside the outer range
        QCOMPARE(h.synchronization.count, Q_INT64_C(3));
        QCOMPARE(h.synchronization.timeNs, Q_INT64_C(20000)); // item() holds the others
        QCOMPARE(h.optimizer.timeNs, Q_INT64_C(25000));
        QCOMPARE(h.launchedOps, Q_INT64_C(2));
        QCOMPARE(h.launchDelayP50Ns, Q_INT64_C(5000)); // 55 - 50
        QCOMPARE(h.launchDelayP90Ns, Q_INT64_C(20000)); // 80 - 60
        QCOMPARE(h.shortOps, Q_INT64_C(1)); // tiny: 2 µs on the GPU, 8 µs to launch
        QCOMPARE(h.shortOpsGpuNs, Q_INT64_C(2000));
        QCOMPARE(int(classifyHostName(QStringLiteral("cudaDeviceSynchronize"))),
            int(HostActivity::Synchronization));
        QCOMPARE(int(classifyHostName(QStringLiteral("cudaLaunchKernel"))), int(HostActivity::None));
        QCOMPARE(int(classifyHostName(QStringLiteral("MPI_Allreduce"))), int(HostActivity::Communication));
        QCOMPARE(int(classifyHostName(QStringLiteral("MPI_Wait"))), int(HostActivity::Communication));
        QCOMPARE(int(classifyHostName(QStringLiteral("MPI_"))), int(HostActivity::None));
        QCOMPARE(int(classifyHostName(QStringLiteral("MPI_internal_helper"))), int(HostActivity::None));
    }

    // Copies by kind with bytes and bandwidth; pageable host memory flagged.
    void copies()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("copies.json"),
            "{\"traceEvents\": [\n"
            "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> "
            "Device)\",\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":10,\"args\":{\"stream\":7,\"bytes\":1000000}},\n"
            "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> "
            "Device)\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":30,\"args\":{\"stream\":7,\"bytes\":3000000}},\n"
            "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoD (Device -> "
            "Device)\",\"pid\":0,\"tid\":7,\"ts\":60,\"dur\":1,\"args\":{\"stream\":7,\"bytes\":500000}},\n"
            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":70,\"dur\":5,"
            "\"args\":{\"stream\":7}}\n"
            "]}\n");
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const auto copies = memcpyStats(ws, 1);
        QCOMPARE(copies.size(), size_t(2));
        QCOMPARE(copies[0].kind, QStringLiteral("Memcpy HtoD (Pageable -> Device)"));
        QCOMPARE(copies[0].count, Q_INT64_C(2));
        QCOMPARE(copies[0].bytes, Q_INT64_C(4000000));
        QCOMPARE(copies[0].timeNs, Q_INT64_C(40000));
        QCOMPARE(copies[0].gigabytesPerSecond(), 100.0);
        QVERIFY(copies[0].pageable);
        QVERIFY(!copies[1].pageable);
        QCOMPARE(copies[1].gigabytesPerSecond(), 500.0);
    }

    // Collectives: sizes from the kernel's args, else from record_param_comms by External id; nccl-tests'
    // bandwidths (1 MB all-reduce over 4 ranks in 100 µs: algorithm 10 GB/s, bus 15 GB/s).
    void collectives()
    {
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("c.json"),
            QByteArray("{\"traceEvents\": [\n"
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_"
                       "LL\",\"pid\":0,\"tid\":8,\"ts\":0,\"dur\":100,"
                       "\"args\":{\"stream\":8,\"correlation\":1,\"Collective name\":\"allreduce\",\"In msg "
                       "nelems\":250000,\"Out msg nelems\":250000,"
                       "\"Group size\":4,\"dtype\":\"Float\",\"Process Group Name\":\"0\",\"Process Group "
                       "Description\":\"default_pg\"}},\n"
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_"
                       "LL\",\"pid\":0,\"tid\":8,\"ts\":200,\"dur\":100,"
                       "\"args\":{\"stream\":8,\"correlation\":2,\"Collective name\":\"allreduce\",\"In msg "
                       "nelems\":250000,\"Out msg nelems\":250000,"
                       "\"Group size\":4,\"dtype\":\"Float\",\"Process Group Name\":\"0\",\"Process Group "
                       "Description\":\"default_pg\"}},\n"
                       "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,\"tid\":1,"
                       "\"ts\":390,\"dur\":5,"
                       "\"args\":{\"External id\":77,\"Collective name\":\"_allgather_base\",\"In msg "
                       "nelems\":1000,\"Out msg nelems\":2000,"
                       "\"Group size\":2,\"dtype\":\"BFloat16\",\"Process Group Name\":\"1\"}},\n"
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllGather_RING_LL_Sum_int8_"
                       "t\",\"pid\":0,\"tid\":8,\"ts\":400,\"dur\":4,"
                       "\"args\":{\"stream\":8,\"correlation\":3,\"External id\":77}},\n"
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_SendRecv\",\"pid\":0,\"tid\":"
                       "8,\"ts\":500,\"dur\":1,\"args\":{\"stream\":8}}\n"
                       "]}\n"));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const auto c = collectiveStats(ws, 1);
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c[0].collective, QStringLiteral("allreduce"));
        QCOMPARE(c[0].count, Q_INT64_C(2));
        QCOMPARE(c[0].bytes, Q_INT64_C(1000000));
        QCOMPARE(c[0].processGroup, QStringLiteral("0 (default_pg)"));
        QCOMPARE(c[0].algorithmGBps(), 10.0);
        QCOMPARE(c[0].busGBps(), 15.0);
        QCOMPARE(c[1].collective, QStringLiteral("_allgather_base")); // from the CPU op
        QCOMPARE(c[1].bytes, Q_INT64_C(4000)); // the larger side, 2 bytes each
        QCOMPARE(c[1].busGBps(), c[1].algorithmGBps() / 2);
        QCOMPARE(c[2].collective, QStringLiteral("ncclKernel_SendRecv")); // no sizes: its name
        QCOMPARE(c[2].bytes, Q_INT64_C(0));

        // HTA's 2-rank DDP trace (SOURCES.md): 21 ncclKernel rows, all-reduces of the default group.
        const QString real = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/hta_nccl_data.json.gz");
        if (!QFileInfo::exists(real))
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        const QString wsReal = tmp.filePath(QStringLiteral("n.plumb"));
        const QString problems = importIntoWorkspace(wsReal, { real });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace wr(wsReal, Workspace::Role::Reader);
        int64_t calls = 0;
        bool found = false;
        for (const CollectiveStats &s : collectiveStats(wr, 1)) {
            calls += s.count;
            QCOMPARE(s.groupSize, Q_INT64_C(2));
            QCOMPARE(s.processGroup, QStringLiteral("0 (default_pg)"));
            found = found || (s.collective == QLatin1String("allreduce") && s.bytes == 2049000 * 4);
        }
        QCOMPARE(calls, Q_INT64_C(21));
        QVERIFY(found);
    }

    // Two ranks of one job: rank 1 computes 40 µs longer, so rank 0's all-reduce waits 40 µs longer.
    void straggler()
    {
        QTemporaryDir tmp;
        const QString job = tmp.filePath(QStringLiteral("job"));
        QVERIFY(QDir().mkpath(job));
        for (int rank : { 0, 1 }) {
            const int gemm = rank == 1 ? 90 : 50, allReduce = rank == 1 ? 20 : 60;
            const QByteArray json = QStringLiteral(
                "{\"distributedInfo\": {\"rank\": %1, \"world_size\": 2}, \"traceEvents\": [\n"
                "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
                "\"ts\":0,\"dur\":200},\n"
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                "\"ts\":1,\"dur\":2,\"args\":{\"correlation\":1}},\n"
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                "\"ts\":4,\"dur\":2,\"args\":{\"correlation\":2}},\n"
                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":%2,"
                "\"args\":{\"correlation\":1,\"stream\":7}},\n"
                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":8,"
                "\"ts\":%3,\"dur\":%4,\"args\":{\"correlation\":2,\"stream\":8}}\n"
                "]}\n")
                                        .arg(rank)
                                        .arg(gemm)
                                        .arg(10 + gemm)
                                        .arg(allReduce)
                                        .toUtf8();
            QVERIFY(writeTestFile(QStringLiteral("%1/rank-%2.json").arg(job).arg(rank), json));
        }
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { job });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const RankComparison c = compareRanks(
            ws, ws.db().queryInt("SELECT run_id FROM trace LIMIT 1"), TemporalBreakdown::Mode::EveryOp);
        QCOMPARE(c.ranks.size(), size_t(2));
        QCOMPARE(c.ranks[0].rank, Q_INT64_C(0));
        QCOMPARE(c.straggler, 1);
        QCOMPARE(c.othersWaitNs, 40000.0);
        QCOMPARE(c.stepSpreadNs, 0.0); // both steps end together: rank 0 waited
    }

    // Two versions of one step: in B the gemm takes 30 µs longer and a new kernel appears; the
    // window's change splits exactly into categories and the ops say which.
    void diffAttributesTheChange()
    {
        QTemporaryDir tmp;
        auto write = [&](const QString &name, int gemmUs, bool extra, int stepUs) {
            QByteArray json = "{\"traceEvents\": [\n";
            json += QStringLiteral("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
                                   "\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":%1},\n")
                        .arg(stepUs)
                        .toUtf8();
            json += "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":"
                    "1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1}},\n"
                    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":"
                    "1,\"ts\":20,\"dur\":5,\"args\":{\"correlation\":2}},\n";
            json += QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,"
                                   "\"ts\":30,\"dur\":%1,\"args\":{\"correlation\":1,\"stream\":7}},\n")
                        .arg(gemmUs)
                        .toUtf8();
            json += QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%1\",\"pid\":0,\"tid\":7,"
                                   "\"ts\":%2,\"dur\":10,\"args\":{\"correlation\":2,\"stream\":7}}\n")
                        .arg(extra ? QStringLiteral("new_kernel") : QStringLiteral("relu"))
                        .arg(40 + gemmUs)
                        .toUtf8();
            json += "]}\n";
            const QString path = tmp.filePath(name);
            return writeTestFile(path, json) ? path : QString();
        };
        const QString a = write(QStringLiteral("a.json"), 50, false, 100),
                      b = write(QStringLiteral("b.json"), 80, true, 150);
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { a, b });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const TraceDiff d = diffTraces(ws, 1, 2, TemporalBreakdown::Mode::EveryOp);
        QVERIFY(d.perStep);
        QCOMPARE(d.a.steps, 1);
        QCOMPARE(d.windowDeltaNs(), 30000.0);
        QCOMPARE(d.b.computeNs - d.a.computeNs, 30000.0);
        QCOMPARE(d.b.idleNs - d.a.idleNs, 0.0);
        QCOMPARE(d.ops.size(), size_t(3));
        QCOMPARE(d.ops[0].name, QStringLiteral("gemm"));
        QCOMPARE(int(d.ops[0].change()), int(TraceDiff::OpDelta::Change::Slower));
        QCOMPARE(d.ops[0].deltaNs(), 30000.0);
        QCOMPARE(int(d.ops[1].change()) + int(d.ops[2].change()),
            int(TraceDiff::OpDelta::Change::Added) + int(TraceDiff::OpDelta::Change::Removed));
        // The step itself grew 50 µs: 30 in its GPU window, 20 with no GPU work of its own.
        QCOMPARE(d.a.stepNs, 100000.0);
        QCOMPARE(d.b.stepNs, 150000.0);
    }

    // HTA's A/B pair: a coherent report (per step, six steps each, the window's change equal to the
    // sum of the categories' changes, ops ordered by the size of their change).
    void diffOfTheHtaPair()
    {
        const QString data = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/");
        const QString a = data + QStringLiteral("hta_trace_diff_control.json.gz"),
                      b = data + QStringLiteral("hta_trace_diff_test.json.gz");
        if (!QFileInfo::exists(a) || !QFileInfo::exists(b))
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { a, b });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const TraceDiff d = diffTraces(ws, 1, 2, TemporalBreakdown::Mode::EveryOp);
        QVERIFY(d.perStep);
        QCOMPARE(d.a.steps, 6);
        QCOMPARE(d.b.steps, 6);
        const double categories = (d.b.computeNs - d.a.computeNs) + (d.b.exposedCommNs - d.a.exposedCommNs)
            + (d.b.exposedMemoryNs - d.a.exposedMemoryNs) + (d.b.idleNs - d.a.idleNs);
        QVERIFY(std::abs(categories - d.windowDeltaNs()) < 1.0);
        QVERIFY(d.windowDeltaNs() > 0); // the test run's steps are longer on the GPU
        for (size_t i = 1; i < d.ops.size(); ++i)
            QVERIFY(std::abs(d.ops[i - 1].deltaNs()) >= std::abs(d.ops[i].deltaNs()));
    }

    // TraceLens's gpu_timeline.csv counts the GPU ops linked into the CPU call tree; SOURCES.md gives
    // its every-op figures. Both within 0.5% of the total.
    void agreesWithTraceLens()
    {
        const QString data = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/");
        const QString trace = data + QStringLiteral("tracelens_h100_qwen.json.gz");
        const QString csv = data + QStringLiteral("tracelens_h100_qwen.gpu_timeline.csv");
        if (!QFileInfo::exists(trace) || !QFileInfo::exists(csv))
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { trace });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);

        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QHash<QString, double> ms;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> cols = line.trimmed().split(',');
            if (cols.size() >= 2 && cols[0] != "type")
                ms.insert(QString::fromLatin1(cols[0]), cols[1].toDouble());
        }
        const auto linked = temporalBreakdown(ws, 1, TemporalBreakdown::Mode::LinkedOnly);
        const double total = ms.value(QStringLiteral("total_time"));
        auto near = [&](int64_t ns, double expectedMs) {
            return std::abs(double(ns) / 1e6 - expectedMs) <= 0.005 * total;
        };
        QVERIFY2(near(linked.totalNs(), total), qPrintable(QString::number(linked.totalNs())));
        QVERIFY(near(linked.busyNs, ms.value(QStringLiteral("busy_time"))));
        QVERIFY(near(linked.idleNs(), ms.value(QStringLiteral("idle_time"))));
        QVERIFY(near(linked.computeNs, ms.value(QStringLiteral("computation_time"))));
        QVERIFY(near(linked.exposedCommNs, ms.value(QStringLiteral("exposed_comm_time"))));
        QVERIFY(near(linked.exposedMemoryNs, ms.value(QStringLiteral("exposed_memcpy_time"))));

        const auto every = temporalBreakdown(ws, 1, TemporalBreakdown::Mode::EveryOp);
        const double everyTotal = 49.653;
        QVERIFY(std::abs(double(every.totalNs()) / 1e6 - everyTotal) <= 0.005 * everyTotal);
        QVERIFY(std::abs(double(every.busyNs) / 1e6 - 45.647) <= 0.005 * everyTotal);
        QVERIFY(std::abs(double(every.idleNs()) / 1e6 - 4.006) <= 0.005 * everyTotal);
        QCOMPARE(every.ops, Q_INT64_C(1707));

        // The kernel table against SQL: per name, count and total over the GPU streams.
        const auto table = kernelTable(ws, readGpuOps(ws, 1, GpuOpMode::EveryOp));
        SqliteStmt st(ws.db(),
            "SELECT n.str, count(*), sum(s.dur), "
            "sum(1.0 * s.dur * json_extract(a.json, '$.\"est. achieved occupancy %\"')) "
            "/ sum(CASE WHEN json_extract(a.json, '$.\"est. achieved occupancy %\"') IS NOT NULL THEN s.dur "
            "END) "
            "FROM slice s JOIN track k ON k.id = s.track_id "
            "JOIN string n ON n.id = s.name_id JOIN string c ON c.id = s.cat_id LEFT JOIN args a ON a.id = "
            "s.args_id "
            "WHERE k.kind = 'gpu_stream' AND c.str IN ('kernel', 'gpu_memcpy', 'gpu_memset') "
            "GROUP BY s.name_id ORDER BY 3 DESC, 1");
        size_t i = 0;
        double shares = 0;
        int occupancyKnown = 0;
        for (; st.step(); ++i) {
            QVERIFY(i < table.size());
            QCOMPARE(table[i].name, st.columnText(0));
            QCOMPARE(table[i].count, st.columnInt(1));
            QCOMPARE(table[i].totalNs, st.columnInt(2));
            if (st.columnIsNull(3))
                QCOMPARE(table[i].occupancy, -1.0);
            else
                QVERIFY2(std::abs(table[i].occupancy - st.columnDouble(3)) < 1e-9,
                    qPrintable(QStringLiteral("%1 %2 %3")
                                   .arg(table[i].name.left(50))
                                   .arg(table[i].occupancy)
                                   .arg(st.columnDouble(3))));
            occupancyKnown += table[i].occupancy >= 0;
            QVERIFY(table[i].minNs <= table[i].p50Ns && table[i].p50Ns <= table[i].p90Ns
                && table[i].p90Ns <= table[i].p99Ns && table[i].p99Ns <= table[i].maxNs);
            shares += table[i].share;
        }
        QCOMPARE(i, table.size());
        QVERIFY(std::abs(shares - 1.0) < 1e-9);
        QVERIFY(occupancyKnown > 0);
        // One stream: its gaps are exactly the window's idle time.
        const auto idle = idleBreakdown(ws, readGpuOps(ws, 1, GpuOpMode::EveryOp));
        QCOMPARE(idle.size(), size_t(1));
        QCOMPARE(idle[0].stream, Q_INT64_C(7));
        QCOMPARE(idle[0].idleNs(), every.idleNs());
    }
};

QTEST_GUILESS_MAIN(TestTemporalBreakdown)
#include "tst_temporalbreakdown.moc"
