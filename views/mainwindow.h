// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importrunner.h"
#include "shell/recentlist.h"
#include "workspacesnapshot.h"

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

class DiagnosticsModel;
class DiagnosticsPanel;
class ImportController;
class ImportProgressWidget;
class ImportResultsPanel;
class FolderWatcher;
class ImporterRegistry;
class SourcesModel;
class DiffPanel;
class DoctorPanel;
class ExperimentsPanel;
class GoodputPanel;
class LineagePanel;
class SloPanel;
class TimelinePanel;
class TraceDetailsWidget;
class WelcomeTour;
class WorkspaceModel;

// The application shell: one workspace file at a time, shown as
//   central  : tabs "Workspace" (runs > traces tree), "Sources" (imported files), "Timeline"
//              (the trace or run double-clicked in the tree, or View > Timeline), "Doctor" and
//              "Diff" (two traces selected in the tree, View > Compare Traces, or a trace's context
//              menu > Compare With), "Experiments" (experiment-log runs: runs table, scalar charts
//              and the other ExperimentView pages), with the selected trace's numbers beside them;
//   bottom   : docks "Diagnostics" (problems per source) and "Import Log" (per-file import results);
//   status   : import progress with Cancel, the workspace file's name and size, the last import.
//
// Nothing slow runs on the GUI thread. Workspace data is read by WorkspaceSnapshot::load() on a
// worker (its own Reader connection) and swapped into the models; every load gets a generation id
// and a result from a superseded load is dropped. Imports (drops, File > Import, importPaths())
// run through one ImportController; paths given while an import or a load is running are queued.
// After an import the models are reloaded, the new trace selected, and importFinished() emitted.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    // Opens `workspacePath`, creating an empty workspace there when the file does not exist.
    MainWindow(const ImporterRegistry &registry, const QString &workspacePath, QWidget *parent = nullptr);
    ~MainWindow() override;
    // The versions of Plumb and its libraries that Help > About shows (the app knows them; views/ does not).
    void setVersionReport(const QString &text) { m_versionReport = text; }

    [[nodiscard]] QString workspacePath() const { return m_workspacePath; }
    [[nodiscard]] bool isImporting() const;
    [[nodiscard]] bool isLoading() const { return m_loading; }
    [[nodiscard]] WorkspaceModel *workspaceModel() const { return m_workspaceModel; }
    [[nodiscard]] SourcesModel *sourcesModel() const { return m_sourcesModel; }
    [[nodiscard]] DiagnosticsModel *diagnosticsModel() const { return m_diagnosticsModel; }
    // Per-file results of the last finished import.
    [[nodiscard]] const std::vector<FileImportResult> &lastImportResults() const { return m_lastResults; }
    // Id of the trace selected in the browser, -1 when none.
    [[nodiscard]] int64_t currentTraceId() const;
    // The Timeline tab.
    [[nodiscard]] TimelinePanel *timelinePanel() const { return m_timeline; }
    [[nodiscard]] DoctorPanel *doctorPanel() const { return m_doctor; }
    [[nodiscard]] DiffPanel *diffPanel() const { return m_diff; }
    [[nodiscard]] ExperimentsPanel *experimentsPanel() const { return m_experiments; }
    [[nodiscard]] LineagePanel *lineagePanel() const { return m_lineage; }
    [[nodiscard]] GoodputPanel *goodputPanel() const { return m_goodput; }
    [[nodiscard]] SloPanel *sloPanel() const { return m_slo; }
    // Traces selected in the browser (a run of one trace counts as its trace), in tree order except
    // that the current one comes last: pick the baseline first, then the trace to compare with it.
    [[nodiscard]] QList<int64_t> selectedTraceIds() const;
    // Every trace in the browser, in tree order.
    [[nodiscard]] QList<int64_t> traceIds() const;
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
    [[nodiscard]] FolderWatcher *watcher() const { return m_watcher; }
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
    // The Diff tab: what changed from the baseline trace to the compared one.
    void openDiff(int64_t baselineId, int64_t comparedId);
    // The Experiments tab (View > Experiments).
    void openExperiments();
    void openLineage();
    void openGoodput();
    // The SLO tab: an objectives file evaluated on the workspace (View > SLO).
    void openSlo();
    // View > Compare Traces: the two selected traces; with one, asks which trace to compare it with.
    void compareSelectedTraces();
    // The first-run guide over the window (Help > Show Welcome Tour).
    void showWelcomeTour();
    void showShortcuts();
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
    void createActions();
    void createCentralArea();
    void createDocks();
    void createStatusBar();

    void startLoad(const QString &path, WorkspaceSnapshot::Mode mode);
    void applySnapshot(const WorkspaceSnapshot &snapshot);
    void startNextImport();
    void onImportStarted(int fileCount);
    void onImportFinished();
    void reportImportProblems(const std::vector<FileImportResult> &results);
    void updateActions();
    void updateStatusLabels(const WorkspaceSummary &summary);
    void selectTrace(int64_t traceId);
    void onTraceSelectionChanged();
    void onSourceSelectionChanged();
    void openTimelineAt(const QModelIndex &proxyIndex);
    void openDoctorAt(const QModelIndex &proxyIndex);
    void showTraceMenu(const QPoint &pos);
    void fillCompareWithMenu();
    [[nodiscard]] QString traceLabel(int64_t traceId) const;
    void showError(const QString &title, const QString &text);

    void fillRecentMenu();
    void openWorkspaceDialog();
    void newWorkspaceDialog();
    void importFilesDialog();
    void importFolderDialog();
    // File > Watch Folder: live mode. What the watcher finds is imported quietly (no dialogs, the
    // selection stays): problems go to the Import Log and the status bar.
    void watchFolderDialog();
    void onWatchedFilesChanged(const QStringList &files);
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
    QString m_workspacePath; // the workspace the models show; empty when none is open
    QString m_versionReport; // Help > About's versions, one per line
    QString m_loadingPath; // the workspace being loaded, while m_loading
    bool m_loading = false;
    quint64 m_loadGeneration = 0; // bumped per load; results of older loads are dropped
    QStringList m_pendingImports; // paths waiting for the running import or load
    QStringList m_pendingLive; // files the watcher found, waiting likewise (after user imports)
    bool m_liveBatch = false; // the running import is one of the watcher's
    std::vector<FileImportResult> m_lastResults;
    bool m_importAwaitingRefresh = false; // importFinished() is emitted after the next applied load
    int64_t m_selectAfterImport = -1; // source id whose trace to select after the reload
    int m_lastImported = 0;
    int m_lastProblems = 0;
    QString m_lastImportText;

    ImportController *m_importer;
    FolderWatcher *m_watcher;
    QLabel *m_watchLabel = nullptr;
    QAction *m_watchAction = nullptr;
    QAction *m_stopWatchAction = nullptr;
    WorkspaceModel *m_workspaceModel;
    SourcesModel *m_sourcesModel;
    DiagnosticsModel *m_diagnosticsModel;
    QSortFilterProxyModel *m_workspaceProxy;
    QSortFilterProxyModel *m_sourcesProxy;

    QTabWidget *m_tabs = nullptr;
    QTreeView *m_tree = nullptr;
    QTableView *m_sourcesTable = nullptr;
    TraceDetailsWidget *m_details = nullptr;
    TimelinePanel *m_timeline = nullptr;
    DoctorPanel *m_doctor = nullptr;
    DiffPanel *m_diff = nullptr;
    ExperimentsPanel *m_experiments = nullptr;
    LineagePanel *m_lineage = nullptr;
    GoodputPanel *m_goodput = nullptr;
    SloPanel *m_slo = nullptr;
    QAction *m_timelineAction = nullptr;
    QAction *m_doctorAction = nullptr;
    QAction *m_compareAction = nullptr;
    QMenu *m_traceMenu = nullptr; // the browser's context menu
    QMenu *m_compareWithMenu = nullptr; // its "Compare With" submenu: the other traces
    DiagnosticsPanel *m_diagnosticsPanel = nullptr;
    ImportResultsPanel *m_importLog = nullptr;
    QDockWidget *m_diagnosticsDock = nullptr;
    QDockWidget *m_importLogDock = nullptr;
    ImportProgressWidget *m_progress = nullptr;
    QLabel *m_workspaceLabel = nullptr;
    QLabel *m_lastImportLabel = nullptr;

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
