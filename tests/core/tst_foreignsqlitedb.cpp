// SPDX-License-Identifier: GPL-3.0-or-later
// ForeignSqliteDb: a store in WAL mode whose service still has it open is read with its log, and
// neither the file nor the log is changed.

#include "ingest/importerror.h"
#include "store/foreignsqlitedb.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace plumb;

namespace {

QByteArray digest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

void exec(sqlite3 *db, const char *sql)
{
    char *err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const QString msg = QString::fromUtf8(err);
        sqlite3_free(err);
        QFAIL(qPrintable(msg));
    }
}

int64_t count(ForeignSqliteDb &db)
{
    ForeignSqliteDb::Stmt st(db, "SELECT count(*), coalesce(sum(v), 0) FROM t", "t");
    return st.step() ? st.integer(0) * 1000000 + st.integer(1) : -1;
}

} // namespace

class TestForeignSqliteDb : public QObject {
    Q_OBJECT

private slots:
    void walCommitsAreRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.db"));
        // A service's connection: WAL, no automatic checkpoint, still open while we read.
        sqlite3 *writer = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &writer), SQLITE_OK);
        exec(writer,
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
            "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (1), (2);");
        exec(writer, "PRAGMA wal_checkpoint(TRUNCATE)"); // these two are in the file
        exec(writer, "INSERT INTO t VALUES (30); INSERT INTO t VALUES (400);"); // these only in the log
        QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 0);
        const QByteArray fileBefore = digest(path), walBefore = digest(path + QStringLiteral("-wal"));
        {
            ForeignSqliteDb db(path);
            QCOMPARE(count(db), int64_t(4 * 1000000 + 433));
            QVERIFY(db.walBytes() > 0);
        }
        QCOMPARE(digest(path), fileBefore);
        QCOMPARE(digest(path + QStringLiteral("-wal")), walBefore);
        sqlite3_close(writer);

        // Once the service closed it (the log folded in and removed), the file alone.
        ForeignSqliteDb db(path);
        QCOMPARE(count(db), int64_t(4 * 1000000 + 433));
        QCOMPARE(db.walBytes(), int64_t(0));
    }

    // A log that is garbage is not a store's: SQLite ignores frames that do not check out.
    void garbageLogIsIgnored()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.db"));
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (5);");
        sqlite3_close(db);
        QFile wal(path + QStringLiteral("-wal"));
        QVERIFY(wal.open(QIODevice::WriteOnly));
        wal.write(QByteArray(5000, 'x'));
        wal.close();
        ForeignSqliteDb f(path);
        QCOMPARE(count(f), int64_t(1 * 1000000 + 5));
    }
};

QTEST_GUILESS_MAIN(TestForeignSqliteDb)
#include "tst_foreignsqlitedb.moc"
