// SPDX-License-Identifier: GPL-3.0-or-later
// Crafted SQLite files given to the three importers of foreign SQLite stores (Nsight Systems, ML
// Metadata, MLflow): a huge page count, a corrupt b-tree, a view named like a table the importer
// reads and defined as an endless recursive query, a chain of thousands of nested views, a trigger,
// and a table named like the importer's with values of the wrong types. Each must finish (the test
// timeout is the hang detector) with a clear message naming the file, or import what is readable;
// a failure leaves the workspace exactly as it was. The statements a foreign file can run are
// checked directly too: no ATTACH, no writes, no recursive queries, no other pragmas.

#include "goldens.h"
#include "importhelpers.h"
#include "ingest/importerror.h"
#include "store/foreignsqlitedb.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace plumb;

namespace {

struct Store {
    const char *importer;
    const char *fixture; // under tests/importers
    const char *table; // one the importer reads
    const char *columns; // some of its columns, for the wrong-typed copy
};

const Store kStores[] = {
    { "nsys", "nsys/data/layout2024.sqlite", "CUPTI_ACTIVITY_KIND_KERNEL",
        "start, end, deviceId, streamId, correlationId, demangledName" },
    { "mlmd", "mlmd/data/tfx_store/metadata.sqlite", "Artifact",
        "id, type_id, uri, state, create_time_since_epoch" },
    { "mlflow", "mlflow/data/sqlstore/mlflow.db", "metrics", "key, value, timestamp, run_uuid, step" },
};

bool exec(const QString &path, const QByteArray &sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK;
    char *err = nullptr;
    ok = ok
        && sqlite3_exec(db, QByteArray("PRAGMA synchronous = OFF; BEGIN; " + sql + "; COMMIT").constData(),
               nullptr, nullptr, &err)
            == SQLITE_OK;
    if (err) {
        qWarning("%s", err);
        sqlite3_free(err);
    }
    sqlite3_close(db);
    return ok;
}

// Overwrites bytes of a file.
bool patch(const QString &path, qint64 offset, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
}

QByteArray bigEndian32(quint32 v)
{
    const char bytes[] = { char(v >> 24), char(v >> 16), char(v >> 8), char(v) };
    return QByteArray(bytes, 4);
}

struct Outcome {
    FileImportResult result;
    QString before, after; // row counts of every table of the workspace
};

Outcome importWith(const char *importerId, const QString &workspace, const QString &path)
{
    Outcome out;
    out.before = tableCounts(workspace);
    out.result = importWithImporter(workspace, QLatin1String(importerId), path);
    out.after = tableCounts(workspace);
    return out;
}

} // namespace

class TestCraftedSqlite : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_workspace;
    int m_n = 0;

    // A copy of the store's fixture to craft.
    QString copyOf(const Store &s)
    {
        const QString path
            = m_dir.filePath(QStringLiteral("%1-%2.sqlite").arg(QLatin1String(s.importer)).arg(++m_n));
        if (!QFile::copy(
                QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(s.fixture), path))
            return {};
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        return path;
    }

    // Imports and checks the promise: it finished; a failure names the file and changed nothing.
    void expectSafe(const Store &s, const QString &path, bool mustFail)
    {
        const Outcome o = importWith(s.importer, m_workspace, path);
        const QString name = QFileInfo(path).fileName();
        qInfo(
            "%s: %s: %s", s.importer, qPrintable(statusName(o.result.status)), qPrintable(o.result.message));
        if (o.result.status == FileImportResult::Status::Failed) {
            QVERIFY2(o.result.message.contains(name), qPrintable(o.result.message));
            QCOMPARE(o.after, o.before);
        } else {
            QVERIFY2(!mustFail, qPrintable(o.result.message));
            QCOMPARE(o.result.status, FileImportResult::Status::Imported);
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_workspace = m_dir.filePath(QStringLiteral("ws.plumb"));
        // Something imported before, which every failed import must leave as it was.
        QVERIFY(importIntoWorkspace(
            m_workspace, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json") })
                    .isEmpty());
    }

    void crafted_data()
    {
        QTest::addColumn<int>("store");
        for (int i = 0; i < 3; ++i)
            QTest::newRow(kStores[i].importer) << i;
    }

    // The page count in the header (offset 28) set to 2^31 - 16 and marked valid (offset 92 equal
    // to the change counter at 24): SQLite must not believe it, nor must we allocate for it.
    void crafted()
    {
        QFETCH(int, store);
        const Store &s = kStores[store];

        const QString huge = copyOf(s);
        QFile f(huge);
        QVERIFY(f.open(QIODevice::ReadOnly));
        f.seek(24);
        const QByteArray counter = f.read(4);
        f.close();
        QVERIFY(patch(huge, 28, bigEndian32(0x7ffffff0u)) && patch(huge, 92, counter));
        expectSafe(s, huge, false);

        // Every page after the first two overwritten with a pattern: the b-trees are garbage.
        const QString corrupt = copyOf(s);
        const qint64 size = QFileInfo(corrupt).size();
        QVERIFY(size > 3 * 4096);
        QByteArray garbage(int(size - 2 * 4096), '\0');
        for (int i = 0; i < garbage.size(); ++i)
            garbage[i] = char((i * 131 + 7) ^ (i >> 9));
        QVERIFY(patch(corrupt, 2 * 4096, garbage));
        expectSafe(s, corrupt, true);

        // The table the importer reads replaced by an endless recursive view of the same columns,
        // behind a chain of 2000 nested views, with a trigger for good measure.
        const QString view = copyOf(s);
        QByteArray sql = "DROP TABLE \"" + QByteArray(s.table) + "\";";
        sql += "CREATE VIEW v0 AS WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n "
               "AS x FROM c;";
        for (int i = 1; i < 2000; ++i)
            sql += "CREATE VIEW v" + QByteArray::number(i) + " AS SELECT x FROM v" + QByteArray::number(i - 1)
                + ";";
        QByteArray cols;
        for (const QByteArray &c : QByteArray(s.columns).split(','))
            cols += (cols.isEmpty() ? "" : ", ") + QByteArray("x AS ") + c.trimmed();
        sql += "CREATE VIEW \"" + QByteArray(s.table) + "\" AS SELECT " + cols + " FROM v1999;";
        sql += "CREATE TABLE pwn(a); CREATE TRIGGER t AFTER INSERT ON pwn BEGIN INSERT INTO pwn VALUES "
               "(new.a + 1); END;";
        QVERIFY(exec(view, sql));
        expectSafe(s, view, false);

        // A table named like the importer's whose values are of the wrong types (text where numbers
        // go, blobs where text goes, NULLs, huge integers).
        const QString typed = copyOf(s);
        sql = "DROP TABLE \"" + QByteArray(s.table) + "\"; CREATE TABLE \"" + QByteArray(s.table) + "\"("
            + s.columns + ");";
        const int n = int(QByteArray(s.columns).count(',')) + 1;
        for (const char *value : { "'abc'", "x'00ff00'", "NULL", "9223372036854775807", "-1e308", "''" }) {
            QByteArray row;
            for (int i = 0; i < n; ++i)
                row += (i ? ", " : "") + QByteArray(value);
            sql += "INSERT INTO \"" + QByteArray(s.table) + "\" VALUES (" + row + ");";
        }
        QVERIFY(exec(typed, sql));
        expectSafe(s, typed, false);
    }

    // What a statement on a foreign file may do.
    void onlyReads()
    {
        const QString path = m_dir.filePath(QStringLiteral("plain.sqlite"));
        QVERIFY(exec(path,
            "CREATE TABLE t(v); INSERT INTO t VALUES (1); CREATE VIEW loop AS WITH RECURSIVE c(n) AS "
            "(SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c;"));
        ForeignSqliteDb db(path);
        {
            ForeignSqliteDb::Stmt st(db, "SELECT v FROM t", "t");
            QVERIFY(st.step());
            QCOMPARE(st.integer(0), 1);
        }
        QCOMPARE(db.columns("t"), std::vector<std::string> { "v" });
        QVERIFY(db.columns("loop").empty()); // a view is no table
        for (const char *sql : { "ATTACH DATABASE ':memory:' AS other", "INSERT INTO t VALUES (2)",
                 "DELETE FROM t", "CREATE TABLE u(x)", "PRAGMA writable_schema = 1",
                 "PRAGMA journal_mode = DELETE", "SELECT n FROM loop",
                 "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c", "BEGIN",
                 "SELECT load_extension('x')" }) {
            bool refused = false;
            try {
                ForeignSqliteDb::Stmt st(db, sql, "t");
                st.step();
            } catch (const ImportError &e) {
                refused = e.message().contains(QStringLiteral("plain.sqlite"));
            }
            QVERIFY2(refused, sql);
        }
    }
};

QTEST_GUILESS_MAIN(TestCraftedSqlite)
#include "tst_craftedsqlite.moc"
