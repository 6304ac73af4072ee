// SPDX-License-Identifier: GPL-3.0-or-later
// WorkspaceSession without a window: imports of small fixtures (the samples of every kind) report
// what they brought and the view chooseView() picks for it; imports queue behind each other; a cancel
// rolls back; live watching imports a folder and what grows in it; a load superseded by a newer one
// is dropped (its generation is old); paths waiting for a workspace that fails to open are dropped.
#include "builtinimporters.h"
#include "importhelpers.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "session/viewchoice.h"
#include "session/workspacesession.h"
#include "store/lockholder.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "store/workspacereader.h"

#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>

#include <sqlite3.h>
#include <unistd.h>

using namespace plumb;
using Status = FileImportResult::Status;
using View = ViewChoice::View;

namespace {

constexpr int kTimeoutMs = 120'000;

QString sample(const QString &name)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/") + name;
}

QString tfevents(const QString &variant)
{
    return QStringLiteral(
        PLUMB_SOURCE_DIR "/tests/importers/tfevents/data/%1/events.out.tfevents.1700000000.gen.1")
        .arg(variant);
}

// A Kineto-shaped trace of `events` kernels with their launches: big enough that reading it takes
// many chunks, so that a cancel lands in the middle.
void writeLargeTrace(const QString &path, int events)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"traceEvents\": [\n");
    QByteArray chunk;
    for (int i = 0; i < events; ++i) {
        const QByteArray ts = QByteArray::number(1712195495500000LL + i * 10);
        const QByteArray corr = QByteArray::number(i);
        chunk += "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":"
                 "100,\"ts\":"
            + ts + ".125,\"dur\":4.5,\"args\":{\"correlation\":" + corr
            + "}},\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" + ts
            + ".250,\"dur\":3,\"args\":{\"correlation\":" + corr + ",\"stream\":7}}"
            + (i + 1 < events ? ",\n" : "\n");
        if (chunk.size() > (1 << 20)) {
            f.write(chunk);
            chunk.clear();
        }
    }
    f.write(chunk);
    f.write("]}\n");
}

} // namespace

class TestWorkspaceSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(sample(QStringLiteral("sample_training_step.pt.trace.json.gz"))),
            "the samples are missing");
        registerBuiltinImporters(m_registry);
        QVERIFY(m_dir.isValid());
    }

    // The signals of one import, in order: started, done, the reload's snapshot, finished.
    void importReportsInOrder()
    {
        auto session = openSession(QStringLiteral("order.plumb"));
        QStringList events;
        connect(session.get(), &WorkspaceSession::importStarted, this,
            [&](int files, bool live) { events << QStringLiteral("started %1 %2").arg(files).arg(live); });
        connect(session.get(), &WorkspaceSession::importDone, this,
            [&](const ImportOutcome &o) { events << QStringLiteral("done %1").arg(o.imported); });
        connect(
            session.get(), &WorkspaceSession::loaded, this, [&](const WorkspaceSnapshot &s, bool switched) {
                events << QStringLiteral("loaded %1 %2").arg(s.runs.size()).arg(switched);
            });
        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        QCOMPARE(session->importPaths({ sample(QStringLiteral("sample_training_step.pt.trace.json.gz")) }),
            WorkspaceSession::ImportRequest::Started);
        QVERIFY(session->isImporting());
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(events,
            (QStringList {
                QStringLiteral("started 1 0"), QStringLiteral("done 1"), QStringLiteral("loaded 1 0") }));
        QVERIFY(!session->isImporting());
        QVERIFY(!session->isAwaitingReload());
        const ImportOutcome &o = session->lastImport();
        QCOMPARE(o.imported, 1);
        QCOMPARE(o.problems, 0);
        QVERIFY(o.records > 0);
        QCOMPARE(o.content.traces.size(), 1);
        Workspace ws(session->workspacePath(), Workspace::Role::Reader);
        QCOMPARE(o.content.traces.front().id, WorkspaceReader(ws).runs().front().traces.front().id);
        QCOMPARE(chooseView(o.content).view, View::Doctor);
    }

    // Each kind of input on its own: what the import brought, and the view for it. Imported again,
    // the same bytes still name their traces, lineage, serving and lifecycle rows (by source), but
    // no metric grew.
    void contentPerKind_data()
    {
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<int>("traces");
        QTest::addColumn<bool>("metrics");
        QTest::addColumn<bool>("lineage");
        QTest::addColumn<bool>("serving");
        QTest::addColumn<bool>("lifecycle");
        QTest::addColumn<int>("view");
        QTest::addColumn<int>("viewAgain");
        const auto s = [](const char *name) { return sample(QString::fromLatin1(name)); };
        QTest::newRow("trace") << QStringList { s("sample_training_step.pt.trace.json.gz") } << 1 << false
                               << false << false << false << int(View::Doctor) << int(View::Doctor);
        QTest::newRow("before and after")
            << QStringList { s("sample_training_step.pt.trace.json.gz"),
                   s("sample_training_step_after_bump.pt.trace.json.gz") }
            << 2 << false << false << false << false << int(View::Diff) << int(View::Diff);
        QTest::newRow("experiment logs") << QStringList { s("sample_sweep") } << 0 << true << false << false
                                         << false << int(View::Experiments) << int(View::None);
        QTest::newRow("tensorboard") << QStringList { tfevents(QStringLiteral("tf2")) } << 0 << true << false
                                     << false << false << int(View::Experiments) << int(View::None);
        QTest::newRow("lineage") << QStringList { s("sample_pipeline.openlineage.json") } << 0 << false
                                 << true << false << false << int(View::Lineage) << int(View::Lineage);
        QTest::newRow("serving") << QStringList { s("sample_serving.vllm.json.gz") } << 0 << false << false
                                 << true << false << int(View::Slo) << int(View::Slo);
        QTest::newRow("lifecycle") << QStringList { s("sample_training_job.lifecycle.jsonl.gz") } << 0
                                   << false << false << false << true << int(View::Goodput)
                                   << int(View::Goodput);
    }

    void contentPerKind()
    {
        QFETCH(QStringList, paths);
        QFETCH(int, traces);
        QFETCH(bool, metrics);
        QFETCH(bool, lineage);
        QFETCH(bool, serving);
        QFETCH(bool, lifecycle);
        QFETCH(int, view);
        QFETCH(int, viewAgain);
        auto session
            = openSession(QStringLiteral("kind-%1.plumb").arg(QString::fromLatin1(QTest::currentDataTag())));
        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        session->importPaths(paths);
        QVERIFY(finished.wait(kTimeoutMs));
        const ImportOutcome first = session->lastImport();
        QVERIFY2(first.problems == 0 && first.imported > 0, qPrintable(first.results.front().message));
        const ImportContent &c = first.content;
        QCOMPARE(c.traces.size(), traces);
        QCOMPARE(!c.metricRuns.isEmpty(), metrics);
        QCOMPARE(!c.lineageNodes.isEmpty(), lineage);
        QCOMPARE(c.servingRequests > 0, serving);
        QCOMPARE(!c.servingRuns.isEmpty(), serving);
        QCOMPARE(c.lifecycleEvents > 0, lifecycle);
        QCOMPARE(int(chooseView(c).view), view);
        if (traces == 2) {
            QCOMPARE(chooseView(c).baselineTraceId, c.traces[0].id); // the first file given
        }

        session->importPaths(paths);
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(session->lastImport().imported, 0);
        QVERIFY(session->lastImport().already > 0);
        QCOMPARE(session->lastImport().content.traces, c.traces);
        QCOMPARE(int(chooseView(session->lastImport().content).view), viewAgain);
    }

    void importsQueue()
    {
        auto session = openSession(QStringLiteral("queue.plumb"));
        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        QCOMPARE(session->importPaths({ sample(QStringLiteral("sample_training_step.pt.trace.json.gz")) }),
            WorkspaceSession::ImportRequest::Started);
        QCOMPARE(session->importPaths({ sample(QStringLiteral("sample_pipeline.openlineage.json")) }),
            WorkspaceSession::ImportRequest::Queued);
        QCOMPARE(session->importPaths({ QString() }), WorkspaceSession::ImportRequest::Nothing);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).value<ImportOutcome>().content.traces.size(), 1);
        QVERIFY(!finished.at(1).at(0).value<ImportOutcome>().content.lineageNodes.isEmpty());
        QVERIFY(finished.at(1).at(0).value<ImportOutcome>().content.traces.isEmpty());
    }

    void cancelRollsBack()
    {
        const QString big = m_dir.filePath(QStringLiteral("big.pt.trace.json"));
        writeLargeTrace(big, 300'000);
        auto session = openSession(QStringLiteral("cancel.plumb"));
        QVERIFY(!session->cancelImport()); // nothing runs
        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        QSignalSpy progress(session.get(), &WorkspaceSession::importProgress);
        session->importPaths({ big });
        QCOMPARE(session->importPaths({ sample(QStringLiteral("sample_training_step.pt.trace.json.gz")) }),
            WorkspaceSession::ImportRequest::Queued);
        QVERIFY(progress.wait(kTimeoutMs)); // reading
        QVERIFY(session->cancelImport()); // the queued sample goes too
        QVERIFY(session->isCancelling());
        QVERIFY(finished.wait(kTimeoutMs));
        QTest::qWait(200);
        QCOMPARE(finished.size(), 1);
        const ImportOutcome &o = session->lastImport();
        QCOMPARE(o.results.size(), size_t(1));
        QCOMPARE(o.results.front().status, Status::Cancelled);
        QCOMPARE(o.cancelled, 1);
        QCOMPARE(o.problems, 1);
        QVERIFY(o.content.isEmpty());
        QCOMPARE(chooseView(o.content).view, View::None);
        Workspace ws(session->workspacePath(), Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM source"), Q_INT64_C(0));
    }

    // Live mode on a temporary folder: what is there is imported at once, records appended to the
    // event file later are imported as they come (a live batch, its metric run grown), and opening
    // another workspace stops watching.
    void watchesFolder()
    {
        auto session = openSession(QStringLiteral("watch.plumb"));
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString events = folder.filePath(QStringLiteral("run/events.out.tfevents.1700000000.host"));
        QVERIFY(QDir().mkpath(folder.filePath(QStringLiteral("run"))));
        QVERIFY(QFile::copy(tfevents(QStringLiteral("tf2")), events));

        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        QSignalSpy watching(session.get(), &WorkspaceSession::watchingChanged);
        session->watcher()->setIntervalMs(100);
        QVERIFY(session->watchFolder(folder.path()));
        QVERIFY(session->isWatching());
        QCOMPARE(watching.size(), 1);
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(session->lastImport().live);
        QCOMPARE(session->lastImport().imported, 1);
        const QList<int64_t> runs = session->lastImport().content.metricRuns;
        QCOMPARE(runs.size(), 1);
        {
            QFile more(tfevents(QStringLiteral("legacy")));
            QVERIFY(more.open(QIODevice::ReadOnly));
            QFile out(events);
            QVERIFY(out.open(QIODevice::Append));
            out.write(more.readAll());
        }
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(session->lastImport().live);
        QCOMPARE(session->lastImport().results.front().status, Status::Imported);
        QCOMPARE(session->lastImport().content.metricRuns, runs); // the same run grew

        QSignalSpy loaded(session.get(), &WorkspaceSession::loaded);
        QVERIFY(session->create(m_dir.filePath(QStringLiteral("watch-other.plumb"))));
        QVERIFY(!session->isWatching());
        QCOMPARE(watching.size(), 2);
        QVERIFY(loaded.wait(10'000));
        QVERIFY(loaded.at(0).at(1).toBool()); // switched
    }

    // Two loads started back to back: only the newest is applied, whichever finishes first.
    void supersededLoadIsDropped()
    {
        const QString a = m_dir.filePath(QStringLiteral("gen-a.plumb"));
        const QString b = m_dir.filePath(QStringLiteral("gen-b.plumb"));
        QVERIFY(importIntoWorkspace(a, { sample(QStringLiteral("sample_training_step.pt.trace.json.gz")) })
                    .isEmpty());
        WorkspaceSession session(m_registry);
        QSignalSpy loaded(&session, &WorkspaceSession::loaded);
        QSignalSpy started(&session, &WorkspaceSession::loadStarted);
        QVERIFY(session.open(a));
        QVERIFY(session.open(b, WorkspaceSession::Mode::CreateIfMissing));
        QCOMPARE(session.loadGeneration(), quint64(2));
        QCOMPARE(started.size(), 2);
        QVERIFY(session.isLoading());
        QCOMPARE(session.loadingPath(), b);
        QVERIFY(loaded.wait(10'000));
        QTest::qWait(300); // the older load's result, had it not been dropped, would be here by now
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(loaded.at(0).at(0).value<WorkspaceSnapshot>().path, b);
        QCOMPARE(session.workspacePath(), b);
        QVERIFY(!session.isLoading());

        // A refresh while opening reloads the workspace being opened, not the one shown.
        QVERIFY(session.open(a));
        session.refresh();
        QVERIFY(loaded.wait(10'000));
        QTest::qWait(300);
        QCOMPARE(loaded.size(), 2);
        QCOMPARE(session.workspacePath(), a);
        QCOMPARE(loaded.at(1).at(0).value<WorkspaceSnapshot>().runs.size(), 1);
    }

    // Without a workspace nothing is taken; paths queued while one is being opened are dropped, with
    // the reason, when it cannot be opened.
    void noWorkspace()
    {
        WorkspaceSession session(m_registry);
        QCOMPARE(session.importPaths({ sample(QStringLiteral("sample_pipeline.openlineage.json")) }),
            WorkspaceSession::ImportRequest::NoWorkspace);
        QVERIFY(!session.watchFolder(m_dir.path()));
        const QString bogus = m_dir.filePath(QStringLiteral("bogus.plumb"));
        QVERIFY(writeTestFile(bogus, QByteArray(4096, 'x')));
        QSignalSpy failed(&session, &WorkspaceSession::loadFailed);
        QSignalSpy dropped(&session, &WorkspaceSession::importsDropped);
        QVERIFY(session.open(bogus));
        QCOMPARE(session.importPaths({ sample(QStringLiteral("sample_pipeline.openlineage.json")) }),
            WorkspaceSession::ImportRequest::Queued);
        QVERIFY(failed.wait(10'000));
        QCOMPARE(failed.at(0).at(0).toString(), bogus);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.at(0).at(0).toStringList().size(), 1);
        QVERIFY(session.workspacePath().isEmpty());
        QCOMPARE(QFileInfo(bogus).size(), 4096); // not touched
    }

    // Another program writing the workspace (issue 38): the session says who once the files change while it
    // holds the write lock; the session's own import waits for it, saying who in its progress, and lands
    // once it is done; an import by another `plumb` process is shown without a refresh being asked for.
    void anotherWriter()
    {
        auto session = openSession(QStringLiteral("writers.plumb"));
        const QString path = session->workspacePath();
        QVERIFY(!path.isEmpty());
        session->setChangeCheckInterval(100);
        QSignalSpy other(session.get(), &WorkspaceSession::otherWriter);
        QProcess holder;
        holder.start(QStringLiteral("sqlite3"), { path });
        QVERIFY2(holder.waitForStarted(), "the sqlite3 command-line shell is needed");
        holder.write("CREATE TABLE outside(a);\nBEGIN IMMEDIATE;\nINSERT INTO outside VALUES (1);\n");
        QTRY_VERIFY_WITH_TIMEOUT(!writeLockHolder(path).isEmpty(), 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(!other.isEmpty(), 10'000);
        QVERIFY2(other.last().at(0).toString().contains(QLatin1String("sqlite3")),
            qPrintable(other.last().at(0).toString()));

        QStringList stages;
        connect(session.get(), &WorkspaceSession::importProgress, this,
            [&](const QString &stage, double, double, int, int) { stages << stage; });
        QSignalSpy finished(session.get(), &WorkspaceSession::importFinished);
        QCOMPARE(session->importPaths({ sample(QStringLiteral("sample_pipeline.openlineage.json")) }),
            WorkspaceSession::ImportRequest::Started);
        const auto waitingSaid = [&] {
            return std::any_of(stages.cbegin(), stages.cend(), [&](const QString &stage) {
                return stage.startsWith(QLatin1String("Waiting for process"))
                    && stage.contains(QLatin1String("sqlite3"));
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(waitingSaid(), 10'000);
        QVERIFY(session->isImporting());
        holder.write("COMMIT;\n");
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished(10'000));
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(session->lastImport().imported, 1);
        QCOMPARE(session->lastImport().problems, 0);

        QSignalSpy loaded(session.get(), &WorkspaceSession::loaded);
        QProcess plumb;
        plumb.start(QStringLiteral(PLUMB_CLI),
            { QStringLiteral("import"), sample(QStringLiteral("sample_training_job.lifecycle.jsonl.gz")),
                QStringLiteral("--workspace"), path });
        QVERIFY(plumb.waitForFinished(kTimeoutMs));
        QCOMPARE(plumb.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            !loaded.isEmpty() && loaded.last().at(0).value<WorkspaceSnapshot>().sources.size() == 2, 20'000);
    }

    // A reader opened after the load (the timeline's, a query's) creates the empty write-ahead log SQLite
    // removed when the last connection closed: nobody wrote, so nobody is named and nothing is read again.
    void readerIsNoWriter()
    {
        auto session = openSession(QStringLiteral("reader.plumb"));
        const QString path = session->workspacePath();
        QVERIFY(!path.isEmpty());
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
        session->setChangeCheckInterval(50);
        QSignalSpy other(session.get(), &WorkspaceSession::otherWriter);
        QSignalSpy loaded(session.get(), &WorkspaceSession::loaded);
        Workspace reader(path, Workspace::Role::Reader);
        SqliteStmt count(reader.db(), "SELECT count(*) FROM source");
        QVERIFY(count.step());
        QVERIFY(QFileInfo::exists(path + QStringLiteral("-wal")));
        QTest::qWait(500);
        QVERIFY(other.isEmpty());
        QVERIFY(loaded.isEmpty());
    }

    // A workspace this process may not write (a file and folder of another user): it opens for reading,
    // says why, and takes no import or watched folder. As root, where permissions do not bind, the test
    // runs again as `nobody` (setpriv) on a workspace root made.
    void readOnlyWorkspace()
    {
        if (const QByteArray given = qgetenv("PLUMB_TEST_READONLY_WORKSPACE"); !given.isEmpty())
            return checkReadOnly(QString::fromLocal8Bit(given));
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/plumb-readonly-XXXXXX"));
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("shared.plumb"));
        {
            ImportRunner runner(m_registry, path);
            QCOMPARE(
                runner.run({ sample(QStringLiteral("sample_pipeline.openlineage.json")) }).front().status,
                Status::Imported);
        }
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(QFile::setPermissions(dir.path(),
            QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
                | QFile::ExeOther));
        const auto restore = qScopeGuard([&] {
            QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        });
        if (::geteuid() != 0)
            return checkReadOnly(path);
        QProcess self;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PLUMB_TEST_READONLY_WORKSPACE"), path);
        env.insert(QStringLiteral("HOME"), dir.path());
        self.setProcessEnvironment(env);
        self.setProcessChannelMode(QProcess::MergedChannels);
        self.start(QStringLiteral("setpriv"),
            { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                QStringLiteral("--clear-groups"), QCoreApplication::applicationFilePath(),
                QStringLiteral("readOnlyWorkspace") });
        QVERIFY2(self.waitForStarted(), "setpriv (util-linux) is needed to run this test as root");
        QVERIFY(self.waitForFinished(kTimeoutMs));
        const QByteArray output = self.readAll();
        QVERIFY2(self.exitCode() == 0 && output.contains("PASS   : TestWorkspaceSession::readOnlyWorkspace"),
            output.constData());
    }

private:
    void checkReadOnly(const QString &path)
    {
        QVERIFY(!Workspace::readOnlyReason(path).isEmpty());
        QVERIFY2(Workspace::readOnlyReason(path).startsWith(QLatin1String("no write permission on")),
            qPrintable(Workspace::readOnlyReason(path)));
        const QByteArray before = fileBytes(path);
        WorkspaceSession session(m_registry);
        QSignalSpy loaded(&session, &WorkspaceSession::loaded);
        QVERIFY(session.open(path));
        QVERIFY(loaded.wait(10'000));
        const auto s = loaded.last().at(0).value<WorkspaceSnapshot>();
        QVERIFY(s.readOnly());
        QCOMPARE(s.sources.size(), 1);
        QCOMPARE(session.readOnlyReason(), s.readOnlyReason);
        QCOMPARE(session.importPaths({ sample(QStringLiteral("sample_training_job.lifecycle.jsonl.gz")) }),
            WorkspaceSession::ImportRequest::ReadOnly);
        QVERIFY(!session.watchFolder(QFileInfo(path).absolutePath()));
        try {
            Workspace writer(path, Workspace::Role::Writer);
            QFAIL("a writer opened a read-only workspace");
        } catch (const SqlError &e) {
            QCOMPARE(e.code(), SQLITE_READONLY);
            QVERIFY2(e.message().contains(QLatin1String("is read-only (no write permission")),
                qPrintable(e.message()));
        }
        Workspace reader(path, Workspace::Role::Reader);
        QVERIFY(reader.readOnly());
        QCOMPARE(reader.db().queryInt("SELECT count(*) FROM source"), 1);
        QCOMPARE(fileBytes(path), before);
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));
    }

    static QByteArray fileBytes(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    std::unique_ptr<WorkspaceSession> openSession(const QString &name)
    {
        auto session = std::make_unique<WorkspaceSession>(m_registry);
        QSignalSpy loaded(session.get(), &WorkspaceSession::loaded);
        session->open(m_dir.filePath(name), WorkspaceSession::Mode::CreateIfMissing);
        if (!loaded.wait(10'000)) {
            qWarning("workspace %s did not load", qPrintable(name));
        }
        return session;
    }

    ImporterRegistry m_registry;
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestWorkspaceSession)
#include "tst_workspacesession.moc"
