// SPDX-License-Identifier: GPL-3.0-or-later
// The critical path on generated traces whose longest path is worked out by hand (launch overhead,
// kernel-to-kernel gaps, a memcpy, data loading, a sync call, a cross-stream wait through
// cudaStreamWaitEvent and the profiler's cuda_sync records), in both modes; the longest-path
// algorithm on hand-made graphs; and the `hta` mode against Holistic Trace Analysis's own
// critical_path_analysis(...).summary() (../shared/data/goldens/hta_cp/ and the ROCm trace's).
#include "analysis/criticalpath.h"
#include "importhelpers.h"
#include "store/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

// A Kineto trace: CPU slices on pid 100, device ops on pid 0. Times in whole µs.
class Gen {
public:
    void cpu(const char *name, int ts, int dur, const char *cat = "cpu_op", int tid = 1)
    {
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":100,\"tid\":%3,\"ts\":%4,\"dur\":%5")
                .arg(QLatin1String(cat), QLatin1String(name))
                .arg(tid)
                .arg(ts)
                .arg(dur));
    }
    void call(const char *name, int ts, int dur, int corr, int tid = 1)
    {
        add(QStringLiteral("\"cat\":\"cuda_runtime\",\"name\":\"%1\",\"pid\":100,\"tid\":%2,\"ts\":%3,"
                           "\"dur\":%4,\"args\":{\"correlation\":%5}")
                .arg(QLatin1String(name))
                .arg(tid)
                .arg(ts)
                .arg(dur)
                .arg(corr));
    }
    void device(
        const char *cat, const char *name, int stream, int ts, int dur, int corr, const QString &more = {})
    {
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":0,\"tid\":%3,\"ts\":%4,\"dur\":%5,"
                           "\"args\":{\"device\":0,\"stream\":%3,\"correlation\":%6%7}")
                .arg(QLatin1String(cat), QLatin1String(name))
                .arg(stream)
                .arg(ts)
                .arg(dur)
                .arg(corr)
                .arg(more));
    }
    [[nodiscard]] QByteArray json() const
    {
        return QByteArray("{\"traceEvents\": [\n") + m_events.join(QStringLiteral(",\n")).toUtf8()
            + QByteArray("\n]}\n");
    }

private:
    void add(const QString &fields) { m_events << QStringLiteral("{\"ph\":\"X\",") + fields + u'}'; }
    QStringList m_events;
};

constexpr int64_t us = 1000;

QString shares(const CriticalPath &p)
{
    QStringList out;
    for (int b = 0; b < kCriticalPathBoundCount; ++b)
        out << QStringLiteral("%1=%2")
                   .arg(criticalPathBoundKey(CriticalPathBound(b)))
                   .arg(p.boundNs[size_t(b)] / us);
    return QStringLiteral("length %1 us: ").arg(p.lengthNs / us) + out.join(u' ');
}

int64_t boundUs(const CriticalPath &p, CriticalPathBound b)
{
    return p.boundNs[size_t(b)] / us;
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT

private slots:
    void longestPathOfGraphs()
    {
        using B = CriticalPathBound;
        // A diamond: 0 -> 1 -> 3 (5 + 5), 0 -> 2 -> 3 (1 + 20): the second; then 3 -> 4 (weightless).
        CriticalPathGraph g;
        g.nodeCount = 5;
        g.edges = { { 0, 1, 5, B::Cpu }, { 1, 3, 5, B::Cpu }, { 0, 2, 1, B::Launch },
            { 2, 3, 20, B::GpuCompute }, { 3, 4, 0, B::None } };
        const LongestPath p = longestPath(g);
        QVERIFY(p.ok);
        QCOMPARE(p.lengthNs, int64_t(21));
        QCOMPARE(p.edges, (std::vector<int32_t> { 2, 3 }));
        // Negative weights count as zero.
        g.edges[2].weightNs = -7;
        QCOMPARE(longestPath(g).lengthNs, int64_t(20));
        // A cycle is refused.
        g.edges.push_back({ 4, 0, 1, B::Cpu });
        QVERIFY(!longestPath(g).ok);
        // No edges: an empty path.
        CriticalPathGraph empty;
        empty.nodeCount = 3;
        QCOMPARE(longestPath(empty).edges.size(), size_t(0));
    }

    // Launch overhead, a kernel queued behind another (a kernel-to-kernel gap), a memcpy, a DataLoader
    // fetch, and a device-wide sync call with no cuda_sync records.
    void launchesAndSync()
    {
        Gen g;
        g.cpu("ProfilerStep#1", 0, 620, "user_annotation");
        g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 2, 6, "user_annotation");
        g.cpu("aten::stack", 3, 4);
        g.cpu("aten::mm", 10, 100);
        g.call("cudaLaunchKernel", 20, 10, 1);
        g.device("kernel", "gemm", 7, 50, 400, 1); // the stream idle until then: launch overhead 30
        g.cpu("aten::copy_", 120, 50);
        g.call("cudaMemcpyAsync", 130, 10, 2);
        g.device("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 7, 460, 100, 2); // queued: a 10 us gap
        g.call("cudaDeviceSynchronize", 180, 420, 3);

        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);

        // Plumb: the step's thread from its start: 2 us CPU, the fetch (6 us data loading), 2 + 10 us
        // CPU to the launch, 30 launch, 400 compute, 10 gap, 100 memory, 40 in the sync call after
        // the copy ended, 20 to the step's end: the whole step, 620 us.
        const CriticalPath p = criticalPath(ws, 1);
        QVERIFY2(p.ok, qPrintable(p.note));
        QCOMPARE(p.step, QStringLiteral("ProfilerStep#1"));
        QVERIFY2(p.lengthNs == 620 * us, qPrintable(shares(p)));
        QCOMPARE(boundUs(p, CriticalPathBound::Cpu), int64_t(74));
        QCOMPARE(boundUs(p, CriticalPathBound::DataLoading), int64_t(6));
        QCOMPARE(boundUs(p, CriticalPathBound::Launch), int64_t(30));
        QCOMPARE(boundUs(p, CriticalPathBound::GpuCompute), int64_t(400));
        QCOMPARE(boundUs(p, CriticalPathBound::KernelKernel), int64_t(10));
        QCOMPARE(boundUs(p, CriticalPathBound::GpuMemory), int64_t(100));
        // On the path: the step, the fetch and its op, aten::mm, the launch, both device ops, the sync.
        QCOMPARE(p.slices.size(), size_t(8));
        QVERIFY(criticalPathSentence(p).startsWith(QStringLiteral("critical path 0.6 ms: GPU compute 65%")));

        // HTA: no annotations, no sync without cuda_sync records, the memcpy is compute: aten::stack
        // (4 CPU), weightless to aten::mm, then 10 CPU + 30 launch + 400 + 10 gap + 100.
        const CriticalPath h = criticalPath(ws, 1, { CriticalPathMode::Hta, {}, {} });
        QVERIFY2(h.ok, qPrintable(h.note));
        QVERIFY2(h.lengthNs == 554 * us, qPrintable(shares(h)));
        QCOMPARE(boundUs(h, CriticalPathBound::Cpu), int64_t(14));
        QCOMPARE(boundUs(h, CriticalPathBound::Launch), int64_t(30));
        QCOMPARE(boundUs(h, CriticalPathBound::GpuCompute), int64_t(500));
        QCOMPARE(boundUs(h, CriticalPathBound::KernelKernel), int64_t(10));
        QCOMPARE(boundUs(h, CriticalPathBound::GpuMemory), int64_t(0));
        QCOMPARE(boundUs(h, CriticalPathBound::DataLoading), int64_t(0));
    }

    // A stream waits on an event recorded on another (cudaEventRecord, cudaStreamWaitEvent and the
    // Stream Wait Event record), then the CPU waits for that stream (cudaStreamSynchronize and its
    // Stream Sync record).
    void crossStreamWaitAndStreamSync()
    {
        Gen g;
        g.cpu("ProfilerStep#1", 0, 800, "user_annotation");
        g.call("cudaLaunchKernel", 10, 10, 1);
        g.device("kernel", "producer", 7, 30, 500, 1);
        g.call("cudaEventRecord", 25, 3, 2);
        g.call("cudaStreamWaitEvent", 30, 5, 3);
        g.device("cuda_sync", "Stream Wait Event", 9, 31, 1, 3,
            QStringLiteral(",\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":2"));
        g.call("cudaLaunchKernel", 40, 10, 4);
        g.device("kernel", "consumer", 9, 540, 100, 4); // after the producer: a 10 us gap
        g.call("cudaStreamSynchronize", 60, 640, 5);
        g.device("cuda_sync", "Stream Sync", 9, 60, 590, 5);
        g.cpu("aten::foo", 710, 50);

        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);

        // Plumb: 10 CPU, 20 launch, 500 producer, 10 gap (the wait), 100 consumer, 60 in the sync call
        // after the consumer ended, then 10 + 50 + 40 CPU to the step's end: 800.
        const CriticalPath p = criticalPath(ws, 1);
        QVERIFY2(p.ok, qPrintable(p.note));
        QVERIFY2(p.lengthNs == 800 * us, qPrintable(shares(p)));
        QCOMPARE(boundUs(p, CriticalPathBound::Cpu), int64_t(170));
        QCOMPARE(boundUs(p, CriticalPathBound::Launch), int64_t(20));
        QCOMPARE(boundUs(p, CriticalPathBound::GpuCompute), int64_t(600));
        QCOMPARE(boundUs(p, CriticalPathBound::KernelKernel), int64_t(10));

        // HTA: the wait and the sync weigh nothing; from the first launch: 20 launch, 600 compute, the
        // sync call's end, then aten::foo (50).
        const CriticalPath h = criticalPath(ws, 1, { CriticalPathMode::Hta, {}, {} });
        QVERIFY2(h.ok, qPrintable(h.note));
        QVERIFY2(h.lengthNs == 670 * us, qPrintable(shares(h)));
        QCOMPARE(boundUs(h, CriticalPathBound::Cpu), int64_t(50));
        QCOMPARE(boundUs(h, CriticalPathBound::Launch), int64_t(20));
        QCOMPARE(boundUs(h, CriticalPathBound::GpuCompute), int64_t(600));

        // Without the wait the consumer would be launch-bound and start the path's second half
        // earlier: the wait is what puts the producer on the path.
        QVERIFY(std::any_of(p.slices.begin(), p.slices.end(),
            [](const CriticalPathSlice &s) { return s.startNs == 30 * us; }));
    }

    // An op queued behind work launched before the step, and an op that starts long after its launch
    // with no wait recorded: Plumb starts a path at the first and reads the second as waiting on the
    // op of another stream that ended last before it; HTA calls both launch overhead.
    void queuedAndImplicitWait()
    {
        Gen g;
        g.cpu("ProfilerStep#1", 0, 50, "user_annotation");
        g.call("cudaLaunchKernel", 10, 5, 1);
        g.device("kernel", "long", 7, 20, 200, 1); // runs on into step 2
        g.cpu("ProfilerStep#2", 100, 100, "user_annotation");
        g.call("cudaLaunchKernel", 110, 5, 2);
        g.device("kernel", "k1", 7, 225, 100, 2); // queued behind `long`
        g.call("cudaLaunchKernel", 120, 5, 3);
        g.device("kernel", "k2", 9, 500, 100, 3); // 380 us after its launch, the stream idle

        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);

        // Plumb: k1 (100), the wait for it (175), k2 (100).
        const CriticalPath p = criticalPath(ws, 1);
        QVERIFY2(p.ok, qPrintable(p.note));
        QCOMPARE(p.step, QStringLiteral("ProfilerStep#2"));
        QVERIFY2(p.lengthNs == 375 * us, qPrintable(shares(p)));
        QCOMPARE(boundUs(p, CriticalPathBound::GpuCompute), int64_t(200));
        QCOMPARE(boundUs(p, CriticalPathBound::KernelKernel), int64_t(175));
        QCOMPARE(boundUs(p, CriticalPathBound::Launch), int64_t(0));

        // HTA: both queues were empty at the launches: the first launch call (5), weightless to the
        // second, its launch overhead (380) and k2 (100).
        const CriticalPath h = criticalPath(ws, 1, { CriticalPathMode::Hta, {}, {} });
        QVERIFY2(h.ok, qPrintable(h.note));
        QVERIFY2(h.lengthNs == 485 * us, qPrintable(shares(h)));
        QCOMPARE(boundUs(h, CriticalPathBound::Cpu), int64_t(5));
        QCOMPARE(boundUs(h, CriticalPathBound::Launch), int64_t(380));
        QCOMPARE(boundUs(h, CriticalPathBound::GpuCompute), int64_t(100));
    }

    // cudaEventSynchronize on an event recorded after a launch (the Event Sync record): the call
    // returns after the launched op ends.
    void eventSync()
    {
        Gen g;
        g.cpu("ProfilerStep#1", 0, 700, "user_annotation");
        g.call("cudaLaunchKernel", 10, 10, 1);
        g.device("kernel", "k", 7, 30, 500, 1);
        g.call("cudaEventRecord", 25, 3, 2);
        g.call("cudaEventSynchronize", 60, 540, 5);
        g.device("cuda_sync", "Event Sync", -1, 60, 540, 5,
            QStringLiteral(",\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":2"));

        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);

        // Plumb: 10 CPU, 20 launch, 500 compute, 70 in the call after the op ended, 100 to the step's end.
        const CriticalPath p = criticalPath(ws, 1);
        QVERIFY2(p.ok, qPrintable(p.note));
        QVERIFY2(p.lengthNs == 700 * us, qPrintable(shares(p)));
        QCOMPARE(boundUs(p, CriticalPathBound::Cpu), int64_t(180));
        QCOMPARE(boundUs(p, CriticalPathBound::Launch), int64_t(20));
        QCOMPARE(boundUs(p, CriticalPathBound::GpuCompute), int64_t(500));
        // HTA: the launch, the op, then the call's end without weight.
        const CriticalPath h = criticalPath(ws, 1, { CriticalPathMode::Hta, {}, {} });
        QVERIFY2(h.ok, qPrintable(h.note));
        QVERIFY2(h.lengthNs == 520 * us, qPrintable(shares(h)));
        QCOMPARE(boundUs(h, CriticalPathBound::Launch), int64_t(20));
        QCOMPARE(boundUs(h, CriticalPathBound::GpuCompute), int64_t(500));
    }

    void stepChoice()
    {
        Gen g;
        for (int i = 0; i < 3; ++i) {
            g.cpu(qPrintable(QStringLiteral("ProfilerStep#%1").arg(i + 5)), i * 100, 90 - i * 10,
                "user_annotation");
            g.cpu("aten::mm", i * 100 + 10, 20);
        }
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        // The second step by default; a named one; a range; an unknown name.
        QCOMPARE(criticalPath(ws, 1).step, QStringLiteral("ProfilerStep#6"));
        QCOMPARE(criticalPath(ws, 1).lengthNs, 80 * us);
        QCOMPARE(
            criticalPath(ws, 1, { CriticalPathMode::Plumb, QStringLiteral("ProfilerStep#7"), {} }).lengthNs,
            70 * us);
        const CriticalPath range = criticalPath(ws, 1,
            { CriticalPathMode::Plumb, QStringLiteral("ProfilerStep#5"), QStringLiteral("ProfilerStep#7") });
        QCOMPARE(range.step, QStringLiteral("ProfilerStep#5..ProfilerStep#7"));
        // Steps on one thread are consecutive outermost slices, joined without weight: 90 + 80 + 70.
        QCOMPARE(range.lengthNs, 240 * us);
        QVERIFY(!criticalPath(ws, 1, { CriticalPathMode::Plumb, QStringLiteral("ProfilerStep#9"), {} }).ok);
    }

    void htaGoldens_data()
    {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("trace");
        int rows = 0;
        const QString data = QStringLiteral(PLUMB_SHARED_DATA);
        const QDir dir(data + QStringLiteral("/goldens/hta_cp"));
        for (const QString &f : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            QTest::newRow(qPrintable(f)) << dir.filePath(f) << data + QStringLiteral("/traces/kineto/");
            ++rows;
        }
        const QString rocm
            = data + QStringLiteral("/goldens/hta_accelerators/tracelens_mi300_qwen_rocm.cp.json");
        if (QFileInfo::exists(rocm)) {
            QTest::newRow("tracelens_mi300_qwen_rocm.cp.json")
                << rocm << data + QStringLiteral("/traces/accelerators/");
            ++rows;
        }
        if (rows == 0)
            QTest::newRow("absent") << QString() << QString();
    }

    // Each share within 2 points of HTA's, on the step HTA analysed.
    void htaGoldens()
    {
        QFETCH(QString, golden);
        QFETCH(QString, trace);
        if (golden.isEmpty())
            QSKIP("../shared/data is absent (it sits beside the checkout)");
        QFile gf(golden);
        QVERIFY(gf.open(QIODevice::ReadOnly));
        const QJsonObject g = QJsonDocument::fromJson(gf.readAll()).object();
        const QString path = trace + g[QStringLiteral("file")].toString();
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(wsPath, { path });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const CriticalPath p
            = criticalPath(ws, 1, { CriticalPathMode::Hta, g[QStringLiteral("step")].toString(), {} });
        QVERIFY2(p.ok, qPrintable(p.note));
        const QJsonObject theirs = g[QStringLiteral("summary_pct")].toObject();
        QString report = QStringLiteral("%1: length ours %2 us, HTA %3 us;")
                             .arg(p.step)
                             .arg(double(p.lengthNs) / 1e3, 0, 'f', 0)
                             .arg(g[QStringLiteral("critical_path_us")].toDouble(), 0, 'f', 0);
        double worst = 0;
        for (int b = 0; b < kCriticalPathBoundCount; ++b) {
            const QString key = criticalPathBoundKey(CriticalPathBound(b));
            const double ours = p.pct(CriticalPathBound(b));
            const double hta = theirs.value(key).toDouble(0.0);
            worst = std::max(worst, std::abs(ours - hta));
            if (ours > 0 || hta > 0)
                report += QStringLiteral(" %1 %2/%3").arg(key).arg(ours, 0, 'f', 2).arg(hta, 0, 'f', 2);
        }
        qInfo().noquote() << report << QStringLiteral("(worst %1 pp)").arg(worst, 0, 'f', 2);
        // Known difference (docs/guide.md, "Critical path"): on this trace HTA's path is all CPU
        // (77 ms) while the device ops its own graph rules connect form a longer chain here; the
        // cause is not in HTA's published code we could read.
        if (g[QStringLiteral("file")].toString() == QLatin1String("hta_trace_diff_test.json.gz"))
            QEXPECT_FAIL(
                "", "HTA reports 100% cpu_bound here; Plumb's hta mode finds a device chain", Continue);
        QVERIFY2(worst <= 2.0, qPrintable(report));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
