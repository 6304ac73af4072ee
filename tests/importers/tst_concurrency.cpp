// SPDX-License-Identifier: GPL-3.0-or-later
// Concurrency on one workspace: the window reading while an import writes (WAL: every read sees
// either none or all of an import, and never fails on a lock), two imports started at once (the
// second waits for the first's transaction, both land whole), and an import cancelled halfway
// (nothing of it stays, and the same file imports again afterwards).

#include "goldens.h"
#include "importhelpers.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace plumb;

namespace {

// A Kineto-style trace of `n` complete events on two threads (about 90 bytes each).
QByteArray trace(int n, int seed)
{
    QByteArray out = "{\"traceEvents\": [\n";
    for (int i = 0; i < n; ++i) {
        out += "{\"ph\": \"X\", \"name\": \"op" + QByteArray::number((i * 7 + seed) % 50)
            + "\", \"pid\": 1, \"tid\": " + QByteArray::number(i % 2)
            + ", \"ts\": " + QByteArray::number(i * 10) + ", \"dur\": 5}";
        out += i + 1 < n ? ",\n" : "\n";
    }
    return out + "]}\n";
}

// What a reader must always see: every trace with all of its slices, no slice without a trace,
// no source without what it wrote.
QString inconsistency(SqliteDb &db)
{
    if (db.queryInt(
            "SELECT count(*) FROM trace t WHERE slice_count <> (SELECT count(*) FROM slice s JOIN track k "
            "ON k.id = s.track_id WHERE k.trace_id = t.id)")
        != 0)
        return QStringLiteral("a trace whose slices are not all there");
    if (db.queryInt("SELECT count(*) FROM slice s LEFT JOIN track k ON k.id = s.track_id WHERE k.id IS NULL")
        != 0)
        return QStringLiteral("slices of no trace");
    if (db.queryInt(
            "SELECT count(*) FROM source s LEFT JOIN trace t ON t.source_id = s.id WHERE t.id IS NULL")
        != 0)
        return QStringLiteral("a source without its trace");
    return {};
}

std::vector<FileImportResult> import(const QString &ws, const QStringList &paths)
{
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    ImportRunner runner(registry, ws);
    return runner.run(paths);
}

} // namespace

class TestConcurrency : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_big1, m_big2;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_big1 = m_dir.filePath(QStringLiteral("big1.json"));
        m_big2 = m_dir.filePath(QStringLiteral("big2.json"));
        QVERIFY(writeTestFile(m_big1, trace(150000, 1)));
        QVERIFY(writeTestFile(m_big2, trace(150000, 2)));
    }

    void readerDuringImport()
    {
        const QString ws = m_dir.filePath(QStringLiteral("read.plumb"));
        QVERIFY(importIntoWorkspace(
            ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json") })
                    .isEmpty());
        std::atomic<bool> done = false;
        std::vector<FileImportResult> results;
        std::thread writer([&] {
            results = import(ws, { m_big1, m_big2 });
            done = true;
        });
        int reads = 0, sawPartial = 0;
        QString problem;
        int64_t lastSources = 0;
        while (!done && problem.isEmpty()) {
            try {
                Workspace reader(ws, Workspace::Role::Reader);
                reader.db().exec("BEGIN"); // one snapshot for all the checks (a read transaction)
                problem = inconsistency(reader.db());
                const int64_t sources = reader.db().queryInt("SELECT count(*) FROM source");
                reader.db().exec("COMMIT");
                sawPartial += sources > 1 && sources < 3;
                if (sources < lastSources)
                    problem = QStringLiteral("the source count went down");
                lastSources = sources;
                ++reads;
            } catch (const std::exception &e) {
                problem
                    = QStringLiteral("a read failed while the import ran: ") + QString::fromUtf8(e.what());
            }
        }
        writer.join();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qInfo("%d consistent reads during the import (%d between its two files)", reads, sawPartial);
        QVERIFY(reads > 0);
        QCOMPARE(int(results.size()), 2);
        for (const auto &r : results)
            QCOMPARE(r.status, FileImportResult::Status::Imported);
        SqliteDb db(ws, SqliteDb::OpenMode::ReadOnly);
        QCOMPARE(db.queryInt("SELECT count(*) FROM source"), 3);
        QVERIFY(inconsistency(db).isEmpty());
    }

    void twoImportsAtOnce()
    {
        const QString ws = m_dir.filePath(QStringLiteral("two.plumb"));
        QVERIFY(importIntoWorkspace(
            ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json") })
                    .isEmpty());
        std::vector<FileImportResult> a, b;
        std::thread first([&] { a = import(ws, { m_big1 }); });
        std::thread second([&] { b = import(ws, { m_big2 }); });
        first.join();
        second.join();
        QCOMPARE(a.front().status, FileImportResult::Status::Imported);
        QCOMPARE(b.front().status, FileImportResult::Status::Imported);
        SqliteDb db(ws, SqliteDb::OpenMode::ReadOnly);
        QCOMPARE(db.queryInt("SELECT count(*) FROM source"), 3);
        QCOMPARE(db.queryInt("SELECT sum(slice_count) FROM trace WHERE source_id > 1"), 300000);
        QVERIFY(inconsistency(db).isEmpty());
        SqliteStmt check(db, "PRAGMA integrity_check");
        QVERIFY(check.step());
        QCOMPARE(check.columnText(0), QStringLiteral("ok"));
    }

    void cancelHalfway()
    {
        const QString ws = m_dir.filePath(QStringLiteral("cancel.plumb"));
        QVERIFY(importIntoWorkspace(
            ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/basic.json") })
                    .isEmpty());
        const QString before = tableCounts(ws);
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        ImportRunner runner(registry, ws);
        double cancelledAt = -1;
        runner.setProgressCallback([&](const ImportProgress &p) {
            if (p.fraction >= 0.5 && cancelledAt < 0) {
                cancelledAt = p.fraction;
                runner.cancel();
            }
        });
        const auto results = runner.run({ m_big1 });
        QVERIFY(cancelledAt >= 0.5);
        QCOMPARE(results.front().status, FileImportResult::Status::Cancelled);
        QCOMPARE(tableCounts(ws), before);
        // And the same file imports again, whole.
        QVERIFY(importIntoWorkspace(ws, { m_big1 }).isEmpty());
        SqliteDb db(ws, SqliteDb::OpenMode::ReadOnly);
        QCOMPARE(db.queryInt("SELECT sum(slice_count) FROM trace WHERE source_id > 1"), 150000);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
