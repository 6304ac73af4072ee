// SPDX-License-Identifier: GPL-3.0-or-later
// plumb export --format chrome: real traces (Nsight Systems export, XPlane, Kineto) exported as
// Chrome/Kineto JSON and imported again keep their GPU ops (start, duration, name, launch) to the
// nanosecond, their flows, and the HTA-mode doctor's breakdown; the time window and gzip output.
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/gpuops.h"
#include "export/chromeexport.h"
#include "importhelpers.h"
#include "present/doctorpresent.h"
#include "store/sqlitedb.h"
#include "store/traceselection.h"
#include "store/workspace.h"

using namespace plumb;

namespace {

QString shared(const char *rel)
{
    return QStringLiteral(PLUMB_SHARED_DATA "/") + QLatin1String(rel);
}

std::vector<int64_t> traceIds(Workspace &ws)
{
    std::vector<int64_t> ids;
    SqliteStmt st(ws.db(), "SELECT id FROM trace ORDER BY id");
    while (st.step())
        ids.push_back(st.columnInt(0));
    return ids;
}

// Every GPU op (kernel, memcpy, memset) with its name, start, end and launch, in a stable order.
QStringList gpuOps(Workspace &ws, int64_t traceId, int64_t *kernels = nullptr)
{
    QStringList out;
    SqliteStmt name(ws.db(), "SELECT str FROM string WHERE id = ?");
    const int64_t kernelCat
        = ws.db().queryInt("SELECT coalesce((SELECT id FROM string WHERE str = 'kernel'), -1)");
    for (const GpuOp &op : readGpuOps(ws, traceId, GpuOpMode::EveryOp)) {
        name.reset();
        name.bind(1, op.nameId);
        out << QStringLiteral("%1 %2 %3 %4")
                   .arg(op.startNs)
                   .arg(op.endNs - op.startNs)
                   .arg(op.launchNs)
                   .arg(name.step() ? name.columnText(0) : QString());
    }
    if (kernels) {
        SqliteStmt k(ws.db(),
            "SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id WHERE k.trace_id = ? AND k.kind "
            "= "
            "'gpu_stream' AND s.cat_id = ?");
        k.bind(1, traceId).bind(2, kernelCat);
        *kernels = k.step() ? k.columnInt(0) : 0;
    }
    std::sort(out.begin(), out.end());
    return out;
}

int64_t flowCount(Workspace &ws, int64_t traceId)
{
    SqliteStmt st(ws.db(), "SELECT flow_count FROM trace WHERE id = ?");
    st.bind(1, traceId);
    return st.step() ? st.columnInt(0) : -1;
}

// Imports `source` into DIR/a.plumb, exports every trace to DIR/N.json.gz and imports each into
// DIR/b.plumb; returns the pairs (original, re-imported) of trace ids.
struct RoundTrip {
    QString original, again;
    std::vector<std::pair<int64_t, int64_t>> traces;
};
RoundTrip roundTrip(const QTemporaryDir &dir, const QString &source, const ChromeExportOptions &options = {})
{
    RoundTrip r;
    r.original = dir.filePath(QStringLiteral("a.plumb"));
    r.again = dir.filePath(QStringLiteral("b.plumb"));
    const QString e = importIntoWorkspace(r.original, { source });
    if (!e.isEmpty()) {
        qWarning() << e;
        return r;
    }
    std::vector<int64_t> ids;
    {
        Workspace ws(r.original, Workspace::Role::Reader);
        ids = traceIds(ws);
        ChromeExporter exporter(ws);
        for (int64_t id : ids) {
            const QString out = dir.filePath(
                QStringLiteral("t%1.json%2").arg(id).arg(options.gzip ? QStringLiteral(".gz") : QString()));
            const ChromeExportStats s = exporter.exportTrace(id, out, options);
            if (s.events == 0)
                qWarning() << "nothing exported of trace" << id;
            if (const QString e2 = importIntoWorkspace(r.again, { out }); !e2.isEmpty()) {
                qWarning() << e2;
                return {};
            }
        }
    }
    Workspace again(r.again, Workspace::Role::Reader);
    const std::vector<int64_t> newIds = traceIds(again);
    if (newIds.size() != ids.size())
        return {};
    for (size_t i = 0; i < ids.size(); ++i)
        r.traces.emplace_back(ids[i], newIds[i]);
    return r;
}

} // namespace

class TestChromeExport : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int64_t>("kernels"); // -1: any
        QTest::addColumn<bool>("sameFlows"); // else: the file had fewer flows than launch links
        QTest::newRow("nsys") << shared("traces/nsys/cloverleaf_nsys2024.5.sqlite") << int64_t(1312) << true;
        QTest::newRow("xplane") << shared("traces/xplane/tf_gpu_multi_worker.xplane.pb") << int64_t(-1)
                                << true;
        // This file has no ac2g flows; the export writes one per launch link.
        QTest::newRow("kineto") << shared("traces/kineto/hta_sampled_rank-0.json.gz") << int64_t(-1) << false;
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        QFETCH(int64_t, kernels);
        QFETCH(bool, sameFlows);
        if (!QFile::exists(path))
            QSKIP("the shared data is not here");
        QTemporaryDir dir;
        ChromeExportOptions options;
        options.gzip = true;
        const RoundTrip r = ::roundTrip(dir, path, options);
        QVERIFY(!r.traces.empty());
        Workspace a(r.original, Workspace::Role::Reader);
        Workspace b(r.again, Workspace::Role::Reader);
        int64_t total = 0;
        for (const auto &[before, after] : r.traces) {
            int64_t k1 = 0, k2 = 0;
            const QStringList ops1 = gpuOps(a, before, &k1);
            const QStringList ops2 = gpuOps(b, after, &k2);
            QCOMPARE(k2, k1);
            QCOMPARE(ops2.size(), ops1.size());
            for (qsizetype i = 0; i < ops1.size(); ++i)
                QCOMPARE(ops2[i], ops1[i]);
            if (sameFlows) {
                QCOMPARE(flowCount(b, after), flowCount(a, before));
            } else {
                const auto linked = std::count_if(ops2.begin(), ops2.end(),
                    [](const QString &op) { return !op.section(QLatin1Char(' '), 2, 2).startsWith(u'-'); });
                QCOMPARE(flowCount(b, after), flowCount(a, before) + int64_t(linked));
            }
            total += k1;
        }
        if (kernels >= 0)
            QCOMPARE(total, kernels);
        QVERIFY(total > 0);
    }

    // The Kineto trace's doctor in HTA mode (what `plumb doctor --mode hta` prints) is the same
    // after the round trip, but for the trace's id and name.
    void htaDoctor()
    {
        const QString path = shared("traces/kineto/hta_sampled_rank-0.json.gz");
        if (!QFile::exists(path))
            QSKIP("the shared data is not here");
        QTemporaryDir dir;
        const RoundTrip r = ::roundTrip(dir, path);
        QCOMPARE(r.traces.size(), size_t(1));
        auto report = [](const QString &wsPath, int64_t id) {
            Workspace ws(wsPath, Workspace::Role::Reader);
            const TraceSelection chosen = selectTraces(ws, { QString::number(id) });
            DoctorFindings f = doctorFindings(ws, chosen.traces, GpuOpMode::Hta);
            f.traces.front().id = 0;
            f.traces.front().name.clear();
            return doctorText(f);
        };
        const QString before = report(r.original, r.traces.front().first);
        const QString after = report(r.again, r.traces.front().second);
        QVERIFY(before.contains(QLatin1String("step")));
        QCOMPARE(after, before);
    }

    // --from/--to: the slices that start in the window, and only those, counted from the trace start.
    void window()
    {
        const QString path = shared("traces/nsys/cloverleaf_nsys2024.5.sqlite");
        if (!QFile::exists(path))
            QSKIP("the shared data is not here");
        QTemporaryDir dir;
        const QString original = dir.filePath(QStringLiteral("a.plumb"));
        QCOMPARE(importIntoWorkspace(original, { path }), QString());
        Workspace a(original, Workspace::Role::Reader);
        const int64_t id = traceIds(a).front();
        const int64_t start = a.db().queryInt("SELECT start_ns FROM trace WHERE id = " + std::to_string(id));
        const int64_t end = a.db().queryInt("SELECT end_ns FROM trace WHERE id = " + std::to_string(id));
        ChromeExportOptions options;
        options.fromNs = (end - start) / 3;
        options.toNs = 2 * (end - start) / 3;
        const QString out = dir.filePath(QStringLiteral("w.json"));
        ChromeExporter(a).exportTrace(id, out, options);
        QFile text(out);
        QVERIFY(text.open(QIODevice::ReadOnly));
        // Nsight Systems' session start, as Kineto writes it.
        QVERIFY(text.readAll().contains("\"baseTimeNanoseconds\":1696392839587175550"));
        const QString again = dir.filePath(QStringLiteral("b.plumb"));
        QCOMPARE(importIntoWorkspace(again, { out }), QString());
        Workspace b(again, Workspace::Role::Reader);
        QCOMPARE(b.db().queryInt("SELECT base_time_ns FROM trace"),
            a.db().queryInt("SELECT base_time_ns FROM trace"));
        const std::string window
            = std::to_string(start + options.fromNs) + " AND " + std::to_string(start + options.toNs - 1);
        const int64_t expected = a.db().queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = "
                                                 "s.cat_id WHERE c.str = 'kernel' AND s.ts BETWEEN "
            + window);
        const int64_t got = b.db().queryInt("SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id "
                                            "WHERE c.str = 'kernel' AND s.ts BETWEEN "
            + window);
        const int64_t outside = b.db().queryInt("SELECT count(*) FROM slice WHERE ts NOT BETWEEN " + window);
        QVERIFY(expected > 0);
        QVERIFY(expected < a.db().queryInt("SELECT kernel_count FROM trace"));
        QCOMPARE(got, expected);
        QCOMPARE(outside, int64_t(0));
    }

    void gzipAndText()
    {
        const QString path = shared("traces/kineto/hta_sampled_rank-0.json.gz");
        if (!QFile::exists(path))
            QSKIP("the shared data is not here");
        QTemporaryDir dir;
        const QString original = dir.filePath(QStringLiteral("a.plumb"));
        QCOMPARE(importIntoWorkspace(original, { path }), QString());
        Workspace a(original, Workspace::Role::Reader);
        const int64_t id = traceIds(a).front();
        ChromeExportOptions plain;
        ChromeExportOptions gz;
        gz.gzip = true;
        const QString json = dir.filePath(QStringLiteral("t.json")),
                      jsonGz = dir.filePath(QStringLiteral("t.json.gz"));
        const ChromeExportStats s1 = ChromeExporter(a).exportTrace(id, json, plain);
        const ChromeExportStats s2 = ChromeExporter(a).exportTrace(id, jsonGz, gz);
        QCOMPARE(s2.events, s1.events);
        QVERIFY(s2.bytes < s1.bytes / 4);
        QFile f(jsonGz);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(2), QByteArray("\x1f\x8b"));
        QFile t(json);
        QVERIFY(t.open(QIODevice::ReadOnly));
        const QByteArray text = t.readAll();
        QVERIFY(text.contains("\"distributedInfo\""));
        QVERIFY(text.contains("\"cat\":\"ac2g\""));
        QVERIFY(text.contains("\"ph\":\"f\",\"bp\":\"e\""));
        QVERIFY(text.contains("\"name\":\"process_name\""));
        QVERIFY(text.contains("ProfilerStep#"));
        QVERIFY(text.contains("\"correlation\":"));
        QVERIFY(text.contains("\"stream\":"));
        // An unwritable output is an ExportError, not a partial file.
        QVERIFY_THROWS_EXCEPTION(ExportError,
            ChromeExporter(a).exportTrace(id, dir.filePath(QStringLiteral("no/such/dir/t.json")), plain));
        QVERIFY_THROWS_EXCEPTION(ExportError, ChromeExporter(a).exportTrace(9999, json, plain));
    }

    // Two ranks of one run in one file: each rank's processes apart, named by rank.
    void singleFile()
    {
        const QString r0 = shared("traces/kineto/hta_sampled_rank-0.json.gz");
        const QString r1 = shared("traces/kineto/hta_sampled_rank-1.json.gz");
        if (!QFile::exists(r0) || !QFile::exists(r1))
            QSKIP("the shared data is not here");
        QTemporaryDir dir;
        const QString original = dir.filePath(QStringLiteral("a.plumb"));
        QCOMPARE(importIntoWorkspace(original, { r0, r1 }), QString());
        const QString out = dir.filePath(QStringLiteral("run.json"));
        int64_t gpuOpsBefore = 0;
        {
            Workspace a(original, Workspace::Role::Reader);
            const std::vector<int64_t> ids = traceIds(a);
            QCOMPARE(ids.size(), size_t(2));
            gpuOpsBefore = a.db().queryInt("SELECT sum(gpu_op_count) FROM trace");
            const ChromeExportStats s = ChromeExporter(a).exportTraces(ids, out, {});
            QCOMPARE(s.traces, int64_t(2));
            QCOMPARE(s.gpuOps, gpuOpsBefore);
        }
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("\"Rank 0: "));
        QVERIFY(text.contains("\"Rank 1: "));
        const QString again = dir.filePath(QStringLiteral("b.plumb"));
        QCOMPARE(importIntoWorkspace(again, { out }), QString());
        Workspace b(again, Workspace::Role::Reader);
        QCOMPARE(b.db().queryInt("SELECT sum(gpu_op_count) FROM trace"), gpuOpsBefore);
    }

    void times()
    {
        int64_t ns = 0;
        QVERIFY(parseExportTime(QStringLiteral("1500"), ns));
        QCOMPARE(ns, int64_t(1500));
        QVERIFY(parseExportTime(QStringLiteral("250ms"), ns));
        QCOMPARE(ns, int64_t(250000000));
        QVERIFY(parseExportTime(QStringLiteral("1.000001ms"), ns));
        QCOMPARE(ns, int64_t(1000001));
        QVERIFY(parseExportTime(QStringLiteral("-2ms"), ns));
        QCOMPARE(ns, int64_t(-2000000));
        QVERIFY(!parseExportTime(QStringLiteral("1.5"), ns));
        QVERIFY(!parseExportTime(QStringLiteral("1.0000001ms"), ns));
        QVERIFY(!parseExportTime(QStringLiteral("ms"), ns));
        QVERIFY(!parseExportTime(QStringLiteral("5s"), ns));
        QCOMPARE(rankFileName(3, 7, true), QStringLiteral("rank-3.json.gz"));
        QCOMPARE(rankFileName(-1, 7, false), QStringLiteral("trace-7.json"));
    }
};

QTEST_GUILESS_MAIN(TestChromeExport)
#include "tst_chromeexport.moc"
