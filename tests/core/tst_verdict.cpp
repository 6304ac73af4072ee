// The doctor's verdict on generated traces with a known answer: one per component, plus a mixed case
// that must come out inconclusive. The generator is the Gen class below.

#include "importhelpers.h"
#include "verdict.h"
#include "workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

// Builds a small Kineto trace: CPU ranges and launches on pid 1 / tid 1, GPU ops on pid 0, stream 7.
// Times in µs.
class Gen {
public:
    void cpu(const char *name, double ts, double dur) { add(QStringLiteral("\"name\":\"%1\",\"pid\":1,\"tid\":1,\"ts\":%2,\"dur\":%3").arg(QLatin1String(name)).arg(ts).arg(dur)); }
    // A launch at `launchTs` taking `launchDur`, and the op it starts on the GPU.
    void op(const char *cat, const char *name, double launchTs, double launchDur, double ts, double dur)
    {
        ++m_corr;
        add(QStringLiteral("\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%1,\"dur\":%2,"
                           "\"args\":{\"correlation\":%3}")
                .arg(launchTs).arg(launchDur).arg(m_corr));
        add(QStringLiteral("\"cat\":\"%1\",\"name\":\"%2\",\"pid\":0,\"tid\":7,\"ts\":%3,\"dur\":%4,"
                           "\"args\":{\"correlation\":%5,\"stream\":7}")
                .arg(QLatin1String(cat), QLatin1String(name)).arg(ts).arg(dur).arg(m_corr));
    }
    [[nodiscard]] QByteArray json() const
    {
        return QByteArray("{\"traceEvents\": [\n") + m_events.join(QStringLiteral(",\n")).toUtf8() + QByteArray("\n]}\n");
    }

private:
    void add(const QString &fields) { m_events << QStringLiteral("{\"ph\":\"X\",") + fields + u'}'; }
    QStringList m_events;
    int m_corr = 0;
};

} // namespace

class TestVerdict : public QObject {
    Q_OBJECT

private slots:
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
    void knownAnswers()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, expected);
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("t.json"), json);
        QVERIFY(!ws.isEmpty());
        Workspace workspace(ws, Workspace::Role::Reader);
        const Verdict v = diagnose(workspace, 1, TemporalBreakdown::Mode::EveryOp);
        QVERIFY2(int(v.component) == expected,
                 qPrintable(QStringLiteral("%1 (expected %2)\n%3").arg(v.headline, componentName(Verdict::Component(expected)),
                                                                        v.evidence.join(u'\n'))));
        QVERIFY(!v.headline.isEmpty());
        QVERIFY(!v.evidence.isEmpty());
        if (v.component != Verdict::Component::Inconclusive)
            QVERIFY(!v.tunables.isEmpty());
        else
            QVERIFY(v.runnerUp != Verdict::Component::Inconclusive); // the runner-up is shown
    }
};

QTEST_GUILESS_MAIN(TestVerdict)
#include "tst_verdict.moc"
