// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"

#include <QObject>

#include <vector>

class QDockWidget;
class QLabel;
class QStatusBar;
class QWidget;

namespace plumb {

class ImportProgressWidget;
class ImportResultsPanel;
struct ImportOutcome;
class WorkspaceSession;

// What the user sees of a WorkspaceSession's imports, from its signals to widgets: the status bar's
// progress with Cancel, the watched folder, the last import ("Last import 14:02: x.json, 1,204 events
// (1 file imported)"), a status message per batch, every file in the Import Log, and a dialog listing
// the files that could not be imported (user batches only: a live batch stays quiet, as a file caught
// half-written imports on the watcher's next look). The window places the three status widgets.
class ImportFeedback final : public QObject {
    Q_OBJECT
public:
    ImportFeedback(WorkspaceSession *session, QStatusBar *statusBar, ImportResultsPanel *log,
        QDockWidget *logDock, QWidget *window);

    [[nodiscard]] ImportProgressWidget *progress() const { return m_progress; }
    [[nodiscard]] QLabel *watchLabel() const { return m_watchLabel; }
    [[nodiscard]] QLabel *lastImportLabel() const { return m_lastImportLabel; }

    // Cancels the running batch (and drops the queued ones), saying so.
    void cancel();
    // After a load: the last import as the workspace records it, unless one ran in this window.
    void showLastImport(const QString &sourceName);

private:
    void onDone(const ImportOutcome &outcome);
    void onWatchingChanged(bool watching, const QString &folder);
    void reportProblems(const std::vector<FileImportResult> &results);
    void warn(const QString &title, const QString &text);

    WorkspaceSession *m_session;
    QStatusBar *m_statusBar;
    ImportResultsPanel *m_log;
    QDockWidget *m_logDock;
    QWidget *m_window; // parent of the dialogs
    ImportProgressWidget *m_progress;
    QLabel *m_watchLabel;
    QLabel *m_lastImportLabel;
    QString m_lastImportText; // of the last batch in this window; empty before
};

} // namespace plumb
