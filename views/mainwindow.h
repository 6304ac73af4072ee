// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"
#include "session/viewchoice.h"
#include "session/workspacesession.h"
#include "shell/recentlist.h"
#include "workspacebrowser.h"

#include <QMainWindow>
#include <QStringList>

#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace plumb {

class DiagnosticsBadge;
class DiagnosticsModel;
class DiagnosticsPanel;
class ImportFeedback;
class ImportResultsPanel;
class FolderWatcher;
class ImporterRegistry;
class SourcesModel;
class CallTreePanel;
class DiffPanel;
class DoctorPanel;
class ExperimentsPanel;
class GoodputPanel;
class MemoryPanel;
class JobPanel;
class LineagePanel;
class QueryPanel;
class SloPanel;
class TimelinePanel;
class TraceDetailsWidget;
class WelcomeTour;
class WorkspaceModel;

// The application shell: one workspace file at a time, shown as
//   central  : tabs "Workspace" (runs > traces tree), "Sources" (imported files), "Timeline"
//              (the trace or run double-clicked in the tree, or View > Timeline), "Call Tree" (what
//              the host did: the selected trace's, a timeline range's or a verdict's step), "Doctor",
//              "Memory" (where the trace's device memory went), "Diff" (two traces selected in the tree,
//              View > Compare Traces, or a trace's context menu > Compare With), "Experiments"
//              (experiment-log runs: runs table, scalar charts and the other ExperimentView pages),
//              "Lineage", "Goodput", "SLO", "Query" (read-only SQL over the documented views), with the
//              selected trace's numbers beside them;
//   beside   : the details of what the current tab is about (the trace or run selected in the browser
//              on the trace tabs, the run selected on Experiments); hidden on tabs that show their own
//              (Lineage's node, Goodput, SLO, Query);
//   bottom   : docks "Diagnostics" (problems per source) and "Import Log" (per-file import results),
//              closed until asked for: the Diagnostics opens by itself only after an import that left
//              warnings or errors, the Import Log after one that failed;
//   status   : import progress with Cancel, the diagnostics badge (errors and warnings; a click opens the
//              Diagnostics), the workspace file's name and size, the last import.
//
// The window arranges panels and connects them to a WorkspaceSession (core/session/), which owns the
// workspace's loads (on workers, with generation ids), the import queue and live watching; nothing
// slow runs on the GUI thread. After an import the session's snapshot is swapped into the models,
// the new trace selected, the view chooseView() picks for what came in opened (not for live
// imports), and importFinished() emitted.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    // Opens `workspacePath`, creating an empty workspace there when the file does not exist.
    MainWindow(const ImporterRegistry &registry, const QString &workspacePath, QWidget *parent = nullptr);
    ~MainWindow() override;
    // The versions of Plumb and its libraries that Help > About shows (the app knows them; views/ does not).
    void setVersionReport(const QString &text) { m_versionReport = text; }

    [[nodiscard]] QString workspacePath() const { return m_session->workspacePath(); }
    [[nodiscard]] WorkspaceSession *session() const { return m_session; }
    [[nodiscard]] bool isImporting() const { return m_session->isImporting(); }
    [[nodiscard]] bool isLoading() const { return m_session->isLoading(); }
    [[nodiscard]] WorkspaceModel *workspaceModel() const { return m_workspaceModel; }
    [[nodiscard]] SourcesModel *sourcesModel() const { return m_sourcesModel; }
    [[nodiscard]] DiagnosticsModel *diagnosticsModel() const { return m_diagnosticsModel; }
    [[nodiscard]] DiagnosticsBadge *diagnosticsBadge() const { return m_diagnosticsBadge; }
    [[nodiscard]] QDockWidget *diagnosticsDock() const { return m_diagnosticsDock; }
    [[nodiscard]] TraceDetailsWidget *detailsPane() const { return m_details; }
    // Per-file results of the last finished import.
    [[nodiscard]] const std::vector<FileImportResult> &lastImportResults() const
    {
        return m_session->lastImport().results;
    }
    // Id of the trace selected in the browser, -1 when none.
    [[nodiscard]] int64_t currentTraceId() const { return m_tree->currentTraceId(); }
    // The Timeline tab.
    [[nodiscard]] TimelinePanel *timelinePanel() const { return m_timeline; }
    [[nodiscard]] DoctorPanel *doctorPanel() const { return m_doctor; }
    [[nodiscard]] CallTreePanel *callTreePanel() const { return m_callTree; }
    [[nodiscard]] DiffPanel *diffPanel() const { return m_diff; }
    [[nodiscard]] ExperimentsPanel *experimentsPanel() const { return m_experiments; }
    [[nodiscard]] LineagePanel *lineagePanel() const { return m_lineage; }
    [[nodiscard]] GoodputPanel *goodputPanel() const { return m_goodput; }
    [[nodiscard]] MemoryPanel *memoryPanel() const { return m_memory; }
    [[nodiscard]] JobPanel *jobPanel() const { return m_job; }
    [[nodiscard]] SloPanel *sloPanel() const { return m_slo; }
    [[nodiscard]] QueryPanel *queryPanel() const { return m_query; }
    // Traces selected in the browser (a run of one trace counts as its trace), in tree order except
    // that the current one comes last: pick the baseline first, then the trace to compare with it.
    [[nodiscard]] QList<int64_t> selectedTraceIds() const { return m_tree->selectedTraceIds(); }
    // Every trace in the browser, in tree order.
    [[nodiscard]] QList<int64_t> traceIds() const { return m_tree->traceIds(); }
    // The traces read from the files of the last import (new or already present), in the order given.
    [[nodiscard]] QList<int64_t> lastImportedTraceIds() const;

    // The overlay of Help > Show Welcome Tour (created on first use), nullptr before.
    [[nodiscard]] WelcomeTour *welcomeTour() const { return m_tour; }
    [[nodiscard]] QTableView *sourcesTable() const { return m_sourcesTable; }

public Q_SLOTS:
    // Imports files and folders into the current workspace (the path every drop goes through).
    void importPaths(const QStringList &paths);
    void cancelImport();
    void stopWatching();
    // Live mode: imports what is under `folder` now and, every few seconds, whatever appears or
    // grows there (a grown event file is read from where its last import stopped) into the
    // current workspace, until stopWatching() or another workspace is opened.
    void watchFolder(const QString &folder);
    [[nodiscard]] FolderWatcher *watcher() const { return m_session->watcher(); }
    // Switches to an existing workspace; on failure says why and keeps the current one.
    void openWorkspace(const QString &path);
    // Switches to a new, empty workspace at `path` (an existing file there is replaced).
    void createWorkspace(const QString &path);
    void refresh();
    // Shows the timeline of a trace, or of every trace of a run (ranks aligned), in the Timeline tab.
    void openTimeline(int64_t traceId, int64_t runId = -1, std::pair<int64_t, int64_t> focus = {});
    // The timeline of a trace zoomed to [fromNs, toNs) (trace time) with that range selected.
    void showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs);
    // The Doctor tab for a trace.
    void openDoctor(int64_t traceId);
    // The Memory tab for a trace: where its memory went.
    void openMemory(int64_t traceId);
    // The Diff tab: what changed from the baseline trace to the compared one.
    void openDiff(int64_t baselineId, int64_t comparedId);
    // The Experiments tab (View > Experiments).
    void openExperiments();
    void openLineage();
    void openGoodput();
    void openJob(); // the Job tab, when the workspace has a job
    // The SLO tab: an objectives file evaluated on the workspace (View > SLO).
    void openSlo();
    // The Query tab: SQL over the workspace's documented views, read-only (View > Query).
    void openQuery();
    // The Call Tree tab for a trace: what its CPU threads did over [fromNs, toNs) (trace time; the
    // whole trace by default), `label` naming that range.
    void openCallTree(
        int64_t traceId, int64_t fromNs = INT64_MIN, int64_t toNs = INT64_MAX, const QString &label = {});
    // View > Compare Traces: the two selected traces; with one, asks which trace to compare it with.
    void compareSelectedTraces();
    // The first-run guide over the window (Help > Show Welcome Tour).
    void showWelcomeTour();
    void showShortcuts();
    // Opens the Diagnostics dock in front of the Import Log (the badge's click, View > Diagnostics).
    void showDiagnostics(bool focus = true);
    // Removes a source and everything its import wrote, on a worker, then reloads (no confirmation:
    // the Sources context menu asks first).
    void removeSource(int64_t sourceId);

Q_SIGNALS:
    void workspaceLoaded(const QString &path);
    void workspaceLoadFailed(const QString &path, const QString &reason);
    void importStarted(int fileCount);
    // After the models show the result. `imported` counts new and already-present files;
    // `problems` counts files not recognised, failed or cancelled.
    void importFinished(int imported, int problems);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    static constexpr int kStatusMessageMs = 8000; // a status bar message's time on screen
    void createActions();
    void createCentralArea();
    void createDocks();
    void createStatusBar();

    void onLoadStarted(const QString &path, bool switching);
    void applySnapshot(const WorkspaceSnapshot &snapshot, bool switched);
    void onLoadFailed(const QString &path, const QString &reason);
    void onImportFinished(const ImportOutcome &outcome);
    void openChosenView(const ViewChoice &choice);
    void updateActions();
    void updateStatusLabels(const WorkspaceSummary &summary);
    void selectTrace(int64_t traceId);
    void onTraceSelectionChanged();
    // The details pane for the current tab (see the class comment), shown or hidden.
    void updateDetails();
    void onSourceSelectionChanged();
    void openTimelineAt(const QModelIndex &viewIndex);
    void openDoctorAt(const QModelIndex &viewIndex);
    void openMemoryAt(const QModelIndex &viewIndex);
    void showTraceMenu(const QPoint &pos);
    void fillCompareWithMenu();
    [[nodiscard]] QString traceLabel(int64_t traceId) const { return m_tree->traceLabel(traceId); }
    void showError(const QString &title, const QString &text);

    void fillRecentMenu();
    void openWorkspaceDialog();
    void newWorkspaceDialog();
    void importFilesDialog();
    void importFolderDialog();
    // File > Watch Folder: live mode. What the watcher finds is imported quietly (no dialogs, the
    // selection stays): problems go to the Import Log and the status bar.
    void watchFolderDialog();
    void showAbout();

    // views/shell/mainwindowshell.cpp: the shell's shortcuts, remembered layout, recent files,
    // the Sources context menu and the welcome tour.
    void createShellActions(QMenu *view);
    void rememberLayout();
    void addRecentFiles(const QStringList &paths);
    void fillRecentFilesMenu();
    void closeCurrentView();
    void focusFind();
    void zoomTimeline(double factor);
    void showSourceMenu(const QPoint &pos);
    void confirmRemoveSource(int64_t sourceId);

    const ImporterRegistry &m_registry;
    QString m_versionReport; // Help > About's versions, one per line
    WorkspaceSession *m_session;
    QAction *m_watchAction = nullptr;
    QAction *m_stopWatchAction = nullptr;
    WorkspaceModel *m_workspaceModel;
    SourcesModel *m_sourcesModel;
    DiagnosticsModel *m_diagnosticsModel;
    QSortFilterProxyModel *m_sourcesProxy;

    QTabWidget *m_tabs = nullptr;
    WorkspaceBrowser *m_tree = nullptr;
    QTableView *m_sourcesTable = nullptr;
    TraceDetailsWidget *m_details = nullptr;
    TimelinePanel *m_timeline = nullptr;
    DoctorPanel *m_doctor = nullptr;
    CallTreePanel *m_callTree = nullptr;
    DiffPanel *m_diff = nullptr;
    ExperimentsPanel *m_experiments = nullptr;
    LineagePanel *m_lineage = nullptr;
    GoodputPanel *m_goodput = nullptr;
    MemoryPanel *m_memory = nullptr;
    JobPanel *m_job = nullptr;
    SloPanel *m_slo = nullptr;
    QueryPanel *m_query = nullptr;
    QAction *m_timelineAction = nullptr;
    QAction *m_doctorAction = nullptr;
    QAction *m_memoryAction = nullptr;
    QAction *m_compareAction = nullptr;
    QMenu *m_traceMenu = nullptr; // the browser's context menu
    QMenu *m_compareWithMenu = nullptr; // its "Compare With" submenu: the other traces
    DiagnosticsPanel *m_diagnosticsPanel = nullptr;
    ImportResultsPanel *m_importLog = nullptr;
    QDockWidget *m_diagnosticsDock = nullptr;
    QDockWidget *m_importLogDock = nullptr;
    DiagnosticsBadge *m_diagnosticsBadge = nullptr;
    ImportFeedback *m_feedback = nullptr;
    QLabel *m_workspaceLabel = nullptr;

    QAction *m_openAction = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_importFilesAction = nullptr;
    QAction *m_importFolderAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_refreshAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_recentFilesMenu = nullptr;
    RecentList m_recentWorkspaces { QStringLiteral("recentWorkspaces"), 8, tr("No recent workspaces") };
    RecentList m_recentFiles { QStringLiteral("recentFiles"), 10, tr("No recent files") };
    WelcomeTour *m_tour = nullptr;
    bool m_removingSource = false;
};

} // namespace plumb
