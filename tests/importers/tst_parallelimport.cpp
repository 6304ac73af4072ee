// SPDX-License-Identifier: GPL-3.0-or-later
// Traces read in parallel (ImportRunner::setJobs) give the workspace a sequential import gives:
// compared table by table with string ids resolved to their text (the one id space a parallel import
// numbers differently) and level-of-detail tiles decoded.

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "ingest/tracemerge.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/slicesummary.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <map>

using namespace plumb;

namespace {

QString data(const char *relative)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(relative);
}

QString shared(const char *relative)
{
    return QStringLiteral(PLUMB_SHARED_DATA "/") + QLatin1String(relative);
}

// Columns not compared: when the import ran, not what it read.
bool isClockColumn(const QString &table, const QString &column)
{
    return (table == QLatin1String("run") && column == QLatin1String("created_at_ns"))
        || (table == QLatin1String("source")
            && (column == QLatin1String("imported_at_ns") || column == QLatin1String("import_ms")));
}

// Every table a trace import writes, one line per row, string ids as their text.
QString dump(const QString &workspace)
{
    Workspace w(workspace, Workspace::Role::Reader);
    SqliteDb &db = w.db();
    std::map<int64_t, QString> strings;
    {
        SqliteStmt st(db, "SELECT id, str FROM string");
        while (st.step())
            strings[st.columnInt(0)] = st.columnText(1);
    }
    QSet<QString> stringColumns; // "table.column"
    for (const auto &c : mergedColumns())
        if (std::string_view(c.space) == "string")
            stringColumns.insert(QLatin1String(c.table) + QLatin1Char('.') + QLatin1String(c.column));

    QString out;
    QTextStream s(&out);
    QStringList tables = mergedTables();
    tables.removeAll(QStringLiteral("string"));
    tables << QStringLiteral("run") << QStringLiteral("source") << QStringLiteral("diagnostic");
    for (const QString &table : tables) {
        s << "## " << table << '\n';
        SqliteStmt st(db, QStringLiteral("SELECT * FROM %1 ORDER BY 1").arg(table).toStdString());
        while (st.step()) {
            for (int c = 0; c < st.columnCount(); ++c) {
                const QString column = st.columnName(c);
                if (isClockColumn(table, column) || column == QLatin1String("data"))
                    continue;
                if (table == QLatin1String("string")
                    || (table == QLatin1String("diagnostic") && column == QLatin1String("id")))
                    continue;
                if (st.columnIsNull(c))
                    s << "NULL";
                else if (stringColumns.contains(table + QLatin1Char('.') + column))
                    s << '"' << strings[st.columnInt(c)] << '"';
                else
                    s << st.columnText(c);
                s << '|';
            }
            if (table == QLatin1String("slice_lod")) {
                // The tile, decoded, names as text.
                const int64_t track = st.columnInt(0);
                const SummaryLevels levels = summaryLevels(db, track);
                const auto blob = st.columnBlob(3);
                const SummaryTile t = decodeSummaryTile(int(st.columnInt(1)), st.columnInt(2), levels,
                    reinterpret_cast<const unsigned char *>(blob.data()), blob.size());
                s << t.hasBuckets << ' ' << t.sliceCount;
                for (const auto &c : t.carryOut)
                    s << " c" << c.depth << ',' << c.tsNs << ',' << c.durNs << ',' << strings[c.nameId];
                for (const auto &b : t.buckets)
                    s << " b" << b.bucket << ',' << b.depth << ',' << b.count << ',' << b.minStartNs << ','
                      << b.maxEndNs << ',' << b.lastTsNs << ',' << b.lastDurNs << ','
                      << strings[b.lastNameId];
            } else if (table == QLatin1String("counter_lod")) {
                const auto blob = st.columnBlob(3);
                s << QByteArray(blob.data(), qsizetype(blob.size())).toHex();
            }
            s << '\n';
        }
    }
    s << "## strings\n";
    QStringList all;
    for (const auto &[id, str] : strings)
        all << str;
    all.sort();
    s << all.join(QLatin1Char('\n'));
    return out;
}

} // namespace

class TestParallelImport : public QObject {
    Q_OBJECT

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_tmp;
    int m_count = 0;

    QString freshWorkspace() { return m_tmp.filePath(QStringLiteral("ws%1.plumb").arg(++m_count)); }

    std::vector<FileImportResult> import(const QString &ws, const QStringList &paths, int jobs)
    {
        ImportRunner runner(m_registry, ws);
        runner.setJobs(jobs);
        return runner.run(paths);
    }

    static QString statuses(const std::vector<FileImportResult> &results)
    {
        QStringList s;
        for (const auto &r : results)
            s << QFileInfo(r.path).fileName() + QLatin1Char('=') + statusName(r.status);
        return s.join(QLatin1Char(' '));
    }

    void compareParallelWithSequential(const QStringList &paths, const QStringList &before = {})
    {
        const QString sequential = freshWorkspace(), parallel = freshWorkspace();
        if (!before.isEmpty()) {
            import(sequential, before, 1);
            import(parallel, before, 1);
        }
        const auto a = import(sequential, paths, 1);
        const auto b = import(parallel, paths, 3);
        QCOMPARE(statuses(b), statuses(a));
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].message, a[i].message);
            QCOMPARE(b[i].sourceId, a[i].sourceId);
        }
        const QString da = dump(sequential), db = dump(parallel);
        if (da != db) {
            QFile fa(m_tmp.filePath(QStringLiteral("sequential.txt"))),
                fb(m_tmp.filePath(QStringLiteral("parallel.txt")));
            QVERIFY(fa.open(QIODevice::WriteOnly) && fb.open(QIODevice::WriteOnly));
            fa.write(da.toUtf8());
            fb.write(db.toUtf8());
            m_tmp.setAutoRemove(false);
            QFAIL(qPrintable(
                QStringLiteral("the workspaces differ: diff %1 %2").arg(fa.fileName(), fb.fileName())));
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        registerBuiltinImporters(m_registry);
    }

    // The merge shifts every id column of the trace tables or knows it holds strings.
    void everyIdColumnIsMapped()
    {
        const QString ws = freshWorkspace();
        Workspace w(ws, Workspace::Role::Writer);
        for (const QString &table : mergedTables()) {
            SqliteStmt st(w.db(), "SELECT name, type FROM pragma_table_info(?)");
            st.bind(1, table);
            while (st.step()) {
                const QString column = st.columnText(0);
                if (!(column == QLatin1String("id") || column.endsWith(QLatin1String("_id"))
                        || column.endsWith(QLatin1String("_track"))))
                    continue;
                bool mapped = false;
                for (const auto &c : mergedColumns())
                    mapped |= table == QLatin1String(c.table) && column == QLatin1String(c.column);
                QVERIFY2(mapped, qPrintable(table + QLatin1Char('.') + column));
            }
        }
    }

    // Fixtures of all three trace formats and two ranks of a job, into an empty workspace and into one
    // that holds a trace already (so that every id is shifted and the job's run found by key).
    void fixturesEqualSequential()
    {
        const QStringList files = {
            data("chrometrace/data/ranks_by_name"),
            data("chrometrace/data/unsorted.json"),
            data("chrometrace/data/multi_member.json.gz"),
            data("chrometrace/data/truncated.json"),
            data("nsys/data/layout2024.sqlite"),
            data("nsys/data/layout2022.sqlite"),
            data("xplane/data/basic.xplane.pb"),
        };
        compareParallelWithSequential(files);
        if (QTest::currentTestFailed())
            return;
        compareParallelWithSequential(files, { data("chrometrace/data/basic.json") });
    }

    // The real 2-rank job: one run, two traces, the same rows either way.
    void realRanksEqualSequential()
    {
        if (!QFile::exists(shared("traces/kineto/hta_sampled_rank-0.json.gz")))
            QSKIP("../shared/data/traces/kineto is absent: real-trace test skipped");
        compareParallelWithSequential({ shared("traces/kineto/hta_sampled_rank-0.json.gz"),
            shared("traces/kineto/hta_sampled_rank-1.json.gz"),
            shared("traces/nsys/cloverleaf_nsys2024.5.sqlite") });
        const QString ws = freshWorkspace();
        import(ws,
            { shared("traces/kineto/hta_sampled_rank-1.json.gz"),
                shared("traces/kineto/hta_sampled_rank-0.json.gz") },
            2);
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(DISTINCT run_id) FROM trace"), 1);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM trace"), 2);
    }

    // Bad and duplicate files among good ones: each gets its own result, the rest imports, results
    // come in file order with the non-trace files, and no scratch folder is left behind.
    void mixedBatch()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(data("chrometrace/data/basic.json"), dir.filePath(QStringLiteral("a.json"))));
        QVERIFY(QFile::copy(data("chrometrace/data/basic.json"), dir.filePath(QStringLiteral("b.json"))));
        QVERIFY(QFile::copy(data("nsys/data/truncated.sqlite"), dir.filePath(QStringLiteral("c.sqlite"))));
        QVERIFY(
            QFile::copy(data("xplane/data/garbage.xplane.pb"), dir.filePath(QStringLiteral("d.xplane.pb"))));
        QVERIFY(
            QFile::copy(data("xplane/data/basic.xplane.pb"), dir.filePath(QStringLiteral("e.xplane.pb"))));
        QFile notes(dir.filePath(QStringLiteral("c_notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("not a trace\n");
        notes.close();

        const QString sequential = freshWorkspace(), parallel = freshWorkspace();
        const auto a = import(sequential, { dir.path() }, 1);
        const auto b = import(parallel, { dir.path() }, 4);
        QCOMPARE(statuses(b), statuses(a));
        QCOMPARE(statuses(b),
            QStringLiteral("a.json=imported b.json=already imported c.sqlite=%1 c_notes.txt=not recognised "
                           "d.xplane.pb=failed e.xplane.pb=imported")
                .arg(statusName(a[2].status)));
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].message, a[i].message);
            QCOMPARE(b[i].location, a[i].location);
        }
        QCOMPARE(dump(parallel), dump(sequential));
        const QStringList left
            = QDir(m_tmp.path()).entryList({ QStringLiteral(".plumb-import-*") }, QDir::Dirs | QDir::Hidden);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    // A workspace that does not exist yet is built in a scratch folder (rollback journal in memory) and
    // linked into place: the same rows as an import into an existing empty workspace, a bad file among
    // good ones rolled back alone, the workspace in WAL mode like every other, no scratch folder left.
    void newWorkspaceEqualsInPlace()
    {
        const QStringList files = {
            data("chrometrace/data/basic.json"),
            data("nsys/data/truncated.sqlite"),
            data("nsys/data/layout2024.sqlite"),
            data("xplane/data/garbage.xplane.pb"),
            data("xplane/data/basic.xplane.pb"),
        };
        const QString inPlace = freshWorkspace(), created = freshWorkspace();
        {
            Workspace w(inPlace, Workspace::Role::Writer);
        } // exists, empty: imported into in place
        QVERIFY(!QFile::exists(created));
        const auto a = import(inPlace, files, 1);
        ImportRunner runner(m_registry, created);
        runner.setJobs(1);
        int progressCalls = 0, existedDuring = 0;
        runner.setProgressCallback([&](const ImportProgress &) {
            ++progressCalls;
            existedDuring += QFile::exists(created); // nobody can open it before it is whole
        });
        const auto b = runner.run(files);
        QVERIFY(progressCalls > 0);
        QCOMPARE(existedDuring, 0);
        QCOMPARE(statuses(b), statuses(a));
        QVERIFY(statuses(b).contains(QStringLiteral("garbage.xplane.pb=failed")));
        for (size_t i = 0; i < a.size(); ++i)
            QCOMPARE(b[i].message, a[i].message);
        QCOMPARE(dump(created), dump(inPlace));
        SqliteDb db(created, SqliteDb::OpenMode::ReadWrite);
        QCOMPARE(db.queryInt("SELECT count(*) FROM source"), 3);
        SqliteStmt mode(db, "PRAGMA journal_mode");
        QVERIFY(mode.step());
        QCOMPARE(mode.columnText(0), QStringLiteral("wal"));
        const QStringList left
            = QDir(m_tmp.path()).entryList({ QStringLiteral(".plumb-import-*") }, QDir::Dirs | QDir::Hidden);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    // The first import into an empty workspace that nobody else has open goes through a rollback journal
    // (no write-ahead log to copy into the file) and leaves it in WAL mode. With a reader open it goes
    // through the log, and the reader never waits. Both hold the same rows.
    void emptyWorkspaceFirstLoad()
    {
        const QStringList files
            = { data("chrometrace/data/basic.json"), data("xplane/data/basic.xplane.pb") };
        const QString alone = freshWorkspace(), watched = freshWorkspace();
        for (const QString &ws : { alone, watched }) {
            const Workspace created(ws, Workspace::Role::Writer);
        } // exist, empty
        const auto journalMode = [](const QString &ws) {
            SqliteDb db(ws, SqliteDb::OpenMode::ReadWrite);
            SqliteStmt mode(db, "PRAGMA journal_mode");
            return mode.step() ? mode.columnText(0) : QString();
        };

        ImportRunner runner(m_registry, alone);
        runner.setJobs(1);
        int calls = 0, logDuring = 0;
        runner.setProgressCallback([&](const ImportProgress &) {
            ++calls;
            logDuring += QFile::exists(alone + QStringLiteral("-wal"));
        });
        const auto a = runner.run(files);
        QVERIFY(calls > 0);
        QCOMPARE(logDuring, 0);
        QCOMPARE(journalMode(alone), QStringLiteral("wal"));

        Workspace reader(watched, Workspace::Role::Reader);
        reader.db().setBusyWait(std::chrono::milliseconds(0));
        QCOMPARE(reader.db().queryInt("SELECT count(*) FROM source"), 0);
        ImportRunner second(m_registry, watched);
        second.setJobs(1);
        int readsDuring = 0;
        QString failed;
        second.setProgressCallback([&](const ImportProgress &) {
            try {
                readsDuring += reader.db().queryInt("SELECT count(*) FROM source") >= 0;
            } catch (const SqlError &e) {
                failed = e.message();
            }
        });
        const auto b = second.run(files);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QVERIFY(readsDuring > 0);
        QCOMPARE(statuses(b), statuses(a));
        QCOMPARE(dump(watched), dump(alone));
        QCOMPARE(journalMode(watched), QStringLiteral("wal"));
    }

    // Cancelled while reading: what was not copied yet is not in the workspace, which stays whole.
    void cancelHalfway()
    {
        const QString ws = freshWorkspace();
        ImportRunner runner(m_registry, ws);
        runner.setJobs(2);
        runner.setProgressCallback([&](const ImportProgress &p) {
            if (p.stage.startsWith(QLatin1String("Writing")))
                runner.cancel();
        });
        const auto results = runner.run({ data("chrometrace/data/ranks_by_name"),
            data("chrometrace/data/basic.json"), data("xplane/data/basic.xplane.pb") });
        int imported = 0;
        for (const auto &r : results) {
            QVERIFY2(r.status == FileImportResult::Status::Imported
                    || r.status == FileImportResult::Status::Cancelled,
                qPrintable(r.message));
            imported += r.status == FileImportResult::Status::Imported;
        }
        QVERIFY(imported < int(results.size()));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM trace"), imported);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM source"), imported);
        SqliteStmt check(w.db(), "PRAGMA integrity_check");
        QVERIFY(check.step());
        QCOMPARE(check.columnText(0), QStringLiteral("ok"));
    }
};

QTEST_GUILESS_MAIN(TestParallelImport)
#include "tst_parallelimport.moc"
