// SPDX-License-Identifier: GPL-3.0-or-later
// ImportFeedback driven by a WorkspaceSession's signals, emitted by the test (no import runs): the
// progress widget follows importStarted/importProgress and hides on importDone; a batch's outcome
// becomes a status message, one Import Log row per file, the "Last import" label and, for a user batch
// with files that could not be imported, the log dock raised and a (non-modal) dialog counting them;
// a live batch, a cancel, a failed workspace write and watching each say what they should.
#include "builtinimporters.h"
#include "importfeedback.h"
#include "importprogresswidget.h"
#include "importresultspanel.h"
#include "ingest/importerregistry.h"
#include "session/importoutcome.h"
#include "session/workspacesession.h"

#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QTest>

#include <memory>

using namespace plumb;
using Status = FileImportResult::Status;

namespace {

FileImportResult result(const QString &path, Status status, int64_t records, const QString &message = {})
{
    FileImportResult r;
    r.path = path;
    r.status = status;
    r.records = records;
    r.message = message;
    r.format = QStringLiteral("chrometrace");
    return r;
}

// The dialogs ImportFeedback opened on `window`, newest last.
QList<QMessageBox *> boxes(QWidget *window)
{
    return window->findChildren<QMessageBox *>(QString(), Qt::FindDirectChildrenOnly);
}

} // namespace

class TestImportFeedback : public QObject {
    Q_OBJECT
private:
    ImporterRegistry m_registry;
    std::unique_ptr<WorkspaceSession> m_session;
    std::unique_ptr<QMainWindow> m_window;
    ImportResultsPanel *m_log = nullptr;
    QDockWidget *m_dock = nullptr;
    ImportFeedback *m_feedback = nullptr; // child of m_window

private Q_SLOTS:
    void initTestCase() { registerBuiltinImporters(m_registry); }

    void init()
    {
        m_session = std::make_unique<WorkspaceSession>(m_registry);
        m_window = std::make_unique<QMainWindow>();
        m_dock = new QDockWidget(QStringLiteral("Import Log"), m_window.get());
        m_log = new ImportResultsPanel(m_dock);
        m_dock->setWidget(m_log);
        m_window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
        m_dock->hide();
        m_feedback
            = new ImportFeedback(m_session.get(), m_window->statusBar(), m_log, m_dock, m_window.get());
        QCOMPARE(m_feedback->parent(), m_window.get());
    }

    void cleanup()
    {
        // The window places the three status widgets (and so owns them); here nobody does.
        delete m_feedback->progress();
        delete m_feedback->watchLabel();
        delete m_feedback->lastImportLabel();
        m_window.reset();
        m_session.reset();
    }

    void progressFollowsTheBatch()
    {
        ImportProgressWidget *progress = m_feedback->progress();
        QVERIFY(progress->isHidden());
        Q_EMIT m_session->importStarted(2, false);
        QVERIFY(!progress->isHidden());
        QCOMPARE(progress->stageText(), QStringLiteral("Starting import of 2 files…"));

        Q_EMIT m_session->importProgress(QStringLiteral("Reading a.json"), 0.5, 0.25, 0, 2);
        QCOMPARE(progress->stageText(), QStringLiteral("Reading a.json — 50% (file 1 of 2)"));
        auto *bar = progress->findChild<QProgressBar *>();
        QVERIFY(bar);
        QCOMPARE(bar->value(), bar->maximum() / 4);

        ImportOutcome o;
        o.results = { result(QStringLiteral("/d/a.json"), Status::Imported, 10) };
        o.imported = 1;
        o.records = 10;
        Q_EMIT m_session->importDone(o);
        QVERIFY(progress->isHidden());
    }

    void userBatchWithProblems()
    {
        ImportOutcome o;
        o.results = { result(QStringLiteral("/d/a.json"), Status::Imported, 1204),
            result(QStringLiteral("/d/b.json"), Status::AlreadyImported, 0),
            result(QStringLiteral("/d/c.bin"), Status::Unrecognised, 0, QStringLiteral("no importer")),
            result(QStringLiteral("/d/d.json"), Status::Failed, 0, QStringLiteral("bad JSON at byte 7")) };
        o.paths = { QStringLiteral("/d") };
        o.imported = 1;
        o.already = 1;
        o.problems = 2;
        o.records = 1204;
        Q_EMIT m_session->importStarted(4, false);
        Q_EMIT m_session->importDone(o);

        QCOMPARE(m_window->statusBar()->currentMessage(),
            QStringLiteral("Import finished: 1 file imported, 1 already in the workspace, 2 not imported"));
        QCOMPARE(m_log->topLevelItemCount(), 4);
        QCOMPARE(
            m_log->topLevelItem(3)->text(ImportResultsPanel::FileColumn).contains(QStringLiteral("d.json")),
            true);
        const QString last = m_feedback->lastImportLabel()->text();
        QVERIFY2(last.startsWith(QStringLiteral("Last import ")), qPrintable(last));
        // Counts in the user's locale ("1,204" in en_US).
        const QString expected = QStringLiteral(
            ": 4 files, %1 events (1 file imported, 1 already in the workspace, 2 not imported)")
                                     .arg(QLocale().toString(1204));
        QVERIFY2(last.endsWith(expected), qPrintable(last));

        // The two problems (not the file already there) in a dialog; the log shown behind it.
        QVERIFY(!m_dock->isHidden());
        const QList<QMessageBox *> shown = boxes(m_window.get());
        QCOMPARE(shown.size(), 1);
        QMessageBox *box = shown.front();
        QCOMPARE(box->windowTitle(), QStringLiteral("Import Problems"));
        QVERIFY2(
            box->text().startsWith(QStringLiteral("2 files could not be imported")), qPrintable(box->text()));
        QVERIFY(!box->isModal());
        const QString detail = box->informativeText();
        QVERIFY2(
            detail.contains(QStringLiteral("c.bin")) && detail.contains(QStringLiteral("bad JSON at byte 7")),
            qPrintable(detail));
        QVERIFY2(!detail.contains(QStringLiteral("a.json")) && !detail.contains(QStringLiteral("b.json")),
            qPrintable(detail));

        // A later load keeps this window's own last import rather than the workspace's record.
        m_feedback->showLastImport(QStringLiteral("older.json"));
        QCOMPARE(m_feedback->lastImportLabel()->text(), last);
    }

    void manyProblemsAreListedUpToTen()
    {
        ImportOutcome o;
        for (int i = 0; i < 12; ++i) {
            o.results.push_back(
                result(QStringLiteral("/d/f%1.json").arg(i), Status::Failed, 0, QStringLiteral("truncated")));
        }
        o.problems = 12;
        Q_EMIT m_session->importDone(o);
        QCOMPARE(m_log->topLevelItemCount(), 12);
        const QList<QMessageBox *> shown = boxes(m_window.get());
        QCOMPARE(shown.size(), 1);
        QVERIFY(shown.front()->text().startsWith(QStringLiteral("12 files could not be imported")));
        const QString detail = shown.front()->informativeText();
        QVERIFY2(detail.contains(QStringLiteral("f9.json")) && !detail.contains(QStringLiteral("f10.json")),
            qPrintable(detail));
        QVERIFY2(detail.endsWith(QStringLiteral("…and 2 more")), qPrintable(detail));
    }

    void cleanBatchAndCancelStayQuiet()
    {
        ImportOutcome clean;
        clean.results = { result(QStringLiteral("/d/one.json"), Status::Imported, 1) };
        clean.imported = 1;
        clean.records = 1;
        Q_EMIT m_session->importDone(clean);
        QCOMPARE(m_window->statusBar()->currentMessage(), QStringLiteral("Import finished: 1 file imported"));
        QVERIFY2(m_feedback->lastImportLabel()->text().endsWith(
                     QStringLiteral(": one.json, 1 event (1 file imported)")),
            qPrintable(m_feedback->lastImportLabel()->text()));

        ImportOutcome cancelled;
        cancelled.results = { result(QStringLiteral("/d/big.json"), Status::Cancelled, 0) };
        cancelled.problems = 1;
        cancelled.cancelled = 1;
        Q_EMIT m_session->importDone(cancelled);
        QCOMPARE(m_window->statusBar()->currentMessage(), QStringLiteral("Import finished: 1 cancelled"));
        QCOMPARE(m_log->topLevelItemCount(), 2);
        QVERIFY(boxes(m_window.get()).isEmpty());
        QVERIFY(m_dock->isHidden());

        Q_EMIT m_session->importDone(ImportOutcome {});
        QCOMPARE(
            m_window->statusBar()->currentMessage(), QStringLiteral("Import finished: Nothing to import"));

        // Nothing is running: cancel() says nothing.
        m_window->statusBar()->clearMessage();
        m_feedback->cancel();
        QCOMPARE(m_window->statusBar()->currentMessage(), QString());
    }

    void liveBatchStaysQuiet()
    {
        ImportOutcome o;
        o.live = true;
        o.results
            = { result(QStringLiteral("/d/half.json"), Status::Failed, 0, QStringLiteral("truncated")) };
        o.problems = 1;
        Q_EMIT m_session->importDone(o);
        QCOMPARE(m_log->topLevelItemCount(), 1);
        QVERIFY(boxes(m_window.get()).isEmpty());
        QVERIFY(m_dock->isHidden());
        QVERIFY2(m_feedback->watchLabel()->text().contains(QStringLiteral("1 not imported")),
            qPrintable(m_feedback->watchLabel()->text()));
    }

    void workspaceWriteFailed()
    {
        ImportOutcome o;
        o.paths = { QStringLiteral("/d/a.json"), QStringLiteral("/d/b.json") };
        o.error = QStringLiteral("disk I/O error");
        o.problems = 2;
        Q_EMIT m_session->importDone(o);
        // addFailure() lists every path given.
        QCOMPARE(m_log->topLevelItemCount(), 2);
        const QList<QMessageBox *> shown = boxes(m_window.get());
        QCOMPARE(shown.size(), 1);
        QCOMPARE(shown.front()->windowTitle(), QStringLiteral("Import Failed"));
        QVERIFY(shown.front()->text().contains(QStringLiteral("disk I/O error")));
        QCOMPARE(m_window->statusBar()->currentMessage(), QStringLiteral("Import finished: 2 not imported"));
    }

    void droppedImportsAreLogged()
    {
        Q_EMIT m_session->importsDropped({ QStringLiteral("/d/x.json") }, QStringLiteral("not a workspace"));
        QCOMPARE(m_log->topLevelItemCount(), 1);
        QVERIFY(m_log->topLevelItem(0)
                    ->text(ImportResultsPanel::MessageColumn)
                    .contains(QStringLiteral("not a workspace")));
    }

    void watchingAndLastImport()
    {
        QLabel *watch = m_feedback->watchLabel();
        QVERIFY(watch->isHidden());
        Q_EMIT m_session->watchingChanged(true, QStringLiteral("/runs/job-7/logs"));
        QVERIFY(!watch->isHidden());
        QCOMPARE(watch->text(), QStringLiteral("Watching logs"));
        QVERIFY(!watch->toolTip().isEmpty());
        Q_EMIT m_session->watchingChanged(false, QString());
        QVERIFY(watch->isHidden());

        m_feedback->showLastImport(QString());
        QCOMPARE(m_feedback->lastImportLabel()->text(), QStringLiteral("Nothing imported yet"));
        m_feedback->showLastImport(QStringLiteral("rank0.json"));
        QCOMPARE(m_feedback->lastImportLabel()->text(), QStringLiteral("Last import: rank0.json"));
    }
};

QTEST_MAIN(TestImportFeedback)
#include "tst_importfeedback.moc"
