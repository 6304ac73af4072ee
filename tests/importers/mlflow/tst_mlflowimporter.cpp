// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the MLflow importer: a file store and a SQL store written by data/gen_fixtures.py, which
// also writes what the importer must store (NAME.runs.csv, NAME.params.csv, NAME.points.csv) from
// what it wrote; those are compared exactly and never rewritten by the test.

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace plumb;

namespace {

using Status = FileImportResult::Status;

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_TEST_DATA "/") + name;
}

QString readText(const QString &path)
{
    QFile in(path);
    return in.open(QIODevice::ReadOnly) ? QString::fromUtf8(in.readAll()) : QString();
}

// The rows of `sql` as gen_fixtures.py writes them: comma-joined, newlines as \n, lines sorted.
QString csv(SqliteDb &db, const char *header, const char *sql)
{
    SqliteStmt st(db, sql);
    QStringList lines;
    while (st.step()) {
        QStringList fields;
        for (int c = 0; c < st.columnCount(); ++c) {
            fields << st.columnText(c).replace(QLatin1Char('\n'), QStringLiteral("\\n"));
        }
        lines << fields.join(QLatin1Char(','));
    }
    std::sort(lines.begin(), lines.end());
    QString out = QLatin1String(header) + QLatin1Char('\n');
    for (const QString &l : lines)
        out += l + QLatin1Char('\n');
    return out;
}

const char *kRunsSql
    = "SELECT name, group_name, status, start_ns, end_ns, "
      "json_extract(metadata, '$.mlflow.lifecycle_stage'), json_extract(metadata, '$.mlflow.status') "
      "FROM run";
const char *kParamsSql = "SELECT r.name, p.key, p.value, p.kind FROM param p JOIN run r ON r.id = p.run_id";
const char *kPointsSql
    = "SELECT r.name, s.str, m.step, m.wall_time_ns, CASE WHEN m.value IS NULL THEN 'nan' " // NaN is stored
                                                                                            // as NULL
      "WHEN m.value > 1.7976931348623157e308 THEN 'inf' "
      "WHEN m.value < -1.7976931348623157e308 THEN '-inf' ELSE printf('%.9g', m.value) END "
      "FROM metric m "
      "JOIN run r ON r.id = m.run_id JOIN string s ON s.id = m.key_id";

bool writeText(const QString &path, const QString &text)
{
    QFile out(path);
    return out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(text.toUtf8()) >= 0;
}

// A copy of the folder `from` (hidden entries too) at `to`.
bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(f);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(f, target))
            return false;
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    }
    return true;
}

} // namespace

class TestMlflowImporter : public QObject {
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

    // The stored runs, params and points against gen_fixtures.py's NAME.*.csv.
    void compareWith(const QString &ws, const QString &name)
    {
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(csv(w.db(), "run,group,status,start_ns,end_ns,lifecycle,mlflow_status", kRunsSql),
            readText(fixture(name + QStringLiteral(".runs.csv"))));
        QCOMPARE(csv(w.db(), "run,key,value,kind", kParamsSql),
            readText(fixture(name + QStringLiteral(".params.csv"))));
        QCOMPARE(csv(w.db(), "run,key,step,wall_ns,value", kPointsSql),
            readText(fixture(name + QStringLiteral(".points.csv"))));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        registerBuiltinImporters(m_registry);
    }

    void fileStore_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("folder holding mlruns") << fixture(QStringLiteral("filestore"));
        QTest::newRow("mlruns itself") << fixture(QStringLiteral("filestore/mlruns"));
    }

    // Each run's meta.yaml is one source that reads the run's metrics, params and tags; the
    // experiments' meta.yaml are read with their runs; .trash is walked; artifacts are left alone.
    void fileStore()
    {
        QFETCH(QString, path);
        const QString ws = freshWorkspace();
        const auto results = import(ws, { path });
        QStringList seen;
        for (const auto &r : results) {
            const QString rel = r.path.mid(r.path.indexOf(QStringLiteral("mlruns/")));
            seen << rel + QLatin1Char(' ') + statusName(r.status);
            if (r.status == Status::Imported)
                QCOMPARE(r.format, QStringLiteral("mlflow"));
        }
        const QStringList expected {
            QStringLiteral("mlruns/.trash/3/d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4/meta.yaml imported"),
            QStringLiteral("mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/artifacts/notes.txt not recognised"),
            QStringLiteral("mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/meta.yaml imported"),
            QStringLiteral("mlruns/0/b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2/meta.yaml imported"),
            QStringLiteral("mlruns/1/c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3/meta.yaml imported"),
            QStringLiteral("mlruns/2/meta.yaml imported"),
        };
        QCOMPARE(seen, expected);
        // Records: points + params + tags of each run.
        QCOMPARE(results[0].records, 1);
        QCOMPARE(results[2].records, 7 + 2 + 3);
        QCOMPARE(results[3].records, 5 + 1 + 1);
        QCOMPARE(results[3].skipped, 1);
        QCOMPARE(results[4].records, 1 + 2);
        QCOMPARE(results[5].records, 0);
        compareWith(ws, QStringLiteral("filestore"));

        Workspace w(ws, Workspace::Role::Reader);
        // The restart in beta's loss (step 2, then 0) is a second segment.
        QCOMPARE(w.db().queryInt("SELECT max(m.segment) FROM metric m JOIN run r ON r.id = m.run_id "
                                 "WHERE r.name = 'beta'",
                     -1),
            1);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code IN "
                            "('bad-metric-line', 'legacy-metric-line', 'step-restart', 'empty-experiment')",
                0),
            4);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run WHERE path LIKE '%/mlruns/%'", 0), 4);
    }

    // MLflow 3: metric lines that name their evaluation dataset are read (under the metric's key);
    // a logged model's meta.yaml is not an experiment, and its metric files (which repeat the run's)
    // are its companions, not points of their own; datasets/ and traces/ hold no metrics.
    void fileStoreMlflow3()
    {
        const QString ws = freshWorkspace();
        QStringList seen;
        for (const auto &r : import(ws, { fixture(QStringLiteral("filestore3")) }))
            seen << r.path.mid(r.path.indexOf(QStringLiteral("mlruns/"))) + QLatin1Char(' ')
                    + statusName(r.status) + QLatin1Char(' ') + QString::number(r.records);
        const QStringList expected {
            QStringLiteral("mlruns/7/datasets/5d5d5d5d/meta.yaml not recognised 0"),
            QStringLiteral("mlruns/7/e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5/meta.yaml imported 7"),
            QStringLiteral("mlruns/7/models/m-0f1e2d3c4b5a69788796a5b4c3d2e1f0/meta.yaml imported 0"),
            QStringLiteral("mlruns/7/traces/tr-0123/trace_info.yaml not recognised 0"),
        };
        QCOMPARE(seen, expected);
        compareWith(ws, QStringLiteral("filestore3"));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count FROM diagnostic WHERE code = 'dataset-metric-line'", 0), 3);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code IN ('bad-metric-line', "
                                 "'empty-experiment')",
                     -1),
            0);
        SqliteStmt message(w.db(), "SELECT message FROM diagnostic WHERE code = 'logged-model'");
        QVERIFY(message.step());
        QCOMPARE(message.columnText(0),
            QStringLiteral(
                "An MLflow logged model (model): its metrics are the values its run "
                "(e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5) logged, which are imported with that run; nothing "
                "else to import."));
    }

    void fileStoreReimportIsNoop()
    {
        const QString ws = freshWorkspace();
        import(ws, { fixture(QStringLiteral("filestore")) });
        for (const auto &r : import(ws, { fixture(QStringLiteral("filestore")) }))
            QVERIFY2(
                r.status == Status::AlreadyImported || r.status == Status::Unrecognised, qPrintable(r.path));
        compareWith(ws, QStringLiteral("filestore"));
    }

    // A run imported again after its meta.yaml changed (it ended) gets the points appended since,
    // the new status and end, and no point twice; unchanged runs are no-ops.
    void fileStoreRunReimportedAfterItEnded()
    {
        const QString store = m_tmp.filePath(QStringLiteral("appended"));
        QVERIFY(copyTree(fixture(QStringLiteral("filestore")), store));
        const QString ws = freshWorkspace();
        import(ws, { store });
        const QString run = store + QStringLiteral("/mlruns/1/c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3");
        QString meta = readText(run + QStringLiteral("/meta.yaml"));
        meta.replace(QStringLiteral("status: 1"), QStringLiteral("status: 3"))
            .replace(QStringLiteral("end_time: null"), QStringLiteral("end_time: 1700000090000"));
        QVERIFY(writeText(run + QStringLiteral("/meta.yaml"), meta));
        QVERIFY(writeText(run + QStringLiteral("/metrics/val/top/k"),
            readText(run + QStringLiteral("/metrics/val/top/k")) + QStringLiteral("1700000003000 5.0 11\n")));

        int imported = 0;
        for (const auto &r : import(ws, { store })) {
            imported += r.status == Status::Imported;
            if (r.status == Status::Imported)
                QCOMPARE(r.records, 1 + 2); // the new point, and the params again
        }
        QCOMPARE(imported, 1);
        Workspace w(ws, Workspace::Role::Reader);
        SqliteDb &db = w.db();
        QCOMPARE(db.queryInt("SELECT count(*) FROM metric"), 15);
        QCOMPARE(
            db.queryInt("SELECT count(*) FROM metric WHERE dup > 0 AND run_id = (SELECT id FROM run WHERE "
                        "name = 'gamma')"),
            0);
        QCOMPARE(db.queryInt(
                     "SELECT max(step) FROM metric m JOIN run r ON r.id = m.run_id WHERE r.name = 'gamma'"),
            11);
        SqliteStmt st(db,
            "SELECT status, end_ns, json_extract(metadata, '$.mlflow.status') FROM run WHERE name = 'gamma'");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), QStringLiteral("success"));
        QCOMPARE(st.columnInt(1), Q_INT64_C(1700000090000000000));
        QCOMPARE(st.columnText(2), QStringLiteral("FINISHED"));
        QCOMPARE(db.queryInt("SELECT count FROM diagnostic WHERE code = 'points-imported-before'"), 1);
    }

    // A metric appended while the run's meta.yaml stays as it was (a run still logging) is a change
    // to the source (its companions are part of its identity): only that point is added.
    void fileStoreMetricAppended()
    {
        const QString store = m_tmp.filePath(QStringLiteral("logging"));
        QVERIFY(copyTree(fixture(QStringLiteral("filestore")), store));
        const QString ws = freshWorkspace();
        import(ws, { store });
        const QString loss
            = store + QStringLiteral("/mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/metrics/loss");
        // The second line is still being written: left for a later import.
        QVERIFY(
            writeText(loss, readText(loss) + QStringLiteral("1700000005000 0.0625 3\n1700000006000 0.03")));
        int imported = 0;
        for (const auto &r : import(ws, { store })) {
            if (r.status != Status::Imported)
                continue;
            ++imported;
            QVERIFY(r.path.endsWith(QStringLiteral("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/meta.yaml")));
            QCOMPARE(r.records, 1 + 2 + 3); // the new point; the params and tags again
        }
        QCOMPARE(imported, 1);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), 15);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric WHERE dup > 0 AND step > 0"), 0);
        QCOMPARE(w.db().queryInt(
                     "SELECT max(step) FROM metric m JOIN run r ON r.id = m.run_id WHERE r.name = 'alpha'"),
            3);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), 4);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'unterminated-metric-line'"), 1);
    }

    // The same for a database that grew: only the new metric row is added.
    void sqlStoreReimportedAfterItGrew()
    {
        const QString path = m_tmp.filePath(QStringLiteral("grown.db"));
        QVERIFY(QFile::copy(fixture(QStringLiteral("sqlstore/mlflow.db")), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const QString ws = freshWorkspace();
        import(ws, { path });
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWrite);
            db.exec(
                "INSERT INTO metrics VALUES ('loss', 7.0, 1700000006000, 'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', "
                "4, 0);"
                "UPDATE runs SET status = 'FINISHED' WHERE run_uuid = 'a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7'");
        }
        const auto results = import(ws, { path });
        QCOMPARE(results.size(), size_t(1));
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric"), 9);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric WHERE dup > 0"), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run WHERE name = 'zeta' AND status = 'success'"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), 3);
    }

    // A metric file handed on its own is nobody's: it is read only with its run.
    void metricFileAlone()
    {
        const auto results = import(freshWorkspace(),
            { fixture(QStringLiteral("filestore/mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/metrics/loss")) });
        QCOMPARE(results.size(), size_t(1));
        QCOMPARE(int(results[0].status), int(Status::Unrecognised));
    }

    // Live mode: a changed metric, param or tag file (nested keys too) imports its run's meta.yaml;
    // other files are imported as they are.
    void changedCompanionImportsItsRun()
    {
        const QString run = fixture(QStringLiteral("filestore/mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"));
        const QString meta = QDir(run).absoluteFilePath(QStringLiteral("meta.yaml"));
        const QString notes = run + QStringLiteral("/artifacts/notes.txt");
        const QStringList paths = m_registry.importPathsFor({ run + QStringLiteral("/metrics/train/acc"),
            run + QStringLiteral("/params/lr"), notes, run + QStringLiteral("/tags/note"), meta });
        QCOMPARE(paths, QStringList({ meta, notes }));
        // The experiment's own meta.yaml is no run's companion.
        const QString experiment = fixture(QStringLiteral("filestore/mlruns/0/meta.yaml"));
        QCOMPARE(m_registry.importPathsFor({ experiment }), QStringList { experiment });
    }

    void sqlStore_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("records"); // runs, params, tags and dataset inputs, metric rows
        QTest::addColumn<QString>("restartedRun");
        QTest::newRow("latest schema") << QStringLiteral("sqlstore") << 3 + 8 + 8 << QStringLiteral("delta");
        QTest::newRow("first revision") << QStringLiteral("sqlstore2019") << 1 + 1 + 2 << QString();
    }

    void sqlStore()
    {
        QFETCH(QString, name);
        QFETCH(int, records);
        QFETCH(QString, restartedRun);
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(name + QStringLiteral("/mlflow.db")) });
        QCOMPARE(results.size(), size_t(1));
        QVERIFY2(results[0].status == Status::Imported, qPrintable(results[0].message));
        QCOMPARE(results[0].format, QStringLiteral("mlflow"));
        QCOMPARE(results[0].records, records);
        compareWith(ws, name);
        Workspace w(ws, Workspace::Role::Reader);
        SqliteStmt restarted(w.db(),
            "SELECT coalesce(group_concat(name), '') FROM run r WHERE EXISTS (SELECT 1 FROM metric m WHERE "
            "m.run_id = r.id AND m.segment > 0)");
        QVERIFY(restarted.step());
        QCOMPARE(restarted.columnText(0), restartedRun);
    }

    // Another application's database named mlflow.db: a clear message, nothing imported.
    void notAnMlflowDatabase()
    {
        const QString ws = freshWorkspace();
        const auto results = import(ws, { fixture(QStringLiteral("notmlflow/mlflow.db")) });
        QCOMPARE(results.size(), size_t(1));
        QCOMPARE(int(results[0].status), int(Status::Failed));
        QCOMPARE(results[0].format, QStringLiteral("mlflow"));
        QVERIFY2(results[0].message.contains(QStringLiteral("not an MLflow tracking store")),
            qPrintable(results[0].message));
        QVERIFY2(
            results[0].message.contains(QStringLiteral("table experiments")), qPrintable(results[0].message));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source", -1), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run", -1), 0);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM metric", -1), 0);
    }
};

QTEST_GUILESS_MAIN(TestMlflowImporter)
#include "tst_mlflowimporter.moc"
