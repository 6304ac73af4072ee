// SPDX-License-Identifier: GPL-3.0-or-later
// plumb query's core: ReadOnlyQuery (one statement on a reader connection, its authorizer refusing
// every kind of write, ATTACH, state-changing PRAGMAs and extensions) and QueryPresenter (table, CSV
// per RFC 4180, plumb.query/1 JSON); the public views over hand-written rows.

#include "importhelpers.h"
#include "present/querypresent.h"
#include "store/readonlyquery.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

// A workspace with one trace: a launch on a thread and the kernel and memcpy it caused on a stream,
// a ProfilerStep around them, a counter, a run with a param and two metric points.
QString makeWorkspace(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("q.plumb"));
    Workspace ws(path, Workspace::Role::Writer);
    ws.db().exec(R"sql(
        INSERT INTO string(id, str) VALUES (1, 'cudaLaunchKernel'), (2, 'cuda_runtime'), (3, 'gemm'), (4, 'kernel'),
            (5, 'Memcpy HtoD'), (6, 'gpu_memcpy'), (7, 'ProfilerStep#3'), (8, 'loss');
        INSERT INTO args(id, json) VALUES (1, '{"bytes":4096}');
        INSERT INTO source(id, path, name, size_bytes, content_hash, format, importer_version, status, imported_at_ns)
            VALUES (1, '/t.json', 't.json', 10, 'h', 'chrometrace', 1, 'ok', 0);
        INSERT INTO run(id, key, name, created_at_ns) VALUES (1, 'k', 'job', 0);
        INSERT INTO trace(id, run_id, source_id, format, name, start_ns, end_ns, slice_count, kernel_count, gpu_op_count,
            flow_count, corr_flow_count, counter_count) VALUES (1, 1, 1, 'chrometrace', 't.json', 0, 1000, 4, 1, 2, 2, 2, 1);
        INSERT INTO process(id, trace_id, pid, label, name, kind, device_index) VALUES (1, 1, 10, '10', 'python', 'cpu', NULL),
            (2, 1, 0, '0', 'GPU 0', 'gpu', 0);
        INSERT INTO track(id, trace_id, process_id, kind, tid, name, stream) VALUES (1, 1, 1, 'thread', 11, 'main', NULL),
            (2, 1, 2, 'gpu_stream', 7, 'stream 7', 7), (3, 1, 1, 'counter', NULL, 'Memory allocated', NULL);
        INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id, corr, args_id) VALUES
            (1, 0, 1, 900, 0, 7, NULL, NULL, NULL), (1, 10, 2, 5, 1, 1, 2, 42, NULL),
            (2, 100, 3, 50, 0, 3, 4, 42, NULL), (2, 200, 4, 20, 0, 5, 6, 43, 1);
        INSERT INTO slice(track_id, ts, id, dur, depth, name_id, cat_id, corr) VALUES (1, 20, 5, 5, 1, 1, 2, 43);
        INSERT INTO counter(track_id, ts, id, value) VALUES (3, 0, 1, 1024.0);
        INSERT INTO param(run_id, key, value, kind) VALUES (1, 'lr', '0.001', 'number');
        INSERT INTO metric(run_id, key_id, segment, step, dup, wall_time_ns, value) VALUES (1, 8, 0, 1, 0, 5, 2.5),
            (1, 8, 0, 2, 0, 6, 1.25);
    )sql");
    return path;
}

QString present(QueryFormat format, ReadOnlyQuery &q)
{
    QString text;
    QueryPresenter p(format, [&](const QString &s) { text += s; });
    p.begin(q.columns());
    QVariantList row;
    while (q.next(row))
        p.row(row);
    p.end();
    return text;
}

QString run(const QString &path, const QString &sql, QueryFormat format = QueryFormat::Csv)
{
    Workspace ws(path, Workspace::Role::Reader);
    ReadOnlyQuery q(ws.db());
    q.prepare(sql);
    return present(format, q);
}

} // namespace

class TestReadOnlyQuery : public QObject {
    Q_OBJECT

private slots:
    void viewsResolveNamesAndUnits()
    {
        QTemporaryDir dir;
        const QString ws = makeWorkspace(dir);
        QCOMPARE(run(ws,
                     QStringLiteral("SELECT trace_id, name, ts_ns, dur_ns, end_ns, device, stream, "
                                    "correlation FROM kernels")),
            QStringLiteral("trace_id,name,ts_ns,dur_ns,end_ns,device,stream,correlation\r\n1,gemm,100,50,150,"
                           "0,7,42\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT kind, name, bytes FROM gpu_ops ORDER BY ts_ns")),
            QStringLiteral("kind,name,bytes\r\nkernel,gemm,\r\nmemcpy,Memcpy HtoD,4096\r\n"));
        // The launches become correlation flows, each to its op (the step, without a corr, is none).
        QCOMPARE(run(ws,
                     QStringLiteral("SELECT kind, flow_key, src_track_id, src_ts_ns, dst_track_id, dst_ts_ns "
                                    "FROM flows ORDER BY flow_key")),
            QStringLiteral(
                "kind,flow_key,src_track_id,src_ts_ns,dst_track_id,dst_ts_ns\r\ncorrelation,42,1,10,2,100\r\n"
                "correlation,43,1,20,2,200\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT step, start_ns, end_ns, origin FROM steps")),
            QStringLiteral("step,start_ns,end_ns,origin\r\n3,0,900,profiler_step\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT name, process_name, ts_ns, value FROM counters")),
            QStringLiteral("name,process_name,ts_ns,value\r\nMemory allocated,python,0,1024.0\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT run_name, key, step, value FROM metrics ORDER BY step")),
            QStringLiteral("run_name,key,step,value\r\njob,loss,1,2.5\r\njob,loss,2,1.25\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT count(*) FROM slices WHERE trace_id = 1")),
            QStringLiteral("count(*)\r\n5\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT run_name, source_path, dur_ns FROM traces")),
            QStringLiteral("run_name,source_path,dur_ns\r\njob,/t.json,1000\r\n"));
    }

    // A workspace an older build wrote gets the views when first opened (the reader upgrades it).
    void olderWorkspaceGetsTheViews()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.plumb"));
        {
            SqliteDb db = createWorkspaceAtSchema(path, 11);
            QCOMPARE(db.queryInt("SELECT count(*) FROM sqlite_master WHERE type = 'view'"), 0);
        }
        QCOMPARE(
            run(path, QStringLiteral("SELECT count(*) AS n FROM kernels")), QStringLiteral("n\r\n0\r\n"));
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE type = 'view'"), 17);
    }

    void refusesWhatWouldChangeAnything_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("reason");
        QTest::newRow("insert") << QStringLiteral(
            "INSERT INTO run(key, name, created_at_ns) VALUES ('a', 'b', 0)")
                                << QStringLiteral("INSERT into run");
        QTest::newRow("insert select") << QStringLiteral("INSERT INTO param SELECT 1, 'x', 'y', 'string'")
                                       << QStringLiteral("INSERT into param");
        QTest::newRow("update") << QStringLiteral("UPDATE slice SET dur = 0")
                                << QStringLiteral("UPDATE of slice");
        QTest::newRow("delete") << QStringLiteral("DELETE FROM trace") << QStringLiteral("DELETE from trace");
        QTest::newRow("replace") << QStringLiteral(
            "REPLACE INTO run(id, key, name, created_at_ns) VALUES (1, 'k', 'x', 0)")
                                 << QStringLiteral("INSERT into run");
        QTest::newRow("create table")
            << QStringLiteral("CREATE TABLE t(x)") << QStringLiteral("changes the schema");
        QTest::newRow("create temp") << QStringLiteral("CREATE TEMP TABLE t(x)")
                                     << QStringLiteral("changes the schema");
        QTest::newRow("create index")
            << QStringLiteral("CREATE INDEX i ON run(name)") << QStringLiteral("changes the schema");
        QTest::newRow("create trigger")
            << QStringLiteral("CREATE TRIGGER tr AFTER INSERT ON run BEGIN SELECT 1; END")
            << QStringLiteral("changes the schema");
        QTest::newRow("drop view") << QStringLiteral("DROP VIEW kernels")
                                   << QStringLiteral("changes the schema");
        QTest::newRow("drop table") << QStringLiteral("DROP TABLE IF EXISTS slice")
                                    << QStringLiteral("changes the schema");
        QTest::newRow("alter") << QStringLiteral("ALTER TABLE run RENAME TO r")
                               << QStringLiteral("changes the schema");
        QTest::newRow("attach") << QStringLiteral("ATTACH ':memory:' AS m") << QStringLiteral("ATTACH");
        QTest::newRow("detach") << QStringLiteral("DETACH temp") << QStringLiteral("DETACH");
        QTest::newRow("pragma set") << QStringLiteral("PRAGMA user_version = 3")
                                    << QStringLiteral("changes a setting");
        QTest::newRow("pragma query_only")
            << QStringLiteral("PRAGMA query_only = 0") << QStringLiteral("changes a setting");
        QTest::newRow("pragma writable_schema")
            << QStringLiteral("PRAGMA writable_schema = ON") << QStringLiteral("PRAGMA writable_schema");
        QTest::newRow("pragma checkpoint")
            << QStringLiteral("PRAGMA wal_checkpoint") << QStringLiteral("PRAGMA wal_checkpoint");
        QTest::newRow("pragma incremental_vacuum")
            << QStringLiteral("PRAGMA incremental_vacuum") << QStringLiteral("PRAGMA incremental_vacuum");
        QTest::newRow("load_extension")
            << QStringLiteral("SELECT load_extension('/tmp/x.so')") << QStringLiteral("load_extension");
        QTest::newRow("load_extension in a view query")
            << QStringLiteral("SELECT name FROM kernels WHERE load_extension(name) IS NULL")
            << QStringLiteral("load_extension");
        QTest::newRow("begin") << QStringLiteral("BEGIN") << QStringLiteral("transactions");
        QTest::newRow("savepoint") << QStringLiteral("SAVEPOINT s") << QStringLiteral("transactions");
        QTest::newRow("analyze") << QStringLiteral("ANALYZE") << QStringLiteral("changes the schema");
        QTest::newRow("reindex") << QStringLiteral("REINDEX") << QStringLiteral("changes the schema");
        QTest::newRow("vacuum") << QStringLiteral("VACUUM") << QStringLiteral("refused");
        QTest::newRow("vacuum into") << QStringLiteral("VACUUM INTO '/tmp/plumb-query-copy.db'")
                                     << QStringLiteral("refused");
    }
    void refusesWhatWouldChangeAnything()
    {
        QFETCH(QString, sql);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = makeWorkspace(dir);
        Workspace ws(path, Workspace::Role::Reader);
        const int64_t slices = ws.db().queryInt("SELECT count(*) FROM slice");
        {
            ReadOnlyQuery q(ws.db());
            bool thrown = false;
            try {
                q.prepare(sql);
                QVariantList row;
                while (q.next(row)) { }
            } catch (const QueryError &e) {
                thrown = true;
                QVERIFY2(e.refused(), qPrintable(e.message()));
                QVERIFY2(e.message().contains(QLatin1String("refused")) && e.message().contains(reason)
                        && e.message().contains(sql),
                    qPrintable(e.message()));
            }
            QVERIFY2(thrown, qPrintable(sql));
        }
        // Nothing changed, and the connection reads as before once the query is gone.
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice"), slices);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'kernels'"), 1);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/plumb-query-copy.db")));
    }

    void readsWhatOnlyReads()
    {
        QTemporaryDir dir;
        const QString ws = makeWorkspace(dir);
        QVERIFY(run(ws, QStringLiteral("PRAGMA table_info(kernels)")).contains(QLatin1String("correlation")));
        QCOMPARE(run(ws, QStringLiteral("PRAGMA user_version")),
            QStringLiteral("user_version\r\n%1\r\n").arg(Workspace::currentSchemaVersion()));
        QCOMPARE(run(ws, QStringLiteral("SELECT name FROM pragma_table_info('steps') WHERE cid = 2")),
            QStringLiteral("name\r\nstep\r\n"));
        QCOMPARE(
            run(ws,
                QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) "
                               "SELECT sum(i) AS s FROM n;  -- a comment")),
            QStringLiteral("s\r\n6\r\n"));
        QCOMPARE(run(ws,
                     QStringLiteral(
                         "SELECT json_extract(args, '$.bytes') AS b FROM gpu_ops WHERE kind = 'memcpy'")),
            QStringLiteral("b\r\n4096\r\n"));
    }

    void badStatements_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("message");
        QTest::newRow("syntax") << QStringLiteral("SELEC 1")
                                << QStringLiteral("near \"SELEC\": syntax error");
        QTest::newRow("no table") << QStringLiteral("SELECT * FROM nowhere")
                                  << QStringLiteral("no such table: nowhere");
        QTest::newRow("no column") << QStringLiteral("SELECT nope FROM kernels")
                                   << QStringLiteral("no such column: nope");
        QTest::newRow("two statements")
            << QStringLiteral("SELECT 1; SELECT 2") << QStringLiteral("one statement at a time");
        QTest::newRow("empty") << QStringLiteral("  -- nothing") << QStringLiteral("no statement to run");
        QTest::newRow("run-time") << QStringLiteral("SELECT abs(-9223372036854775807 - 1)")
                                  << QStringLiteral("integer overflow");
    }
    void badStatements()
    {
        QFETCH(QString, sql);
        QFETCH(QString, message);
        QTemporaryDir dir;
        Workspace ws(makeWorkspace(dir), Workspace::Role::Reader);
        ReadOnlyQuery q(ws.db());
        try {
            q.prepare(sql);
            QVariantList row;
            while (q.next(row)) { }
            QFAIL("no error");
        } catch (const QueryError &e) {
            QVERIFY2(!e.refused(), qPrintable(e.message()));
            QVERIFY2(e.message().contains(message), qPrintable(e.message()));
        }
    }

    void valuesKeepTheirTypes()
    {
        QTemporaryDir dir;
        Workspace ws(makeWorkspace(dir), Workspace::Role::Reader);
        ReadOnlyQuery q(ws.db());
        q.prepare(QStringLiteral("SELECT 1 AS i, 2.0 AS r, 'x' AS t, NULL AS n, x'00ff' AS b"));
        QCOMPARE(q.columns(),
            (QStringList { QStringLiteral("i"), QStringLiteral("r"), QStringLiteral("t"), QStringLiteral("n"),
                QStringLiteral("b") }));
        QVariantList row;
        QVERIFY(q.next(row));
        QCOMPARE(row[0].typeId(), int(QMetaType::LongLong));
        QCOMPARE(row[1].typeId(), int(QMetaType::Double));
        QCOMPARE(row[2].toString(), QStringLiteral("x"));
        QVERIFY(row[3].isNull());
        QCOMPARE(row[4].toByteArray(), QByteArray("\x00\xff", 2));
        QVERIFY(!q.next(row));
    }

    void csvPerRfc4180()
    {
        QCOMPARE(csvField(QStringLiteral("plain")), QStringLiteral("plain"));
        QCOMPARE(csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
        QCOMPARE(csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField(QStringLiteral("a\nb")), QStringLiteral("\"a\nb\""));
        QCOMPARE(csvField(QStringLiteral("a\rb")), QStringLiteral("\"a\rb\""));
        QCOMPARE(csvField(QString()), QString());
        QTemporaryDir dir;
        const QString ws = makeWorkspace(dir);
        QCOMPARE(
            run(ws, QStringLiteral("SELECT 'a,b' AS \"x,y\", NULL AS n, 1e308 * 10 AS inf, x'00ff' AS b")),
            QStringLiteral("\"x,y\",n,inf,b\r\n\"a,b\",,Infinity,AP8=\r\n"));
        QCOMPARE(run(ws, QStringLiteral("SELECT name FROM kernels WHERE 0")), QStringLiteral("name\r\n"));
    }

    void json()
    {
        QTemporaryDir dir;
        const QString ws = makeWorkspace(dir);
        const QString text = run(ws,
            QStringLiteral(
                "SELECT name, dur_ns, 0.5 AS half, NULL AS n, 'q\"\\' AS s FROM gpu_ops ORDER BY ts_ns"),
            QueryFormat::Json);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + text));
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("plumb.query/1"));
        QCOMPARE(o.value(QLatin1String("columns")).toArray().size(), 5);
        const QJsonArray rows = o.value(QLatin1String("rows")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("gemm"));
        QCOMPARE(rows[0].toObject().value(QLatin1String("dur_ns")).toInteger(), 50);
        QCOMPARE(rows[0].toObject().value(QLatin1String("half")).toDouble(), 0.5);
        QVERIFY(rows[0].toObject().value(QLatin1String("n")).isNull());
        QCOMPARE(rows[1].toObject().value(QLatin1String("s")).toString(), QStringLiteral("q\"\\"));
        // The columns in the statement's order.
        QVERIFY(text.indexOf(QLatin1String("\"name\": \"gemm\""))
            < text.indexOf(QLatin1String("\"dur_ns\": 50")));
        const QJsonObject empty = QJsonDocument::fromJson(
            run(ws, QStringLiteral("SELECT 1 AS x WHERE 0"), QueryFormat::Json).toUtf8())
                                      .object();
        QCOMPARE(empty.value(QLatin1String("rows")).toArray().size(), 0);
        QCOMPARE(empty.value(QLatin1String("columns")).toArray().first().toString(), QStringLiteral("x"));
    }

    void tableAligned()
    {
        QTemporaryDir dir;
        const QString ws = makeWorkspace(dir);
        QCOMPARE(
            run(ws, QStringLiteral("SELECT name, dur_ns FROM gpu_ops ORDER BY ts_ns"), QueryFormat::Table),
            QStringLiteral("name         dur_ns\n"
                           "-----------  ------\n"
                           "gemm             50\n"
                           "Memcpy HtoD      20\n"
                           "(2 rows)\n"));
        const QString longName(100, QLatin1Char('k'));
        const QString table = run(ws, QStringLiteral("SELECT '%1' AS n").arg(longName), QueryFormat::Table);
        QVERIFY2(table.contains(QString(79, QLatin1Char('k')) + QChar(0x2026)), qPrintable(table));
    }
};

QTEST_GUILESS_MAIN(TestReadOnlyQuery)
#include "tst_readonlyquery.moc"
