// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests for the Chrome trace / PyTorch profiler importer: a trace in, SQL over the imported
// workspace, the expected CSV beside the fixture. Set PLUMB_UPDATE_GOLDENS=1 to rewrite the CSVs
// (then review the diff: a golden is only as good as the reading of it).

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

#include <zlib.h>

using namespace plumb;

namespace {

// Slices with their track, in a stable order; args rendered as stored.
const char *kSlicesSql
    = "SELECT p.label AS pid, k.label AS tid, k.kind, k.stream, s.ts, s.dur, s.depth, n.str AS name, "
      "c.str AS cat, s.corr, s.ext_id, s.seq_nr, s.ev_idx, a.json AS args "
      "FROM slice s JOIN track k ON k.id = s.track_id LEFT JOIN process p ON p.id = k.process_id "
      "JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id LEFT JOIN args a ON a.id = "
      "s.args_id "
      "ORDER BY k.id, s.ts, s.id";
const char *kOtherSql
    = "SELECT 'flow' AS what, c.str AS cat, f.flow_key AS key, f.src_ts AS a, f.dst_ts AS b, "
      "(SELECT kind || ':' || label FROM track WHERE id = f.src_track) AS c, (SELECT kind || ':' || label "
      "FROM track WHERE id = f.dst_track) AS d "
      "FROM flow f LEFT JOIN string c ON c.id = f.cat_id "
      "UNION ALL SELECT 'counter', k.name, NULL, v.ts, v.value, NULL, NULL FROM counter v JOIN track k ON "
      "k.id = v.track_id "
      "UNION ALL SELECT 'diagnostic', d.code, d.count, d.severity, d.location, NULL, NULL FROM diagnostic d "
      "UNION ALL SELECT 'trace', t.name, t.event_count, t.slice_count, t.kernel_count, t.gpu_op_count, "
      "t.flow_count "
      "FROM trace t "
      "UNION ALL SELECT 'corr-flows', t.corr_flow_count, NULL, NULL, NULL, NULL, NULL FROM trace t "
      "UNION ALL SELECT 'trace-info', t.rank, t.world_size, t.base_time_ns, t.start_ns, t.end_ns, NULL FROM "
      "trace t "
      "UNION ALL SELECT 'process', p.label, p.name, p.labels, p.kind, p.device_index, NULL FROM process p "
      "UNION ALL SELECT 'device', d.device_index, d.name, d.properties, NULL, NULL, NULL FROM device d "
      "ORDER BY 1, 2, 3, 4, 5";

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString sharedTraces()
{
    return QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto");
}

} // namespace

class TestChromeTraceImporter : public QObject {
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
        QTest::addColumn<bool>("claimed");
        QTest::newRow("basic") << "basic.json" << true;
        QTest::newRow("array") << "array_form.json" << true;
        QTest::newRow("gzip-multi-member") << "multi_member.json.gz" << true;
        QTest::newRow("empty") << "empty.json" << false;
        QTest::newRow("not-a-trace") << "not_a_trace.json" << false;
        QTest::newRow("script") << "gen_edge_cases.py" << false;
    }
    void sniff()
    {
        QFETCH(QString, file);
        QFETCH(bool, claimed);
        const QByteArray head = InputFile::peek(fixture(file), 65536);
        QCOMPARE(m_registry.find(head, file) != nullptr, claimed);
    }

    // Detection is by content: a trace renamed to .txt is still a trace, a .json config is not.
    void sniffIgnoresExtension()
    {
        const QByteArray head = InputFile::peek(fixture(QStringLiteral("basic.json")), 65536);
        QVERIFY(m_registry.find(head, QStringLiteral("renamed.txt")) != nullptr);
    }

    void golden_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        for (const char *f : { "basic.json", "array_form.json", "truncated.json", "truncated.json.gz",
                 "multi_member.json.gz", "legacy_names.json", "be_nesting.json", "unsorted.json",
                 "bad_events.json", "precision.json" })
            QTest::newRow(f) << QString::fromLatin1(f) << int(FileImportResult::Status::Imported);
    }
    void golden()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, fixture(file));
        QCOMPARE(int(r.status), status);
        Workspace w(ws, Workspace::Role::Reader);
        QString base = file;
        base.replace(QStringLiteral(".json.gz"), QStringLiteral(".gz"))
            .replace(QStringLiteral(".json"), QString());
        compareGolden(csvOf(w.db(), kSlicesSql), fixture(base + QStringLiteral(".slices.csv")));
        compareGolden(csvOf(w.db(), kOtherSql), fixture(base + QStringLiteral(".other.csv")));
    }

    // A document split across two gzip members reads as one: every event, no truncation.
    void multiMemberGzipIsWhole()
    {
        const QString a = freshWorkspace();
        QCOMPARE(int(importOne(a, fixture(QStringLiteral("multi_member.json.gz"))).status),
            int(FileImportResult::Status::Imported));
        Workspace wa(a, Workspace::Role::Reader);
        QCOMPARE(wa.db().queryInt("SELECT event_count FROM trace"), 12);
        QCOMPARE(wa.db().queryInt("SELECT count(*) FROM diagnostic WHERE code LIKE 'truncated%'"), 0);
    }

    void failuresLeaveNothing_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("empty") << "empty.json" << int(FileImportResult::Status::Unrecognised) << "empty";
        QTest::newRow("not-a-trace") << "not_a_trace.json" << int(FileImportResult::Status::Unrecognised)
                                     << "no importer";
        QTest::newRow("no-events") << "no_events.json" << int(FileImportResult::Status::Failed)
                                   << "traceEvents";
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
        Workspace w(ws, Workspace::Role::Reader);
        for (const char *table :
            { "source", "trace", "slice", "string", "args", "track", "process", "diagnostic" })
            QCOMPARE(w.db().queryInt(("SELECT count(*) FROM " + std::string(table)).c_str()), 0);
    }

    // Every real PyTorch profiler trace in ../shared/data imports, with counts checked against an
    // independent reading of the same files (make_expected.py) and the facts HTA's own tests assert.
    void realTraces_data()
    {
        QTest::addColumn<QString>("file");
        if (!QDir(sharedTraces()).exists())
            return;
        for (const QString &f :
            QDir(sharedTraces()).entryList({ QStringLiteral("*.json.gz") }, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << f;
    }
    void realTraces()
    {
        if (!QDir(sharedTraces()).exists())
            QSKIP("../shared/data/traces/kineto is absent: real-trace tests skipped");
        QFETCH(QString, file);
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, sharedTraces() + QLatin1Char('/') + file);
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        const char *sql
            = "SELECT t.event_count AS events, t.slice_count AS slices, t.kernel_count AS kernels, "
              "t.gpu_op_count AS gpu_ops, t.flow_count AS flows, "
              "(SELECT count(*) FROM flow WHERE src_track IS NOT NULL AND dst_track IS NOT NULL) + "
              "t.corr_flow_count "
              "AS paired_flows, "
              "t.counter_count AS counters, coalesce(t.rank, '') AS rank, coalesce(t.world_size, '') AS "
              "world_size, "
              "(SELECT count(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.str LIKE "
              "'ncclKernel%') AS nccl_kernels, "
              "(SELECT count(*) FROM track WHERE kind = 'gpu_stream') AS gpu_streams, "
              "(SELECT count(*) FROM device) AS devices, "
              "(SELECT coalesce(sum(count), 0) FROM diagnostic WHERE code IN ('malformed-event', "
              "'truncated')) AS bad "
              "FROM trace t";
        QString base = file;
        base.chop(int(strlen(".json.gz")));
        compareGolden(csvOf(w.db(), sql), fixture(QStringLiteral("real/") + base + QStringLiteral(".csv")));
    }

    // Facts from HTA's own tests on these files.
    void realTraceFacts()
    {
        if (!QDir(sharedTraces()).exists())
            QSKIP("../shared/data/traces/kineto is absent: real-trace tests skipped");
        const QString ws = freshWorkspace();
        importOne(ws, sharedTraces() + QStringLiteral("/hta_ns_resolution_rank0.pt.trace.json.gz"));
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt st(w.db(),
            "SELECT n.str, s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id "
            "JOIN track k ON k.id = s.track_id WHERE s.corr = 135139 AND k.kind = 'gpu_stream'");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), QStringLiteral("Memcpy DtoD (Device -> Device)"));
        // The file says "ts": 1712195495506161.288 (µs): exactly that in ns. Through a double it
        // would read 1712195495506161.2 and lose the 88 ns.
        QCOMPARE(st.columnInt(1), Q_INT64_C(1712195495506161288));
        QCOMPARE(st.columnInt(2), Q_INT64_C(1280));

        const QString ws2 = freshWorkspace();
        importOne(ws2, sharedTraces() + QStringLiteral("/hta_nccl_data.json.gz"));
        Workspace w2(ws2, Workspace::Role::Reader);
        // HTA: 21 NCCL kernels; the longest is an all-reduce of 2,049,000 elements on the default group.
        QCOMPARE(w2.db().queryInt("SELECT count(*) FROM slice s JOIN string n ON n.id = s.name_id "
                                  "WHERE n.str LIKE 'ncclKernel%'"),
            21);
        SqliteStmt big(w2.db(),
            "SELECT json_extract(a.json, '$.\"In msg nelems\"'), "
            "json_extract(a.json, '$.\"Process Group Description\"'), "
            "json_extract(a.json, '$.\"Process Group Ranks\"') FROM slice s "
            "JOIN string n ON n.id = s.name_id JOIN args a ON a.id = s.args_id "
            "WHERE n.str LIKE 'ncclKernel%' ORDER BY s.dur DESC LIMIT 1");
        QVERIFY(big.step());
        QCOMPARE(big.columnText(1), QStringLiteral("default_pg"));
        QCOMPARE(big.columnText(2), QStringLiteral("[0, 1]"));
        QCOMPARE(big.columnInt(0), 2049000);
    }

    // Ranks of one job: a folder of per-rank files is one run with a trace per rank.
    void multiRankJob()
    {
        if (!QDir(sharedTraces()).exists())
            QSKIP("../shared/data/traces/kineto is absent: real-trace tests skipped");
        const QString ws = freshWorkspace();
        ImportRunner runner(m_registry, ws);
        const auto results = runner.run({ sharedTraces() + QStringLiteral("/hta_sampled_rank-1.json.gz"),
            sharedTraces() + QStringLiteral("/hta_sampled_rank-0.json.gz") });
        QCOMPARE(results.size(), size_t(2));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(csvOf(w.db(),
                     "SELECT r.name, t.rank, t.world_size FROM trace t JOIN run r ON r.id = t.run_id "
                     "ORDER BY t.rank"),
            QStringLiteral("name,rank,world_size\nkineto,0,128\nkineto,1,128\n"));
    }

    // A rank the file does not state comes from its name, with a warning; both ranks form one run.
    void rankFromFileName()
    {
        const QString ws = freshWorkspace();
        ImportRunner runner(m_registry, ws);
        runner.run({ fixture(QStringLiteral("ranks_by_name")) });
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(csvOf(w.db(),
                     "SELECT r.name, t.rank, coalesce(t.world_size, '') AS world_size, "
                     "(SELECT count(*) FROM diagnostic d WHERE d.source_id = t.source_id "
                     "AND d.code = 'rank-from-file-name') AS warned "
                     "FROM trace t JOIN run r ON r.id = t.run_id ORDER BY t.rank"),
            QStringLiteral("name,rank,world_size,warned\nranks_by_name,0,,1\nranks_by_name,1,,1\n"));
    }

    // A folder of rank traces is a run named after the folder, not after the files' common prefix; a
    // second job in the same folder (other file names) is told apart by its file pattern.
    void rankFolderNamesTheRun()
    {
        QTemporaryDir d;
        const QString job = d.filePath(QStringLiteral("llama-7b-pretrain"));
        QVERIFY(QDir().mkpath(job));
        const auto write = [&](const QString &name, int rank) { // the op's name keeps the files apart
            QFile f(job + u'/' + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                QStringLiteral("{\"distributedInfo\": {\"rank\": %1, \"world_size\": 2}, \"traceEvents\": ["
                               "{\"ph\": \"X\", \"name\": \"%2\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
                               "\"dur\": 2}]}")
                    .arg(rank)
                    .arg(name)
                    .toUtf8());
        };
        for (int rank : { 0, 1 }) {
            write(QStringLiteral("rank-%1.json").arg(rank), rank);
            write(QStringLiteral("eval_rank%1.json").arg(rank), rank);
        }
        const QString ws = freshWorkspace();
        ImportRunner runner(m_registry, ws);
        runner.run({ job + QStringLiteral("/rank-0.json"), job + QStringLiteral("/rank-1.json") });
        runner.run({ job + QStringLiteral("/eval_rank0.json"), job + QStringLiteral("/eval_rank1.json") });
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(csvOf(w.db(),
                     "SELECT r.name, t.name AS trace, t.rank FROM trace t JOIN run r ON r.id = t.run_id "
                     "ORDER BY r.id, t.rank"),
            QStringLiteral(
                "name,trace,rank\nllama-7b-pretrain,rank-0.json,0\nllama-7b-pretrain,rank-1.json,1\n"
                "llama-7b-pretrain/eval_rank*,eval_rank0.json,0\n"
                "llama-7b-pretrain/eval_rank*,eval_rank1.json,1\n"));
    }

    // A gzip file that inflates past the bound stops with a message naming it and the byte reached,
    // and leaves the workspace as it was.
    void decompressionBomb_data()
    {
        QTest::addColumn<int>("eventsBefore");
        QTest::newRow("at-once") << 0;
        // Chunks of events parsed before the framer thread meets the limit: its error still fails
        // the file, and nothing of the events before it is kept.
        QTest::newRow("after-events") << 20000;
    }
    void decompressionBomb()
    {
        QFETCH(int, eventsBefore);
        QTemporaryDir d;
        const QString bomb = d.filePath(QStringLiteral("bomb.json.gz"));
        gzFile gz = gzopen(bomb.toUtf8().constData(), "wb9");
        QVERIFY(gz);
        const QByteArray head = "{\"traceEvents\":[", spaces(1 << 20, ' ');
        gzwrite(gz, head.constData(), unsigned(head.size()));
        for (int i = 0; i < eventsBefore; ++i) {
            const QByteArray e
                = QByteArrayLiteral("{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":")
                + QByteArray::number(i * 10) + QByteArrayLiteral(",\"dur\":5},");
            gzwrite(gz, e.constData(), unsigned(e.size()));
        }
        for (int i = 0; i < 24; ++i)
            gzwrite(gz, spaces.constData(), unsigned(spaces.size()));
        gzclose(gz);
        QVERIFY(QFileInfo(bomb).size() < 200 * 1024);
        qputenv("PLUMB_MAX_INFLATED_BYTES", QByteArray::number(16 << 20));
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, bomb);
        qunsetenv("PLUMB_MAX_INFLATED_BYTES");
        QCOMPARE(int(r.status), int(FileImportResult::Status::Failed));
        QVERIFY2(r.message.contains(QStringLiteral("bomb.json.gz inflates to more than 16777216 bytes")),
            qPrintable(r.message));
        QVERIFY2(r.location.startsWith(QStringLiteral("byte ")), qPrintable(r.location));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice"), 0);
    }

    // Stray closing brackets between events (a fuzzer's find: the reader looped on an empty value
    // for ever): each is skipped and counted, the events around them imported, and a top-level
    // field with no value is ignored with a warning.
    void strayClosersBetweenEvents()
    {
        QTemporaryDir d;
        const QString path = d.filePath(QStringLiteral("stray.json"));
        const QByteArray ev
            = "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2}";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [" + ev + ", 1}, " + ev + ", }}, " + ev + "], \"note\": }");
        f.close();
        const QString ws = freshWorkspace();
        const auto r = importOne(ws, path);
        QCOMPARE(int(r.status), int(FileImportResult::Status::Imported));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM slice"), 3);
        QVERIFY(r.skipped >= 3);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'malformed-field'"), 1);
    }

    // Importing the same bytes again is a no-op that says so.
    void reimportIsNoop()
    {
        const QString ws = freshWorkspace();
        QCOMPARE(int(importOne(ws, fixture(QStringLiteral("basic.json"))).status),
            int(FileImportResult::Status::Imported));
        QTemporaryDir d;
        const QString copy = d.filePath(QStringLiteral("renamed_copy.json"));
        QVERIFY(QFile::copy(fixture(QStringLiteral("basic.json")), copy));
        const auto again = importOne(ws, copy);
        QCOMPARE(int(again.status), int(FileImportResult::Status::AlreadyImported));
        QVERIFY(again.message.contains(QStringLiteral("already")));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM trace"), 1);
    }
};

QTEST_GUILESS_MAIN(TestChromeTraceImporter)
#include "tst_chrometraceimporter.moc"
