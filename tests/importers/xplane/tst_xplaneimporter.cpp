// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests for the XPlane importer: a profile in, SQL over the imported workspace, the expected
// CSV beside the fixture. Set PLUMB_UPDATE_GOLDENS=1 to rewrite the CSVs (then review the diff: a
// golden is only as good as the reading of it). The fixtures come from data/gen_fixtures.py; the
// real TensorFlow profile's per-line counts come from data/xplane_counts.py, an independent decoder.

#include "builtinimporters.h"
#include "goldens.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

QString readText(const QString &path)
{
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(in.readAll());
}

const char *kSlicesSql
    = "SELECT p.name AS plane, k.label AS line, k.name AS track, k.kind, k.stream, s.ts, s.dur, s.depth, "
      "n.str AS name, c.str AS cat, s.corr, a.json AS args "
      "FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id "
      "JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id LEFT JOIN args a ON a.id = "
      "s.args_id "
      "ORDER BY k.id, s.ts, s.id";
const char *kOtherSql
    = "SELECT 'diagnostic' AS what, d.code AS a, d.count AS b, d.severity AS c, d.location AS d, d.message "
      "AS e "
      "FROM diagnostic d "
      "UNION ALL SELECT 'trace', t.name, t.event_count, t.slice_count, t.kernel_count, t.gpu_op_count FROM "
      "trace t "
      "UNION ALL SELECT 'flows', t.flow_count, t.corr_flow_count, (SELECT count(*) FROM flow), NULL, NULL "
      "FROM trace t "
      "UNION ALL SELECT 'trace-info', t.base_time_ns, t.start_ns, t.end_ns, NULL, t.metadata FROM trace t "
      "UNION ALL SELECT 'process', p.label, p.name, p.kind, p.device_index, p.sort_index FROM process p "
      "UNION ALL SELECT 'track', p.name, k.label, k.kind, k.stream, k.name FROM track k JOIN process p ON "
      "p.id = k.process_id "
      "UNION ALL SELECT 'device', d.device_index, d.name, d.properties, NULL, NULL FROM device d "
      "UNION ALL SELECT 'source', s.format, s.event_count, s.status, NULL, NULL FROM source s "
      "ORDER BY 1, 2, 3, 4, 5";

// One row per timeline, as data/xplane_counts.py --csv prints it.
const char *kLinesSql = "SELECT p.name AS plane, k.label AS line, "
                        "max(CASE WHEN k.kind IN ('thread', 'gpu_stream') THEN k.name END) AS name, "
                        "sum(k.slice_count) AS events "
                        "FROM track k JOIN process p ON p.id = k.process_id "
                        "GROUP BY p.name, k.label ORDER BY p.name, CAST(k.label AS INTEGER)";

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString realFile()
{
    return QStringLiteral(PLUMB_SHARED_DATA "/traces/xplane/tf_gpu_multi_worker.xplane.pb");
}

} // namespace

class TestXPlaneImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    FileImportResult importOne(const QString &ws, const QString &path)
    {
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run({ path });
        if (results.size() != 1)
            qFatal("expected one result");
        return results.front();
    }

private slots:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        QVERIFY(m_tmp.isValid());
    }

    void sniff_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("claimed");
        QTest::newRow("basic") << "basic.xplane.pb"
                               << "basic.xplane.pb" << true;
        // By content: the plane names are in the head.
        QTest::newRow("basic-renamed") << "basic.xplane.pb"
                                       << "profile.bin" << true;
        QTest::newRow("jax") << "jax_order.xplane.pb"
                             << "jax_order.xplane.pb" << true;
        QTest::newRow("truncated") << "truncated.xplane.pb"
                                   << "truncated.xplane.pb" << true;
        // Protobuf of another type: claimed only under an XPlane file name (read() then refuses it).
        QTest::newRow("stepstats") << "stepstats.xplane.pb"
                                   << "stepstats.xplane.pb" << true;
        QTest::newRow("stepstats-renamed") << "stepstats.xplane.pb"
                                           << "run_metadata.pb" << false;
        QTest::newRow("random") << "random.bin"
                                << "random.bin" << false;
        QTest::newRow("random-named") << "random.bin"
                                      << "random.xplane.pb" << false;
        QTest::newRow("script") << "gen_fixtures.py"
                                << "gen_fixtures.py" << false;
    }
    void sniff()
    {
        QFETCH(QString, file);
        QFETCH(QString, name);
        QFETCH(bool, claimed);
        const QByteArray head = InputFile::peek(fixture(file), 65536);
        const Importer *importer = m_registry.find(head, name);
        QCOMPARE(importer != nullptr && importer->id() == QStringLiteral("xplane"), claimed);
    }

    void golden_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("basic") << "basic.xplane.pb";
        QTest::newRow("jax_order") << "jax_order.xplane.pb";
    }
    void golden()
    {
        QFETCH(QString, file);
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, fixture(file));
        QVERIFY2(r.status == FileImportResult::Status::Imported, qPrintable(r.message));
        Workspace w(ws, Workspace::Role::Reader);
        QString base = file;
        base.chop(int(strlen(".xplane.pb")));
        compareGolden(csvOf(w.db(), kSlicesSql), fixture(base + QStringLiteral(".slices.csv")));
        compareGolden(csvOf(w.db(), kOtherSql), fixture(base + QStringLiteral(".other.csv")));
    }

    // Exact integer time: line timestamp_ns + offset_ps / 1000, floored, with the end floored too.
    void timeIsExact()
    {
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, fixture(QStringLiteral("basic.xplane.pb"))).status),
            int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id "
            "JOIN track k ON k.id = s.track_id WHERE n.str = 'MatMul' AND k.label = '100'");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), Q_INT64_C(1700000000000001000)); // 1000.5 ns after the line start
        QCOMPARE(st.columnInt(1), Q_INT64_C(5001)); // ends at 6001.499 ns
        QCOMPARE(w.db().queryInt("SELECT base_time_ns FROM trace"), 0); // epoch: ts is wall-clock time

        const QString ws2 = freshWorkspace();
        QCOMPARE(int(importOne(ws2, fixture(QStringLiteral("jax_order.xplane.pb"))).status),
            int(FileImportResult::Status::Imported));
        Workspace w2(ws2, Workspace::Role::Reader);
        QCOMPARE(w2.db().queryInt("SELECT min(ts) FROM slice"), 4997); // 4999 ns - 1.5 ns, floored
        QCOMPARE(w2.db().queryInt("SELECT count(*) FROM trace WHERE base_time_ns IS NULL"), 1);
    }

    void failuresLeaveNothing_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("truncated") << "truncated.xplane.pb" << int(FileImportResult::Status::Failed)
                                   << "truncated.xplane.pb is cut short";
        QTest::newRow("other-message") << "stepstats.xplane.pb" << int(FileImportResult::Status::Failed)
                                       << "stepstats.xplane.pb is not a readable XPlane profile";
        QTest::newRow("garbage") << "garbage.xplane.pb" << int(FileImportResult::Status::Failed)
                                 << "garbage.xplane.pb is not a readable XPlane profile";
        QTest::newRow("no-planes") << "noplanes.xplane.pb" << int(FileImportResult::Status::Failed)
                                   << "no names and no events";
        QTest::newRow("random") << "random.bin" << int(FileImportResult::Status::Unrecognised)
                                << "no importer";
    }
    void failuresLeaveNothing()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(QString, messagePart);
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, fixture(file));
        QCOMPARE(int(r.status), status);
        QVERIFY2(r.message.contains(messagePart), qPrintable(r.message));
        if (r.status == FileImportResult::Status::Failed && !file.startsWith(QStringLiteral("noplanes")))
            QVERIFY2(r.message.contains(QStringLiteral("byte ")), qPrintable(r.message));
        Workspace w(ws, Workspace::Role::Reader);
        for (const char *table :
            { "source", "trace", "slice", "string", "args", "track", "process", "diagnostic" })
            QCOMPARE(w.db().queryInt(("SELECT count(*) FROM " + std::string(table)).c_str()), 0);
    }

    // The real TensorFlow GPU profile: per-timeline counts against the independent decoder's, and the
    // trace totals (reviewed by eye).
    // TensorBoard's layout, <run>/plugins/profile/<session>/<host>.xplane.pb: the hosts of a session
    // are one run named "<run>/<session>", read one after another or in parallel; the same file
    // outside that layout is a run of its own.
    void profileSessionIsOneRun_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("sequential") << 1;
        QTest::newRow("parallel") << 2;
    }
    void profileSessionIsOneRun()
    {
        QFETCH(int, jobs);
        const QString root = m_tmp.filePath(QStringLiteral("logdir%1").arg(jobs));
        const QString session = root + QStringLiteral("/train/plugins/profile/2024_05_01_12_00_00");
        const QString other = root + QStringLiteral("/elsewhere");
        QVERIFY(QDir().mkpath(session) && QDir().mkpath(other));
        QVERIFY(QFile::copy(
            fixture(QStringLiteral("basic.xplane.pb")), session + QStringLiteral("/host-a.xplane.pb")));
        QVERIFY(QFile::copy(
            fixture(QStringLiteral("jax_order.xplane.pb")), session + QStringLiteral("/host-b.xplane.pb")));
        QVERIFY(QFile::copy(
            fixture(QStringLiteral("jax_order.xplane.pb")), other + QStringLiteral("/host-c.xplane.pb")));
        // Its host name added, so that it is not the same file as host-b's (which is imported once).
        QFile c(other + QStringLiteral("/host-c.xplane.pb"));
        QVERIFY(c.open(QIODevice::Append));
        c.write(QByteArray("\x22\x06host-c", 8)); // XSpace.hostnames: still a valid XSpace
        c.close();

        const QString ws = freshWorkspace();
        ImportRunner runner(m_registry, ws);
        runner.setJobs(jobs);
        for (const auto &r : runner.run({ root }))
            QVERIFY2(r.status == FileImportResult::Status::Imported,
                qPrintable(r.path + QStringLiteral(": ") + r.message));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT r.name, group_concat(t.name, ' ') FROM run r JOIN "
            "(SELECT * FROM trace ORDER BY name) t ON t.run_id = r.id GROUP BY r.id ORDER BY r.name");
        QStringList runs;
        while (st.step())
            runs << st.columnText(0) + QStringLiteral(": ") + st.columnText(1);
        QCOMPARE(runs,
            QStringList({ QStringLiteral("host-c: host-c.xplane.pb"),
                QStringLiteral("train/2024_05_01_12_00_00: host-a.xplane.pb host-b.xplane.pb") }));
    }

    void realFile()
    {
        if (!QFile::exists(::realFile()))
            QSKIP("../shared/data/traces/xplane is absent: real-file test skipped");
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, ::realFile());
        QVERIFY2(r.status == FileImportResult::Status::Imported, qPrintable(r.message));
        Workspace w(ws, Workspace::Role::Reader);
        const QString expected = readText(fixture(QStringLiteral("real/tf_gpu_multi_worker.lines.csv")));
        QVERIFY(!expected.isEmpty());
        const QString actual = csvOf(w.db(), kLinesSql);
        if (actual != expected) {
            qWarning().noquote() << "actual:\n" << actual << "\nexpected (xplane_counts.py):\n" << expected;
            QFAIL("per-line counts differ from xplane_counts.py");
        }
        QCOMPARE(w.db().queryInt("SELECT event_count FROM trace"), 23128);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id "
                                 "JOIN process p ON p.id = k.process_id WHERE p.name = '/host:CPU'"),
            15354);
        const char *sql
            = "SELECT t.event_count AS events, t.slice_count AS slices, t.kernel_count AS kernels, "
              "t.gpu_op_count AS gpu_ops, t.corr_flow_count AS corr_flows, coalesce(t.base_time_ns, '') AS "
              "base, "
              "(SELECT count(*) FROM process) AS processes, "
              "(SELECT count(*) FROM process WHERE kind = 'gpu') AS gpu_processes, "
              "(SELECT count(*) FROM track WHERE kind = 'gpu_stream') AS gpu_streams, "
              "(SELECT count(*) FROM track WHERE kind = 'cuda_api') AS api_tracks, "
              "(SELECT count(*) FROM device) AS devices, "
              "(SELECT count(*) FROM slice WHERE corr IS NOT NULL) AS with_corr, "
              "(SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id WHERE c.str = 'gpu_memcpy') AS "
              "memcpy, "
              "(SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id WHERE c.str = 'cuda_runtime') "
              "AS runtime, "
              "(SELECT count(*) FROM slice s JOIN string c ON c.id = s.cat_id WHERE c.str = 'step') AS "
              "steps, "
              "(SELECT count(*) FROM slice s JOIN args a ON a.id = s.args_id "
              " WHERE json_extract(a.json, '$.kernel_details.regs') IS NOT NULL) AS kernel_details, "
              "(SELECT group_concat(code || ':' || count, ' ') FROM diagnostic) AS diagnostics "
              "FROM trace t";
        compareGolden(csvOf(w.db(), sql), fixture(QStringLiteral("real/tf_gpu_multi_worker.csv")));
        // A kernel's details, parsed from the text its ref_value points at.
        SqliteStmt st(w.db(),
            "SELECT json_extract(a.json, '$.kernel_details.grid'), "
            "json_extract(a.json, '$.kernel_details.regs') FROM slice s "
            "JOIN args a ON a.id = s.args_id WHERE s.corr = 72");
        QVERIFY(st.step());
        QVERIFY(!st.columnText(0).isEmpty());
        QVERIFY(st.columnInt(1) > 0);
    }

    // Importing the same bytes again is a no-op that says so.
    void reimportIsNoop()
    {
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, fixture(QStringLiteral("basic.xplane.pb"))).status),
            int(FileImportResult::Status::Imported));
        const auto again = importOne(ws, fixture(QStringLiteral("basic.xplane.pb")));
        QCOMPARE(int(again.status), int(FileImportResult::Status::AlreadyImported));
    }
};

QTEST_GUILESS_MAIN(TestXPlaneImporter)
#include "tst_xplaneimporter.moc"
