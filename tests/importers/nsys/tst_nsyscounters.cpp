// SPDX-License-Identifier: GPL-3.0-or-later
// The two counter families on their own: NsysGpuMetrics (GPU_METRICS samples onto one counter track per
// metric, in a process per sampled GPU, named from TARGET_INFO_GPU_METRICS) and NsysMemoryUsage
// (CUDA_GPU_MEMORY_USAGE_EVENTS onto running totals per process and device).

#include "nsys/nsysgpumetrics.h"
#include "nsys/nsysmemoryusage.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

class TestNsysCounters : public QObject {
    Q_OBJECT
private slots:
    void gpuMetrics();
    void gpuMetricsWithoutNames();
    void memoryUsage();
};

void TestNsysCounters::gpuMetrics()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE GPU_METRICS(timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"
          "INSERT INTO GPU_METRICS VALUES (200, 0, 1, 20), (100, 0, 1, 10), (150, 0, 2, 7), (100, 1, 1, 3),"
          " (300, 0, 1, 12.5);"
          "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, metricId INTEGER, metricName TEXT, typeName "
          "TEXT);"
          "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (0, 1, 'SMs Active [Throughput %]', 'GA100'),"
          " (1, 1, 'SMs Active [Throughput %]', 'GA100');");
    NsysSchema schema(x.path());
    Scratch s;
    NsysGpuMetrics metrics(schema, s.sink());
    metrics.readNames();
    NsysArgs args;
    forEachRow(x.path(), "GPU_METRICS", args, [&](NsysCursor &c, SliceFields &) { metrics.handle(c); });
    s.finish();
    // Two samplers of one GPU model: the second process is numbered. A metric the export does not name
    // is named by its id; a fraction in the integer column is kept.
    const QStringList expected {
        QStringLiteral("GPU metrics: GA100|SMs Active [Throughput %]|100|10.0"),
        QStringLiteral("GPU metrics: GA100|SMs Active [Throughput %]|200|20.0"),
        QStringLiteral("GPU metrics: GA100|SMs Active [Throughput %]|300|12.5"),
        QStringLiteral("GPU metrics: GA100|metric 2|150|7.0"),
        QStringLiteral("GPU metrics: GA100 (2)|SMs Active [Throughput %]|100|3.0"),
    };
    QCOMPARE(s.rows(kCountersSql), expected);
}

void TestNsysCounters::gpuMetricsWithoutNames()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE GPU_METRICS(timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"
          "INSERT INTO GPU_METRICS VALUES (100, 4, 9, 1);");
    NsysSchema schema(x.path());
    Scratch s;
    NsysGpuMetrics metrics(schema, s.sink());
    metrics.readNames();
    NsysArgs args;
    forEachRow(x.path(), "GPU_METRICS", args, [&](NsysCursor &c, SliceFields &) { metrics.handle(c); });
    s.finish();
    QCOMPARE(s.rows(kCountersSql), QStringList { QStringLiteral("GPU metrics|metric 9|100|1.0") });
}

void TestNsysCounters::memoryUsage()
{
    constexpr int64_t kPid = int64_t(7) << 24;
    constexpr int64_t kPid2 = int64_t(8) << 24;
    const std::string p = std::to_string(kPid), p2 = std::to_string(kPid2);
    // (start, globalPid, deviceId, bytes, memKind, op, address): allocations on device 0 and 1, a
    // free of the first, pinned host memory, a free the capture has no allocation for, an address
    // allocated again without a free, an unknown operation, and a second process.
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
          "INSERT INTO PROCESSES VALUES ("
        + p
        + ", 7, 'train.py');"
          "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS(start INTEGER, globalPid INTEGER, deviceId INTEGER, "
          "bytes INTEGER, memKind INTEGER, memoryOperationType INTEGER, address INTEGER);"
          "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES "
          "(100, "
        + p + ", 0, 1000, 2, 0, 16), (200, " + p + ", 0, 500, 2, 0, 32), (250, " + p
        + ", 1, 300, 2, 0, 48), (300, " + p + ", 0, 1000, 2, 1, 16), (400, " + p
        + ", 0, 64, 1, 0, 64), (500, " + p + ", 0, 99, 2, 1, 80), (600, " + p + ", 0, 200, 2, 0, 32), (700, "
        + p + ", 0, 1, 2, 5, 96), (100, " + p2 + ", 2, 4096, 2, 0, 16);");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysMemoryUsage memory(tracks, s.sink(), s.diag());
    NsysArgs args;
    forEachRow(x.path(), "CUDA_GPU_MEMORY_USAGE_EVENTS", args,
        [&](NsysCursor &c, SliceFields &) { memory.handle(c); });
    memory.report();
    s.finish();
    const QStringList expected {
        QStringLiteral("train.py|Memory allocated, device 0|100|1000.0"),
        QStringLiteral("train.py|Memory allocated, device 0|200|1500.0"),
        QStringLiteral("train.py|Memory allocated, device 0|300|500.0"),
        QStringLiteral("train.py|Memory allocated, device 0|500|500.0"), // freed before the capture
        QStringLiteral("train.py|Memory allocated, device 0|600|200.0"), // 32 allocated again
        QStringLiteral("train.py|Memory allocated, device 1|250|300.0"),
        QStringLiteral("train.py|Memory allocated, CUDA host|400|64.0"),
        QStringLiteral("|Memory allocated, device 2|100|4096.0"),
    };
    QCOMPARE(s.rows(kCountersSql), expected);
    QCOMPARE(s.diag().countOf(QStringLiteral("memory-freed-before-allocated")), int64_t(1));
    QCOMPARE(s.diag().countOf(QStringLiteral("unknown-memory-operation")), int64_t(1));
}

QTEST_GUILESS_MAIN(TestNsysCounters)
#include "tst_nsyscounters.moc"
