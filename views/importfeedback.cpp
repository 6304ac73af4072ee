// SPDX-License-Identifier: GPL-3.0-or-later
#include "importfeedback.h"

#include "importprogresswidget.h"
#include "importresultspanel.h"
#include "ingest/folderwatcher.h"
#include "session/workspacesession.h"
#include "text/textformat.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QTime>

namespace plumb {

namespace {

constexpr int kStatusMessageMs = 8000;
constexpr int kMaxListed = 10; // files named in the problems dialog; the Import Log has them all

} // namespace

ImportFeedback::ImportFeedback(WorkspaceSession *session, QStatusBar *statusBar, ImportResultsPanel *log,
    QDockWidget *logDock, QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_statusBar(statusBar)
    , m_log(log)
    , m_logDock(logDock)
    , m_window(window)
    , m_progress(new ImportProgressWidget)
    , m_watchLabel(new QLabel)
    , m_lastImportLabel(new QLabel)
{
    m_watchLabel->setAccessibleName(tr("Watched folder"));
    m_watchLabel->hide();
    m_lastImportLabel->setAccessibleName(tr("Last import"));
    connect(session, &WorkspaceSession::importStarted, m_progress,
        [this](int fileCount) { m_progress->begin(fileCount); });
    connect(session, &WorkspaceSession::importProgress, m_progress, &ImportProgressWidget::setProgress);
    connect(session, &WorkspaceSession::importDone, this, &ImportFeedback::onDone);
    connect(session, &WorkspaceSession::importsDropped, log, &ImportResultsPanel::addFailure);
    connect(session, &WorkspaceSession::watchingChanged, this, &ImportFeedback::onWatchingChanged);
    connect(m_progress, &ImportProgressWidget::cancelRequested, this, &ImportFeedback::cancel);
}

void ImportFeedback::cancel()
{
    if (!m_session->cancelImport()) {
        return;
    }
    m_progress->setCancelling();
    m_statusBar->showMessage(tr("Cancelling the import…"));
}

void ImportFeedback::showLastImport(const QString &sourceName)
{
    if (!m_lastImportText.isEmpty()) {
        m_lastImportLabel->setText(m_lastImportText);
    } else if (!sourceName.isEmpty()) {
        m_lastImportLabel->setText(tr("Last import: %1").arg(sourceName));
    } else {
        m_lastImportLabel->setText(tr("Nothing imported yet"));
    }
}

void ImportFeedback::onDone(const ImportOutcome &o)
{
    m_progress->end();
    if (!o.error.isEmpty()) {
        m_log->addFailure(o.paths, o.error);
        warn(tr("Import Failed"),
            tr("Nothing was imported: the workspace %1 could not be written.\n\n%2")
                .arg(QDir::toNativeSeparators(m_session->workspacePath()), o.error));
    }
    m_log->addResults(o.results);

    QStringList parts;
    if (o.imported > 0) {
        parts << tr("%1 imported").arg(text::counted(o.imported, tr("file"), tr("files")));
    }
    if (o.already > 0) {
        parts << tr("%n already in the workspace", nullptr, o.already);
    }
    if (o.problems - o.cancelled > 0) {
        parts << tr("%n not imported", nullptr, o.problems - o.cancelled);
    }
    if (o.cancelled > 0) {
        parts << tr("%n cancelled", nullptr, o.cancelled);
    }
    const QString summary = parts.isEmpty() ? tr("Nothing to import") : parts.join(QStringLiteral(", "));
    m_statusBar->showMessage(tr("Import finished: %1").arg(summary), kStatusMessageMs);
    const QString files = o.results.size() == 1
        ? QFileInfo(o.results.front().path).fileName()
        : text::counted(int64_t(o.results.size()), tr("file"), tr("files"));
    m_lastImportText = tr("Last import %1: %2, %3 (%4)")
                           .arg(QTime::currentTime().toString(QStringLiteral("HH:mm")), files,
                               text::counted(o.records, tr("event"), tr("events")), summary);
    m_lastImportLabel->setText(m_lastImportText);

    if (o.live) {
        m_watchLabel->setText(tr("Watching %1 · %2 at %3")
                                  .arg(QFileInfo(m_session->watcher()->paths().value(0)).fileName(), summary,
                                      QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    } else {
        reportProblems(o.results);
    }
}

void ImportFeedback::onWatchingChanged(bool watching, const QString &folder)
{
    m_watchLabel->setVisible(watching);
    if (!watching) {
        return;
    }
    m_watchLabel->setText(tr("Watching %1").arg(QFileInfo(folder).fileName()));
    m_watchLabel->setToolTip(tr("New data under %1 is imported every %2 s (File > Stop Watching)")
                                 .arg(QDir::toNativeSeparators(folder))
                                 .arg(m_session->watcher()->intervalMs() / 1000.0));
}

void ImportFeedback::reportProblems(const std::vector<FileImportResult> &results)
{
    using S = FileImportResult::Status;
    QStringList lines;
    for (const FileImportResult &r : results) {
        // A cancel is the user's own doing: the log says so, no dialog.
        if (r.status == S::Unrecognised || r.status == S::Failed) {
            lines << tr("%1: %2 — %3").arg(QFileInfo(r.path).fileName(), statusName(r.status), r.message);
        }
    }
    if (lines.isEmpty()) {
        return;
    }
    m_logDock->show();
    m_logDock->raise();
    QString detail = lines.mid(0, kMaxListed).join(QLatin1Char('\n'));
    if (lines.size() > kMaxListed) {
        detail += tr("\n…and %n more", nullptr, int(lines.size() - kMaxListed));
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Import Problems"),
        tr("%1 could not be imported. The Import Log lists every file.")
            .arg(text::counted(lines.size(), tr("file"), tr("files"))),
        QMessageBox::Ok, m_window);
    box->setInformativeText(detail);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void ImportFeedback::warn(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace plumb
