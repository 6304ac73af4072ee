// SPDX-License-Identifier: GPL-3.0-or-later
// The workspace store: schema and migrations, transactions per import (rollback on failure and on
// cancel), idempotent re-import, and readers that keep working while an import writes.

#include "builtinimporters.h"
#include "goldens.h"
#include "importhelpers.h"
#include "ingest/contenthash.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/filesystem.h"
#include "store/schema.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "store/workspacereader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <atomic>
#include <thread>

using namespace plumb;

namespace {

// A plain Kineto-like trace with `n` complete events on two threads, big enough to take several
// chunks (and checkpoints) to import.
QString writeTrace(const QString &path, int n, int seed = 0)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write("{\"schemaVersion\": 1, \"traceEvents\": [\n");
    for (int i = 0; i < n; ++i) {
        const QByteArray line
            = QStringLiteral("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%1\", "
                             "\"pid\": 1, \"tid\": %2, \"ts\": %3.%4, \"dur\": 1.500, "
                             "\"args\": {\"External id\": %5, \"seed\": %6}}%7\n")
                  .arg(i % 50)
                  .arg(1 + i % 2)
                  .arg(1000 + i * 2)
                  .arg(i % 1000, 3, 10, QLatin1Char('0'))
                  .arg(i)
                  .arg(seed)
                  .arg(i + 1 < n ? QStringLiteral(",") : QString())
                  .toUtf8();
        f.write(line);
    }
    f.write("]}\n");
    return path;
}

} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    QString m_smallTrace;
    QString m_bigTrace;
    int m_counter = 0;

    QString freshPath() { return m_tmp.filePath(QStringLiteral("w%1.plumb").arg(++m_counter)); }

private slots:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        QVERIFY(m_tmp.isValid());
        m_smallTrace = writeTrace(m_tmp.filePath(QStringLiteral("small.json")), 1000);
        m_bigTrace = writeTrace(m_tmp.filePath(QStringLiteral("big.json")), 300000, 1);
    }

    void createsCurrentSchemaInWalMode()
    {
        const QString path = freshPath();
        Workspace ws(path, Workspace::Role::Writer);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), 1);
        QVERIFY(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'slice'") == 1);
    }

    // On a network file system (forced here with PLUMB_FILESYSTEM, as the mount cannot be made in a test) a
    // writer uses a rollback journal, synced in full, and says so; a local one the write-ahead log. An
    // existing WAL workspace is switched when the first writer opens it there, and an import that builds a
    // new workspace there leaves it in the rollback journal.
    void networkFileSystemUsesRollbackJournal()
    {
        QCOMPARE(networkFileSystemName(0x6969), QStringLiteral("NFS"));
        QCOMPARE(networkFileSystemName(0x0BD00BD0), QStringLiteral("Lustre"));
        QCOMPARE(networkFileSystemName(int64_t(0xFF534D42)), QStringLiteral("CIFS"));
        QVERIFY(networkFileSystemName(0xEF53).isEmpty()); // ext4
        QVERIFY(networkFileSystemName(0x01021994).isEmpty()); // tmpfs
        const QString path = freshPath();
        const auto journal = [](Workspace &ws) {
            SqliteStmt st(ws.db(), "PRAGMA journal_mode");
            return st.step() ? st.columnText(0) : QString();
        };
        qputenv("PLUMB_FILESYSTEM", "local");
        {
            Workspace ws(path, Workspace::Role::Writer);
            QCOMPARE(journal(ws), QStringLiteral("wal"));
            QVERIFY(Workspace::fileSystemNote(path, fileSystemOf(path)).isEmpty());
        }
        qputenv("PLUMB_FILESYSTEM", "network");
        {
            QVERIFY(fileSystemOf(path).network);
            QVERIFY(Workspace::fileSystemNote(path, fileSystemOf(path))
                        .contains(QLatin1String("rollback journal")));
            Workspace ws(path, Workspace::Role::Writer);
            QCOMPARE(journal(ws), QStringLiteral("delete"));
            QCOMPARE(ws.db().queryInt("PRAGMA synchronous"), int64_t(2)); // FULL
        }
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
        const QString built = freshPath();
        ImportRunner runner(m_registry, built);
        QCOMPARE(int(runner.run({ m_smallTrace })[0].status), int(FileImportResult::Status::Imported));
        {
            Workspace ws(built, Workspace::Role::Reader);
            QCOMPARE(journal(ws), QStringLiteral("delete"));
        }
        qunsetenv("PLUMB_FILESYSTEM");
    }

    // A workspace written by an older build migrates step by step to the current schema.
    void migratesFromVersion1()
    {
        const QString path = freshPath();
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec(schemaMigrations().at(0));
            db.exec("PRAGMA user_version = 1");
            db.exec("INSERT INTO run(key, name, created_at_ns) VALUES ('k', 'old run', 1)");
        }
        Workspace ws(path, Workspace::Role::Writer);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'slice_corr_tile'"), 1);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'slice_corr'"), 0);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM run WHERE name = 'old run'"), 1);
    }

    // The slices of a workspace from before slice_corr_tile get their tiles: 1024 slices with a corr
    // each, per track in (ts, id) order; the index they replace is dropped.
    void migrationTilesCorrelatedSlices()
    {
        const QString path = freshPath();
        {
            SqliteDb db = createWorkspaceAtSchema(path, 10);
            SqliteStmt ins(
                db, "INSERT INTO slice(track_id, ts, id, dur, depth, name_id, corr) VALUES (?,?,?,1,0,1,?)");
            for (int i = 0; i < 2500; ++i) { // track 1: corr i at ts 10 i, every third without a corr
                ins.bind(1, 1).bind(2, 10 * i).bind(3, i);
                if (i % 3 == 2)
                    ins.bindNull(4);
                else
                    ins.bind(4, i);
                ins.run();
            }
            for (int i = 0; i < 10; ++i) // track 2: corrs falling in time
                ins.bind(1, 2).bind(2, i).bind(3, 5000 + i).bind(4, 100 - i).run();
        }
        Workspace ws(path, Workspace::Role::Writer);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'slice_corr'"), 0);
        // Track 1: 1667 slices with a corr, tiles of 1024 and 643.
        QCOMPARE(csvOf(ws.db(), "SELECT * FROM slice_corr_tile ORDER BY 1, 2"),
            QStringLiteral("track_id,first_ts,last_ts,min_corr,max_corr\n"
                           "1,0,15340,0,1534\n"
                           "1,15360,24990,1536,2499\n"
                           "2,0,9,91,100\n"));
    }

    // Whether opening will upgrade first: only a workspace of an older schema.
    void needsUpgrade()
    {
        const QString old = freshPath();
        createWorkspaceAtSchema(old, 10);
        QVERIFY(Workspace::needsUpgrade(old));
        {
            Workspace upgraded(old, Workspace::Role::Writer);
        }
        QVERIFY(!Workspace::needsUpgrade(old));
        QVERIFY(!Workspace::needsUpgrade(freshPath())); // does not exist
        const QString foreign = freshPath();
        {
            SqliteDb db(foreign, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("CREATE TABLE t(x)");
        }
        QVERIFY(!Workspace::needsUpgrade(foreign)); // user_version 0: not a workspace
        QTemporaryDir dir;
        QVERIFY(!Workspace::needsUpgrade(dir.path()));
    }

    // Opening an older workspace just to read it upgrades it too: readers query today's schema.
    void readerUpgradesOlderWorkspace()
    {
        const QString path = freshPath();
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec(schemaMigrations().at(0));
            db.exec("PRAGMA user_version = 1");
        }
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM pragma_table_info('track') WHERE name = 'max_dur_ns'"), 1);
    }

    void refusesForeignAndNewerFiles()
    {
        const QString foreign = freshPath();
        {
            SqliteDb db(foreign, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("CREATE TABLE t(x)");
        }
        QVERIFY_THROWS_EXCEPTION(SqlError, Workspace(foreign, Workspace::Role::Writer));
        const QString newer = freshPath();
        {
            SqliteDb db(newer, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("PRAGMA user_version = 999");
        }
        try {
            Workspace ws(newer, Workspace::Role::Writer);
            QFAIL("a newer schema must be refused");
        } catch (const SqlError &e) {
            QVERIFY2(e.message().contains(QStringLiteral("newer")), qPrintable(e.message()));
        }
        QVERIFY_THROWS_EXCEPTION(
            SqlError, Workspace(m_tmp.filePath(QStringLiteral("missing.plumb")), Workspace::Role::Reader));
    }

    // The published XXH64 test values, so the fingerprint is the algorithm it claims to be.
    void xxh64MatchesReference()
    {
        QCOMPARE(Xxh64(0).digest(), Q_UINT64_C(0xEF46DB3751D8E999));
        Xxh64 abc(0);
        abc.add("abc", 3);
        QCOMPARE(abc.digest(), Q_UINT64_C(0x44BC2CF5AD770999));
        // Streaming in odd pieces gives the same digest as one call.
        QByteArray data(1000, Qt::Uninitialized);
        for (int i = 0; i < data.size(); ++i)
            data[i] = char(i * 7);
        Xxh64 whole(5), pieces(5);
        whole.add(data.constData(), size_t(data.size()));
        for (int i = 0; i < data.size(); i += 13)
            pieces.add(data.constData() + i, size_t(std::min(13, int(data.size()) - i)));
        QCOMPARE(pieces.digest(), whole.digest());
    }

    // A trace's devices on one line: counted when identical, indices folded into ranges, model
    // numbers left alone.
    void devicesSummarised_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none") << QStringList {} << QString();
        QTest::newRow("identical") << QStringList(4, QStringLiteral("NVIDIA A100-SXM4-80GB"))
                                   << QStringLiteral("NVIDIA A100-SXM4-80GB x4");
        QStringList planes;
        for (int i = 7; i >= 0; --i)
            planes << QStringLiteral("/device:GPU:%1").arg(i);
        QTest::newRow("xplane") << planes << QStringLiteral("/device:GPU:0-7");
        QTest::newRow("gaps") << QStringList { QStringLiteral("GPU 0"), QStringLiteral("GPU 1"),
            QStringLiteral("GPU 2"), QStringLiteral("GPU 5"), QStringLiteral("GPU 7"),
            QStringLiteral("GPU 8") }
                              << QStringLiteral("GPU 0-2,5,7-8");
        QTest::newRow("models") << QStringList { QStringLiteral("Tesla V100"), QStringLiteral("NVIDIA A30"),
            QStringLiteral("NVIDIA A100") }
                                << QStringLiteral("Tesla V100, NVIDIA A30, NVIDIA A100");
        QTest::newRow("mixed") << QStringList { QStringLiteral("/device:GPU:0"),
            QStringLiteral("NVIDIA H100"), QStringLiteral("/device:GPU:1"), QStringLiteral("NVIDIA H100"),
            QString(), QStringLiteral("/device:TPU:0") }
                               << QStringLiteral("/device:GPU:0-1, NVIDIA H100 x2, /device:TPU:0");
    }
    void devicesSummarised()
    {
        QFETCH(QStringList, names);
        QFETCH(QString, expected);
        QCOMPARE(summariseDevices(names), expected);
    }

    // A run's span over its traces: on wall-clock time when each gives its base (ranks that started
    // at different offsets of their own clocks), on their clocks when none does, and the longest
    // trace's when some do and some do not (a wall-clock and a relative clock cannot be lined up).
    void runSpan()
    {
        const auto trace = [](int64_t start, int64_t end, std::optional<int64_t> base) {
            TraceInfo t;
            t.startNs = start;
            t.endNs = end;
            t.baseTimeNs = base;
            return t;
        };
        RunInfo run;
        QCOMPARE(run.spanNs(), int64_t(0));
        run.traces = { trace(100, 300, 1000), trace(0, 150, 1200) }; // 1100..1300 and 1200..1350
        QCOMPARE(run.spanNs(), int64_t(250));
        run.traces = { trace(100, 300, std::nullopt), trace(250, 400, std::nullopt) };
        QCOMPARE(run.spanNs(), int64_t(300));
        run.traces = { trace(1'700'000'000'000'000'000, 1'700'000'000'000'030'000, 0),
            trace(0, 6'500, std::nullopt) };
        QCOMPARE(run.spanNs(), int64_t(30'000));
        run.traces << trace(5, 5, std::nullopt); // no events: not counted
        QCOMPARE(run.spanNs(), int64_t(30'000));
        // A base that overflows is no base: the two traces on their own clocks.
        run.traces = { trace(0, 100, INT64_MAX - 50), trace(50, 200, std::nullopt) };
        QCOMPARE(run.spanNs(), int64_t(200));
    }

    void defaultPathIsInUserDataDir()
    {
        QVERIFY(Workspace::defaultPath().endsWith(QStringLiteral("Plumb/default.plumb")));
    }

    void importRecordsSourceAndIsIdempotent()
    {
        const QString path = freshPath();
        ImportRunner first(m_registry, path);
        auto r = first.run({ m_smallTrace });
        QCOMPARE(r.size(), size_t(1));
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Imported));
        QCOMPARE(r[0].records, 1000);
        const QString before = tableCounts(path);

        ImportRunner second(m_registry, path);
        r = second.run({ m_smallTrace });
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::AlreadyImported));
        QCOMPARE(tableCounts(path), before);

        Workspace ws(path, Workspace::Role::Reader);
        WorkspaceReader reader(ws);
        const auto sources = reader.sources();
        QCOMPARE(sources.size(), 1);
        QCOMPARE(sources[0].format, QStringLiteral("chrometrace"));
        QCOMPARE(sources[0].events, 1000);
        QCOMPARE(sources[0].sizeBytes, QFileInfo(m_smallTrace).size());
        QCOMPARE(sources[0].path, QFileInfo(m_smallTrace).absoluteFilePath());
        QCOMPARE(ws.db().queryInt("SELECT length(content_hash) FROM source"), 32);
    }

    // A file that fails half-way (valid events, then garbage the importer cannot get past) leaves
    // nothing: the earlier import stays, the failed one is gone entirely.
    void failedImportRollsBack()
    {
        const QString path = freshPath();
        ImportRunner runner(m_registry, path);
        QCOMPARE(int(runner.run({ m_smallTrace })[0].status), int(FileImportResult::Status::Imported));
        const QString before = tableCounts(path);

        const QString bad = m_tmp.filePath(QStringLiteral("bad_top.json"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QFile src(m_bigTrace);
            QVERIFY(src.open(QIODevice::ReadOnly));
            QByteArray data = src.readAll();
            data.chop(3); // drop "]}\n"
            data += "], 42 }"; // a top-level value where a field name must be
            f.write(data);
        }
        ImportRunner again(m_registry, path);
        const auto r = again.run({ bad });
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Failed));
        QVERIFY2(r[0].location.startsWith(QStringLiteral("byte ")), qPrintable(r[0].location));
        QCOMPARE(tableCounts(path), before);
    }

    void cancelRollsBack()
    {
        const QString path = freshPath();
        ImportRunner first(m_registry, path);
        first.run({ m_smallTrace });
        const QString before = tableCounts(path);

        ImportRunner runner(m_registry, path);
        int calls = 0;
        runner.setProgressCallback([&](const ImportProgress &p) {
            if (p.fraction > 0.2 && ++calls == 1)
                runner.cancel();
        });
        const auto r = runner.run({ m_bigTrace, m_smallTrace });
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Cancelled));
        QCOMPARE(int(r[1].status), int(FileImportResult::Status::Cancelled));
        QCOMPARE(tableCounts(path), before);
        // The same file imports fine afterwards.
        ImportRunner after(m_registry, path);
        QCOMPARE(int(after.run({ m_bigTrace })[0].status), int(FileImportResult::Status::Imported));
    }

    // A reader sees the last committed state during an import and never blocks or fails.
    void readerDuringImport()
    {
        const QString path = freshPath();
        ImportRunner first(m_registry, path);
        first.run({ m_smallTrace });

        Workspace reader(path, Workspace::Role::Reader);
        std::atomic_bool started { false };
        ImportRunner runner(m_registry, path);
        runner.setProgressCallback([&](const ImportProgress &p) {
            if (p.fraction > 0)
                started = true;
        });
        std::vector<FileImportResult> results;
        std::thread worker([&] { results = runner.run({ m_bigTrace }); });
        int reads = 0;
        while (!started)
            std::this_thread::yield();
        for (; reads < 20; ++reads) {
            QCOMPARE(reader.db().queryInt("SELECT count(*) FROM trace"), 1);
            QCOMPARE(reader.db().queryInt("SELECT count(*) FROM slice"), 1000);
        }
        worker.join();
        QCOMPARE(int(results.at(0).status), int(FileImportResult::Status::Imported));
        QCOMPARE(reader.db().queryInt("SELECT count(*) FROM trace"), 2);
        QCOMPARE(reader.db().queryInt("SELECT count(*) FROM slice"), 301000);
    }

    void foldersAreWalkedAndUnknownFilesReported()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("ranks/.hidden")));
        writeTrace(dir.filePath(QStringLiteral("ranks/rank0.json")), 10, 10);
        writeTrace(dir.filePath(QStringLiteral("ranks/rank1.json")), 10, 11);
        writeTrace(dir.filePath(QStringLiteral("ranks/.hidden/skipme.json")), 10, 12);
        QFile notes(dir.filePath(QStringLiteral("ranks/notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("just some notes\n");
        notes.close();
        const QStringList files = ImportRunner::expand({ dir.path() });
        QCOMPARE(files.size(), 3);
        const QString path = freshPath();
        ImportRunner runner(m_registry, path);
        const auto r = runner.run({ dir.path() });
        QCOMPARE(r.size(), size_t(3));
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Unrecognised)); // notes.txt sorts first
        QCOMPARE(int(r[1].status), int(FileImportResult::Status::Imported));
        QCOMPARE(int(r[2].status), int(FileImportResult::Status::Imported));
    }

    // A profiler's own binary report is not read, but the message says how to get a file that is.
    void unrecognisedReportSaysWhatToDo()
    {
        QTemporaryDir dir;
        const QString rep = dir.filePath(QStringLiteral("report1.nsys-rep"));
        QFile f(rep);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, '\x5a'));
        f.close();
        const QString other = dir.filePath(QStringLiteral("blob.bin"));
        QVERIFY(QFile::copy(rep, other));
        ImportRunner runner(m_registry, freshPath());
        const auto r = runner.run({ rep, other });
        QCOMPARE(r.size(), size_t(2));
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Unrecognised));
        QCOMPARE(r[0].message,
            QStringLiteral("an Nsight Systems report, in NVIDIA's own format: export it with "
                           "`nsys export --type sqlite report1.nsys-rep` and import the .sqlite "
                           "it writes"));
        QCOMPARE(r[1].message, QStringLiteral("no importer recognises this file's content"));
    }

    // Another program's SQLite file (an Nsight export, in rollback-journal mode) given as the workspace is
    // refused by readers and writers alike, and left byte for byte as it was: no WAL switch, no tables.
    void foreignSqliteFileIsRefusedUntouched()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("export.sqlite"));
        {
            SqliteDb db(path, SqliteDb::OpenMode::ReadWriteCreate);
            db.exec("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER)");
            db.exec("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2)");
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        for (const Workspace::Role role : { Workspace::Role::Writer, Workspace::Role::Reader }) {
            try {
                Workspace ws(path, role);
                QFAIL("a foreign SQLite file was opened as a workspace");
            } catch (const SqlError &e) {
                QCOMPARE(e.code(), SQLITE_NOTADB);
                QVERIFY2(
                    e.message().contains(QLatin1String("not a Plumb workspace")), qPrintable(e.message()));
            }
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
            f.close();
        }
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
    }

    void diagnosticsAreCounted()
    {
        const QString path = freshPath();
        ImportRunner runner(m_registry, path);
        runner.run({ QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/bad_events.json") });
        Workspace ws(path, Workspace::Role::Reader);
        WorkspaceReader reader(ws);
        const auto sources = reader.sources();
        QCOMPARE(sources.size(), 1);
        QCOMPARE(sources[0].skipped, 3); // malformed, missing ts, unsupported phase
        QCOMPARE(reader.diagnostics().size(), 4);
        const auto summary = reader.summary();
        QCOMPARE(summary.sources, 1);
        QCOMPARE(summary.lastImport, QStringLiteral("bad_events.json"));
    }
};

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
