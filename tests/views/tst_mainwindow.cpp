// SPDX-License-Identifier: GPL-3.0-or-later
// The main window end to end, offscreen: imports through importPaths() and through a simulated drop
// land in the workspace and in the browser's model; a cancelled import leaves the workspace as it
// was; a workspace that cannot be opened is reported and the window stays usable; two traces
// selected in the browser open in the Diff tab.
#include "builtinimporters.h"
#include "diagnosticsbadge.h"
#include "diagnosticsmodel.h"
#include "diff/diffpanel.h"
#include "doctor/doctorpanel.h"
#include "experiments/experimentspanel.h"
#include "experiments/runstablemodel.h"
#include "goodput/goodputpanel.h"
#include "importhelpers.h"
#include "importprogresswidget.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "lineage/lineagepanel.h"
#include "mainwindow.h"
#include "memory/memoryallocationmodel.h"
#include "memory/memorypanel.h"
#include "memorytracegen.h"
#include "query/querypanel.h"
#include "session/importcontroller.h"
#include "slo/slopanel.h"
#include "sourcesmodel.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "store/workspacereader.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "tracedetailswidget.h"
#include "workspacemodel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QMenu>
#include <QMimeData>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <csignal>
#include <memory>

#include <sys/resource.h>

using namespace plumb;
using Status = FileImportResult::Status;

namespace {

constexpr int kImportTimeoutMs = 120'000;

QString samplePath()
{
    return QStringLiteral(PLUMB_SAMPLES_DIR "/sample_training_step.pt.trace.json.gz");
}

// A Kineto-shaped trace of `events` kernels with their launches: big enough that reading it takes
// many chunks, so a cancel lands in the middle.
void writeLargeTrace(const QString &path, int events)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n");
    QByteArray chunk;
    for (int i = 0; i < events; ++i) {
        const qint64 ts = 1712195495500000LL + i * 10;
        chunk += QByteArrayLiteral(
                     "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
                     "\"pid\": 100, \"tid\": 100, \"ts\": ")
            + QByteArray::number(ts) + QByteArrayLiteral(".125, \"dur\": 4.500, \"args\": {\"correlation\": ")
            + QByteArray::number(i)
            + QByteArrayLiteral("}},\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k")
            + QByteArray::number(i % 50) + QByteArrayLiteral("\", \"pid\": 0, \"tid\": 7, \"ts\": ")
            + QByteArray::number(ts + 5)
            + QByteArrayLiteral(".250, \"dur\": 3.000, \"args\": {\"correlation\": ") + QByteArray::number(i)
            + QByteArrayLiteral(", \"device\": 0, \"stream\": 7}}")
            + (i + 1 < events ? QByteArrayLiteral(",\n") : QByteArrayLiteral("\n"));
        if (chunk.size() > (1 << 20)) {
            f.write(chunk);
            chunk.clear();
        }
    }
    f.write(chunk);
    f.write("  ]\n}\n");
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(
            true); // keep QSettings (recent workspaces) out of the user's files
        QVERIFY2(QFileInfo::exists(samplePath()), qPrintable(samplePath()));
        registerBuiltinImporters(m_registry);
        QVERIFY(m_dir.isValid());
    }

    void importSample()
    {
        const QString ws = m_dir.filePath(QStringLiteral("import.plumb"));
        auto window = openWindow(ws);
        QAbstractItemModelTester tester(
            window->workspaceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester sourcesTester(
            window->sourcesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(window->workspaceModel()->rowCount(), 0);

        QSignalSpy started(window.get(), &MainWindow::importStarted);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ samplePath() });
        QVERIFY(window->isImporting());
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(started.size(), 1);
        QCOMPARE(finished.at(0).at(0).toInt(), 1); // imported
        QCOMPARE(finished.at(0).at(1).toInt(), 0); // problems
        QVERIFY(!window->isImporting());
        QCOMPARE(window->lastImportResults().size(), size_t(1));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);

        checkModelMatchesWorkspace(*window, ws);
        // The new trace is selected.
        Workspace reader(ws, Workspace::Role::Reader);
        const auto runs = WorkspaceReader(reader).runs();
        QCOMPARE(window->currentTraceId(), runs.first().traces.first().id);
    }

    // After a drop the window opens the view for what came in (chooseView()): a trace's Doctor, the
    // Diff of a before/after pair, Experiments on new runs, Lineage, SLO, Goodput.
    void dropOpensMostUsefulView_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("tab");
        const auto s = [](const char *name) -> QString {
            return QStringLiteral(PLUMB_SAMPLES_DIR "/") + QLatin1String(name);
        };
        QTest::newRow("trace") << QStringList { samplePath() } << QStringLiteral("Doctor");
        QTest::newRow("two traces") << QStringList { samplePath(),
            s("sample_training_step_after_bump.pt.trace.json.gz") }
                                    << QStringLiteral("Diff");
        QTest::newRow("experiment logs")
            << QStringList { s("sample_sweep") } << QStringLiteral("Experiments");
        QTest::newRow("lineage") << QStringList { s("sample_pipeline.openlineage.json") }
                                 << QStringLiteral("Lineage");
        QTest::newRow("serving") << QStringList { s("sample_serving.vllm.json.gz") } << QStringLiteral("SLO");
        QTest::newRow("lifecycle") << QStringList { s("sample_training_job.lifecycle.jsonl.gz") }
                                   << QStringLiteral("Goodput");
    }

    void dropOpensMostUsefulView()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, tab);
        auto window = openWindow(m_dir.filePath(
            QStringLiteral("view-%1.plumb").arg(QString::fromLatin1(QTest::currentDataTag()))));
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString &f : files)
            urls << QUrl::fromLocalFile(f);
        mime.setUrls(urls);
        QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &enter);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        QSignalSpy doctorLoaded(window->doctorPanel(), &DoctorPanel::loaded);
        QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &drop);
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(finished.at(0).at(1).toInt(), 0);
        QWidget *panel = nullptr;
        if (tab == QLatin1String("Doctor"))
            panel = window->doctorPanel();
        else if (tab == QLatin1String("Diff"))
            panel = window->diffPanel();
        else if (tab == QLatin1String("Experiments"))
            panel = window->experimentsPanel();
        else if (tab == QLatin1String("Lineage"))
            panel = window->lineagePanel();
        else if (tab == QLatin1String("SLO"))
            panel = window->sloPanel();
        else
            panel = window->goodputPanel();
        QVERIFY2(panel->isVisible(), qPrintable(tab));
        const QList<int64_t> traces = window->lastImportedTraceIds();
        if (tab == QLatin1String("Doctor")) {
            QCOMPARE(window->currentTraceId(), traces.value(0));
            QTRY_COMPARE_WITH_TIMEOUT(doctorLoaded.size(), 1, kImportTimeoutMs); // its verdict
            QVERIFY(window->doctorPanel()->result().error.isEmpty());
            QVERIFY(!window->doctorPanel()->result().kernels.empty());
        } else if (tab == QLatin1String("Diff")) {
            QCOMPARE(window->diffPanel()->baselineId(), traces.value(0));
            QCOMPARE(window->diffPanel()->comparedId(), traces.value(1));
        } else if (tab == QLatin1String("Experiments")) {
            QTRY_VERIFY_WITH_TIMEOUT(
                !window->experimentsPanel()->selectedRunIds().isEmpty(), kImportTimeoutMs);
        }
    }

    // Opening a workspace of an older schema says that it is being upgraded while it is (a large one
    // takes seconds), then that it is open.
    void upgradingWorkspaceIsSaid()
    {
        const QString ws = m_dir.filePath(QStringLiteral("old.plumb"));
        createWorkspaceAtSchema(ws, 10);
        auto window = std::make_unique<MainWindow>(m_registry, ws);
        QSignalSpy loaded(window.get(), &MainWindow::workspaceLoaded);
        QVERIFY2(window->statusBar()->currentMessage().startsWith(QLatin1String("Upgrading ")),
            qPrintable(window->statusBar()->currentMessage()));
        window->show();
        QVERIFY(loaded.wait(10'000));
        QVERIFY(!window->statusBar()->currentMessage().startsWith(QLatin1String("Upgrading ")));
        Workspace reader(ws, Workspace::Role::Reader);
        QCOMPARE(reader.schemaVersion(), Workspace::currentSchemaVersion());
    }

    void dropImportsFilesAndFolders()
    {
        const QString ws = m_dir.filePath(QStringLiteral("drop.plumb"));
        auto window = openWindow(ws);
        QAbstractItemModelTester tester(
            window->workspaceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        // A folder holding a copy of the sample: the runner walks it.
        const QString folder = m_dir.filePath(QStringLiteral("dropped"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::copy(samplePath(), folder + QStringLiteral("/rank0.pt.trace.json.gz")));

        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(folder) });
        QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &enter);
        QVERIFY(enter.isAccepted());

        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        QSignalSpy doctorLoaded(window->doctorPanel(), &DoctorPanel::loaded);
        QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toInt(), 1);
        checkModelMatchesWorkspace(*window, ws);

        // The same bytes dropped again are a no-op that says so.
        QMimeData again;
        again.setUrls({ QUrl::fromLocalFile(samplePath()) });
        // QApplication delivers a drop only to the widget that accepted the drag's enter event.
        QDragEnterEvent enter2(QPoint(20, 20), Qt::CopyAction, &again, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &enter2);
        QVERIFY(enter2.isAccepted());
        QDropEvent drop2(QPointF(20, 20), Qt::CopyAction, &again, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &drop2);
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::AlreadyImported);
        QCOMPARE(window->workspaceModel()->traceCount(), 1);

        // Something that is not a local file is not taken.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QDragEnterEvent enterText(QPoint(20, 20), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window.get(), &enterText);
        QVERIFY(!enterText.isAccepted());
    }

    void cancelLeavesWorkspaceUnchanged_data()
    {
        QTest::addColumn<bool>("waitForProgress");
        QTest::newRow("before it starts") << false;
        QTest::newRow("while reading") << true;
    }

    void cancelLeavesWorkspaceUnchanged()
    {
        QFETCH(bool, waitForProgress);
        const QString big = m_dir.filePath(QStringLiteral("big.pt.trace.json"));
        if (!QFileInfo::exists(big))
            writeLargeTrace(big, 400'000);
        const QString ws = m_dir.filePath(
            waitForProgress ? QStringLiteral("cancel2.plumb") : QStringLiteral("cancel1.plumb"));
        auto window = openWindow(ws);

        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ big });
        QVERIFY(window->isImporting());
        if (waitForProgress) {
            // Cancel once the worker reports that it is reading the file; the status bar says so.
            auto *controller = window->findChild<ImportController *>();
            QVERIFY(controller);
            QSignalSpy progress(controller, &ImportController::progress);
            QVERIFY(progress.wait(kImportTimeoutMs));
            const QString stage = window->findChild<ImportProgressWidget *>()->stageText();
            QVERIFY2(stage.contains(QStringLiteral("big.pt.trace.json")) && stage.contains(QLatin1Char('%')),
                qPrintable(stage));
        }
        window->cancelImport();
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().size(), size_t(1));
        const FileImportResult &r = window->lastImportResults().front();
        QVERIFY2(r.status == Status::Cancelled,
            qPrintable(statusName(r.status) + QStringLiteral(": ") + r.message));
        QCOMPARE(finished.at(0).at(1).toInt(), 1);

        Workspace reader(ws, Workspace::Role::Reader);
        WorkspaceReader rd(reader);
        QCOMPARE(rd.summary().sources, 0);
        QCOMPARE(rd.summary().traces, 0);
        QCOMPARE(window->workspaceModel()->rowCount(), 0);
        QCOMPARE(window->sourcesModel()->rowCount(), 0);

        // The window is usable afterwards: the sample still imports.
        window->importPaths({ samplePath() });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        checkModelMatchesWorkspace(*window, ws);
    }

    // A full disk while the window imports (a file size limit on this process, SIGXFSZ ignored, so writes
    // fail as they do on a full disk): the file fails with a message saying so, the window is not closed,
    // the workspace holds what it held, and the same import lands once there is room.
    void diskFullImportFailsCleanly()
    {
        const QString big = m_dir.filePath(QStringLiteral("big.pt.trace.json"));
        if (!QFileInfo::exists(big))
            writeLargeTrace(big, 400'000);
        const QString ws = m_dir.filePath(QStringLiteral("diskfull.plumb"));
        auto window = openWindow(ws);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ samplePath() });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        const qint64 room = QFileInfo(ws).size() + (4 << 20); // far less than the big trace needs

        struct rlimit before { };
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &before), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit limited = before;
        limited.rlim_cur = rlim_t(room);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limited), 0);
        window->importPaths({ big });
        const bool done = finished.wait(kImportTimeoutMs);
        ::setrlimit(RLIMIT_FSIZE, &before);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(done);
        const FileImportResult &r = window->lastImportResults().front();
        QCOMPARE(r.status, Status::Failed);
        QVERIFY2(r.message.contains(QLatin1String("the disk may be full"))
                || r.message.contains(QLatin1String("the disk is full")),
            qPrintable(r.message));
        QVERIFY(window->isVisible());
        {
            Workspace reader(ws, Workspace::Role::Reader);
            SqliteStmt check(reader.db(), "PRAGMA integrity_check");
            QVERIFY(check.step());
            QCOMPARE(check.columnText(0), QStringLiteral("ok"));
            QCOMPARE(WorkspaceReader(reader).summary().sources, 1);
        }
        checkModelMatchesWorkspace(*window, ws);

        window->importPaths({ big });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        QCOMPARE(window->workspaceModel()->traceCount(), 2);
        QCOMPARE(window->sourcesModel()->rowCount(), 2);
    }

    void unrecognisedFileIsReported()
    {
        const QString ws = m_dir.filePath(QStringLiteral("unrecognised.plumb"));
        auto window = openWindow(ws);
        const QString notes = m_dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(notes);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("these are not the traces you are looking for\n");
        }
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ notes, samplePath() });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toInt(), 1);
        QCOMPARE(finished.at(0).at(1).toInt(), 1);
        QCOMPARE(window->lastImportResults().size(), size_t(2));
        QCOMPARE(window->lastImportResults().front().status, Status::Unrecognised);
        QCOMPARE(window->workspaceModel()->traceCount(), 1);
    }

    // Live mode: what is in the watched folder is imported at once; records appended to an event
    // file later are imported from where the first import stopped; then watching stops.
    void watchFolderImportsWhatGrows()
    {
        const QString ws = m_dir.filePath(QStringLiteral("watch.plumb"));
        auto window = openWindow(ws);
        const QString folder = m_dir.filePath(QStringLiteral("watched/run"));
        QVERIFY(QDir().mkpath(folder));
        const QString data = QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/tfevents/data/");
        const QString events = folder + QStringLiteral("/events.out.tfevents.1700000000.host");
        QVERIFY(QFile::copy(data + QStringLiteral("tf2/events.out.tfevents.1700000000.gen.1"), events));
        const auto metricRows = [&] {
            Workspace reader(ws, Workspace::Role::Reader);
            return reader.db().queryInt("SELECT count(*) FROM metric");
        };

        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->watcher()->setIntervalMs(100);
        window->watchFolder(m_dir.filePath(QStringLiteral("watched")));
        QVERIFY(window->watcher()->isWatching());
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        const int64_t first = metricRows();
        QVERIFY(first > 0);

        {
            // Another event file's records, appended as a writer would.
            QFile more(data + QStringLiteral("legacy/events.out.tfevents.1700000000.gen.1"));
            QVERIFY(more.open(QIODevice::ReadOnly));
            QFile out(events);
            QVERIFY(out.open(QIODevice::Append));
            out.write(more.readAll());
        }
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        QVERIFY2(window->lastImportResults().front().message.contains(QLatin1String("appended since source")),
            qPrintable(window->lastImportResults().front().message));
        QVERIFY(metricRows() > first);
        {
            Workspace reader(ws, Workspace::Role::Reader);
            QCOMPARE(
                reader.db().queryInt("SELECT count(*) FROM source WHERE continues_source_id IS NOT NULL"), 1);
        }

        window->stopWatching();
        QVERIFY(!window->watcher()->isWatching());
    }

    void importsQueueBehindEachOther()
    {
        const QString ws = m_dir.filePath(QStringLiteral("queue.plumb"));
        auto window = openWindow(ws);
        const QString copy = m_dir.filePath(QStringLiteral("copy.pt.trace.json.gz"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(samplePath(), copy));
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ samplePath() });
        window->importPaths({ copy }); // queued while the first runs
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, kImportTimeoutMs);
        // Same content: the second is recognised as already imported.
        QCOMPARE(window->lastImportResults().front().status, Status::AlreadyImported);
        QCOMPARE(window->workspaceModel()->traceCount(), 1);
    }

    void openFailureKeepsWindowUsable()
    {
        const QString ws = m_dir.filePath(QStringLiteral("good.plumb"));
        auto window = openWindow(ws);
        const QString bogus = m_dir.filePath(QStringLiteral("bogus.plumb"));
        {
            QFile f(bogus);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'x'));
        }
        QSignalSpy failed(window.get(), &MainWindow::workspaceLoadFailed);
        window->openWorkspace(bogus);
        QVERIFY(failed.wait(10'000));
        QCOMPARE(failed.at(0).at(0).toString(), bogus);
        QVERIFY(!failed.at(0).at(1).toString().isEmpty());
        QCOMPARE(window->workspacePath(), ws);

        QSignalSpy missing(window.get(), &MainWindow::workspaceLoadFailed);
        window->openWorkspace(m_dir.filePath(QStringLiteral("does-not-exist.plumb")));
        QVERIFY(missing.wait(10'000));
        QCOMPARE(window->workspacePath(), ws);

        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ samplePath() });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->workspaceModel()->traceCount(), 1);
        // The bogus file was not touched.
        QCOMPARE(QFileInfo(bogus).size(), 4096);
    }

    void switchesWorkspaces()
    {
        const QString first = m_dir.filePath(QStringLiteral("switch-a.plumb"));
        const QString second = m_dir.filePath(QStringLiteral("switch-b.plumb"));
        {
            auto window = openWindow(first);
            QSignalSpy finished(window.get(), &MainWindow::importFinished);
            window->importPaths({ samplePath() });
            QVERIFY(finished.wait(kImportTimeoutMs));
        }
        auto window = openWindow(second);
        QCOMPARE(window->workspacePath(), second);
        QCOMPARE(window->workspaceModel()->traceCount(), 0);
        QSignalSpy loaded(window.get(), &MainWindow::workspaceLoaded);
        window->openWorkspace(first);
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(window->workspacePath(), first);
        QCOMPARE(window->workspaceModel()->traceCount(), 1);
        QVERIFY(window->currentTraceId() > 0);

        // A new workspace starts empty.
        const QString third = m_dir.filePath(QStringLiteral("switch-c.plumb"));
        window->createWorkspace(third);
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(window->workspacePath(), third);
        QCOMPARE(window->workspaceModel()->rowCount(), 0);
        QCOMPARE(window->currentTraceId(), -1);
    }

    // Opening a workspace selects the trace imported last (the one the status bar names), not the
    // first in the tree.
    void openingSelectsNewestTrace()
    {
        const QString ws = m_dir.filePath(QStringLiteral("newest.plumb"));
        const QString second = m_dir.filePath(QStringLiteral("newest_second.json"));
        writeLargeTrace(second, 200);
        ImportRunner runner(m_registry, ws);
        for (const QString &path : { samplePath(), second })
            QCOMPARE(runner.run({ path }).front().status, Status::Imported);
        int64_t newest = -1, first = -1;
        {
            Workspace reader(ws, Workspace::Role::Reader);
            const auto runs = WorkspaceReader(reader).runs();
            for (const RunInfo &r : runs)
                for (const TraceInfo &t : r.traces)
                    newest = std::max(newest, t.id);
            first = runs.first().traces.first().id;
        }
        QVERIFY(newest != first); // else this proves nothing
        auto window = openWindow(ws);
        QCOMPARE(window->currentTraceId(), newest);
    }

    // View > Compare Traces on two selected traces, and a trace's Compare With menu, open the Diff tab.
    void compareTracesOpensDiff()
    {
        const QString ws = m_dir.filePath(QStringLiteral("compare.plumb"));
        const QString small = m_dir.filePath(QStringLiteral("small.pt.trace.json"));
        writeLargeTrace(small, 200);
        auto window = openWindow(ws);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ samplePath(), small });
        QVERIFY(finished.wait(kImportTimeoutMs));
        const QList<int64_t> ids = window->lastImportedTraceIds();
        QCOMPARE(ids.size(), 2);
        QCOMPARE(window->traceIds().size(), 2);

        QTreeView *tree = nullptr;
        for (QTreeView *t : window->findChildren<QTreeView *>())
            if (t->accessibleName() == QLatin1String("Workspace browser"))
                tree = t;
        QVERIFY(tree);
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(tree->model());
        QVERIFY(proxy);
        auto rowOf
            = [&](int64_t id) { return proxy->mapFromSource(window->workspaceModel()->indexForTrace(id)); };
        // The baseline first, then the trace to compare with it (the current one).
        tree->selectionModel()->setCurrentIndex(
            rowOf(ids[0]), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        tree->selectionModel()->setCurrentIndex(
            rowOf(ids[1]), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(window->selectedTraceIds(), (QList<int64_t> { ids[0], ids[1] }));

        auto *compare = window->findChild<QAction *>(QStringLiteral("view.compare"));
        QVERIFY(compare);
        QCOMPARE(compare->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
        QSignalSpy loaded(window->diffPanel(), &DiffPanel::loaded);
        compare->trigger();
        QVERIFY(window->diffPanel()->isVisible()); // its tab is the current one
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kImportTimeoutMs);
        QCOMPARE(window->diffPanel()->baselineId(), ids[0]);
        QCOMPARE(window->diffPanel()->comparedId(), ids[1]);
        QVERIFY(window->diffPanel()->result().error.isEmpty());
        QVERIFY(!window->diffPanel()->result().diff.ops.empty());

        // Right-click > Compare With > the other trace: the clicked trace is the baseline.
        tree->selectionModel()->setCurrentIndex(
            rowOf(ids[1]), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        auto *with = window->findChild<QMenu *>(QStringLiteral("compareWithMenu"));
        QVERIFY(with);
        Q_EMIT with->aboutToShow();
        QCOMPARE(with->actions().size(), 1);
        QCOMPARE(with->actions().front()->data().toLongLong(), qlonglong(ids[0]));
        with->actions().front()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, kImportTimeoutMs);
        QCOMPARE(window->diffPanel()->baselineId(), ids[1]);
        QCOMPARE(window->diffPanel()->comparedId(), ids[0]);

        // Another workspace: the Diff tab forgets the traces.
        const QString other = m_dir.filePath(QStringLiteral("compare-other.plumb"));
        QSignalSpy workspaceLoaded(window.get(), &MainWindow::workspaceLoaded);
        window->createWorkspace(other);
        QVERIFY(workspaceLoaded.wait(10'000));
        QCOMPARE(window->diffPanel()->baselineId(), Q_INT64_C(-1));
    }

    // The verdict's "where to look" links open the timeline zoomed to that range, selected. The
    // trace waits 800 us for its input in step 1 (the link) and computes in step 2.
    void doctorWhereOpensTimeline()
    {
        const QString ws = m_dir.filePath(QStringLiteral("where.plumb"));
        const QString trace = m_dir.filePath(QStringLiteral("input-bound.pt.trace.json"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QStringList events {
            QStringLiteral(R"({"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000})"),
            QStringLiteral(
                R"({"ph":"X","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":60,"dur":800})"),
            QStringLiteral(R"({"ph":"X","name":"ProfilerStep#2","pid":1,"tid":1,"ts":1000,"dur":1000})"),
        };
        auto op = [&](int corr, double launch, double ts, double dur) {
            events << QStringLiteral(
                R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%1,"dur":1,"args":{"correlation":%2}})")
                          .arg(launch)
                          .arg(corr)
                   << QStringLiteral(
                          R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":%1,"dur":%2,"args":{"correlation":%3,"stream":7}})")
                          .arg(ts)
                          .arg(dur)
                          .arg(corr);
        };
        op(1, 0, 10, 50);
        op(2, 860, 870, 130);
        for (int i = 0; i < 10; ++i)
            op(3 + i, 1000 + i, 1005 + 100 * i, 100);
        f.write(
            QStringLiteral("{\"traceEvents\": [\n%1\n]}\n").arg(events.join(QStringLiteral(",\n"))).toUtf8());
        f.close();

        auto window = openWindow(ws);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ trace });
        QVERIFY(finished.wait(kImportTimeoutMs));
        const int64_t id = window->lastImportedTraceIds().value(0, -1);
        QVERIFY(id >= 0);
        QSignalSpy doctorLoaded(window->doctorPanel(), &DoctorPanel::loaded);
        window->openDoctor(id);
        QTRY_COMPARE_WITH_TIMEOUT(doctorLoaded.size(), 1, kImportTimeoutMs);
        const Verdict &v = window->doctorPanel()->result().verdict;
        QCOMPARE(v.component, Verdict::Component::InputPipeline);
        QVERIFY(!v.where.empty());
        QVERIFY(window->doctorPanel()->summaryText().contains(QStringLiteral("href=\"where:0\"")));
        QVERIFY(window->doctorPanel()->summaryText().contains(QStringLiteral("Each step on its own")));

        QSignalSpy opened(window->timelinePanel()->view(), &TimelineView::opened);
        window->doctorPanel()->followWhere(0);
        QVERIFY(window->timelinePanel()->isVisible()); // the Timeline tab is the current one
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, kImportTimeoutMs);
        const auto range = window->timelinePanel()->view()->range();
        QVERIFY(range.has_value());
        QCOMPARE(range->first, v.where[0].startNs);
        QCOMPARE(range->second, v.where[0].endNs);
    }

    // The Memory tab of a trace with memory events, chosen by hand: the selected trace's; a double-click
    // on an allocation live at the peak opens the timeline around it.
    void memoryAllocationOpensTimeline()
    {
        const QString ws = m_dir.filePath(QStringLiteral("memory.plumb"));
        const QString trace = m_dir.filePath(QStringLiteral("memory.pt.trace.json"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        testgen::MemoryTraceSpec spec;
        spec.events = 500;
        f.write(testgen::memoryTraceJson(spec));
        f.close();

        auto window = openWindow(ws);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ trace });
        QVERIFY(finished.wait(kImportTimeoutMs));
        const int64_t id = window->lastImportedTraceIds().value(0, -1);
        QVERIFY(id >= 0);
        // The Memory tab chosen by hand shows the selected trace (the one just imported).
        QSignalSpy memoryLoaded(window->memoryPanel(), &MemoryPanel::loaded);
        QTabWidget *tabs = nullptr;
        for (QTabWidget *t : window->findChildren<QTabWidget *>())
            if (t->accessibleName() == QLatin1String("Workspace views"))
                tabs = t;
        QVERIFY(tabs);
        tabs->setCurrentWidget(window->memoryPanel());
        QCOMPARE(window->memoryPanel()->traceId(), id);
        QTRY_COMPARE_WITH_TIMEOUT(memoryLoaded.size(), 1, kImportTimeoutMs);
        QVERIFY(!window->memoryPanel()->isEmptyShown());
        QAbstractItemModel *live = window->memoryPanel()->liveTable()->model();
        QVERIFY(live->rowCount() > 0);
        const QModelIndex first = live->index(0, 0);
        const qint64 ts = first.data(MemoryAllocationModel::TimeRole).toLongLong();

        QSignalSpy opened(window->timelinePanel()->view(), &TimelineView::opened);
        Q_EMIT window->memoryPanel()->liveTable()->doubleClicked(first);
        QVERIFY(window->timelinePanel()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, kImportTimeoutMs);
        const auto range = window->timelinePanel()->view()->range();
        QVERIFY(range.has_value());
        QCOMPARE(range->first, ts - MemoryPanel::kTimelineMarginNs);
        QCOMPARE(range->second, ts + MemoryPanel::kTimelineMarginNs);
    }

    // A lineage node linked to a run with a trace opens that trace's Doctor; one linked to an
    // experiment run (no trace) opens the Experiments tab on it.
    void lineageOpensLinkedRun()
    {
        const QString ws = m_dir.filePath(QStringLiteral("lineage-link.plumb"));
        auto window = openWindow(ws);
        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths(
            { QStringLiteral(PLUMB_SAMPLES_DIR "/../../tests/importers/chrometrace/data/basic.json") });
        QVERIFY(finished.wait(kImportTimeoutMs));
        const int64_t trace = window->lastImportedTraceIds().value(0, -1);
        QVERIFY(trace >= 0);
        int64_t traceRun = -1;
        {
            Workspace w(ws, Workspace::Role::Writer);
            traceRun
                = w.db().queryInt(("SELECT run_id FROM trace WHERE id = " + std::to_string(trace)).c_str());
            w.db().exec(
                "INSERT INTO run(id, key, name, created_at_ns) VALUES (99, 'tabular:x', 'experiment', 0)");
        }
        QSignalSpy doctorLoaded(window->doctorPanel(), &DoctorPanel::loaded);
        Q_EMIT window->lineagePanel()->openRunRequested(traceRun);
        QVERIFY(window->doctorPanel()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(doctorLoaded.size() >= 1, kImportTimeoutMs);
        Q_EMIT window->lineagePanel()->openRunRequested(99);
        QVERIFY(window->experimentsPanel()->isVisible());
    }

    // The Diagnostics dock is a badge in the status bar until needed: closed at first, it opens by
    // itself after an import whose new files left warnings or errors (not after a clean one, nor
    // after one of files already imported), and the badge counts what the workspace holds and opens
    // the dock when clicked.
    void diagnosticsBadgeAndAutoOpen()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray events = "\"traceEvents\": [{\"ph\": \"X\", \"name\": \"op\", \"cat\": \"cpu_op\", "
                                  "\"pid\": 1, \"tid\": 1, \"ts\": 10.000, \"dur\": 5.000}]}";
        const QString clean = dir.filePath(QStringLiteral("clean.json"));
        QVERIFY(writeTestFile(clean, "{\"schemaVersion\": 1, " + events));
        // A per-rank file that does not say its rank: taken from the name, with a warning.
        const QString ranked = dir.filePath(QStringLiteral("trace_rank3.json"));
        QVERIFY(writeTestFile(ranked, "{" + events));

        auto window = openWindow(dir.filePath(QStringLiteral("badge.plumb")));
        QDockWidget *dock = window->diagnosticsDock();
        DiagnosticsBadge *badge = window->diagnosticsBadge();
        QVERIFY(dock->isHidden());
        QVERIFY(badge->isVisible());
        QCOMPARE(badge->text(), QStringLiteral("No problems"));
        QCOMPARE(badge->warnings() + badge->errors(), 0);

        QSignalSpy finished(window.get(), &MainWindow::importFinished);
        window->importPaths({ clean });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().warnings, 0);
        QVERIFY(dock->isHidden());

        window->importPaths({ ranked });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::Imported);
        QVERIFY(window->lastImportResults().front().warnings > 0);
        QVERIFY(dock->isVisible());
        // The badge counts the workspace's warnings and errors (one per kind and source).
        Workspace reader(dir.filePath(QStringLiteral("badge.plumb")), Workspace::Role::Reader);
        QCOMPARE(badge->warnings(),
            int(reader.db().queryInt("SELECT count(*) FROM diagnostic WHERE severity = 'warning'")));
        QCOMPARE(badge->errors(),
            int(reader.db().queryInt("SELECT count(*) FROM diagnostic WHERE severity = 'error'")));
        QCOMPARE(badge->warnings(), 1);
        QVERIFY2(badge->text().contains(QStringLiteral("1 warning")), qPrintable(badge->text()));

        // The same file again reads nothing new: the dock the user closed stays closed.
        dock->hide();
        window->importPaths({ ranked });
        QVERIFY(finished.wait(kImportTimeoutMs));
        QCOMPARE(window->lastImportResults().front().status, Status::AlreadyImported);
        QVERIFY(dock->isHidden());

        // A click on the badge opens it.
        QTest::mouseClick(badge, Qt::LeftButton);
        QVERIFY(dock->isVisible());
        dock->hide();
    }

    void importNeedsDiagnosticsRule()
    {
        FileImportResult r;
        r.status = Status::Imported;
        QVERIFY(!importNeedsDiagnostics({ r }));
        r.warnings = 2;
        QVERIFY(importNeedsDiagnostics({ r }));
        FileImportResult again = r;
        again.status = Status::AlreadyImported;
        QVERIFY(!importNeedsDiagnostics({ again }));
        FileImportResult failed = r;
        failed.status = Status::Failed; // the Import Log says why, not the Diagnostics
        QVERIFY(!importNeedsDiagnostics({ failed }));
        QVERIFY(importNeedsDiagnostics({ again, failed, r }));
        QVERIFY(!importNeedsDiagnostics({}));
    }

    // The details pane follows the tab: the selected trace beside the browser, the selected run on
    // Experiments, hidden where the tab shows its own details or is about the whole workspace.
    void detailsFollowTheTab()
    {
        const QString ws = m_dir.filePath(QStringLiteral("details.plumb"));
        QString problems = importFoldersIntoWorkspace(ws,
            { samplePath(), QStringLiteral(PLUMB_SAMPLES_DIR "/sample_sweep"),
                QStringLiteral(PLUMB_SAMPLES_DIR "/sample_pipeline.openlineage.json") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        auto window = openWindow(ws);
        TraceDetailsWidget *details = window->detailsPane();
        QVERIFY(window->currentTraceId() >= 0);
        QVERIFY(details->isVisible());
        QVERIFY(details->plainText().contains(QStringLiteral("GPU kernels")));

        QSignalSpy loaded(window->experimentsPanel(), &ExperimentsPanel::loaded);
        window->openExperiments();
        if (window->experimentsPanel()->model()->runCount() == 0)
            QVERIFY(loaded.wait(10'000));
        window->experimentsPanel()->selectRuns({});
        QVERIFY(!details->isVisible()); // no run selected: nothing to say
        const int64_t run = window->experimentsPanel()->model()->run(0).id;
        window->experimentsPanel()->selectRuns({ run });
        QVERIFY(details->isVisible());
        const QString text = details->plainText();
        QVERIFY2(text.contains(window->experimentsPanel()->model()->run(0).name), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("lr")), qPrintable(text)); // its params

        window->openLineage();
        QVERIFY(!details->isVisible());
        window->openQuery();
        QVERIFY(!details->isVisible());
        QVERIFY(window->queryPanel()->isVisible());
        window->openDoctor(window->currentTraceId());
        QVERIFY(details->isVisible());
        QVERIFY(details->plainText().contains(QStringLiteral("GPU kernels")));
    }

    // The new tabs do not widen the window: it still fits about its 1360-pixel default (fonts vary).
    void windowFitsItsDefaultWidth()
    {
        auto window = openWindow(m_dir.filePath(QStringLiteral("width.plumb")));
        QVERIFY2(window->minimumSizeHint().width() <= 1400,
            qPrintable(QString::number(window->minimumSizeHint().width())));
        window->openQuery();
        window->openExperiments();
        QVERIFY2(window->minimumSizeHint().width() <= 1400,
            qPrintable(QString::number(window->minimumSizeHint().width())));
    }

private:
    std::unique_ptr<MainWindow> openWindow(const QString &path)
    {
        auto window = std::make_unique<MainWindow>(m_registry, path);
        QSignalSpy loaded(window.get(), &MainWindow::workspaceLoaded);
        window->show();
        if (!loaded.wait(10'000))
            qWarning("workspace %s did not load", qPrintable(path));
        return window;
    }

    // The browser shows exactly what the workspace holds: runs, traces and their event counts.
    void checkModelMatchesWorkspace(MainWindow &window, const QString &path)
    {
        Workspace reader(path, Workspace::Role::Reader);
        const QList<RunInfo> runs = WorkspaceReader(reader).runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().traces.size(), 1);
        QVERIFY(runs.first().traces.first().events > 0);

        const WorkspaceModel *model = window.workspaceModel();
        QCOMPARE(model->rowCount(), 1);
        const QModelIndex run = model->index(0, 0);
        QCOMPARE(model->rowCount(run), 1);
        const QModelIndex events = model->index(0, WorkspaceModel::EventsColumn, run);
        QCOMPARE(events.data(WorkspaceModel::SortRole).toLongLong(),
            qlonglong(runs.first().traces.first().events));
        QCOMPARE(
            model->index(0, WorkspaceModel::KernelsColumn, run).data(WorkspaceModel::SortRole).toLongLong(),
            qlonglong(runs.first().traces.first().kernels));
        QCOMPARE(window.sourcesModel()->rowCount(), 1);
    }

    ImporterRegistry m_registry;
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
