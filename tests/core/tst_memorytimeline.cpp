// SPDX-License-Identifier: GPL-3.0-or-later
// The memory timeline (analysis/memorytimeline.h): a hand-made stream with a known peak and live set,
// generated Kineto traces checked against what the generator added up (peaks, live sets at the peak, the
// ops that allocated them, reserved memory), the chart series keeping each bucket's extremes, Nsight-style
// memory counters, a trace without memory, and the real H100 trace.

#include "analysis/memorytimeline.h"
#include "importhelpers.h"
#include "memorytracegen.h"
#include "present/memorypresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

using namespace plumb;
using plumb::testgen::GeneratedAllocation;
using plumb::testgen::MemoryTraceSpec;
using plumb::testgen::MemoryTraceTruth;

namespace {

MemoryEvent ev(
    int64_t ts, int64_t device, int64_t bytes, int64_t addr, int64_t total = -1, int64_t reserved = -1)
{
    MemoryEvent e;
    e.tsNs = ts;
    e.device = device;
    e.bytes = bytes;
    e.addr = addr;
    e.totalAllocated = total;
    e.totalReserved = reserved;
    return e;
}

QString allocationsText(std::vector<MemoryAllocation> v)
{
    std::sort(v.begin(), v.end(),
        [](const MemoryAllocation &a, const MemoryAllocation &b) { return a.tsNs < b.tsNs; });
    QStringList out;
    for (const MemoryAllocation &a : v)
        out << QStringLiteral("%1:%2@%3[%4]").arg(a.tsNs).arg(a.bytes).arg(a.addr).arg(a.op);
    return out.join(u' ');
}

QString allocationsText(const std::vector<GeneratedAllocation> &v)
{
    QStringList out;
    for (const GeneratedAllocation &a : v)
        out << QStringLiteral("%1:%2@%3[%4]").arg(a.tsNs).arg(a.bytes).arg(a.addr).arg(a.op);
    return out.join(u' ');
}

// The series' value at t (a step function).
const MemoryPoint *pointAt(const std::vector<MemoryPoint> &s, int64_t t)
{
    const MemoryPoint *p = nullptr;
    for (const MemoryPoint &q : s) {
        if (q.tsNs > t)
            break;
        p = &q;
    }
    return p;
}

// A Chrome trace of `json` events imported into `dir`; the workspace path.
QString importEvents(const QTemporaryDir &dir, const QStringList &events)
{
    return importTestJson(dir.path(), QStringLiteral("t.json"),
        QByteArray("{\"traceEvents\":[\n") + events.join(QStringLiteral(",\n")).toUtf8()
            + QByteArray("\n]}\n"));
}

} // namespace

class TstMemoryTimeline : public QObject {
    Q_OBJECT
private slots:
    void knownStream()
    {
        // Device 0 holds 1,000 bytes from before the capture (in the totals only). A is freed before the
        // peak, B and C are live at it; a free of the unseen memory matches nothing.
        const std::vector<MemoryEvent> events {
            ev(10, 0, 100, 0xa, 1100, 4096),
            ev(20, 0, 200, 0xb, 1300, 4096),
            ev(30, 0, -100, 0xa, 1200, 4096),
            ev(40, 0, 300, 0xc, 1500, 4096), // the peak
            ev(50, 0, -200, 0xb, 1300, 8192),
            ev(60, 0, -400, 0xdead, 900, 8192), // allocated before the capture
            ev(70, 0, 50, 0xa, 950, 2048), // A's address again
            ev(15, -1, 8, 0x1, 8, 0), // host memory: no reserved
            ev(25, -1, -8, 0x1, 0, 0),
        };
        const std::vector<DeviceMemory> devices = memoryByDevice(events);
        QCOMPARE(devices.size(), size_t(2));
        const DeviceMemory &d = devices[0];
        QCOMPARE(d.device, int64_t(0));
        QCOMPARE(d.label, QStringLiteral("GPU 0"));
        QCOMPARE(d.eventCount, int64_t(7));
        QCOMPARE(d.allocationCount, int64_t(4));
        QCOMPARE(d.freeCount, int64_t(3));
        QCOMPARE(d.unmatchedFreeCount, int64_t(1));
        QCOMPARE(d.peakAllocatedBytes, int64_t(1500));
        QCOMPARE(d.peakNs, int64_t(40));
        QCOMPARE(d.reservedAtPeakBytes, int64_t(4096));
        QCOMPARE(d.peakReservedBytes, int64_t(8192));
        QCOMPARE(d.peakReservedNs, int64_t(50));
        QCOMPARE(d.maxUnusedReservedBytes, int64_t(8192 - 900));
        QCOMPARE(d.maxUnusedReservedNs, int64_t(60));
        QCOMPARE(allocationsText(d.liveAtPeak), QStringLiteral("20:200@11[] 40:300@12[]"));
        QCOMPARE(d.liveAtPeak.front().bytes, int64_t(300)); // largest first
        QCOMPARE(d.liveAtPeak.front().freedNs, int64_t(-1));
        QCOMPARE(d.liveAtPeak.back().freedNs, int64_t(50));
        QCOMPARE(d.liveAtPeakBytes, int64_t(500));
        QCOMPARE(d.allocatedBeforeCaptureBytes, int64_t(1000));
        QCOMPARE(d.largest.size(), size_t(4));
        QCOMPARE(d.largest[0].bytes, int64_t(300));
        QCOMPARE(d.largest[3].bytes, int64_t(50));
        QCOMPARE(d.series.size(), size_t(7)); // few points: every one kept
        QCOMPARE(d.series[3].allocatedBytes, int64_t(1500));

        const DeviceMemory &cpu = devices[1];
        QCOMPARE(cpu.label, QStringLiteral("CPU"));
        QCOMPARE(cpu.peakAllocatedBytes, int64_t(8));
        // No reserved memory reported (PyTorch's host allocator reports 0): reserved is allocated.
        QVERIFY(d.reservedReported);
        QVERIFY(!cpu.reservedReported);
        QCOMPARE(cpu.peakReservedBytes, int64_t(8));
        QCOMPARE(cpu.peakReservedNs, int64_t(15));
        QCOMPARE(cpu.reservedAtPeakBytes, int64_t(8));
        QCOMPARE(cpu.maxUnusedReservedBytes, int64_t(0));
        QCOMPARE(cpu.series.front().reservedBytes, int64_t(8));
        QCOMPARE(cpu.series.back().reservedBytes, int64_t(0));
    }

    void withoutTotals()
    {
        // No Total Allocated: allocated is the running sum of Bytes; an address allocated again without
        // a free drops the earlier allocation.
        const std::vector<MemoryEvent> events {
            ev(1, 2, 100, 0x10),
            ev(2, 2, 50, 0x20),
            ev(3, 2, 70, 0x10), // 0x10 again: the 100 is gone from the live set
            ev(4, 2, -50, 0x20),
            ev(5, 2, 10, 0x30),
        };
        const std::vector<DeviceMemory> devices = memoryByDevice(events);
        QCOMPARE(devices.size(), size_t(1));
        const DeviceMemory &d = devices[0];
        QCOMPARE(d.label, QStringLiteral("GPU 2"));
        QCOMPARE(d.peakAllocatedBytes, int64_t(220)); // running sum: 100 + 50 + 70
        QCOMPARE(d.peakNs, int64_t(3));
        QCOMPARE(allocationsText(d.liveAtPeak), QStringLiteral("2:50@32[] 3:70@16[]"));
        QCOMPARE(d.allocatedBeforeCaptureBytes, int64_t(100)); // what the dropped one still counts
        QVERIFY(!d.reservedReported);
        QCOMPARE(d.peakReservedBytes, int64_t(220));
    }

    void seriesKeepsExtremes()
    {
        // A noisy sawtooth of 200,000 events: each chart bucket keeps its highest and lowest values.
        std::mt19937 rng(7);
        std::vector<MemoryEvent> events;
        int64_t total = 0;
        for (int i = 0; i < 200000; ++i) {
            const int64_t bytes = (i / 5000) % 2 == 0 ? int64_t(rng() % 1000) : -int64_t(rng() % 1000);
            total = std::max<int64_t>(total + bytes, 0);
            events.push_back(ev(int64_t(i) * 37, 0, bytes == 0 ? 1 : bytes, i, total, total + 4096));
        }
        const std::vector<DeviceMemory> devices = memoryByDevice(events);
        const DeviceMemory &d = devices.front();
        QVERIFY(d.series.size() <= size_t(5 * (kMemoryChartBuckets + 1)));
        QVERIFY(std::is_sorted(d.series.begin(), d.series.end(),
            [](const MemoryPoint &a, const MemoryPoint &b) { return a.tsNs < b.tsNs; }));
        const int64_t start = events.front().tsNs, span = events.back().tsNs - start;
        std::vector<int64_t> hi(kMemoryChartBuckets + 1, -1), lo(kMemoryChartBuckets + 1, INT64_MAX);
        std::vector<int64_t> seriesHi(kMemoryChartBuckets + 1, -1),
            seriesLo(kMemoryChartBuckets + 1, INT64_MAX);
        auto bucketOf = [&](int64_t ts) { return size_t((ts - start) * kMemoryChartBuckets / span); };
        for (const MemoryEvent &e : events) {
            hi[bucketOf(e.tsNs)] = std::max(hi[bucketOf(e.tsNs)], e.totalAllocated);
            lo[bucketOf(e.tsNs)] = std::min(lo[bucketOf(e.tsNs)], e.totalAllocated);
        }
        for (const MemoryPoint &p : d.series) {
            seriesHi[bucketOf(p.tsNs)] = std::max(seriesHi[bucketOf(p.tsNs)], p.allocatedBytes);
            seriesLo[bucketOf(p.tsNs)] = std::min(seriesLo[bucketOf(p.tsNs)], p.allocatedBytes);
        }
        QCOMPARE(seriesHi, hi);
        QCOMPARE(seriesLo, lo);
        // The last point of each bucket is kept, so the step function is right up to the next bucket.
        for (size_t i = 0; i + 1 < events.size(); ++i)
            if (bucketOf(events[i].tsNs) != bucketOf(events[i + 1].tsNs)) {
                const MemoryPoint *p = pointAt(d.series, events[i + 1].tsNs - 1);
                QVERIFY(p);
                QCOMPARE(p->allocatedBytes, events[i].totalAllocated);
            }
    }

    void generated_data()
    {
        QTest::addColumn<int>("events");
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("seed");
        QTest::addColumn<qint64>("preCapture");
        QTest::addColumn<int>("growPercent");
        QTest::newRow("one GPU") << 3000 << 1 << 1 << qint64(0) << 62;
        QTest::newRow("one GPU, memory from before") << 5000 << 1 << 2 << qint64(64 << 20) << 62;
        QTest::newRow("three GPUs") << 12000 << 3 << 3 << qint64(8 << 20) << 62;
        QTest::newRow("several cycles") << 20000 << 2 << 4 << qint64(0) << 62;
        // Thousands live at the peak: their ops are named in one pass over the thread's slices.
        QTest::newRow("many live") << 16000 << 1 << 5 << qint64(0) << 95;
    }

    void generated()
    {
        QFETCH(int, events);
        QFETCH(int, devices);
        QFETCH(int, seed);
        QFETCH(qint64, preCapture);
        QFETCH(int, growPercent);
        MemoryTraceSpec spec;
        spec.events = events;
        spec.devices = devices;
        spec.seed = uint32_t(seed);
        spec.preCaptureBytes = preCapture;
        spec.growPercent = growPercent;
        spec.cycleEvents = growPercent > 90 ? 2 * events : 4000;
        MemoryTraceTruth truth;
        const QByteArray json = testgen::memoryTraceJson(spec, &truth);
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("mem.json"), json);
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline t = memoryTimeline(ws, 1);
        QCOMPARE(t.traceName, QStringLiteral("mem.json"));

        size_t expectedDevices = 0;
        for (const testgen::GeneratedDevice &g : truth.devices)
            expectedDevices += g.events > 0;
        QCOMPARE(t.devices.size(), expectedDevices);
        if (growPercent > 90) // more than nameOps() looks up one by one
            QVERIFY(t.devices.front().liveAtPeak.size() > 10000);
        for (const DeviceMemory &d : t.devices) {
            QVERIFY(d.device >= 0 && d.device < devices);
            const testgen::GeneratedDevice &g = truth.devices[size_t(d.device)];
            QVERIFY(!d.fromCounters);
            QCOMPARE(d.eventCount, g.events);
            QCOMPARE(d.allocationCount, g.allocations);
            QCOMPARE(d.freeCount, g.frees);
            QCOMPARE(d.unmatchedFreeCount, g.unmatchedFrees);
            QCOMPARE(d.peakAllocatedBytes, g.peakAllocated);
            QCOMPARE(d.peakNs, g.peakNs);
            QCOMPARE(d.reservedAtPeakBytes, g.reservedAtPeak);
            QCOMPARE(d.peakReservedBytes, g.peakReserved);
            QCOMPARE(d.maxUnusedReservedBytes, g.maxReservedMinusAllocated);
            // The live set at the peak, each with the op around its allocation.
            QCOMPARE(allocationsText(d.liveAtPeak), allocationsText(g.liveAtPeak));
            int64_t liveBytes = 0;
            for (const GeneratedAllocation &a : g.liveAtPeak)
                liveBytes += a.bytes;
            QCOMPARE(d.liveAtPeakBytes, liveBytes);
            QCOMPARE(d.allocatedBeforeCaptureBytes, g.peakAllocated - liveBytes);
            QVERIFY(preCapture == 0 || d.allocatedBeforeCaptureBytes > 0);
            // The largest allocations: the generator's largest sizes, largest first, ops named.
            std::vector<int64_t> sizes;
            for (const GeneratedAllocation &a : g.all)
                sizes.push_back(a.bytes);
            std::sort(sizes.rbegin(), sizes.rend());
            sizes.resize(std::min<size_t>(sizes.size(), kLargestAllocations));
            std::vector<int64_t> largest;
            for (const MemoryAllocation &a : d.largest) {
                largest.push_back(a.bytes);
                const auto made = std::find_if(g.all.begin(), g.all.end(),
                    [&](const GeneratedAllocation &x) { return x.tsNs == a.tsNs && x.addr == a.addr; });
                QVERIFY(made != g.all.end());
                QCOMPARE(a.op, made->op);
            }
            QCOMPARE(largest, sizes);
            // The chart holds the peak where it happened.
            const MemoryPoint *p = pointAt(d.series, d.peakNs);
            QVERIFY(p);
            QCOMPARE(p->allocatedBytes, d.peakAllocatedBytes);
            QVERIFY(std::all_of(d.series.begin(), d.series.end(),
                [&](const MemoryPoint &q) { return q.allocatedBytes <= d.peakAllocatedBytes; }));
        }
        // plumb.memory/1 says the same.
        const QJsonObject j = memoryJson(t);
        QCOMPARE(j.value(QStringLiteral("schema")).toString(), QStringLiteral("plumb.memory/1"));
        const QJsonObject first = j.value(QStringLiteral("devices")).toArray().first().toObject();
        QCOMPARE(
            first.value(QStringLiteral("peak_allocated_bytes")).toInteger(), t.devices[0].peakAllocatedBytes);
        QCOMPARE(first.value(QStringLiteral("live_at_peak")).toArray().size(),
            qsizetype(t.devices[0].liveAtPeak.size()));
    }

    void memoryCounters()
    {
        // Without memory instants, counter tracks named as Nsight's memory usage give allocated only.
        QTemporaryDir tmp;
        const QString wsPath = importEvents(tmp,
            { QStringLiteral("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"
                             "\"ts\":0,\"dur\":100}"),
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, device 1\",\"pid\":1,\"ts\":10,"
                               "\"args\":{\"value\":1024}}"),
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, device 1\",\"pid\":1,\"ts\":20,"
                               "\"args\":{\"value\":4096}}"),
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, device 1\",\"pid\":1,\"ts\":30,"
                               "\"args\":{\"value\":2048}}"),
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, CUDA host\",\"pid\":1,\"ts\":30,"
                               "\"args\":{\"value\":64}}"),
                // A second process on the same GPU: the device's total is both processes'.
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, device 1\",\"pid\":2,\"ts\":25,"
                               "\"args\":{\"value\":1000}}"),
                QStringLiteral("{\"ph\":\"C\",\"name\":\"Memory allocated, device 1\",\"pid\":2,\"ts\":40,"
                               "\"args\":{\"value\":0}}") });
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline t = memoryTimeline(ws, 1);
        QCOMPARE(t.devices.size(), size_t(2));
        const DeviceMemory &d = t.devices[0];
        QVERIFY(d.fromCounters);
        QCOMPARE(d.device, int64_t(1));
        QCOMPARE(d.peakAllocatedBytes, int64_t(5096)); // 4096 + 1000 at 25 µs
        QCOMPARE(d.peakNs, int64_t(25000));
        QVERIFY(!d.reservedReported);
        QCOMPARE(d.peakReservedBytes, d.peakAllocatedBytes);
        QVERIFY(d.liveAtPeak.empty());
        QCOMPARE(d.series.size(), size_t(5));
        QCOMPARE(d.series[3].allocatedBytes, int64_t(3048)); // 2048 + 1000 at 30 µs
        QCOMPARE(d.series[4].allocatedBytes, int64_t(2048));
        QCOMPARE(t.devices[1].label, QStringLiteral("CPU"));
        QVERIFY(memoryText(t).contains(QStringLiteral("Nsight's memory counters")));
    }

    void argsInAnyOrder()
    {
        // Args in another order than PyTorch's, with keys of other kinds: read all the same. An address
        // above 2^63 wraps; host memory is Device Type 0.
        auto memory = [](int ts, const char *args) {
            return QStringLiteral(
                "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":%1,"
                "\"args\":{%2}}")
                .arg(ts)
                .arg(QLatin1String(args));
        };
        QTemporaryDir tmp;
        const QString wsPath = importEvents(tmp,
            { QStringLiteral("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::empty\",\"pid\":1,\"tid\":1,"
                             "\"ts\":0,\"dur\":100}"),
                memory(10,
                    "\"Device Type\":1,\"note\":\"a: b\",\"Device Id\":3,\"Addr\":18446744073709551360,"
                    "\"Bytes\":4096,\"Total Allocated\":5000,\"Total Reserved\":8192"),
                memory(20,
                    "\"Bytes\":-4096,\"Addr\":18446744073709551360,\"Device Id\":3,\"Device Type\":1,"
                    "\"Total Allocated\":904,\"Total Reserved\":8192"),
                memory(30,
                    "\"Device Type\":0,\"Device Id\":-1,\"Bytes\":16,\"Addr\":7,\"Total Allocated\":16") });
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline t = memoryTimeline(ws, 1);
        QCOMPARE(t.devices.size(), size_t(2));
        const DeviceMemory &d = t.devices[0];
        QCOMPARE(d.label, QStringLiteral("GPU 3"));
        QCOMPARE(d.peakAllocatedBytes, int64_t(5000));
        QCOMPARE(d.peakNs, int64_t(10000));
        QCOMPARE(d.peakReservedBytes, int64_t(8192));
        QCOMPARE(d.liveAtPeak.size(), size_t(1));
        QCOMPARE(d.liveAtPeak[0].addr, int64_t(uint64_t(18446744073709551360ull)));
        QCOMPARE(d.liveAtPeak[0].freedNs, int64_t(20000));
        QCOMPARE(d.liveAtPeak[0].op, QStringLiteral("aten::empty"));
        QCOMPARE(d.allocatedBeforeCaptureBytes, int64_t(5000 - 4096));
        QCOMPARE(d.unmatchedFreeCount, int64_t(0));
        QCOMPARE(t.devices[1].label, QStringLiteral("CPU"));
        QCOMPARE(t.devices[1].peakAllocatedBytes, int64_t(16));
    }

    void noMemory()
    {
        QTemporaryDir tmp;
        const QString wsPath = importEvents(tmp,
            { QStringLiteral("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"
                             "\"ts\":0,\"dur\":100}") });
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline t = memoryTimeline(ws, 1);
        QVERIFY(t.empty());
        QVERIFY(memoryText(t).contains(QStringLiteral("no memory events")));
        QCOMPARE(memoryJson(t).value(QStringLiteral("devices")).toArray().size(), 0);
        QVERIFY(memoryTimeline(ws, 99).empty()); // no such trace
    }

    void realTrace()
    {
        const QString path = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/tracelens_h100_qwen.json.gz");
        if (!QFileInfo::exists(path))
            QSKIP("../shared/data is absent: the real H100 trace is not checked");
        QTemporaryDir tmp;
        const QString wsPath = tmp.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(wsPath, { path });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline t = memoryTimeline(ws, 1);
        int64_t events = 0;
        for (const DeviceMemory &d : t.devices)
            events += d.eventCount;
        QCOMPARE(events, int64_t(2450));
        QCOMPARE(t.devices.size(), size_t(2));
        const DeviceMemory &gpu = t.devices[0];
        QCOMPARE(gpu.label, QStringLiteral("GPU 0"));
        QCOMPARE(gpu.peakAllocatedBytes, int64_t(2088508416));
        // The same figures straight from the events with SQLite's JSON functions.
        SqliteStmt st(ws.db(),
            "SELECT max(json_extract(args, '$.\"Total Reserved\"')), count(*), "
            "sum(json_extract(args, '$.Bytes') > 0) FROM slices WHERE name = '[memory]' "
            "AND json_extract(args, '$.\"Device Type\"') = 1");
        QVERIFY(st.step());
        QCOMPARE(gpu.peakReservedBytes, st.columnInt(0));
        QCOMPARE(gpu.eventCount, st.columnInt(1));
        QCOMPARE(gpu.allocationCount, st.columnInt(2));
        SqliteStmt peak(ws.db(),
            "SELECT ts_ns FROM slices WHERE name = '[memory]' AND json_extract(args, '$.\"Total "
            "Allocated\"') = "
            "2088508416 ORDER BY ts_ns LIMIT 1");
        QVERIFY(peak.step());
        QCOMPARE(gpu.peakNs, peak.columnInt(0));
        // What was live at the peak: allocated at or before it, not freed by then, each made by an op.
        QVERIFY(!gpu.liveAtPeak.empty());
        int64_t live = 0;
        for (const MemoryAllocation &a : gpu.liveAtPeak) {
            QVERIFY(a.tsNs <= gpu.peakNs);
            QVERIFY(a.freedNs == -1 || a.freedNs > gpu.peakNs);
            QVERIFY2(!a.op.isEmpty(), qPrintable(QString::number(a.tsNs)));
            live += a.bytes;
        }
        QCOMPARE(gpu.liveAtPeakBytes, live);
        QCOMPARE(gpu.allocatedBeforeCaptureBytes + live, gpu.peakAllocatedBytes);
        QCOMPARE(gpu.largest.size(), size_t(kLargestAllocations));
        QVERIFY(gpu.largest.front().bytes >= gpu.largest.back().bytes);
        QVERIFY(gpu.reservedAtPeakBytes >= gpu.peakAllocatedBytes);
        QVERIFY(gpu.reservedReported);
        // Host memory: PyTorch reports no reserved memory; reserved is allocated.
        const DeviceMemory &cpu = t.devices[1];
        QCOMPARE(cpu.label, QStringLiteral("CPU"));
        QVERIFY(!cpu.reservedReported);
        QCOMPARE(cpu.peakReservedBytes, cpu.peakAllocatedBytes);
        QCOMPARE(cpu.maxUnusedReservedBytes, int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TstMemoryTimeline)
#include "tst_memorytimeline.moc"
