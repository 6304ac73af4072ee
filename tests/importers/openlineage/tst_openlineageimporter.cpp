// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the OpenLineage importer. The real files (../shared/data/lineage/openlineage/) are
// compared with data/openlineage_reference.txt, which data/openlineage_reference.py computed from
// the same files with Python's json module; the small fixtures are written by data/gen_fixtures.py
// and each test says what it expects of its fixture.

#include "builtinimporters.h"
#include "ingest/importcontext.h"
#include "ingest/importerregistry.h"
#include "ingest/importerror.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "openlineage/openlineageimporter.h"
#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QtTest>

#include <set>

using namespace plumb;

namespace {

using Status = FileImportResult::Status;

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString realFile(const QString &name)
{
    return QStringLiteral(PLUMB_SHARED_DATA "/lineage/openlineage/") + name;
}

QByteArray readBytes(const QString &path)
{
    QFile in(path);
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
}

QString text(SqliteDb &db, const QString &sql)
{
    SqliteStmt st(db, sql.toStdString());
    return st.step() ? st.columnText(0) : QString();
}

int64_t count(SqliteDb &db, const QString &sql)
{
    return db.queryInt(sql.toStdString(), -1);
}

int64_t utcNs(int h, int m, int s, int ms = 0)
{
    return QDateTime(QDate(2024, 1, 1), QTime(h, m, s, ms), QTimeZone::utc()).toMSecsSinceEpoch() * 1000000;
}

// The counts the reference script prints, from the imported workspace.
QString counts(SqliteDb &db)
{
    const auto nodes = [&](const char *type) {
        return count(db,
            QStringLiteral("SELECT count(*) FROM lineage_node WHERE type = '%1'").arg(QLatin1String(type)));
    };
    const auto edges = [&](const char *kind) {
        return count(db,
            QStringLiteral("SELECT count(*) FROM lineage_edge WHERE kind = '%1'").arg(QLatin1String(kind)));
    };
    const int64_t events = count(db, QStringLiteral("SELECT sum(event_count) FROM source"));
    const int64_t skipped = count(db, QStringLiteral("SELECT sum(skipped_count) FROM source"));
    QStringList states;
    SqliteStmt st(db,
        "SELECT coalesce(state, 'none'), count(*) FROM lineage_node WHERE type = 'job_run' GROUP BY 1 "
        "ORDER BY 1");
    while (st.step())
        states << st.columnText(0) + QLatin1Char(':') + QString::number(st.columnInt(1));
    return QStringLiteral(
        "events=%1 run_events=%2 runs=%3 jobs=%4 datasets=%5 input=%6 output=%7 contains=%8 "
        "parent=%9 states=%10")
        .arg(events)
        .arg(events - skipped)
        .arg(nodes("job_run"))
        .arg(nodes("job"))
        .arg(nodes("dataset"))
        .arg(edges("input"))
        .arg(edges("output"))
        .arg(edges("contains"))
        .arg(edges("parent"))
        .arg(states.join(QLatin1Char(',')));
}

// "name:depth" of each node the walk reached.
std::set<QString> reached(const LineageGraph &g)
{
    std::set<QString> out;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        out.insert(g.nodes[i].name + QLatin1Char(':') + QString::number(g.depth[i]));
    return out;
}

} // namespace

class TestOpenLineageImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    std::vector<FileImportResult> import(const QString &ws, const QStringList &paths)
    {
        ImportRunner runner(m_registry, ws);
        return runner.run(paths);
    }

    // Imports one file into a fresh workspace, which it returns; fails the test when it was not imported.
    QString importOne(const QString &path, FileImportResult *result = nullptr)
    {
        QString ws = freshWorkspace();
        const auto r = import(ws, { path });
        if (r.size() != 1 || r[0].status != Status::Imported || r[0].format != QLatin1String("openlineage")) {
            qWarning("%s: %s (%s)", qPrintable(path),
                r.empty() ? "no result" : qPrintable(statusName(r[0].status)),
                r.empty() ? "" : qPrintable(r[0].message));
            return {};
        }
        if (result)
            *result = r[0];
        return ws;
    }

    LineageNodeInfo byKey(Workspace &ws, const QString &key)
    {
        const auto found = LineageReader(ws).find(key);
        return found.size() == 1 ? found[0] : LineageNodeInfo();
    }

private Q_SLOTS:
    void initTestCase() { registerBuiltinImporters(m_registry); }

    void realFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("example_full_event") << QStringLiteral("example_full_event.json");
        QTest::newRow("dbt") << QStringLiteral("dbt_successful_run_events.json");
        QTest::newRow("marquez template") << QStringLiteral("marquez_food_delivery.template.json");
    }

    // Golden counts from the reference script (events, runs, jobs, datasets, edges by kind, states).
    void realFiles()
    {
        QFETCH(QString, name);
        if (!QFileInfo::exists(realFile(name)))
            QSKIP("the shared OpenLineage samples are not here");
        QString expected;
        for (const QString &line :
            QString::fromUtf8(readBytes(fixture(QStringLiteral("openlineage_reference.txt"))))
                .split(QLatin1Char('\n')))
            if (line.startsWith(name + QLatin1Char(' ')))
                expected = line.mid(name.size() + 1);
        QVERIFY2(!expected.isEmpty(), "no golden line for this file");
        const QString wsPath = importOne(realFile(name));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(counts(ws.db()), expected);
        const LineageReader::Counts c = LineageReader(ws).counts();
        QCOMPARE(c.executions + c.artifacts + c.contexts,
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node")));
    }

    void exampleEventFacets()
    {
        if (!QFileInfo::exists(realFile(QStringLiteral("example_full_event.json"))))
            QSKIP("the shared OpenLineage samples are not here");
        const QString wsPath = importOne(realFile(QStringLiteral("example_full_event.json")));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo run
            = byKey(ws, QStringLiteral("openlineage:run/ea041791-68bc-4ae1-bd89-4c8106a157e4"));
        QCOMPARE(run.name, QStringLiteral("my-scheduler-namespace/myjob.mytask (ea041791)"));
        QCOMPARE(run.state, QStringLiteral("COMPLETE"));
        QCOMPARE(run.endNs,
            QDateTime(QDate(2020, 12, 28), QTime(19, 51, 1, 641), QTimeZone::utc()).toMSecsSinceEpoch()
                * 1000000);
        QCOMPARE(run.startNs, run.endNs);
        QCOMPARE(run.contexts, QStringList { QStringLiteral("my-scheduler-namespace/myjob.mytask") });
        SqliteDb &db = ws.db();
        const QString id = QString::number(run.id);
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.nominalTime.nominalStartTime') FROM "
                                    "lineage_node WHERE id = ")
                         + id),
            QStringLiteral("2020-12-17T03:00:00.001Z"));
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.documentation.description') FROM "
                                    "lineage_node WHERE id = ")
                         + id),
            QStringLiteral("string"));
        QCOMPARE(
            text(db,
                QStringLiteral("SELECT json_extract(properties, '$.producer') FROM lineage_node WHERE id = ")
                    + id),
            QStringLiteral("https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client"));
        const LineageNodeInfo table
            = byKey(ws, QStringLiteral("openlineage:dataset/my-datasource-namespace/instance.schema.table"));
        QCOMPARE(table.uri, QStringLiteral("my-datasource-namespace/instance.schema.table"));
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.schema.fields[0].name') FROM "
                                    "lineage_node WHERE id = %1")
                         .arg(table.id)),
            QStringLiteral("column1"));
        QCOMPARE(text(db,
                     QStringLiteral(
                         "SELECT json_extract(properties, '$.dataQualityAssertions.assertions[1].column') "
                         "FROM lineage_edge WHERE kind = 'input'")),
            QStringLiteral("id"));
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.outputStatistics.rowCount') FROM "
                                    "lineage_edge WHERE kind = 'output'")),
            QStringLiteral("2000"));
        // The parent facet: a node for the parent run, in its job, with a 'parent' edge to the run.
        const LineageNodeInfo parent
            = byKey(ws, QStringLiteral("openlineage:run/3f5e83fa-3480-44ff-99c5-ff943904e5e8"));
        QVERIFY(parent.id != 0);
        QVERIFY(parent.state.isEmpty());
        QCOMPARE(
            count(db,
                QStringLiteral(
                    "SELECT count(*) FROM lineage_edge WHERE kind = 'parent' AND from_id = %1 AND to_id = %2")
                    .arg(parent.id)
                    .arg(run.id)),
            1);
    }

    // Which dbt models feed which, through the tables they read and write.
    void dbtJobGraph()
    {
        if (!QFileInfo::exists(realFile(QStringLiteral("dbt_successful_run_events.json"))))
            QSKIP("the shared OpenLineage samples are not here");
        FileImportResult result;
        const QString wsPath = importOne(realFile(QStringLiteral("dbt_successful_run_events.json")), &result);
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        LineageReader reader(ws);
        const QString ns = QStringLiteral("dbt-test-namespace/");
        const auto runKey = [&](const char *job) -> QString {
            return QStringLiteral("openlineage:run/") + ns + QLatin1String(job)
                + QStringLiteral("/{{ any(result) }}");
        };
        const LineageNodeInfo customers = byKey(ws, runKey("model.jaffle_shop.customers"));
        QVERIFY(customers.id != 0);
        QCOMPARE(customers.state, QStringLiteral("COMPLETE"));
        QCOMPARE(
            customers.endNs - customers.startNs, Q_INT64_C(599549000)); // 19:45:53.409256 .. 19:45:54.008805
        const std::set<QString> up = reached(reader.neighbourhood(customers.id, LineageDirection::Up, 2));
        const std::set<QString> expectedUp = { ns + QStringLiteral("model.jaffle_shop.customers:0"),
            QStringLiteral("postgres.public.stg_customers:1"), QStringLiteral("postgres.public.stg_orders:1"),
            QStringLiteral("postgres.public.stg_payments:1"),
            ns + QStringLiteral("model.jaffle_shop.stg_customers:2"),
            ns + QStringLiteral("model.jaffle_shop.stg_orders:2"),
            ns + QStringLiteral("model.jaffle_shop.stg_payments:2") };
        QCOMPARE(up, expectedUp);
        // stg_orders feeds customers and orders; stg_customers feeds customers only.
        const LineageNodeInfo stgOrders = byKey(
            ws, QStringLiteral("openlineage:dataset/postgres://postgres:5432/postgres.public.stg_orders"));
        QCOMPARE(reached(reader.neighbourhood(stgOrders.id, LineageDirection::Down, 1)),
            (std::set<QString> { QStringLiteral("postgres.public.stg_orders:0"),
                ns + QStringLiteral("model.jaffle_shop.customers:1"),
                ns + QStringLiteral("model.jaffle_shop.orders:1") }));
        const LineageNodeInfo orders = byKey(ws, runKey("model.jaffle_shop.orders"));
        const std::set<QString> ordersUp = reached(reader.neighbourhood(orders.id, LineageDirection::Up, 4));
        QVERIFY(ordersUp.count(QStringLiteral("postgres.public.raw_payments:3")));
        QVERIFY(!ordersUp.count(QStringLiteral("postgres.public.raw_customers:3")));
        // The dbt run is the parent of the five model runs, each model run of its six SQL statements.
        const LineageNodeInfo dbtRun = byKey(ws, runKey("dbt-run-jaffle_shop"));
        QCOMPARE(
            count(ws.db(),
                QStringLiteral("SELECT count(*) FROM lineage_edge WHERE kind = 'parent' AND from_id = %1")
                    .arg(dbtRun.id)),
            5);
        QCOMPARE(count(ws.db(),
                     QStringLiteral(
                         "SELECT count(*) FROM lineage_edge e JOIN lineage_node c ON c.id = e.to_id "
                         "WHERE e.kind = 'parent' AND e.from_id = %1 AND c.name LIKE '%.customers.sql.%'")
                         .arg(customers.id)),
            6);
        QVERIFY(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'placeholder-run-id'") == 1);
        QCOMPARE(result.skipped, 0);
    }

    void marquezTemplateTimes()
    {
        if (!QFileInfo::exists(realFile(QStringLiteral("marquez_food_delivery.template.json"))))
            QSKIP("the shared OpenLineage samples are not here");
        const QString wsPath = importOne(realFile(QStringLiteral("marquez_food_delivery.template.json")));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(
            count(ws.db(),
                QStringLiteral(
                    "SELECT count(*) FROM lineage_node WHERE start_ns IS NOT NULL OR end_ns IS NOT NULL")),
            0);
        QCOMPARE(
            count(ws.db(),
                QStringLiteral(
                    "SELECT count FROM diagnostic WHERE code = 'bad-event-time' AND severity = 'warning'")),
            26);
        const LineageNodeInfo discounts
            = byKey(ws, QStringLiteral("openlineage:dataset/food_delivery/public.discounts"));
        const std::set<QString> down
            = reached(LineageReader(ws).neighbourhood(discounts.id, LineageDirection::Down, 1));
        QCOMPARE(down.size(), size_t(2));
        QVERIFY(down.count(QStringLiteral("food_delivery/email_discounts (3ab25429):1")));
    }

    void sniffing()
    {
        const OpenLineageImporter ol;
        for (const char *name : { "example_full_event.json", "dbt_successful_run_events.json",
                 "marquez_food_delivery.template.json" }) {
            const QString path = realFile(QLatin1String(name));
            if (!QFileInfo::exists(path))
                continue;
            const QByteArray head = InputFile::peek(path, 64 * 1024);
            QVERIFY2(ol.sniff(head, path) >= 80, name);
            QCOMPARE(m_registry.find(head, path)->id(), QStringLiteral("openlineage"));
        }
        for (const char *name :
            { "broken_line.ndjson", "out_of_order.json", "cycle.ndjson", "unknown_facets.json" }) {
            const QByteArray head = readBytes(fixture(QLatin1String(name)));
            QCOMPARE(m_registry.find(head, QLatin1String(name))->id(), QStringLiteral("openlineage"));
        }
        // Not ours: trace events, a metric log, JSON of another kind.
        QCOMPARE(ol.sniff(R"({"traceEvents": [{"ph": "X", "name": "run", "eventTime": 1}], "job": 1})",
                     QStringLiteral("t.json")),
            0);
        QCOMPARE(ol.sniff("{\"step\": 1, \"loss\": 0.5}\n{\"step\": 2, \"loss\": 0.4}\n",
                     QStringLiteral("m.jsonl")),
            0);
        QCOMPARE(
            ol.sniff(readBytes(fixture(QStringLiteral("not_openlineage.json"))), QStringLiteral("x.json")),
            0);
        QCOMPARE(ol.sniff("step,loss\n1,0.5\n", QStringLiteral("m.csv")), 0);
    }

    // JSON lines with line 3 cut short: the other four import, the broken one is named by line and byte.
    void brokenLine()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("broken_line.ndjson")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.records, 5);
        QCOMPARE(r.skipped, 1);
        const QByteArray bytes = readBytes(fixture(QStringLiteral("broken_line.ndjson")));
        const qsizetype line3 = bytes.indexOf('\n', bytes.indexOf('\n') + 1) + 1;
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(text(ws.db(), QStringLiteral("SELECT location FROM diagnostic WHERE code = 'bad-json'")),
            QStringLiteral("line 3, byte %1").arg(line3));
        QCOMPARE(
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node WHERE type = 'job_run'")), 3);
        QCOMPARE(count(ws.db(),
                     QStringLiteral("SELECT count(*) FROM lineage_node WHERE key = "
                                    "'openlineage:run/22222222-0000-0000-0000-000000000002'")),
            0);
        const LineageNodeInfo failed
            = byKey(ws, QStringLiteral("openlineage:run/44444444-0000-0000-0000-000000000004"));
        QCOMPARE(failed.state, QStringLiteral("FAIL"));
        QCOMPARE(text(ws.db(),
                     QStringLiteral("SELECT json_extract(properties, '$.errorMessage.message') FROM "
                                    "lineage_node WHERE id = %1")
                         .arg(failed.id)),
            QStringLiteral("out of memory"));
        QCOMPARE(failed.endNs, utcNs(10, 4, 0));
    }

    // COMPLETE, then START, then RUNNING of one run: one node, COMPLETE, from the START to the COMPLETE.
    void outOfOrder()
    {
        const QString wsPath = importOne(fixture(QStringLiteral("out_of_order.json")));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node WHERE type = 'job_run'")), 1);
        const LineageNodeInfo run
            = byKey(ws, QStringLiteral("openlineage:run/55555555-0000-0000-0000-000000000005"));
        QCOMPARE(run.state, QStringLiteral("COMPLETE"));
        QCOMPARE(run.startNs, utcNs(10, 0, 0));
        QCOMPARE(run.endNs, utcNs(10, 0, 30, 250)); // 12:00:30.250+02:00
        QCOMPARE(run.name, QStringLiteral("fixtures/etl (55555555)"));
        QCOMPARE(count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_edge")),
            3); // contains, input, output
    }

    // Across imports too: a START imported after its run's COMPLETE leaves it COMPLETE.
    void finishedStateAcrossImports()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("split"));
        QVERIFY(QDir().mkpath(dir));
        const QByteArray bytes = readBytes(fixture(QStringLiteral("broken_line.ndjson")));
        const QList<QByteArray> lines = bytes.split('\n');
        QFile complete(dir + QStringLiteral("/a_complete.ndjson")),
            start(dir + QStringLiteral("/b_start.ndjson"));
        QVERIFY(complete.open(QIODevice::WriteOnly) && start.open(QIODevice::WriteOnly));
        complete.write(lines[1] + '\n');
        start.write(lines[0] + '\n');
        complete.close();
        start.close();
        const QString wsPath = freshWorkspace();
        const auto r = import(wsPath, { complete.fileName(), start.fileName() });
        QCOMPARE(r.size(), size_t(2));
        QCOMPARE(r[1].status, Status::Imported);
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo run
            = byKey(ws, QStringLiteral("openlineage:run/11111111-0000-0000-0000-000000000001"));
        QCOMPARE(run.state, QStringLiteral("COMPLETE"));
        QCOMPARE(run.startNs, utcNs(10, 0, 0));
        QCOMPARE(run.endNs, utcNs(10, 1, 0));
    }

    void parentFacet()
    {
        const QString wsPath = importOne(fixture(QStringLiteral("parent.ndjson")));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo parent
            = byKey(ws, QStringLiteral("openlineage:run/66666666-0000-0000-0000-000000000006"));
        const LineageNodeInfo child
            = byKey(ws, QStringLiteral("openlineage:run/77777777-0000-0000-0000-000000000007"));
        QCOMPARE(parent.state, QStringLiteral("START"));
        QCOMPARE(parent.name, QStringLiteral("fixtures/dag (66666666)"));
        QCOMPARE(parent.contexts, QStringList { QStringLiteral("fixtures/dag") });
        QCOMPARE(child.state, QStringLiteral("COMPLETE"));
        QCOMPARE(child.contexts, QStringList { QStringLiteral("fixtures/dag.task") });
        QCOMPARE(
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_edge WHERE kind = 'parent'")), 1);
        QCOMPARE(
            count(ws.db(),
                QStringLiteral(
                    "SELECT count(*) FROM lineage_edge WHERE kind = 'parent' AND from_id = %1 AND to_id = %2")
                    .arg(parent.id)
                    .arg(child.id)),
            1);
        QCOMPARE(
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node WHERE type = 'job_run'")), 2);
    }

    void unknownFacetsKept()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("unknown_facets.json")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.warnings, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        SqliteDb &db = ws.db();
        const auto prop = [&](const char *key, const char *path) {
            return text(db,
                QStringLiteral("SELECT json_extract(properties, '%1') FROM lineage_node WHERE key = '%2'")
                    .arg(QLatin1String(path), QLatin1String(key)));
        };
        const char *run = "openlineage:run/88888888-0000-0000-0000-000000000008";
        QCOMPARE(prop(run, "$.acme_gpu.gpus"), QStringLiteral("8"));
        QCOMPARE(prop(run, "$.acme_gpu.kind"), QStringLiteral("H100"));
        QCOMPARE(prop(run, "$.acme_owner.team"), QStringLiteral("ml-infra"));
        QCOMPARE(prop(run, "$.sql.query"), QStringLiteral("SELECT 1"));
        QCOMPARE(prop("openlineage:job/fixtures/custom", "$.acme_owner.team"), QStringLiteral("ml-infra"));
        QCOMPARE(
            prop("openlineage:dataset/warehouse/features", "$.acme_freshness.hours"), QStringLiteral("3"));
        QCOMPARE(
            prop("openlineage:dataset/warehouse/features", "$.acme_sampling.rate"), QStringLiteral("0.5"));
        QCOMPARE(
            prop("openlineage:dataset/warehouse/scores", "$.columnLineage.fields.score.inputFields[0].field"),
            QStringLiteral("x"));
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.acme_sampling.rate') FROM "
                                    "lineage_edge WHERE kind = 'input'")),
            QStringLiteral("0.5"));
        QCOMPARE(
            text(db,
                QStringLiteral(
                    "SELECT json_extract(properties, '$.columnLineage.fields.score.inputFields[0].name') "
                    "FROM lineage_edge WHERE kind = 'output'")),
            QStringLiteral("features"));
        QCOMPARE(text(db,
                     QStringLiteral("SELECT json_extract(properties, '$.outputStatistics.rowCount') FROM "
                                    "lineage_edge WHERE kind = 'output'")),
            QStringLiteral("42"));
    }

    // d1 -> a -> d2 -> b -> d1: imported, and a walk visits each node once.
    void datasetCycle()
    {
        const QString wsPath = importOne(fixture(QStringLiteral("cycle.ndjson")));
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        LineageReader reader(ws);
        const LineageNodeInfo d1 = byKey(ws, QStringLiteral("openlineage:dataset/warehouse/d1"));
        QVERIFY(d1.id != 0);
        const LineageGraph down = reader.neighbourhood(d1.id, LineageDirection::Down, 10);
        QCOMPARE(down.nodes.size(), size_t(4));
        QVERIFY(!down.truncated);
        QCOMPARE(reached(down),
            (std::set<QString> { QStringLiteral("d1:0"), QStringLiteral("fixtures/a (99999999):1"),
                QStringLiteral("d2:2"), QStringLiteral("fixtures/b (99999999):3") }));
        QCOMPARE(reader.neighbourhood(d1.id, LineageDirection::Both, 10).nodes.size(), size_t(4));
    }

    // An array element that is no run event: skipped and named by its index and byte.
    void badArrayElement()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("bad_element.json")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.records, 3);
        QCOMPARE(r.skipped, 1);
        const QByteArray bytes = readBytes(fixture(QStringLiteral("bad_element.json")));
        const qsizetype second = bytes.indexOf("\n  {", bytes.indexOf("\n  {") + 1) + 3;
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(
            text(ws.db(), QStringLiteral("SELECT location FROM diagnostic WHERE code = 'incomplete-event'")),
            QStringLiteral("array index 1, byte %1").arg(second));
        const LineageNodeInfo x
            = byKey(ws, QStringLiteral("openlineage:run/aaaaaaaa-0000-0000-0000-000000000001"));
        QCOMPARE(x.state, QStringLiteral("COMPLETE"));
        QCOMPARE(x.endNs - x.startNs, Q_INT64_C(2000000000));
    }

    // An array element that is broken JSON but balanced: skipped, named by index and byte; the rest imports.
    void brokenArrayElement()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("broken_element.json")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.records, 3);
        QCOMPARE(r.skipped, 1);
        const QByteArray bytes = readBytes(fixture(QStringLiteral("broken_element.json")));
        const qsizetype second = bytes.indexOf("\n  {", bytes.indexOf("\n  {") + 1) + 3;
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(text(ws.db(), QStringLiteral("SELECT location FROM diagnostic WHERE code = 'bad-json'")),
            QStringLiteral("array index 1, byte %1").arg(second));
        QCOMPARE(
            count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node WHERE type = 'job_run'")), 1);
        QCOMPARE(byKey(ws, QStringLiteral("openlineage:run/cccccccc-0000-0000-0000-000000000001")).state,
            QStringLiteral("COMPLETE"));
    }

    // An array cut short inside an element: the events before it import, the cut one is skipped.
    void truncatedArray()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("truncated_array.json")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.records, 2);
        QCOMPARE(r.skipped, 1);
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(count(ws.db(),
                     QStringLiteral("SELECT count(*) FROM diagnostic WHERE code = 'unterminated-event'")),
            1);
        QCOMPARE(byKey(ws, QStringLiteral("openlineage:run/cccccccc-0000-0000-0000-000000000001")).state,
            QStringLiteral("START"));
    }

    void unquotedPlaceholder()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("unquoted_placeholder.json")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.skipped, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo run
            = byKey(ws, QStringLiteral("openlineage:run/bbbbbbbb-0000-0000-0000-000000000001"));
        QCOMPARE(run.state, QStringLiteral("START"));
        QCOMPARE(run.startNs, 0);
        QCOMPARE(count(ws.db(),
                     QStringLiteral("SELECT count(*) FROM diagnostic WHERE code IN ('unquoted-placeholder', "
                                    "'bad-event-time') AND severity = 'warning'")),
            2);
    }

    // JSON of another kind: no importer claims it, and read() itself refuses it naming the file.
    // Python's json writes NaN and Infinity as bare words (a data-quality facet of an empty column):
    // the event is read, those values kept as strings, and an info says so.
    void nonFiniteWords()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("events.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"eventType": "COMPLETE", "eventTime": "2024-01-01T00:00:00Z", "producer": "p", )"
            R"("schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent", )"
            R"("run": {"runId": "0176a8c2-fe01-7439-87e6-56a1a1b4029f"}, "job": {"namespace": "ns", "name": "train"}, )"
            R"("inputs": [{"namespace": "s3", "name": "data.csv", "inputFacets": {"dataQualityMetrics": )"
            R"({"rowCount": 0, "note": "NaN when empty", "columnMetrics": {"a": {"min": NaN, "max": -Infinity}}}}}], )"
            R"("outputs": []})"
            "\n");
        f.close();
        FileImportResult r;
        const QString wsPath = importOne(file, &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.skipped, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        SqliteDb &db = ws.db();
        QCOMPARE(db.queryInt("SELECT count FROM diagnostic WHERE code = 'non-finite-words'"), 1);
        const QString metrics
            = QStringLiteral("SELECT json_extract(properties, '$.dataQualityMetrics.%1') FROM lineage_edge "
                             "WHERE kind = 'input'");
        QCOMPARE(text(db, metrics.arg(QStringLiteral("columnMetrics.a.min"))), QStringLiteral("NaN"));
        QCOMPARE(text(db, metrics.arg(QStringLiteral("columnMetrics.a.max"))), QStringLiteral("-Infinity"));
        QCOMPARE(text(db, metrics.arg(QStringLiteral("note"))), QStringLiteral("NaN when empty"));
    }

    void notOpenLineage()
    {
        const QString path = fixture(QStringLiteral("not_openlineage.json"));
        const QString wsPath = freshWorkspace();
        const auto r = import(wsPath, { path });
        QCOMPARE(r.size(), size_t(1));
        QCOMPARE(r[0].status, Status::Unrecognised);

        Workspace ws(wsPath, Workspace::Role::Writer);
        InputFile in(path);
        in.open();
        ImportContext ctx(ws.db(), in, 1, QStringLiteral("openlineage"), nullptr, {});
        QString message;
        try {
            OpenLineageImporter().read(ctx);
        } catch (const ImportError &e) {
            message = e.message();
        }
        QVERIFY2(message.contains(QStringLiteral("not_openlineage.json")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("no OpenLineage run events")), qPrintable(message));
        QCOMPARE(count(ws.db(), QStringLiteral("SELECT count(*) FROM lineage_node")), 0);
        QCOMPARE(ctx.diagnostics().countOf(QStringLiteral("not-an-event")), 2);
    }

    void reimportIsNoop()
    {
        const QString wsPath = freshWorkspace();
        const QString path = fixture(QStringLiteral("cycle.ndjson"));
        const auto first = import(wsPath, { path });
        QCOMPARE(first.at(0).status, Status::Imported);
        QString before;
        {
            Workspace ws(wsPath, Workspace::Role::Reader);
            before = counts(ws.db());
        }
        const auto second = import(wsPath, { path });
        QCOMPARE(second.at(0).status, Status::AlreadyImported);
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(counts(ws.db()), before);
        QCOMPARE(count(ws.db(), QStringLiteral("SELECT count(*) FROM source")), 1);
    }

    // The lineage links are written after the file's commit, in a transaction of their own: an import
    // killed between the two (cli_import_killed_lineage's SIGKILLs) leaves the workspace saying they may be
    // out of date, and the next import links them, even one that finds the file already imported.
    void linksAfterImportKilledBeforeThem()
    {
        const QString wsPath = freshWorkspace();
        {
            Workspace ws(wsPath, Workspace::Role::Writer);
            ws.db().exec("INSERT INTO run(id, key, name, created_at_ns) VALUES (1, 'x:1', 'train_mlp', 0)");
        }
        const QString path = m_tmp.filePath(QStringLiteral("links.ndjson"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"eventType": "START", "eventTime": "2024-01-01T07:00:00Z", "run": {"runId": "r1"}, )"
                    R"("job": {"namespace": "sched", "name": "train_mlp"}, "inputs": [], "outputs": []})"
                    "\n");
        }
        QCOMPARE(import(wsPath, { path }).at(0).status, Status::Imported);
        const auto links = [](SqliteDb &db) {
            SqliteStmt st(db, "SELECT group_concat(run_id || ':' || origin) FROM lineage_link");
            return st.step() ? st.columnText(0) : QString();
        };
        const QString staleSql
            = QStringLiteral("SELECT count(*) FROM workspace_info WHERE key = 'lineage_links'");
        {
            Workspace ws(wsPath, Workspace::Role::Writer);
            QCOMPARE(links(ws.db()), QStringLiteral("1:job-name"));
            QCOMPARE(count(ws.db(), staleSql), 0);
            // As the kill leaves it: the file's transaction committed (with its mark), the links' not.
            ws.db().exec("DELETE FROM lineage_link");
            ws.db().exec("INSERT INTO workspace_info(key, value) VALUES ('lineage_links', 'stale')");
        }
        QCOMPARE(import(wsPath, { path }).at(0).status, Status::AlreadyImported);
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(links(ws.db()), QStringLiteral("1:job-name"));
        QCOMPARE(count(ws.db(), staleSql), 0);
    }

    // Static lineage: a JobEvent's job reads and writes its datasets (input/output edges on the job
    // itself); a DatasetEvent's dataset is a node with its facets.
    void staticEvents()
    {
        FileImportResult r;
        const QString wsPath = importOne(fixture(QStringLiteral("static_events.ndjson")), &r);
        QVERIFY(!wsPath.isEmpty());
        QCOMPARE(r.records, 2);
        QCOMPARE(r.skipped, 0);
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo job = byKey(ws, QStringLiteral("openlineage:job/fixtures/nightly_etl"));
        QCOMPARE(job.kind, QStringLiteral("context"));
        const LineageGraph down = LineageReader(ws).neighbourhood(job.id, LineageDirection::Both, 1);
        QStringList names;
        for (const auto &n : down.nodes)
            names << n.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("fixtures/nightly_etl"), QStringLiteral("raw.events"),
                QStringLiteral("clean.events") }));
        const LineageNodeInfo lonely = byKey(ws, QStringLiteral("openlineage:dataset/s3://bucket/lonely"));
        QCOMPARE(lonely.uri, QStringLiteral("s3://bucket/lonely"));
        QVERIFY(lonely.properties.contains(QStringLiteral("\"schema\"")));
    }

    // The sample workspace's pipeline (resources/samples): a local-file dataset gets a file:// uri,
    // the failed training attempt keeps its state and error, and the model's upstream reaches the raw data.
    void samplePipeline()
    {
        const QString wsPath = freshWorkspace();
        const auto r = import(wsPath,
            { QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/sample_pipeline.openlineage.json") });
        QCOMPARE(r.at(0).status, Status::Imported);
        Workspace ws(wsPath, Workspace::Role::Reader);
        const LineageNodeInfo model
            = byKey(ws, QStringLiteral("openlineage:dataset/file//models/mlp-15x4096"));
        QCOMPARE(model.uri, QStringLiteral("file:///models/mlp-15x4096"));
        QCOMPARE(count(ws.db(),
                     QStringLiteral(
                         "SELECT count(*) FROM lineage_node WHERE state = 'FAIL' AND "
                         "json_extract(properties, '$.errorMessage.message') LIKE 'CUDA out of memory%'")),
            1);
        const LineageGraph up = LineageReader(ws).neighbourhood(model.id, LineageDirection::Up, 10);
        QStringList names;
        for (const auto &n : up.nodes)
            names << n.name;
        QVERIFY2(names.contains(QStringLiteral("raw/clicks")), qPrintable(names.join(QLatin1Char(','))));
    }
};

QTEST_GUILESS_MAIN(TestOpenLineageImporter)
#include "tst_openlineageimporter.moc"
