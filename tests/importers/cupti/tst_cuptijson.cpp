// SPDX-License-Identifier: GPL-3.0-or-later
// The CUPTI collector's record -> Chrome trace conversion: synthetic activity records in, exact JSON
// text out for a few events, and the file read back by Plumb's own Chrome trace importer with the
// counts checked in SQL. No CUDA needed: the records are the collector's plain structs.

#include "builtinimporters.h"
#include "cupti/cuptijson.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/jsontext.h"

#include <QFile>
#include <QTemporaryDir>

#include <QtTest>

using namespace plumb;
using namespace plumb::cupti;

namespace {

constexpr uint64_t kT0 = 1700000000000000000ULL; // ns since the epoch, as CUPTI reports them
constexpr uint32_t kPid = 4242;
constexpr uint32_t kTid = 4243;

// One launch of everything the collector records, on device 0 / context 1 / stream 7.
CollectedTrace syntheticTrace()
{
    CollectedTrace t;
    t.devices.push_back(
        { 0, "Synthetic H100", 85000000000ULL, 9, 0, 1024, 2048, 65536, 65536, 32, 49152, 233472, 132 });
    t.contexts.push_back({ 1, 0 });
    auto api
        = [&](ApiDomain d, const char *name, uint32_t cbid, uint64_t start, uint64_t end, uint32_t corr) {
              ApiCall a;
              a.domain = d;
              a.nameId = t.strings.intern(name);
              a.cbid = cbid;
              a.startNs = kT0 + start;
              a.endNs = kT0 + end;
              a.processId = kPid;
              a.threadId = kTid;
              a.correlationId = corr;
              t.apiCalls.push_back(a);
          };
    api(ApiDomain::Runtime, "cudaLaunchKernel", 211, 1001, 6500, 10);
    // The driver call beneath it shares the correlation id: the flow must start at the runtime call.
    api(ApiDomain::Driver, "cuLaunchKernel", 307, 2000, 6000, 10);
    api(ApiDomain::Runtime, "cudaMemcpy", 31, 10000, 30000, 11);
    api(ApiDomain::Runtime, "cudaMemset", 36, 31000, 33000, 12);
    api(ApiDomain::Runtime, "cudaDeviceSynchronize", 165, 34000, 60000, 13);
    api(ApiDomain::Runtime, "cudaGetDevice", 17, 500, 600, 9); // no GPU work: no flow

    KernelOp k;
    k.startNs = kT0 + 8123;
    k.endNs = kT0 + 9123;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = 7;
    k.correlationId = 10;
    k.grid[0] = 4096;
    k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256;
    k.block[1] = k.block[2] = 1;
    k.registersPerThread = 16;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.nameId = t.strings.intern("vectorAdd(float const*, float const*, float*, int)");
    t.kernels.push_back(k);

    MemcpyOp m;
    m.startNs = kT0 + 12000;
    m.endNs = kT0 + 28000;
    m.bytes = 4 << 20;
    m.contextId = 1;
    m.streamId = 7;
    m.correlationId = 11;
    m.copyKind = 1; // HtoD
    m.srcKind = 1; // pageable
    m.dstKind = 3; // device
    t.memcpys.push_back(m);

    MemsetOp s;
    s.startNs = kT0 + 32000;
    s.endNs = kT0 + 32500;
    s.bytes = 1 << 20;
    s.contextId = 1;
    s.streamId = 7;
    s.correlationId = 12;
    s.memoryKind = 3;
    t.memsets.push_back(s);

    SyncOp sync;
    sync.startNs = kT0 + 34100;
    sync.endNs = kT0 + 59900;
    sync.contextId = 1;
    sync.correlationId = 13;
    sync.type = SyncType::ContextSynchronize; // no stream: tid -1
    t.syncs.push_back(sync);

    auto marker = [&](uint8_t flags, uint32_t id, uint64_t ts, const char *name) {
        MarkerRecord r;
        r.flags = flags;
        r.id = id;
        r.timestampNs = kT0 + ts;
        r.processId = kPid;
        r.threadId = kTid;
        r.nameId = t.strings.intern(name);
        r.domainId = t.strings.intern(flags == MarkerRecord::End ? "" : "plumb");
        t.markers.push_back(r);
    };
    marker(MarkerRecord::Start, 1, 900, "train_step");
    marker(MarkerRecord::Instant, 2, 950, "checkpoint");
    marker(MarkerRecord::End, 1, 61000, "");
    marker(MarkerRecord::End, 99, 61500, ""); // its start was never seen
    t.names.push_back({ ObjectName::Kind::Thread, kPid, kTid, t.strings.intern("main thread") });
    t.droppedRecords = 3;
    return t;
}

QStringList linesOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
}

} // namespace

class TestCuptiJson : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_counter = 0;

    QString freshPath(const char *suffix)
    {
        return m_tmp.filePath(QStringLiteral("f%1").arg(++m_counter) + QLatin1String(suffix));
    }

    QString write(const CollectedTrace &t, WriteStats *stats = nullptr)
    {
        const QString path = freshPath(".pt.trace.json");
        WriteOptions o;
        o.processId = kPid;
        o.processName = "vector_add";
        o.clock = "test clock";
        std::string error;
        if (!writeChromeTraceFile(path.toStdString(), t, o, &error, stats))
            qFatal("write failed: %s", error.c_str());
        return path;
    }

    QString import(const QString &trace)
    {
        const QString ws = freshPath(".plumb");
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run({ trace });
        if (results.size() != 1 || results.front().status != FileImportResult::Status::Imported)
            qFatal("import failed: %s", qPrintable(results.empty() ? QString() : results.front().message));
        return ws;
    }

private slots:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        QVERIFY(m_tmp.isValid());
    }

    void micros_data()
    {
        QTest::addColumn<quint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << quint64(0) << "0.000";
        QTest::newRow("1ns") << quint64(1) << "0.001";
        QTest::newRow("999ns") << quint64(999) << "0.999";
        QTest::newRow("1us") << quint64(1000) << "1.000";
        QTest::newRow("10ns") << quint64(1010) << "1.010";
        QTest::newRow("epoch") << quint64(1700000000000001234ULL) << "1700000000000001.234";
        // Through a double this would print ...001.2 or worse.
        QTest::newRow("epoch-odd") << quint64(1712195495506161288ULL) << "1712195495506161.288";
        QTest::newRow("max") << quint64(UINT64_MAX) << "18446744073709551.615";
    }
    void micros()
    {
        QFETCH(quint64, ns);
        QFETCH(QString, text);
        std::string out;
        appendJsonMicros(out, uint64_t(ns));
        QCOMPARE(QString::fromStdString(out), text);
    }

    void kinetoNames()
    {
        QCOMPARE(
            QString::fromStdString(memcpyName(1, 1, 3)), QStringLiteral("Memcpy HtoD (Pageable -> Device)"));
        QCOMPARE(
            QString::fromStdString(memcpyName(2, 3, 2)), QStringLiteral("Memcpy DtoH (Device -> Pinned)"));
        QCOMPARE(
            QString::fromStdString(memcpyName(8, 3, 3)), QStringLiteral("Memcpy DtoD (Device -> Device)"));
        QCOMPARE(
            QString::fromStdString(memcpyName(10, 3, 3)), QStringLiteral("Memcpy PtoP (Device -> Device)"));
        QCOMPARE(QString::fromStdString(memcpyName(200, 99, 5)),
            QStringLiteral("Memcpy Unknown (Unknown -> Managed)"));
        QCOMPARE(QString::fromStdString(memsetName(3)), QStringLiteral("Memset (Device)"));
        QCOMPARE(QString::fromLatin1(syncName(SyncType::StreamSynchronize)), QStringLiteral("Stream Sync"));
        QCOMPARE(QString::fromLatin1(syncName(SyncType::ContextSynchronize)), QStringLiteral("Context Sync"));
    }

    // The exact text of the events a reader depends on: timestamps, args, the launch flow pair.
    void exactEvents()
    {
        WriteStats stats;
        const QStringList lines = linesOf(write(syntheticTrace(), &stats));
        QVERIFY(lines.size() > 10);
        QVERIFY2(lines.front().startsWith(QStringLiteral("{\"schemaVersion\":1,\"plumbCupti\":{\"version\":1,"
                                                         "\"droppedRecords\":3,\"clock\":\"test clock\",")),
            qPrintable(lines.front()));
        auto expect = [&](const char *line) {
            const QString l = QString::fromUtf8(line);
            QVERIFY2(lines.contains(l) || lines.contains(l + QLatin1Char(',')), line);
        };
        expect(R"x({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":4242,"tid":4243,)x"
               R"x("ts":1700000000000001.001,"dur":5.499,"args":{"cbid":211,"correlation":10}})x");
        expect(
            R"x({"ph":"s","cat":"ac2g","name":"ac2g","pid":4242,"tid":4243,"id":10,"ts":1700000000000001.001})x");
        expect(
            R"x({"ph":"X","cat":"kernel","name":"vectorAdd(float const*, float const*, float*, int)","pid":0,"tid":7,)x"
            R"x("ts":1700000000000008.123,"dur":1.000,"args":{"device":0,"context":1,"stream":7,"correlation":10,)x"
            R"x("registers per thread":16,"shared memory":3072,"static shared memory":1024,"dynamic shared memory":2048,)x"
            R"x("grid":[4096, 1, 1],"block":[256, 1, 1]}})x");
        expect(
            R"x({"ph":"f","cat":"ac2g","name":"ac2g","pid":0,"tid":7,"id":10,"ts":1700000000000008.123,"bp":"e"})x");
        expect(
            R"x({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,)x"
            R"x("ts":1700000000000012.000,"dur":16.000,"args":{"device":0,"context":1,"stream":7,"correlation":11,)x"
            R"x("bytes":4194304,"copy kind":"HtoD","src kind":"Pageable","dst kind":"Device","async":0}})x");
        expect(
            R"x({"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":1700000000000032.000,)x"
            R"x("dur":0.500,"args":{"device":0,"context":1,"stream":7,"correlation":12,"bytes":1048576,"value":0,"async":0}})x");
        expect(
            R"x({"ph":"X","cat":"cuda_sync","name":"Context Sync","pid":0,"tid":-1,"ts":1700000000000034.100,)x"
            R"x("dur":25.800,"args":{"device":0,"context":1,"stream":-1,"correlation":13}})x");
        expect(R"x({"ph":"X","cat":"user_annotation","name":"train_step","pid":4242,"tid":4243,)x"
               R"x("ts":1700000000000000.900,"dur":60.100,"args":{"domain":"plumb"}})x");
        // The range projected onto the stream its launches fed, from the kernel's start to the memset's end.
        expect(R"x({"ph":"X","cat":"gpu_user_annotation","name":"train_step","pid":0,"tid":7,)x"
               R"x("ts":1700000000000008.123,"dur":24.377,"args":{"GPU ops":3}})x");
        expect(R"x({"ph":"M","name":"thread_name","pid":4242,"tid":4243,"args":{"name":"main thread"}})x");
        expect(R"x({"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}})x");
        // One flow per GPU op with a recorded launch, none for the driver twin or cudaGetDevice.
        const QString all = lines.join(QLatin1Char('\n'));
        QCOMPARE(all.count(QStringLiteral("\"ph\":\"s\"")), 3);
        QCOMPARE(all.count(QStringLiteral("\"ph\":\"f\"")), 3);
        QCOMPARE(stats.flows, uint64_t(3));
        QCOMPARE(stats.orphanRangeEnds, uint64_t(1));
        QCOMPARE(stats.unfinishedRanges, uint64_t(0));
    }

    // A range whose end never came (the program exited inside it) is kept with duration 0 and said so.
    void unfinishedRange()
    {
        CollectedTrace t = syntheticTrace();
        MarkerRecord m = t.markers.front();
        m.id = 5;
        m.timestampNs = kT0 + 70000;
        m.nameId = t.strings.intern("never_ended");
        t.markers.push_back(m);
        WriteStats stats;
        const QStringList lines = linesOf(write(t, &stats));
        QCOMPARE(stats.unfinishedRanges, uint64_t(1));
        QVERIFY(lines.front().contains(QStringLiteral("\"unfinishedRanges\":1,\"orphanRangeEnds\":1")));
        const QString expected = QStringLiteral(
            "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"never_ended\",\"pid\":4242,\"tid\":4243,"
            "\"ts\":1700000000000070.000,\"dur\":0.000,\"args\":{\"domain\":\"plumb\",\"unfinished\":\"range "
            "had no end record\"}},");
        QVERIFY2(lines.contains(expected), qPrintable(lines.join(QLatin1Char('\n'))));
    }

    // Plumb's own Chrome trace importer reads it: the same kernels, GPU ops, flows and device.
    void importsBack()
    {
        const QString ws = import(write(syntheticTrace()));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteDb &db = w.db();
        QCOMPARE(db.queryInt("SELECT kernel_count FROM trace"), 1);
        QCOMPARE(db.queryInt("SELECT gpu_op_count FROM trace"), 3);
        QCOMPARE(
            db.queryInt(
                "SELECT (SELECT count(*) FROM flow WHERE src_track IS NOT NULL AND dst_track IS NOT NULL)"
                " + corr_flow_count FROM trace"),
            3);
        QCOMPARE(db.queryInt("SELECT count(*) FROM flow WHERE src_track IS NULL OR dst_track IS NULL"), 0);
        QCOMPARE(db.queryInt("SELECT count(*) FROM device"), 1);
        QCOMPARE(db.queryInt("SELECT count(*) FROM track WHERE kind = 'gpu_stream'"), 1);
        // Nothing odd: no warnings, and the events arrive sorted.
        QCOMPARE(db.queryInt("SELECT count(*) FROM diagnostic"), 0);
        // Exact ns survive the µs text: the kernel starts at kT0 + 8123 and lasts 1000 ns.
        SqliteStmt k(db,
            "SELECT s.ts, s.dur, s.corr FROM slice s JOIN string c ON c.id = s.cat_id "
            "WHERE c.str = 'kernel'");
        QVERIFY(k.step());
        QCOMPARE(k.columnInt(0), qint64(kT0 + 8123));
        QCOMPARE(k.columnInt(1), Q_INT64_C(1000));
        QCOMPARE(k.columnInt(2), Q_INT64_C(10));
        // CPU side: five runtime calls + one driver call, the NVTX range and its instant.
        QCOMPARE(db.queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                             "WHERE c.str IN ('cuda_runtime', 'cuda_driver')"),
            6);
        QCOMPARE(db.queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                             "WHERE c.str = 'user_annotation'"),
            2);
        QCOMPARE(db.queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                             "WHERE c.str = 'cuda_sync'"),
            1);
        QCOMPARE(
            db.queryInt(
                "SELECT dur FROM slice s JOIN string n ON n.id = s.name_id JOIN track k ON k.id = s.track_id "
                "WHERE n.str = 'train_step' AND k.kind = 'thread'"),
            60100);
        // ... and its projection on the stream's annotation track.
        SqliteStmt g(db,
            "SELECT s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id JOIN track k ON k.id = "
            "s.track_id "
            "WHERE n.str = 'train_step' AND k.kind = 'gpu_annotation'");
        QVERIFY(g.step());
        QCOMPARE(g.columnInt(0), qint64(kT0 + 8123));
        QCOMPARE(g.columnInt(1), Q_INT64_C(24377));
        QVERIFY(!g.step());
    }

    // Names with quotes, backslashes, control characters and bytes that are not UTF-8 still make
    // valid JSON.
    void oddNamesStayValid()
    {
        CollectedTrace t = syntheticTrace();
        KernelOp k = t.kernels.front();
        k.correlationId = 77;
        k.nameId = t.strings.intern(std::string_view("void f<\"q\\\">(\x01\t) \xff\xfe caf\xc3\xa9", 25));
        t.kernels.push_back(k);
        const QString path = write(t);
        const QString all = linesOf(path).join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QString::fromUtf8(
                     "\"name\":\"void f<\\\"q\\\\\\\">(\\u0001\\t) \xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9\"")),
            qPrintable(all));
        const QString ws = import(path);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), 2);
    }

    // A trace larger than the write buffer streams out in pieces and reads back whole.
    void largeTraceStreams()
    {
        CollectedTrace t = syntheticTrace();
        const KernelOp base = t.kernels.front();
        constexpr int kKernels = 20000;
        for (int i = 1; i < kKernels; ++i) {
            KernelOp k = base;
            k.startNs += uint64_t(i) * 2000;
            k.endNs += uint64_t(i) * 2000;
            k.correlationId = 1000 + uint32_t(i);
            t.kernels.push_back(k);
        }
        WriteStats stats;
        const QString path = write(t, &stats);
        QVERIFY(QFileInfo(path).size() > 4 * (1 << 20));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".partial")));
        const QString ws = import(path);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT kernel_count FROM trace"), kKernels);
        QCOMPARE(stats.flows, uint64_t(3));
    }

    void nothingCollected()
    {
        CollectedTrace t;
        const QString path = write(t);
        const QString all = linesOf(path).join(QLatin1Char('\n'));
        QVERIFY(all.contains(QStringLiteral("\"traceEvents\":[")));
        // Only the process name: the importer still takes it as a trace.
        QCOMPARE(all.count(QStringLiteral("\"ph\":")), 1);
        const QString ws = freshPath(".plumb");
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run({ path });
        QCOMPARE(results.size(), size_t(1));
        QCOMPARE(int(results.front().status), int(FileImportResult::Status::Imported));
    }

    void unwritablePathFails()
    {
        std::string error;
        QVERIFY(!writeChromeTraceFile(m_tmp.filePath(QStringLiteral("missing/dir/x.json")).toStdString(),
            syntheticTrace(), WriteOptions {}, &error));
        QVERIFY2(error.find("cannot create") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCuptiJson)
#include "tst_cuptijson.moc"
