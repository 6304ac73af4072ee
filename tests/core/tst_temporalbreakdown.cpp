// The GPU temporal breakdown: unions and exposure against a brute force over nanoseconds, and the
// real TraceLens trace against TraceLens's own figures (the CSV beside it) in both modes.

#include "builtinimporters.h"
#include "importerregistry.h"
#include "importrunner.h"
#include "temporalbreakdown.h"
#include "workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace plumb;

class TestTemporalBreakdown : public QObject {
    Q_OBJECT

private slots:
    void knownAnswer()
    {
        using K = GpuOpInterval::Kind;
        // compute [0,10) and [20,30); comm [5,25) on another stream; memcpy [28,40); idle [40,50) then
        // a compute op [50,60).
        const auto r = breakdownOf({ { 0, 10, K::Compute }, { 20, 30, K::Compute }, { 5, 25, K::Comm },
                                     { 28, 40, K::Memory }, { 50, 60, K::Compute } });
        QCOMPARE(r.totalNs(), Q_INT64_C(60));
        QCOMPARE(r.busyNs, Q_INT64_C(50));
        QCOMPARE(r.idleNs(), Q_INT64_C(10));
        QCOMPARE(r.computeNs, Q_INT64_C(30));
        QCOMPARE(r.commNs, Q_INT64_C(20));
        QCOMPARE(r.exposedCommNs, Q_INT64_C(10)); // [10,20)
        QCOMPARE(r.memoryNs, Q_INT64_C(12));
        QCOMPARE(r.exposedMemoryNs, Q_INT64_C(10)); // [30,40)
        QCOMPARE(r.ops, Q_INT64_C(5));
        QCOMPARE(breakdownOf({}).totalNs(), Q_INT64_C(0));
    }

    void matchesBruteForce()
    {
        std::mt19937 rng(3);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<GpuOpInterval> ops;
            std::uniform_int_distribution<int> n(1, 30), start(0, 400), len(0, 60), kind(0, 2);
            for (int i = n(rng); i > 0; --i) {
                const int s = start(rng);
                ops.push_back({ s, s + len(rng), GpuOpInterval::Kind(kind(rng)) });
            }
            const auto r = breakdownOf(ops);
            int64_t busy = 0, compute = 0, comm = 0, memory = 0, exComm = 0, exMemory = 0;
            for (int t = 0; t < 500; ++t) {
                bool c = false, m = false, y = false;
                for (const auto &op : ops)
                    if (op.startNs <= t && t < op.endNs)
                        (op.kind == GpuOpInterval::Kind::Compute ? c : op.kind == GpuOpInterval::Kind::Comm ? m : y) = true;
                busy += c || m || y;
                compute += c;
                comm += m;
                memory += y;
                exComm += m && !c;
                exMemory += y && !c && !m;
            }
            QCOMPARE(r.busyNs, busy);
            QCOMPARE(r.computeNs, compute);
            QCOMPARE(r.commNs, comm);
            QCOMPARE(r.memoryNs, memory);
            QCOMPARE(r.exposedCommNs, exComm);
            QCOMPARE(r.exposedMemoryNs, exMemory);
        }
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
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        ImportRunner runner(registry, wsPath);
        QCOMPARE(int(runner.run({ trace }).at(0).status), int(FileImportResult::Status::Imported));
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
        auto near = [&](int64_t ns, double expectedMs) { return std::abs(double(ns) / 1e6 - expectedMs) <= 0.005 * total; };
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
    }
};

QTEST_GUILESS_MAIN(TestTemporalBreakdown)
#include "tst_temporalbreakdown.moc"
