// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "diagnosticsmodel.h"
#include "diagnosticspanel.h"
#include "diff/diffpanel.h"
#include "doctor/doctorpanel.h"
#include "experiments/experimentspanel.h"
#include "goodput/goodputpanel.h"
#include "help/aboutdialog.h"
#include "help/userguidedialog.h"
#include "importcontroller.h"
#include "importprogresswidget.h"
#include "importresultspanel.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "lineage/lineagepanel.h"
#include "report/reportdialog.h"
#include "shell/shortcuttable.h"
#include "slo/slopanel.h"
#include "sourcesmodel.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"
#include "theme.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "tracedetailswidget.h"
#include "workspacemodel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTime>
#include <QTreeView>
#include <QtConcurrent>

#include <algorithm>

namespace plumb {

namespace {

const QString kLastImportDirKey = QStringLiteral("lastImportDir");
const QString kLastWorkspaceDirKey = QStringLiteral("lastWorkspaceDir");
constexpr int kMaxNameColumnPx = 300; // long file names elide; the tooltip and details show them whole
constexpr int kStatusMessageMs = 8000;

QStringList localPaths(const QMimeData *mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl &url : mime->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    return paths;
}

bool isProblem(FileImportResult::Status s)
{
    using S = FileImportResult::Status;
    return s == S::Unrecognised || s == S::Failed || s == S::Cancelled;
}

} // namespace

MainWindow::MainWindow(const ImporterRegistry &registry, const QString &workspacePath, QWidget *parent)
    : QMainWindow(parent)
    , m_registry(registry)
    , m_importer(new ImportController(registry, this))
    , m_watcher(new FolderWatcher(this))
    , m_workspaceModel(new WorkspaceModel(this))
    , m_sourcesModel(new SourcesModel(this))
    , m_diagnosticsModel(new DiagnosticsModel(this))
    , m_workspaceProxy(new QSortFilterProxyModel(this))
    , m_sourcesProxy(new QSortFilterProxyModel(this))
{
    setWindowTitle(tr("Plumb"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_workspaceProxy->setSourceModel(m_workspaceModel);
    m_workspaceProxy->setSortRole(WorkspaceModel::SortRole);
    m_sourcesProxy->setSourceModel(m_sourcesModel);
    m_sourcesProxy->setSortRole(SourcesModel::SortRole);

    createCentralArea();
    createDocks();
    createStatusBar();
    createActions();

    connect(m_importer, &ImportController::started, this, &MainWindow::onImportStarted);
    connect(m_importer, &ImportController::progress, m_progress, &ImportProgressWidget::setProgress);
    connect(m_importer, &ImportController::finished, this, &MainWindow::onImportFinished);
    connect(m_progress, &ImportProgressWidget::cancelRequested, this, &MainWindow::cancelImport);
    m_watcher->setHiddenFolders(registry.hiddenFolders());
    connect(m_watcher, &FolderWatcher::filesChanged, this, &MainWindow::onWatchedFilesChanged);

    const QRect screen = this->screen()->availableGeometry();
    resize(std::min(1360, screen.width() - 40), std::min(840, screen.height() - 40));
    rememberLayout();
    updateActions();
    startLoad(workspacePath, WorkspaceSnapshot::Mode::CreateIfMissing);
}

MainWindow::~MainWindow() = default;

bool MainWindow::isImporting() const
{
    return m_importer->isRunning();
}

int64_t MainWindow::currentTraceId() const
{
    const QModelIndex current = m_workspaceProxy->mapToSource(m_tree->currentIndex());
    const TraceInfo *t = m_workspaceModel->traceAt(current.siblingAtColumn(0));
    return t ? t->id : -1;
}

// ---------------------------------------------------------------------------------------------
// Layout

void MainWindow::createCentralArea()
{
    m_tree = new QTreeView;
    m_tree->setModel(m_workspaceProxy);
    m_tree->setAccessibleName(tr("Workspace browser"));
    m_tree->setAccessibleDescription(tr("Runs and their traces, with event counts"));
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(WorkspaceModel::NameColumn, Qt::AscendingOrder);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection); // two traces to compare
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &MainWindow::showTraceMenu);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionsMovable(false);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &MainWindow::onTraceSelectionChanged);

    m_sourcesTable = new QTableView;
    m_sourcesTable->setModel(m_sourcesProxy);
    m_sourcesTable->setAccessibleName(tr("Sources"));
    m_sourcesTable->setAccessibleDescription(tr("Imported files with their format, size and status"));
    m_sourcesTable->setSortingEnabled(true);
    m_sourcesTable->sortByColumn(SourcesModel::ImportedAtColumn, Qt::AscendingOrder);
    m_sourcesTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sourcesTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sourcesTable->setAlternatingRowColors(true);
    m_sourcesTable->setWordWrap(false);
    m_sourcesTable->verticalHeader()->hide();
    m_sourcesTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_sourcesTable->horizontalHeader()->setStretchLastSection(true);
    connect(m_sourcesTable->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &MainWindow::onSourceSelectionChanged);

    m_tabs = new QTabWidget;
    m_tabs->setAccessibleName(tr("Workspace views"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_tree, tr("&Workspace"));
    m_tabs->addTab(m_sourcesTable, tr("&Sources"));
    m_timeline = new TimelinePanel;
    m_tabs->addTab(m_timeline, tr("&Timeline"));
    m_doctor = new DoctorPanel;
    connect(m_doctor, &DoctorPanel::showInTimeline, this, &MainWindow::showInTimeline);
    m_tabs->addTab(m_doctor, tr("&Doctor"));
    m_diff = new DiffPanel;
    m_tabs->addTab(m_diff, tr("D&iff"));
    m_experiments = new ExperimentsPanel;
    m_tabs->addTab(m_experiments, tr("E&xperiments"));
    m_lineage = new LineagePanel;
    m_tabs->addTab(m_lineage, tr("&Lineage"));
    m_goodput = new GoodputPanel;
    m_tabs->addTab(m_goodput, tr("&Goodput"));
    m_slo = new SloPanel;
    m_tabs->addTab(m_slo, tr("SL&O"));
    // A linked run: its traces' Doctor verdict when it has traces, else its metrics and config.
    connect(m_lineage, &LineagePanel::openRunRequested, this, [this](int64_t run) {
        int64_t trace = -1;
        try {
            Workspace ws(m_workspacePath, Workspace::Role::Reader);
            trace = ws.db().queryInt(
                ("SELECT coalesce(min(id), -1) FROM trace WHERE run_id = " + std::to_string(run)).c_str(),
                -1);
        } catch (const std::exception &) {
        }
        if (trace >= 0) {
            openDoctor(trace);
            return;
        }
        openExperiments();
        m_experiments->selectRuns({ run });
    });
    connect(m_tree, &QTreeView::doubleClicked, this, &MainWindow::openTimelineAt);

    m_details = new TraceDetailsWidget;
    m_details->setMinimumWidth(220);

    auto *splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(m_tabs);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 1080, 280 });
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);
}

void MainWindow::createDocks()
{
    m_diagnosticsPanel = new DiagnosticsPanel(m_diagnosticsModel);
    m_diagnosticsDock = new QDockWidget(tr("Diagnostics"), this);
    m_diagnosticsDock->setObjectName(QStringLiteral("diagnosticsDock"));
    m_diagnosticsDock->setWidget(m_diagnosticsPanel);
    m_diagnosticsDock->setTitleBarWidget(new QWidget(m_diagnosticsDock)); // the dock tab names it
    addDockWidget(Qt::BottomDockWidgetArea, m_diagnosticsDock);

    m_importLog = new ImportResultsPanel;
    m_importLogDock = new QDockWidget(tr("Import Log"), this);
    m_importLogDock->setObjectName(QStringLiteral("importLogDock"));
    m_importLogDock->setWidget(m_importLog);
    m_importLogDock->setTitleBarWidget(new QWidget(m_importLogDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_importLogDock);
    tabifyDockWidget(m_diagnosticsDock, m_importLogDock);
    setTabPosition(Qt::BottomDockWidgetArea, QTabWidget::North);
    m_diagnosticsDock->raise();
    resizeDocks({ m_diagnosticsDock }, { 220 }, Qt::Vertical);
}

void MainWindow::createStatusBar()
{
    m_progress = new ImportProgressWidget;
    m_workspaceLabel = new QLabel;
    m_workspaceLabel->setAccessibleName(tr("Workspace file"));
    m_lastImportLabel = new QLabel;
    m_lastImportLabel->setAccessibleName(tr("Last import"));
    m_watchLabel = new QLabel;
    m_watchLabel->setAccessibleName(tr("Watched folder"));
    m_watchLabel->hide();
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_watchLabel);
    statusBar()->addPermanentWidget(m_workspaceLabel);
    statusBar()->addPermanentWidget(m_lastImportLabel);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_openAction = addTableAction(file, QStringLiteral("file.open"), this, &MainWindow::openWorkspaceDialog);
    m_newAction = addTableAction(file, QStringLiteral("file.new"), this, &MainWindow::newWorkspaceDialog);
    m_recentMenu = file->addMenu(tr("&Recent Workspaces"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addSeparator();
    m_importFilesAction
        = addTableAction(file, QStringLiteral("file.importFiles"), this, &MainWindow::importFilesDialog);
    m_importFolderAction
        = addTableAction(file, QStringLiteral("file.importFolder"), this, &MainWindow::importFolderDialog);
    m_recentFilesMenu = file->addMenu(tr("Recent &Files"));
    connect(m_recentFilesMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentFilesMenu);
    m_watchAction
        = addTableAction(file, QStringLiteral("file.watchFolder"), this, &MainWindow::watchFolderDialog);
    m_watchAction->setStatusTip(tr("Import a folder now and whatever is appended to it while training runs"));
    m_stopWatchAction
        = addTableAction(file, QStringLiteral("file.stopWatching"), this, &MainWindow::stopWatching);
    m_cancelAction
        = addTableAction(file, QStringLiteral("file.cancelImport"), this, &MainWindow::cancelImport);
    file->addSeparator();
    addTableAction(file, QStringLiteral("file.exportReport"), this, [this] {
        if (!m_workspacePath.isEmpty())
            ReportDialog(m_workspacePath, this).exec();
    });
    file->addSeparator();
    QAction *quit = addTableAction(file, QStringLiteral("file.quit"), this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    addTableAction(view, QStringLiteral("view.workspace"), this, [this] {
        m_tabs->setCurrentWidget(m_tree);
        m_tree->setFocus();
    });
    addTableAction(view, QStringLiteral("view.sources"), this, [this] {
        m_tabs->setCurrentWidget(m_sourcesTable);
        m_sourcesTable->setFocus();
    });
    addTableAction(view, QStringLiteral("view.diagnostics"), this, [this] {
        m_diagnosticsDock->show();
        m_diagnosticsDock->raise();
        m_diagnosticsPanel->focusTable();
    });
    addTableAction(view, QStringLiteral("view.importLog"), this, [this] {
        m_importLogDock->show();
        m_importLogDock->raise();
        m_importLog->setFocus();
    });
    m_timelineAction = addTableAction(
        view, QStringLiteral("view.timeline"), this, [this] { openTimelineAt(m_tree->currentIndex()); });
    m_timelineAction->setStatusTip(tr("Show the timeline of the trace or run selected in the browser"));
    m_doctorAction = addTableAction(
        view, QStringLiteral("view.doctor"), this, [this] { openDoctorAt(m_tree->currentIndex()); });
    m_doctorAction->setStatusTip(tr("Show where the GPU time of the trace selected in the browser goes"));
    m_compareAction
        = addTableAction(view, QStringLiteral("view.compare"), this, &MainWindow::compareSelectedTraces);
    m_compareAction->setStatusTip(
        tr("Show what changed between the two traces selected in the browser (the one "
           "picked last is compared with the other)"));
    QAction *showExperiments
        = addTableAction(view, QStringLiteral("view.experiments"), this, &MainWindow::openExperiments);
    showExperiments->setStatusTip(
        tr("Compare the experiment-log runs of the workspace: params, metrics, scalar charts"));
    QAction *showLineage
        = addTableAction(view, QStringLiteral("view.lineage"), this, &MainWindow::openLineage);
    showLineage->setStatusTip(
        tr("What the models were made from and what was made from the data (ML Metadata, "
           "OpenLineage)"));
    QAction *showGoodput
        = addTableAction(view, QStringLiteral("view.goodput"), this, &MainWindow::openGoodput);
    showGoodput->setStatusTip(
        tr("How much of a job's time was productive training, and where the rest went"));
    QAction *showSlo = addTableAction(view, QStringLiteral("view.slo"), this, &MainWindow::openSlo);
    showSlo->setStatusTip(tr("Serving objectives (latency, TTFT, error rate...) evaluated on the workspace"));
    view->addSeparator();
    view->addAction(m_diagnosticsDock->toggleViewAction());
    view->addAction(m_importLogDock->toggleViewAction());
    view->addSeparator();
    m_refreshAction = addTableAction(view, QStringLiteral("view.refresh"), this, &MainWindow::refresh);
    view->addMenu(createThemeMenu(this));
    createShellActions(view);

    // The browser's context menu, on a trace or run.
    m_traceMenu = new QMenu(this);
    m_traceMenu->setObjectName(QStringLiteral("traceContextMenu"));
    m_traceMenu->addAction(m_timelineAction);
    m_traceMenu->addAction(m_doctorAction);
    m_traceMenu->addSeparator();
    m_traceMenu->addAction(m_compareAction);
    m_compareWithMenu = m_traceMenu->addMenu(tr("Compare &With"));
    m_compareWithMenu->setObjectName(QStringLiteral("compareWithMenu"));
    connect(m_compareWithMenu, &QMenu::aboutToShow, this, &MainWindow::fillCompareWithMenu);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    addTableAction(help, QStringLiteral("help.guide"), this, [this] { showUserGuide(this); });
    QAction *about = help->addAction(tr("&About Plumb"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    help->addSeparator();
    addTableAction(help, QStringLiteral("help.shortcuts"), this, &MainWindow::showShortcuts);
    addTableAction(help, QStringLiteral("help.tour"), this, &MainWindow::showWelcomeTour);
}

// ---------------------------------------------------------------------------------------------
// Loading

void MainWindow::startLoad(const QString &path, WorkspaceSnapshot::Mode mode)
{
    const quint64 generation = ++m_loadGeneration;
    m_loadingPath = path;
    m_loading = true;
    if (path != m_workspacePath)
        stopWatching(); // the watched folder's data belongs to the workspace it was watched for
    if (path != m_workspacePath)
        statusBar()->showMessage(
            (Workspace::needsUpgrade(path) ? tr(
                 "Upgrading %1 to this version's workspace format (once; a large workspace takes a while)…")
                                           : tr("Opening %1…"))
                .arg(QDir::toNativeSeparators(path)));
    updateActions();
    auto future = QtConcurrent::run([path, mode] { return WorkspaceSnapshot::load(path, mode); });
    future.then(this, [this, generation](const WorkspaceSnapshot &snapshot) {
        // then() runs at once when the worker already finished; always deliver from the event loop so
        // that callers of startLoad() (the constructor, tests) see the result after they return.
        QMetaObject::invokeMethod(
            this,
            [this, generation, snapshot] {
                if (generation == m_loadGeneration) // else a newer load was started meanwhile
                    applySnapshot(snapshot);
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::refresh()
{
    // While another workspace is being opened, reload that one: it is about to be shown.
    const QString path = m_loading ? m_loadingPath : m_workspacePath;
    if (!path.isEmpty())
        startLoad(path, WorkspaceSnapshot::Mode::OpenExisting);
}

void MainWindow::applySnapshot(const WorkspaceSnapshot &s)
{
    m_loading = false;
    m_loadingPath.clear();
    if (!s.ok()) {
        statusBar()->clearMessage();
        if (m_workspacePath.isEmpty()) {
            m_workspaceLabel->setText(tr("No workspace open"));
            if (!m_pendingImports.isEmpty()) {
                m_importLog->addFailure(m_pendingImports, tr("not imported: no workspace is open"));
                m_pendingImports.clear();
            }
        }
        showError(tr("Cannot Open Workspace"),
            tr("The workspace %1 could not be opened.\n\n%2").arg(QDir::toNativeSeparators(s.path), s.error));
        Q_EMIT workspaceLoadFailed(s.path, s.error);
        if (m_importAwaitingRefresh) {
            m_importAwaitingRefresh = false;
            Q_EMIT importFinished(m_lastImported, m_lastProblems);
        }
        updateActions();
        startNextImport();
        return;
    }

    const bool switched = s.path != m_workspacePath;
    const int64_t previousTrace = switched ? -1 : currentTraceId();
    m_workspacePath = s.path;
    if (switched) {
        m_recentWorkspaces.add({ s.path });
        setWindowTitle(tr("%1 — Plumb").arg(QFileInfo(s.path).fileName()));
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(s.path)), kStatusMessageMs);
        m_diagnosticsPanel->showSource(-1);
        m_timeline->close();
        m_doctor->close();
        m_diff->close();
    }

    m_workspaceModel->setRuns(s.runs);
    m_sourcesModel->setSources(s.sources);
    m_experiments->setWorkspace(s.path); // every load: a new workspace, a refresh, or after an import
    m_lineage->setWorkspace(s.path);
    m_goodput->setWorkspace(s.path);
    m_slo->setWorkspace(s.path);
    m_diagnosticsModel->setDiagnostics(s.diagnostics);
    m_diagnosticsPanel->setSources(s.sources);
    updateStatusLabels(s.summary);

    m_tree->expandAll();
    for (int c = 0; c < WorkspaceModel::ColumnCount; ++c)
        m_tree->resizeColumnToContents(c);
    m_tree->setColumnWidth(WorkspaceModel::NameColumn,
        std::min(m_tree->columnWidth(WorkspaceModel::NameColumn), kMaxNameColumnPx));
    m_sourcesTable->resizeColumnsToContents();

    int64_t select = previousTrace;
    if (m_importAwaitingRefresh && m_selectAfterImport >= 0) {
        const QModelIndex idx = m_workspaceModel->indexForSource(m_selectAfterImport);
        if (const TraceInfo *t = m_workspaceModel->traceAt(idx))
            select = t->id;
    }
    // Opening a workspace: the trace imported last (ids grow with each import), as the status bar names it.
    if (select < 0)
        for (const RunInfo &r : s.runs)
            for (const TraceInfo &t : r.traces)
                select = std::max(select, t.id);
    selectTrace(select);

    Q_EMIT workspaceLoaded(s.path);
    if (m_importAwaitingRefresh) {
        m_importAwaitingRefresh = false;
        Q_EMIT importFinished(m_lastImported, m_lastProblems);
    }
    updateActions();
    startNextImport();
}

void MainWindow::updateStatusLabels(const WorkspaceSummary &summary)
{
    const QFileInfo info(summary.path);
    m_workspaceLabel->setText(tr("%1 · %2").arg(info.fileName(), text::bytes(summary.fileBytes)));
    m_workspaceLabel->setToolTip(tr("%1\n%2, %3, %4")
                                     .arg(QDir::toNativeSeparators(summary.path),
                                         text::counted(summary.sources, tr("source"), tr("sources")),
                                         text::counted(summary.runs, tr("run"), tr("runs")),
                                         text::counted(summary.traces, tr("trace"), tr("traces"))));
    if (!m_lastImportText.isEmpty())
        m_lastImportLabel->setText(m_lastImportText);
    else if (!summary.lastImport.isEmpty())
        m_lastImportLabel->setText(tr("Last import: %1").arg(summary.lastImport));
    else
        m_lastImportLabel->setText(tr("Nothing imported yet"));
}

void MainWindow::selectTrace(int64_t traceId)
{
    const QModelIndex source = m_workspaceModel->indexForTrace(traceId);
    if (!source.isValid()) {
        m_tree->selectionModel()->clearCurrentIndex();
        m_details->clear();
        return;
    }
    const QModelIndex proxy = m_workspaceProxy->mapFromSource(source);
    m_tree->selectionModel()->setCurrentIndex(
        proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(proxy);
    onTraceSelectionChanged();
}

void MainWindow::onTraceSelectionChanged()
{
    const QModelIndex current = m_workspaceProxy->mapToSource(m_tree->currentIndex()).siblingAtColumn(0);
    if (const TraceInfo *t = m_workspaceModel->traceAt(current)) {
        m_details->showTrace(*t, *m_workspaceModel->runAt(current), m_sourcesModel->sourceById(t->sourceId));
        m_diagnosticsPanel->showSource(t->sourceId);
    } else if (const RunInfo *r = m_workspaceModel->runAt(current)) {
        m_details->showRun(*r);
        m_diagnosticsPanel->showSource(-1);
    } else {
        m_details->clear();
    }
}

void MainWindow::openTimelineAt(const QModelIndex &proxyIndex)
{
    const QModelIndex current = m_workspaceProxy->mapToSource(proxyIndex).siblingAtColumn(0);
    if (const TraceInfo *t = m_workspaceModel->traceAt(current))
        openTimeline(t->id);
    else if (const RunInfo *r = m_workspaceModel->runAt(current))
        openTimeline(-1, r->id);
}

void MainWindow::openDoctorAt(const QModelIndex &proxyIndex)
{
    const QModelIndex current = m_workspaceProxy->mapToSource(proxyIndex).siblingAtColumn(0);
    const TraceInfo *t = m_workspaceModel->traceAt(current);
    if (!t)
        if (const RunInfo *r = m_workspaceModel->runAt(current); r && !r->traces.isEmpty())
            t = &r->traces.first(); // a run: its first trace (per-rank comparison comes with the doctor's run
                                    // view)
    if (t)
        openDoctor(t->id);
}

void MainWindow::openDoctor(int64_t traceId)
{
    const TraceInfo *t = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(traceId));
    if (m_workspacePath.isEmpty() || !t)
        return;
    m_doctor->open(m_workspacePath, t->id, t->name);
    m_tabs->setCurrentWidget(m_doctor);
}

QList<int64_t> MainWindow::selectedTraceIds() const
{
    auto traceOf = [this](const QModelIndex &proxyIndex) -> int64_t {
        const QModelIndex index = m_workspaceProxy->mapToSource(proxyIndex).siblingAtColumn(0);
        if (const TraceInfo *t = m_workspaceModel->traceAt(index))
            return t->id;
        if (const RunInfo *r = m_workspaceModel->runAt(index); r && r->traces.size() == 1)
            return r->traces.first().id;
        return -1;
    };
    QModelIndexList rows = m_tree->selectionModel()->selectedRows();
    // Tree order: runs by row, each run's traces by row beneath it.
    auto position = [](const QModelIndex &i) {
        return i.parent().isValid() ? std::pair(i.parent().row(), i.row() + 1) : std::pair(i.row(), 0);
    };
    std::sort(rows.begin(), rows.end(),
        [&](const QModelIndex &x, const QModelIndex &y) { return position(x) < position(y); });
    QList<int64_t> ids;
    for (const QModelIndex &row : rows)
        if (const int64_t id = traceOf(row); id >= 0 && !ids.contains(id))
            ids << id;
    const int64_t current = traceOf(m_tree->currentIndex());
    if (ids.removeOne(current))
        ids << current;
    return ids;
}

QList<int64_t> MainWindow::traceIds() const
{
    QList<int64_t> ids;
    for (int row = 0; row < m_workspaceProxy->rowCount(); ++row) {
        const QModelIndex run = m_workspaceProxy->index(row, 0);
        for (int t = 0; t < m_workspaceProxy->rowCount(run); ++t)
            if (const TraceInfo *info = m_workspaceModel->traceAt(
                    m_workspaceProxy->mapToSource(m_workspaceProxy->index(t, 0, run))))
                ids << info->id;
    }
    return ids;
}

QList<int64_t> MainWindow::lastImportedTraceIds() const
{
    QList<int64_t> ids;
    for (const FileImportResult &r : m_lastResults) {
        if (r.status != FileImportResult::Status::Imported
            && r.status != FileImportResult::Status::AlreadyImported)
            continue;
        if (const TraceInfo *t = m_workspaceModel->traceAt(m_workspaceModel->indexForSource(r.sourceId));
            t && !ids.contains(t->id))
            ids << t->id;
    }
    return ids;
}

QString MainWindow::traceLabel(int64_t traceId) const
{
    const QModelIndex index = m_workspaceModel->indexForTrace(traceId);
    const TraceInfo *t = m_workspaceModel->traceAt(index);
    if (!t)
        return {};
    const RunInfo *r = m_workspaceModel->runAt(index);
    return r && r->name != t->name ? tr("%1 (run %2)").arg(t->name, r->name) : t->name;
}

void MainWindow::openDiff(int64_t baselineId, int64_t comparedId)
{
    const TraceInfo *a = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(baselineId));
    const TraceInfo *b = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(comparedId));
    if (m_workspacePath.isEmpty() || !a || !b || a == b)
        return;
    m_diff->open(m_workspacePath, a->id, a->name, b->id, b->name);
    m_tabs->setCurrentWidget(m_diff);
}

void MainWindow::openExperiments()
{
    m_tabs->setCurrentWidget(m_experiments);
    m_experiments->table()->setFocus();
}

void MainWindow::openLineage()
{
    m_tabs->setCurrentWidget(m_lineage);
}

void MainWindow::openGoodput()
{
    m_tabs->setCurrentWidget(m_goodput);
}

void MainWindow::openSlo()
{
    m_tabs->setCurrentWidget(m_slo);
}

void MainWindow::compareSelectedTraces()
{
    QList<int64_t> ids = selectedTraceIds();
    if (ids.size() == 2) {
        openDiff(ids[0], ids[1]);
        return;
    }
    if (ids.size() > 2) {
        statusBar()->showMessage(
            tr("Select two traces to compare; %1 are selected").arg(ids.size()), kStatusMessageMs);
        return;
    }
    const QList<int64_t> all = traceIds();
    if (all.size() < 2) {
        statusBar()->showMessage(tr("Import a second trace to compare with"), kStatusMessageMs);
        return;
    }
    if (ids.isEmpty()) {
        statusBar()->showMessage(
            tr("Select two traces in the Workspace tab to compare them"), kStatusMessageMs);
        return;
    }
    // One trace selected: ask which one to compare with it.
    QStringList labels;
    QList<int64_t> others;
    for (int64_t id : all) {
        if (id != ids.front()) {
            others << id;
            labels << traceLabel(id);
        }
    }
    bool ok = false;
    const QString picked = QInputDialog::getItem(this, tr("Compare Traces"),
        tr("Compare %1 (A, the baseline) with:").arg(traceLabel(ids.front())), labels, 0, false, &ok);
    if (ok && labels.contains(picked))
        openDiff(ids.front(), others[labels.indexOf(picked)]);
}

void MainWindow::showTraceMenu(const QPoint &pos)
{
    const QModelIndex index = m_tree->indexAt(pos);
    if (!index.isValid())
        return;
    const bool onTrace
        = m_workspaceModel->traceAt(m_workspaceProxy->mapToSource(index).siblingAtColumn(0)) != nullptr;
    m_compareWithMenu->setEnabled(onTrace && traceIds().size() >= 2);
    m_traceMenu->popup(m_tree->viewport()->mapToGlobal(pos));
}

void MainWindow::fillCompareWithMenu()
{
    m_compareWithMenu->clear();
    const int64_t baseline = currentTraceId();
    for (int64_t id : traceIds()) {
        if (id == baseline)
            continue;
        QString label = traceLabel(id);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction *a
            = m_compareWithMenu->addAction(label, this, [this, baseline, id] { openDiff(baseline, id); });
        a->setData(qlonglong(id));
    }
    if (m_compareWithMenu->isEmpty())
        m_compareWithMenu->addAction(tr("No other trace"))->setEnabled(false);
}

void MainWindow::showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs)
{
    openTimeline(traceId, -1, { fromNs, toNs });
}

void MainWindow::openTimeline(int64_t traceId, int64_t runId, std::pair<int64_t, int64_t> focus)
{
    if (m_workspacePath.isEmpty())
        return;
    TimelineSource source;
    source.focusFromNs = focus.first;
    source.focusToNs = focus.second;
    source.workspacePath = m_workspacePath;
    const QModelIndex index = runId >= 0 ? QModelIndex() : m_workspaceModel->indexForTrace(traceId);
    if (const TraceInfo *t = m_workspaceModel->traceAt(index)) {
        source.traceId = t->id;
        source.title = t->name;
    } else {
        // A run of one trace is that trace's timeline.
        for (int row = 0; row < m_workspaceModel->rowCount(); ++row) {
            const RunInfo *r = m_workspaceModel->runAt(m_workspaceModel->index(row, 0));
            if (!r || r->id != runId)
                continue;
            source.title = r->name;
            if (r->traces.size() == 1)
                source.traceId = r->traces.first().id;
            else
                source.runId = r->id;
        }
    }
    if (source.traceId < 0 && source.runId < 0)
        return;
    m_timeline->open(source);
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->view()->setFocus();
}

void MainWindow::onSourceSelectionChanged()
{
    const QModelIndex current = m_sourcesTable->currentIndex();
    if (current.isValid())
        m_diagnosticsPanel->showSource(current.data(SourcesModel::SourceIdRole).toLongLong());
}

// ---------------------------------------------------------------------------------------------
// Importing

void MainWindow::importPaths(const QStringList &paths)
{
    QStringList wanted;
    for (const QString &p : paths) {
        if (!p.isEmpty())
            wanted << p;
    }
    if (wanted.isEmpty())
        return;
    if (m_workspacePath.isEmpty() && !isLoading()) {
        showError(tr("No Workspace"), tr("Open or create a workspace before importing files."));
        return;
    }
    m_pendingImports += wanted;
    if (isImporting() || isLoading() || m_importAwaitingRefresh)
        statusBar()->showMessage(
            tr("Queued %1 for import").arg(text::counted(wanted.size(), tr("path"), tr("paths"))),
            kStatusMessageMs);
    startNextImport();
}

void MainWindow::startNextImport()
{
    if ((m_pendingImports.isEmpty() && m_pendingLive.isEmpty()) || isImporting() || isLoading()
        || m_importAwaitingRefresh || m_workspacePath.isEmpty())
        return;
    m_liveBatch = m_pendingImports.isEmpty();
    const QStringList paths = m_liveBatch ? m_pendingLive : m_pendingImports;
    (m_liveBatch ? m_pendingLive : m_pendingImports).clear();
    m_importer->start(m_workspacePath, paths);
}

void MainWindow::watchFolder(const QString &folder)
{
    if (m_workspacePath.isEmpty()) {
        showError(tr("No Workspace"), tr("Open or create a workspace before watching a folder."));
        return;
    }
    m_pendingLive.clear();
    m_watcher->watch({ folder }); // its first look imports what is there
    m_watchLabel->setText(tr("Watching %1").arg(QFileInfo(folder).fileName()));
    m_watchLabel->setToolTip(tr("New data under %1 is imported every %2 s (File > Stop Watching)")
                                 .arg(QDir::toNativeSeparators(folder))
                                 .arg(m_watcher->intervalMs() / 1000.0));
    m_watchLabel->show();
    updateActions();
}

void MainWindow::stopWatching()
{
    if (!m_watcher->isWatching())
        return;
    m_watcher->stop();
    m_pendingLive.clear();
    m_watchLabel->hide();
    updateActions();
}

void MainWindow::onWatchedFilesChanged(const QStringList &files)
{
    for (const QString &f : m_registry.importPathsFor(files))
        if (!m_pendingLive.contains(f))
            m_pendingLive << f;
    startNextImport();
}

void MainWindow::watchFolderDialog()
{
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Watch Folder"), settings.value(kLastImportDirKey, QDir::homePath()).toString());
    if (dir.isEmpty())
        return;
    settings.setValue(kLastImportDirKey, dir);
    watchFolder(dir);
}

void MainWindow::cancelImport()
{
    m_pendingImports.clear();
    if (!isImporting())
        return;
    m_importer->cancel();
    m_progress->setCancelling();
    statusBar()->showMessage(tr("Cancelling the import…"));
}

void MainWindow::onImportStarted(int fileCount)
{
    m_progress->begin(fileCount);
    updateActions();
    Q_EMIT importStarted(fileCount);
}

void MainWindow::onImportFinished()
{
    using S = FileImportResult::Status;
    m_progress->end();
    m_lastResults = m_importer->results();

    if (!m_importer->error().isEmpty()) {
        m_importLog->addFailure(m_importer->paths(), m_importer->error());
        showError(tr("Import Failed"),
            tr("Nothing was imported: the workspace %1 could not be written.\n\n%2")
                .arg(QDir::toNativeSeparators(m_workspacePath), m_importer->error()));
    }
    m_importLog->addResults(m_lastResults);

    int imported = 0, already = 0, problems = 0, cancelled = 0;
    int64_t firstImported = -1, firstAlready = -1; // source ids
    for (const FileImportResult &r : m_lastResults) {
        if (r.status == S::Imported) {
            ++imported;
            if (firstImported < 0)
                firstImported = r.sourceId;
        } else if (r.status == S::AlreadyImported) {
            ++already;
            if (firstAlready < 0)
                firstAlready = r.sourceId;
        }
        if (isProblem(r.status))
            ++problems;
        if (r.status == S::Cancelled)
            ++cancelled;
    }
    // A live import leaves the selection where the user put it.
    m_selectAfterImport = m_liveBatch ? -1 : firstImported >= 0 ? firstImported : firstAlready;
    if (!m_importer->error().isEmpty())
        problems = int(m_importer->paths().size());

    QStringList parts;
    if (imported)
        parts << tr("%1 imported").arg(text::counted(imported, tr("file"), tr("files")));
    if (already)
        parts << tr("%n already in the workspace", nullptr, already);
    if (problems - cancelled > 0)
        parts << tr("%n not imported", nullptr, problems - cancelled);
    if (cancelled)
        parts << tr("%n cancelled", nullptr, cancelled);
    const QString summary = parts.isEmpty() ? tr("Nothing to import") : parts.join(QStringLiteral(", "));
    statusBar()->showMessage(tr("Import finished: %1").arg(summary), kStatusMessageMs);
    const QString firstName
        = m_lastResults.empty() ? QString() : QFileInfo(m_lastResults.front().path).fileName();
    int64_t events = 0;
    for (const FileImportResult &r : m_lastResults)
        events += r.status == S::Imported ? r.records : 0;
    m_lastImportText = tr("Last import %1: %2, %3 (%4)")
                           .arg(QTime::currentTime().toString(QStringLiteral("HH:mm")),
                               m_lastResults.size() == 1
                                   ? firstName
                                   : text::counted(int64_t(m_lastResults.size()), tr("file"), tr("files")),
                               text::counted(events, tr("event"), tr("events")), summary);
    m_lastImportLabel->setText(m_lastImportText);

    if (m_liveBatch) {
        // Quiet: a file caught half-written fails now and imports on the watcher's next look.
        m_watchLabel->setText(tr("Watching %1 · %2 at %3")
                                  .arg(QFileInfo(m_watcher->paths().value(0)).fileName(), summary,
                                      QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    } else {
        reportImportProblems(m_lastResults);
    }

    m_lastImported = imported + already;
    m_lastProblems = problems;
    m_importAwaitingRefresh = true;
    updateActions();
    refresh();
}

void MainWindow::reportImportProblems(const std::vector<FileImportResult> &results)
{
    using S = FileImportResult::Status;
    QStringList lines;
    for (const FileImportResult &r : results) {
        // A cancel is the user's own doing: the log says so, no dialog.
        if (r.status == S::Unrecognised || r.status == S::Failed)
            lines << tr("%1: %2 — %3").arg(QFileInfo(r.path).fileName(), statusName(r.status), r.message);
    }
    if (lines.isEmpty())
        return;
    m_importLogDock->show();
    m_importLogDock->raise();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Import Problems"),
        tr("%1 could not be imported. The Import Log lists every file.")
            .arg(text::counted(lines.size(), tr("file"), tr("files"))),
        QMessageBox::Ok, this);
    constexpr int kMaxListed = 10;
    QString detail = lines.mid(0, kMaxListed).join(QLatin1Char('\n'));
    if (lines.size() > kMaxListed)
        detail += tr("\n…and %n more", nullptr, int(lines.size() - kMaxListed));
    box->setInformativeText(detail);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void MainWindow::updateActions()
{
    const bool importing = isImporting();
    const bool busy = importing || isLoading();
    m_openAction->setEnabled(!importing);
    m_newAction->setEnabled(!importing);
    m_recentMenu->setEnabled(!importing);
    m_recentFilesMenu->setEnabled(!m_workspacePath.isEmpty() || busy);
    m_importFilesAction->setEnabled(!m_workspacePath.isEmpty() || busy);
    m_importFolderAction->setEnabled(!m_workspacePath.isEmpty() || busy);
    m_cancelAction->setEnabled(importing);
    m_watchAction->setEnabled(!m_workspacePath.isEmpty());
    m_stopWatchAction->setEnabled(m_watcher->isWatching());
    m_refreshAction->setEnabled(!m_workspacePath.isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Drag and drop

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent *event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = localPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // A workspace dropped on its own is opened, not imported.
    if (paths.size() == 1 && paths.front().endsWith(QStringLiteral(".plumb"))
        && QFileInfo(paths.front()).isFile()) {
        openWorkspace(paths.front());
        return;
    }
    addRecentFiles(paths);
    importPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (isImporting())
        m_importer->cancel(); // the controller waits for the worker when it is destroyed
    QMainWindow::closeEvent(event);
}

// ---------------------------------------------------------------------------------------------
// Workspaces and dialogs

void MainWindow::openWorkspace(const QString &path)
{
    if (isImporting() || path.isEmpty())
        return;
    startLoad(QFileInfo(path).absoluteFilePath(), WorkspaceSnapshot::Mode::OpenExisting);
}

void MainWindow::createWorkspace(const QString &path)
{
    if (isImporting() || path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == m_workspacePath) {
        showError(tr("New Workspace"),
            tr("%1 is the workspace that is open now; choose another file name.")
                .arg(QDir::toNativeSeparators(absolute)));
        return;
    }
    if (QFileInfo::exists(absolute)) {
        // The save dialog already asked before replacing it.
        for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
            QFile::remove(absolute + suffix);
    }
    startLoad(absolute, WorkspaceSnapshot::Mode::CreateIfMissing);
}

void MainWindow::openWorkspaceDialog()
{
    QSettings settings;
    const QString dir
        = settings.value(kLastWorkspaceDirKey, QFileInfo(m_workspacePath).absolutePath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Workspace"), dir, tr("Plumb workspaces (*.plumb);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastWorkspaceDirKey, QFileInfo(path).absolutePath());
    openWorkspace(path);
}

void MainWindow::newWorkspaceDialog()
{
    QSettings settings;
    const QString dir = settings.value(kLastWorkspaceDirKey, QDir::homePath()).toString();
    QString path = QFileDialog::getSaveFileName(
        this, tr("New Workspace"), dir + QStringLiteral("/untitled.plumb"), tr("Plumb workspaces (*.plumb)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".plumb");
    settings.setValue(kLastWorkspaceDirKey, QFileInfo(path).absolutePath());
    createWorkspace(path);
}

void MainWindow::importFilesDialog()
{
    QSettings settings;
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import Files"),
        settings.value(kLastImportDirKey, QDir::homePath()).toString(),
        tr("All files (*);;Traces (*.json *.gz *.pb *.sqlite)"));
    if (files.isEmpty())
        return;
    settings.setValue(kLastImportDirKey, QFileInfo(files.first()).absolutePath());
    addRecentFiles(files);
    importPaths(files);
}

void MainWindow::importFolderDialog()
{
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Import Folder"), settings.value(kLastImportDirKey, QDir::homePath()).toString());
    if (dir.isEmpty())
        return;
    settings.setValue(kLastImportDirKey, dir);
    addRecentFiles({ dir });
    importPaths({ dir });
}

void MainWindow::fillRecentMenu()
{
    m_recentWorkspaces.fillMenu(m_recentMenu, [this](QAction *a, const QString &path) {
        a->setEnabled(path != m_workspacePath);
        connect(a, &QAction::triggered, this, [this, path] { openWorkspace(path); });
    });
}

void MainWindow::showAbout()
{
    QStringList formats;
    for (const auto &importer : m_registry.importers())
        formats << importer->displayName();
    AboutDialog(
        m_versionReport.isEmpty() ? QStringLiteral("Plumb " PLUMB_VERSION) : m_versionReport, formats, this)
        .exec();
}

void MainWindow::showError(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace plumb
