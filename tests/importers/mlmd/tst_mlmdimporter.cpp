// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the ML Metadata importer, on stores written by data/gen_mlmd_store.py from ML Metadata's
// published SQLite DDL: a schema-10 TFX pipeline run twice (a CACHED SchemaGen, a FAILED Trainer),
// a schema-7 store, and SQLite files that are not ML Metadata stores.

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/inputfile.h"
#include "mlmd/mlmdimporter.h"
#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace plumb;

namespace {

using Status = FileImportResult::Status;

constexpr int64_t kT0Ms = 1764576000000; // the generator's T0

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString readText(const QString &path)
{
    QFile in(path);
    return in.open(QIODevice::ReadOnly) ? QString::fromUtf8(in.readAll()) : QString();
}

// The rows of `sql` as gen_mlmd_store.py writes its NAME.*.tsv: tab-joined, lines sorted, a header.
QString tsv(SqliteDb &db, const char *header, const char *sql)
{
    SqliteStmt st(db, sql);
    QStringList lines;
    while (st.step()) {
        QStringList fields;
        for (int c = 0; c < st.columnCount(); ++c)
            fields << st.columnText(c);
        lines << fields.join(QLatin1Char('\t'));
    }
    std::sort(lines.begin(), lines.end());
    return QLatin1String(header) + QLatin1Char('\n') + lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

const char *kNodesSql
    = "SELECT substr(key, instr(key, '#') + 1), kind, coalesce(type, ''), name, coalesce(uri, ''), "
      "coalesce(state, ''), coalesce(start_ns, ''), coalesce(end_ns, ''), coalesce(properties, '') "
      "FROM lineage_node";
const char *kEdgesSql
    = "SELECT substr(a.key, instr(a.key, '#') + 1), substr(b.key, instr(b.key, '#') + 1), e.kind, "
      "coalesce(e.properties, '') FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
      "JOIN lineage_node b ON b.id = e.to_id";

// The rows of `sql`: columns joined by ',', rows by ';'.
QString rows(SqliteDb &db, const char *sql)
{
    SqliteStmt st(db, sql);
    QStringList out;
    while (st.step()) {
        QStringList fields;
        for (int c = 0; c < st.columnCount(); ++c)
            fields << st.columnText(c);
        out << fields.join(QLatin1Char(','));
    }
    return out.join(QLatin1Char(';'));
}

QByteArray sha256(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

// A writable copy of `from` at `dir/name`.
QString copyTo(const QString &from, const QString &dir, const QString &name)
{
    QDir().mkpath(dir);
    const QString to = dir + QLatin1Char('/') + name;
    QFile::remove(to);
    if (!QFile::copy(from, to))
        return {};
    QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
    return to;
}

} // namespace

class TestMlmdImporter : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_wsCounter = 0;
    QString m_tfxWs; // the schema-10 store imported once

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_wsCounter)); }

    std::vector<FileImportResult> import(const QString &ws, const QStringList &paths)
    {
        ImportRunner runner(m_registry, ws);
        return runner.run(paths);
    }

    // An import that must fail as "not an ML Metadata store", leaving the workspace empty.
    void expectRefused(ImporterRegistry &registry, const QString &path, const QString &says)
    {
        const QString ws = freshWorkspace();
        ImportRunner runner(registry, ws);
        const auto results = runner.run({ path });
        QCOMPARE(results.size(), size_t(1));
        QCOMPARE(int(results[0].status), int(Status::Failed));
        QCOMPARE(results[0].format, QStringLiteral("mlmd"));
        QVERIFY2(results[0].message.contains(says), qPrintable(results[0].message));
        QVERIFY2(results[0].message.contains(QStringLiteral("nothing was imported")),
            qPrintable(results[0].message));
        QVERIFY2(results[0].message.contains(QFileInfo(path).fileName()), qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source", -1), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node", -1), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_edge", -1), 0);
    }

    int64_t nodeId(Workspace &w, const QString &path, const char *kind, int mlmdId)
    {
        SqliteStmt st(w.db(), "SELECT id FROM lineage_node WHERE key = ?1");
        st.bind(1,
            QStringLiteral("mlmd:%1#%2/%3")
                .arg(QFileInfo(path).absoluteFilePath(), QLatin1String(kind))
                .arg(mlmdId));
        return st.step() ? st.columnInt(0) : 0;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        registerBuiltinImporters(m_registry);
        m_tfxWs = freshWorkspace();
        const auto results = import(m_tfxWs, { fixture(QStringLiteral("tfx_store/metadata.sqlite")) });
        QCOMPARE(results.size(), size_t(1));
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        QCOMPARE(results[0].format, QStringLiteral("mlmd"));
        // Every row read: 18 types, MLMDEnv, 12 artifacts + 26 properties, 12 executions + 29,
        // 10 contexts + 11, 33 events + 66 path steps, 25 attributions, 36 associations, 9 parents.
        QCOMPARE(results[0].records, 18 + 1 + 12 + 26 + 12 + 29 + 10 + 11 + 33 + 66 + 25 + 36 + 9);
        QCOMPARE(results[0].skipped, 1); // the UNKNOWN event
    }

    // Every node and edge against what gen_mlmd_store.py wrote into each store.
    void golden_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("schema 10") << QStringLiteral("tfx_store");
        QTest::newRow("schema 7") << QStringLiteral("v7_store");
    }

    void golden()
    {
        QFETCH(QString, name);
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(name + QStringLiteral("/metadata.sqlite")) });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(tsv(w.db(), "key\tkind\ttype\tname\turi\tstate\tstart_ns\tend_ns\tproperties", kNodesSql),
            readText(fixture(name + QStringLiteral(".nodes.tsv"))));
        QCOMPARE(tsv(w.db(), "from\tto\tkind\tproperties", kEdgesSql),
            readText(fixture(name + QStringLiteral(".edges.tsv"))));
    }

    void sniff_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::newRow("schema 10") << fixture(QStringLiteral("tfx_store/metadata.sqlite"))
                                   << QStringLiteral("mlmd");
        QTest::newRow("schema 7") << fixture(QStringLiteral("v7_store/metadata.sqlite"))
                                  << QStringLiteral("mlmd");
        QTest::newRow("MLflow store")
            << QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/mlflow/data/sqlstore/mlflow.db")
            << QStringLiteral("mlflow");
        // Not recognised by content, but named as TFX names its store: read() says what it lacks.
        QTest::newRow("named metadata.sqlite")
            << fixture(QStringLiteral("notmlmd/metadata.sqlite")) << QStringLiteral("mlmd");
        const QString nsys = QStringLiteral(PLUMB_SHARED_DATA "/traces/nsys/cloverleaf_nsys2024.5.sqlite");
        if (QFileInfo::exists(nsys))
            QTest::newRow("Nsight Systems export") << nsys << QStringLiteral("nsys");
    }

    void sniff()
    {
        QFETCH(QString, path);
        QFETCH(QString, format);
        const Importer *imp = m_registry.find(InputFile::peek(path, 64 * 1024), QFileInfo(path).fileName());
        QVERIFY(imp);
        QCOMPARE(imp->id(), format);
        // Content alone, whatever the name.
        const int score = MlmdImporter().sniff(InputFile::peek(path, 64 * 1024), QStringLiteral("store.db"));
        QCOMPARE(score >= 90, format == QLatin1String("mlmd") && !path.contains(QLatin1String("notmlmd")));
    }

    void nodesAndEdges()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        QCOMPARE(rows(w.db(), "SELECT kind, count(*) FROM lineage_node GROUP BY kind ORDER BY kind"),
            QStringLiteral("artifact,12;context,10;execution,12"));
        // A DECLARED_OUTPUT then OUTPUT of one artifact by one execution is one edge; the UNKNOWN
        // event none.
        QCOMPARE(rows(w.db(), "SELECT kind, count(*) FROM lineage_edge GROUP BY kind ORDER BY kind"),
            QStringLiteral("contains,61;input,18;output,13;parent,9"));
        QCOMPARE(rows(w.db(),
                     "SELECT type, count(*) FROM lineage_node WHERE kind = 'artifact' GROUP BY type ORDER BY "
                     "type"),
            QStringLiteral("ExampleStatistics,2;Examples,2;Model,2;ModelBlessing,1;ModelEvaluation,1;"
                           "PushedModel,1;Schema,1;TransformGraph,2"));
        QCOMPARE(
            rows(w.db(),
                "SELECT type, count(*) FROM lineage_node WHERE kind = 'context' GROUP BY type ORDER BY type"),
            QStringLiteral("node,7;pipeline,1;pipeline_run,2"));
        QCOMPARE(rows(w.db(),
                     "SELECT kind, state, count(*) FROM lineage_node WHERE kind <> 'context' "
                     "GROUP BY kind, state ORDER BY kind, state"),
            QStringLiteral("artifact,ABANDONED,1;artifact,LIVE,11;execution,CACHED,1;execution,COMPLETE,10;"
                           "execution,FAILED,1"));
        // Parent edges go from the pipeline to its runs and nodes.
        QCOMPARE(rows(w.db(),
                     "SELECT p.name, count(*) FROM lineage_edge e JOIN lineage_node p ON p.id = e.from_id "
                     "WHERE e.kind = 'parent' GROUP BY p.name"),
            QStringLiteral("taxi_pipeline,9"));
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
                            "JOIN lineage_node b ON b.id = e.to_id WHERE e.kind = 'input' "
                            "AND (a.kind <> 'artifact' OR b.kind <> 'execution')",
                -1),
            0);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
                            "JOIN lineage_node b ON b.id = e.to_id WHERE e.kind = 'output' "
                            "AND (a.kind <> 'execution' OR b.kind <> 'artifact')",
                -1),
            0);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
                            "WHERE e.kind IN ('contains', 'parent') AND a.kind <> 'context'",
                -1),
            0);
    }

    void keysNamesAndTimes()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        const QString store = fixture(QStringLiteral("tfx_store/metadata.sqlite"));
        const int64_t examples = nodeId(w, store, "artifact", 1);
        QVERIFY(examples > 0);
        LineageReader reader(w);
        const LineageNodeInfo n = reader.node(examples);
        QCOMPARE(n.kind, QStringLiteral("artifact"));
        QCOMPARE(n.type, QStringLiteral("Examples"));
        QCOMPARE(n.name, QStringLiteral("Examples 1")); // unnamed: "<type> <id>"
        QCOMPARE(n.uri, QStringLiteral("/pipelines/taxi/ExampleGen/examples/1"));
        QCOMPARE(n.state, QStringLiteral("LIVE"));
        QCOMPARE(n.startNs, (kT0Ms + 3600000 + 60000) * 1000000);
        QCOMPARE(n.endNs, (kT0Ms + 3600000 + 60000 + 500) * 1000000);
        QCOMPARE(reader.node(nodeId(w, store, "artifact", 5)).name, QStringLiteral("taxi-model"));
        QCOMPARE(reader.node(nodeId(w, store, "context", 1)).name, QStringLiteral("taxi_pipeline"));
    }

    // One property of each value kind, properties and custom properties apart.
    void propertyValues_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("mlmdId");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("jsonType");
        QTest::addColumn<QString>("value");
        QTest::newRow("int") << "artifact" << 1 << "$.properties.span"
                             << "integer"
                             << "0";
        QTest::newRow("string") << "artifact" << 1 << "$.properties.split_names"
                                << "text"
                                << "[\"train\", \"eval\"]";
        QTest::newRow("bool true") << "artifact" << 1 << "$.custom_properties.is_external"
                                   << "true"
                                   << "1";
        QTest::newRow("bytes") << "artifact" << 1 << "$.custom_properties.fingerprint.bytes_base64"
                               << "text"
                               << "AAH+/w==";
        QTest::newRow("external id") << "artifact" << 1 << "$.external_id"
                                     << "text"
                                     << "examples/1";
        QTest::newRow("mlmd id") << "artifact" << 1 << "$.mlmd_id"
                                 << "integer"
                                 << "1";
        QTest::newRow("proto type") << "artifact" << 5 << "$.custom_properties.serving_signature.proto_type"
                                    << "text"
                                    << "type.googleapis.com/google.protobuf.StringValue";
        QTest::newRow("proto bytes") << "artifact" << 5
                                     << "$.custom_properties.serving_signature.proto_base64"
                                     << "text"
                                     << QString::fromLatin1(QByteArray(
                                            "\x0a\x2ftype.googleapis.com/google.protobuf.StringValue"
                                            "\x12\x11\x0a\x0fserving_default")
                                                                .toBase64());
        QTest::newRow("struct")
            << "artifact" << 5 << "$.custom_properties.metadata"
            << "object"
            << R"({"display_name":"taxi model","epochs":10.0,"metrics":{"accuracy":0.875,)"
               R"("loss":0.25},"tags":["prod",true,null]})";
        QTest::newRow("struct from structpb")
            << "artifact" << 5 << "$.custom_properties.languages.language[2]"
            << "text"
            << "cz";
        QTest::newRow("struct undecodable") << "artifact" << 5 << "$.custom_properties.broken.struct_base64"
                                            << "text"
                                            << "////";
        QTest::newRow("large int") << "artifact" << 5 << "$.custom_properties.num_params"
                                   << "integer"
                                   << "1234567";
        QTest::newRow("double") << "artifact" << 6 << "$.custom_properties.accuracy"
                                << "real"
                                << "0.875";
        QTest::newRow("execution double") << "execution" << 5 << "$.custom_properties.learning_rate"
                                          << "real"
                                          << "0.001";
        QTest::newRow("bool false") << "execution" << 5 << "$.custom_properties.warm_start"
                                    << "false"
                                    << "0";
        QTest::newRow("execution property") << "execution" << 5 << "$.properties.component_id"
                                            << "text"
                                            << "Trainer";
        QTest::newRow("context custom") << "context" << 1 << "$.custom_properties.pipeline_root"
                                        << "text"
                                        << "/pipelines/taxi";
        QTest::newRow("context property") << "context" << 2 << "$.properties.pipeline_name"
                                          << "text"
                                          << "taxi_pipeline";
        QTest::newRow("no custom properties") << "artifact" << 3 << "$.custom_properties"
                                              << ""
                                              << "";
    }

    void propertyValues()
    {
        QFETCH(QString, kind);
        QFETCH(int, mlmdId);
        QFETCH(QString, path);
        QFETCH(QString, jsonType);
        QFETCH(QString, value);
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        const int64_t id
            = nodeId(w, fixture(QStringLiteral("tfx_store/metadata.sqlite")), qPrintable(kind), mlmdId);
        QVERIFY(id > 0);
        SqliteStmt st(w.db(),
            "SELECT json_type(properties, ?2), json_extract(properties, ?2) FROM lineage_node "
            "WHERE id = ?1");
        st.bind(1, id).bind(2, path);
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), jsonType);
        QCOMPARE(st.columnText(1), value);
    }

    void failedExecution()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        QCOMPARE(rows(w.db(),
                     "SELECT name, type, json_extract(properties, '$.custom_properties.error_message') "
                     "FROM lineage_node WHERE kind = 'execution' AND state = 'FAILED'"),
            QStringLiteral("Trainer-run2,Trainer,OOM: ran out of GPU memory at step 212"));
        // Its model was a pending output, abandoned; the UNKNOWN event left no edge.
        QCOMPARE(rows(w.db(),
                     "SELECT b.name, b.state, json_extract(e.properties, '$.event_type') "
                     "FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
                     "JOIN lineage_node b ON b.id = e.to_id "
                     "WHERE a.name = 'Trainer-run2' AND e.kind = 'output'"),
            QStringLiteral("Model 12,ABANDONED,PENDING_OUTPUT"));
        QCOMPARE(rows(w.db(), "SELECT code, count FROM diagnostic WHERE code = 'unknown-event-type'"),
            QStringLiteral("unknown-event-type,1"));
    }

    void eventProperties()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        // DECLARED_OUTPUT then OUTPUT: the later event's properties.
        QCOMPARE(rows(w.db(),
                     "SELECT e.properties FROM lineage_edge e JOIN lineage_node a ON a.id = e.from_id "
                     "JOIN lineage_node b ON b.id = e.to_id WHERE a.name = 'ExampleGen-run2' "
                     "AND b.name = 'Examples 9'"),
            QStringLiteral(R"({"event_type":"OUTPUT","path":["examples",0],"time_ns":%1})")
                .arg((kT0Ms + 7200000 + 60000) * 1000000));
        QCOMPARE(rows(w.db(),
                     "SELECT json_extract(e.properties, '$.event_type'), "
                     "json_extract(e.properties, '$.path[0]') FROM lineage_edge e "
                     "JOIN lineage_node a ON a.id = e.from_id JOIN lineage_node b ON b.id = e.to_id "
                     "WHERE a.name = 'Schema 3' AND b.name = 'Trainer-run1'"),
            QStringLiteral("INPUT,schema"));
    }

    void upstreamOfPushedModel()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        LineageReader reader(w);
        const auto found = reader.find(QStringLiteral("PushedModel 8"));
        QCOMPARE(found.size(), size_t(1));
        const LineageGraph g = reader.neighbourhood(found[0].id, LineageDirection::Up, 20);
        QVERIFY(!g.truncated);
        auto depthOf = [&g](const QString &name) {
            for (size_t i = 0; i < g.nodes.size(); ++i)
                if (g.nodes[i].name == name)
                    return g.depth[i];
            return -1;
        };
        QCOMPARE(depthOf(QStringLiteral("PushedModel 8")), 0);
        QCOMPARE(depthOf(QStringLiteral("Pusher-run1")), 1);
        QCOMPARE(depthOf(QStringLiteral("taxi-model")), 2);
        QCOMPARE(depthOf(QStringLiteral("Trainer-run1")), 3);
        QCOMPARE(depthOf(QStringLiteral("Examples 1")), 4);
        QCOMPARE(depthOf(QStringLiteral("ExampleGen-run1")), 5);
        // Run 2's SchemaGen was CACHED: it output run 1's Schema too, so its inputs are upstream as well.
        QCOMPARE(depthOf(QStringLiteral("SchemaGen-run2")), 5);
        QCOMPARE(depthOf(QStringLiteral("Examples 9")), 8);
        QCOMPARE(depthOf(QStringLiteral("ExampleGen-run2")), 9);
        // Run 2's failed training is not, nor is any context.
        QCOMPARE(depthOf(QStringLiteral("Trainer-run2")), -1);
        QCOMPARE(depthOf(QStringLiteral("Model 12")), -1);
        for (const LineageNodeInfo &n : g.nodes)
            QVERIFY2(n.kind != QLatin1String("context"), qPrintable(n.name));
        // PushedModel, Pusher, Model, blessing, Trainer, Evaluator, Examples, TransformGraph, Schema,
        // ExampleGen, Transform, both SchemaGens, both statistics and StatisticsGens, Examples 9 and
        // its ExampleGen.
        QCOMPARE(g.nodes.size(), size_t(19));
    }

    void contextsOfTrainer()
    {
        Workspace w(m_tfxWs, Workspace::Role::Reader);
        LineageReader reader(w);
        const auto found = reader.find(QStringLiteral("Trainer-run1"));
        QCOMPARE(found.size(), size_t(1));
        QStringList contexts = reader.node(found[0].id).contexts;
        contexts.sort();
        QCOMPARE(contexts,
            QStringList({ QStringLiteral("taxi_pipeline"), QStringLiteral("taxi_pipeline.Trainer"),
                QStringLiteral("taxi_pipeline.run-1") }));
        // The cached Schema belongs to both runs.
        QStringList schema = reader.node(reader.find(QStringLiteral("Schema 3"))[0].id).contexts;
        schema.sort();
        QCOMPARE(schema,
            QStringList({ QStringLiteral("taxi_pipeline.SchemaGen"), QStringLiteral("taxi_pipeline.run-1"),
                QStringLiteral("taxi_pipeline.run-2") }));
    }

    void reimportIsNoopAndStoreUnchanged()
    {
        // A copy in a folder of its own, so that any journal or WAL file SQLite left would show.
        const QString dir = m_tmp.filePath(QStringLiteral("copy"));
        const QString store = copyTo(
            fixture(QStringLiteral("tfx_store/metadata.sqlite")), dir, QStringLiteral("metadata.sqlite"));
        QVERIFY(!store.isEmpty());
        QFile::setPermissions(store, QFile::ReadOwner); // read-only, as a shared store may be
        const QByteArray before = sha256(store);
        const QDateTime mtime = QFileInfo(store).lastModified();
        const QString ws = freshWorkspace();
        auto results = import(ws, { store });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        results = import(ws, { store });
        QCOMPARE(int(results[0].status), int(Status::AlreadyImported));
        QCOMPARE(sha256(store), before);
        QCOMPARE(QFileInfo(store).lastModified(), mtime);
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden),
            QStringList { QStringLiteral("metadata.sqlite") });
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node"), 34);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_edge"), 101);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), 1);
    }

    // The store written to since (the failed Trainer retried in place and its model written): the
    // next import updates the same nodes and edges, found by key, and adds none.
    void storeGrew()
    {
        const QString store = copyTo(fixture(QStringLiteral("tfx_store/metadata.sqlite")),
            m_tmp.filePath(QStringLiteral("grew")), QStringLiteral("metadata.sqlite"));
        const QString ws = freshWorkspace();
        QVERIFY(import(ws, { store })[0].status == Status::Imported);
        {
            SqliteDb db(store, SqliteDb::OpenMode::ReadWrite);
            db.exec("UPDATE `Execution` SET `last_known_state` = 3, `last_update_time_since_epoch` = "
                    "`last_update_time_since_epoch` + 600000 WHERE `name` = 'Trainer-run2';"
                    "UPDATE `Artifact` SET `state` = 2 WHERE `id` = 12;"
                    "INSERT INTO `Event`(`artifact_id`, `execution_id`, `type`, `milliseconds_since_epoch`) "
                    "VALUES (12, 12, 4, 1764584000000)");
        }
        const auto results = import(ws, { store });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), 2);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node"), 34);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_edge"), 101);
        QCOMPARE(rows(w.db(),
                     "SELECT a.state, b.state, json_extract(e.properties, '$.event_type'), "
                     "json_extract(e.properties, '$.time_ns') FROM lineage_edge e "
                     "JOIN lineage_node a ON a.id = e.from_id JOIN lineage_node b ON b.id = e.to_id "
                     "WHERE a.name = 'Trainer-run2' AND e.kind = 'output'"),
            QStringLiteral("COMPLETE,LIVE,OUTPUT,1764584000000000000"));
    }

    // A store its service still has open in WAL mode: the commits only in the log are read, the
    // files are not changed, and a commit that reached only the log imports again.
    void storeInWalMode()
    {
        const QString store = copyTo(fixture(QStringLiteral("tfx_store/metadata.sqlite")),
            m_tmp.filePath(QStringLiteral("wal")), QStringLiteral("metadata.sqlite"));
        SqliteDb service(store, SqliteDb::OpenMode::ReadWrite);
        service.exec("PRAGMA journal_mode = WAL");
        service.exec("PRAGMA wal_autocheckpoint = 0");
        service.exec("UPDATE `Execution` SET `last_known_state` = 3 WHERE `name` = 'Trainer-run2'");
        const QByteArray file = sha256(store), log = sha256(store + QStringLiteral("-wal"));
        const QString ws = freshWorkspace();
        auto results = import(ws, { QFileInfo(store).absolutePath() });
        QCOMPARE(results.size(), size_t(2)); // the store, and the -shm index SQLite keeps beside it
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        QCOMPARE(int(results[1].status), int(Status::Unrecognised));
        QVERIFY(results[1].path.endsWith(QLatin1String("-shm")));
        QCOMPARE(sha256(store), file);
        QCOMPARE(sha256(store + QStringLiteral("-wal")), log);
        {
            Workspace w(ws, Workspace::Role::Reader);
            QCOMPARE(rows(w.db(), "SELECT state FROM lineage_node WHERE name = 'Trainer-run2'"),
                QStringLiteral("COMPLETE"));
            QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'write-ahead-log'"), 1);
        }
        QCOMPARE(int(import(ws, { store })[0].status), int(Status::AlreadyImported));
        service.exec("UPDATE `Artifact` SET `state` = 2 WHERE `id` = 12");
        results = import(ws, { store });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
    }

    // A store of a schema version after 10 is read by column names, and says so.
    void newerSchema()
    {
        const QString store = copyTo(fixture(QStringLiteral("tfx_store/metadata.sqlite")),
            m_tmp.filePath(QStringLiteral("newer")), QStringLiteral("metadata.sqlite"));
        {
            SqliteDb db(store, SqliteDb::OpenMode::ReadWrite);
            db.exec("UPDATE `MLMDEnv` SET `schema_version` = 11; ALTER TABLE `Artifact` ADD COLUMN `future` "
                    "TEXT");
        }
        const QString ws = freshWorkspace();
        const auto results = import(ws, { store });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node"), 34);
        QCOMPARE(rows(w.db(), "SELECT severity, code FROM diagnostic WHERE code LIKE '%schema'"),
            QStringLiteral("info,newer-schema"));
    }

    void olderSchema()
    {
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(QStringLiteral("v7_store/metadata.sqlite")) });
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        QCOMPARE(results[0].format, QStringLiteral("mlmd"));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(rows(w.db(), "SELECT kind, count(*) FROM lineage_node GROUP BY kind ORDER BY kind"),
            QStringLiteral("artifact,2;context,1;execution,2"));
        QCOMPARE(rows(w.db(), "SELECT kind, count(*) FROM lineage_edge GROUP BY kind ORDER BY kind"),
            QStringLiteral("contains,4;input,1;output,2"));
        QCOMPARE(rows(w.db(),
                     "SELECT json_extract(properties, '$.custom_properties.checksum.bytes_base64'), "
                     "json_extract(properties, '$.properties.span'), "
                     "json_type(properties, '$.external_id') FROM lineage_node WHERE type = 'Examples'"),
            QStringLiteral("3q2+7w==,3,"));
        // What version 7 lacks is said once.
        const QString msg = rows(w.db(), "SELECT message FROM diagnostic WHERE code = 'older-schema'");
        QVERIFY2(msg.contains(QStringLiteral("schema version 7")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("Artifact.external_id")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("ArtifactProperty.bool_value")), qPrintable(msg));
        QVERIFY2(!msg.contains(QStringLiteral("byte_value")), qPrintable(msg));
    }

    // A store that lacks a column MLMD cannot do without: refused, the column named.
    void unsupportedSchema()
    {
        const QString store = copyTo(fixture(QStringLiteral("v7_store/metadata.sqlite")),
            m_tmp.filePath(QStringLiteral("old")), QStringLiteral("metadata.sqlite"));
        {
            SqliteDb db(store, SqliteDb::OpenMode::ReadWrite);
            db.exec("ALTER TABLE `Type` RENAME COLUMN `type_kind` TO `is_artifact_type`");
        }
        const QString ws = freshWorkspace();
        const auto results = import(ws, { store });
        QCOMPARE(int(results[0].status), int(Status::Failed));
        QCOMPARE(results[0].format, QStringLiteral("mlmd"));
        QVERIFY2(
            results[0].message.contains(QStringLiteral("schema version 7")), qPrintable(results[0].message));
        QVERIFY2(results[0].message.contains(QStringLiteral("column Type.type_kind")),
            qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node", -1), 0);
    }

    void notAnMlmdStore_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("says");
        QTest::newRow("another application's database")
            << fixture(QStringLiteral("notmlmd/metadata.sqlite")) << QStringLiteral("table MLMDEnv");
        QTest::newRow("no tables") << fixture(QStringLiteral("empty/mlmd.sqlite"))
                                   << QStringLiteral("table Event");
    }

    void notAnMlmdStore()
    {
        QFETCH(QString, path);
        QFETCH(QString, says);
        expectRefused(m_registry, path, QStringLiteral("not an ML Metadata store"));
        expectRefused(m_registry, path, says);
    }

    // An MLflow store goes to the MLflow importer; handed to this one (named like an MLMD store, with
    // no other importer to claim it), it is refused.
    void mlflowStore()
    {
        const QString mlflow
            = QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/mlflow/data/sqlstore/mlflow.db");
        const QString ws = freshWorkspace();
        const auto results = import(ws, { mlflow });
        QCOMPARE(results[0].format, QStringLiteral("mlflow"));
        {
            Workspace w(ws, Workspace::Role::Reader);
            QCOMPARE(w.db().queryInt("SELECT count(*) FROM lineage_node", -1), 0);
        }
        ImporterRegistry onlyMlmd;
        onlyMlmd.add(std::make_unique<MlmdImporter>());
        const QString copy
            = copyTo(mlflow, m_tmp.filePath(QStringLiteral("mlflow")), QStringLiteral("mlmd.db"));
        expectRefused(onlyMlmd, copy, QStringLiteral("not an ML Metadata store"));
    }
};

QTEST_GUILESS_MAIN(TestMlmdImporter)
#include "tst_mlmdimporter.moc"
