// SPDX-License-Identifier: GPL-3.0-or-later
// The step time breakdown on a generated trace with a known number of nanoseconds in every part,
// including the overlaps that decide their order, and on a real A/B pair.

#include "analysis/steptime.h"
#include "importhelpers.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

// A Kineto trace: CPU slices on pid 100 (tid 1 is the step thread), device ops on pid 0 and pid 1
// (two devices of one process). Times in whole µs.
class Gen {
public:
    void cpu(const char *name, int ts, int dur, int tid = 1, const char *cat = "cpu_op")
    {
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":100,\"tid\":%3,\"ts\":%4,\"dur\":%5")
                .arg(QLatin1String(cat), QLatin1String(name))
                .arg(tid)
                .arg(ts)
                .arg(dur));
    }
    void device(const char *cat, const char *name, int device, int stream, int ts, int dur)
    {
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":%3,\"tid\":%4,\"ts\":%5,\"dur\":%6,"
                           "\"args\":{\"device\":%3,\"stream\":%4,\"correlation\":%7}")
                .arg(QLatin1String(cat), QLatin1String(name))
                .arg(device)
                .arg(stream)
                .arg(ts)
                .arg(dur)
                .arg(++m_corr));
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

constexpr int64_t us = 1000;

QString partsText(const StepTimeParts &p)
{
    return QStringLiteral("compute %1, exposed comm %2, exposed memory %3, input %4, sync %5, runtime %6, "
                          "other CPU %7, idle %8 (wall %9) ms")
        .arg(double(p.computeNs) / 1e6, 0, 'f', 3)
        .arg(double(p.exposedCommNs) / 1e6, 0, 'f', 3)
        .arg(double(p.exposedMemoryNs) / 1e6, 0, 'f', 3)
        .arg(double(p.inputPipelineNs) / 1e6, 0, 'f', 3)
        .arg(double(p.synchronizationNs) / 1e6, 0, 'f', 3)
        .arg(double(p.runtimeNs) / 1e6, 0, 'f', 3)
        .arg(double(p.otherCpuNs) / 1e6, 0, 'f', 3)
        .arg(double(p.idleNs) / 1e6, 0, 'f', 3)
        .arg(double(p.wallNs()) / 1e6, 0, 'f', 3);
}

} // namespace

class TestStepTime : public QObject {
    Q_OBJECT

private slots:
    void knownParts()
    {
        Gen g;
        g.cpu("train.py(10): main", 0, 2000, 1, "python_function"); // encloses the steps: not step work
        g.cpu("aten::empty", 20, 60); // before the first step: in no step
        // Step 1: [100, 1100).
        g.cpu("ProfilerStep#1", 100, 1000, 1, "user_annotation");
        g.device("kernel", "gemm", 0, 7, 100, 100); // compute 100
        // A DataLoader fetch under a running kernel: compute while it runs, then input 50.
        g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 150, 100);
        // Communication under compute on the other device: comm 50 + 20, compute 30 (two devices).
        g.device("kernel", "ncclDevKernel_AllReduce", 0, 9, 250, 100);
        g.device("kernel", "relu", 1, 8, 300, 30);
        // A memcpy call: exposed comm before its op, memory 50 during it, runtime 20 after it.
        g.cpu("cudaMemcpyAsync", 340, 80, 1, "cuda_runtime");
        g.device("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, 7, 350, 50);
        // Launches inside a DataLoader fetch with the device idle: input 100.
        g.cpu("DataLoaderIter.__next__", 420, 100);
        g.cpu("cudaLaunchKernel", 440, 20, 1, "cuda_runtime");
        // A sync: sync 40 while the device is idle, compute 40 while a kernel runs.
        g.cpu("cudaStreamSynchronize", 520, 80, 1, "cuda_runtime");
        g.device("kernel", "gemm", 1, 8, 560, 40);
        g.cpu("aten::item", 600, 50, 2); // sync 50, on another thread
        g.device("cuda_sync", "Stream Sync", 0, 7, 650, 30); // sync 30
        // [680, 700) idle 20.
        g.cpu("aten::mm", 700, 100); // other CPU 90
        g.cpu("cudaLaunchKernel", 720, 10, 1, "cuda_runtime"); // runtime 10
        g.cpu("aten::add", 800, 50, 2); // not the step's thread: idle 50
        g.device("gpu_memset", "Memset (Device)", 1, 8, 850, 50); // memory 30
        g.device("kernel", "gemm", 0, 7, 880, 70); // compute 70
        // [950, 1100) idle 150.
        // Step 2: its span [1300, 1800), its wall time from the end of step 1.
        g.cpu("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1100, 150); // input 150
        // [1250, 1310) idle 60.
        g.cpu("ProfilerStep#2", 1300, 500, 1, "user_annotation");
        g.cpu("aten::conv2d", 1310, 190); // other CPU 190
        g.device("kernel", "gemm", 0, 7, 1600, 100); // compute 100; [1500, 1600), [1700, 1800) idle
        g.cpu("aten::empty", 1850, 50); // after the last step: in no step

        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const StepTimeBreakdown b = stepTimeBreakdown(ws, 1);
        QCOMPARE(b.steps.size(), size_t(2));

        const StepTime &s1 = b.steps[0];
        QCOMPARE(s1.step, Q_INT64_C(1));
        QCOMPARE(s1.startNs, 100 * us);
        QCOMPARE(s1.endNs, 1100 * us);
        qInfo().noquote() << "step 1:" << partsText(s1.parts);
        QCOMPARE(s1.parts.computeNs, (100 + 30 + 40 + 70) * us);
        QCOMPARE(s1.parts.exposedCommNs, (50 + 20) * us);
        QCOMPARE(s1.parts.exposedMemoryNs, (50 + 30) * us);
        QCOMPARE(s1.parts.inputPipelineNs, (50 + 100) * us);
        QCOMPARE(s1.parts.synchronizationNs, (40 + 50 + 30) * us);
        QCOMPARE(s1.parts.runtimeNs, (20 + 10) * us);
        QCOMPARE(s1.parts.otherCpuNs, 90 * us);
        QCOMPARE(s1.parts.idleNs, (20 + 50 + 150) * us);
        QCOMPARE(s1.parts.wallNs(), s1.wallNs());

        const StepTime &s2 = b.steps[1];
        QCOMPARE(s2.step, Q_INT64_C(2));
        QCOMPARE(s2.startNs, 1100 * us); // the gap before its span is its own
        QCOMPARE(s2.spanStartNs, 1300 * us);
        QCOMPARE(s2.endNs, 1800 * us);
        qInfo().noquote() << "step 2:" << partsText(s2.parts);
        QCOMPARE(s2.parts.computeNs, 100 * us);
        QCOMPARE(s2.parts.exposedCommNs, Q_INT64_C(0));
        QCOMPARE(s2.parts.exposedMemoryNs, Q_INT64_C(0));
        QCOMPARE(s2.parts.inputPipelineNs, 150 * us);
        QCOMPARE(s2.parts.synchronizationNs, Q_INT64_C(0));
        QCOMPARE(s2.parts.runtimeNs, Q_INT64_C(0));
        QCOMPARE(s2.parts.otherCpuNs, 190 * us);
        QCOMPARE(s2.parts.idleNs, (60 + 100 + 100) * us);
        QCOMPARE(s2.parts.wallNs(), s2.wallNs());

        QCOMPARE(b.total.wallNs(), 1700 * us);
        QCOMPARE(b.total.inputPipelineNs, 300 * us);

        // A user's pattern makes conv2d input time.
        StepTimeOptions o;
        o.inputPatterns << QRegularExpression(QStringLiteral("conv2d$"));
        const StepTimeBreakdown withPattern = stepTimeBreakdown(ws, 1, o);
        QCOMPARE(withPattern.steps[1].parts.inputPipelineNs, (150 + 190) * us);
        QCOMPARE(withPattern.steps[1].parts.otherCpuNs, Q_INT64_C(0));
    }

    // ROCm's calls: a HIP synchronize is synchronisation, a HIP launch a runtime call.
    void hipCalls()
    {
        Gen g;
        g.cpu("ProfilerStep#5", 0, 300, 1, "user_annotation");
        g.cpu("hipLaunchKernel", 10, 40, 1, "cuda_runtime"); // runtime 40
        g.device("kernel", "Cijk_gemm", 0, 3, 60, 40); // compute 40
        g.cpu("hipStreamSynchronize", 50, 150, 1, "cuda_runtime"); // sync 10 + 100
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const StepTimeBreakdown b = stepTimeBreakdown(ws, 1);
        QCOMPARE(b.steps.size(), size_t(1));
        const StepTimeParts &p = b.steps[0].parts;
        QCOMPARE(p.runtimeNs, 40 * us);
        QCOMPARE(p.computeNs, 40 * us);
        QCOMPARE(p.synchronizationNs, 110 * us);
        QCOMPARE(p.idleNs, 110 * us); // [0, 10) and [200, 300)
        QCOMPARE(p.wallNs(), 300 * us);
    }

    void noSteps()
    {
        Gen g;
        g.cpu("aten::mm", 0, 100);
        g.device("kernel", "gemm", 0, 7, 10, 50);
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), g.json());
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const StepTimeBreakdown b = stepTimeBreakdown(ws, 1);
        QVERIFY(b.steps.empty());
        QCOMPARE(b.total.wallNs(), Q_INT64_C(0));
    }

    // The real A/B pair of issue 34: about 77 ms a step on the CPU in the control run, 124 ms in the
    // test run; every step's parts add up to its wall time.
    void realPair_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("meanMs");
        QTest::newRow("control") << QStringLiteral("hta_trace_diff_control.json.gz") << 77.0;
        QTest::newRow("test") << QStringLiteral("hta_trace_diff_test.json.gz") << 124.0;
    }
    void realPair()
    {
        QFETCH(QString, file);
        QFETCH(double, meanMs);
        const QString path = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/") + file;
        if (!QFileInfo::exists(path))
            QSKIP("the shared trace is not there");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(wsPath, { path });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const StepTimeBreakdown b = stepTimeBreakdown(ws, 1);
        QVERIFY(!b.steps.empty());
        int64_t wall = 0;
        for (const StepTime &s : b.steps) {
            QCOMPARE(s.parts.wallNs(), s.wallNs());
            QVERIFY(s.wallNs() > 0);
            wall += s.wallNs();
            qInfo().noquote() << "step" << s.step << partsText(s.parts);
        }
        QCOMPARE(b.total.wallNs(), wall);
        const double mean = double(wall) / double(b.steps.size()) / 1e6;
        qInfo().noquote() << file << b.steps.size() << "steps, mean" << mean
                          << "ms; total:" << partsText(b.total);
        QVERIFY2(std::abs(mean - meanMs) < 0.1 * meanMs, qPrintable(QString::number(mean)));
    }
};

QTEST_GUILESS_MAIN(TestStepTime)
#include "tst_steptime.moc"
