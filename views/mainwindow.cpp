// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "calltree/calltreepanel.h"
#include "columnroleprompt.h"
#include "diagnosticsbadge.h"
#include "diagnosticsmodel.h"
#include "diagnosticspanel.h"
#include "diff/diffpanel.h"
#include "doctor/doctorpanel.h"
#include "experiments/experimentspanel.h"
#include "experiments/runstablemodel.h"
#include "filechoosers.h"
#include "goodput/goodputpanel.h"
#include "help/aboutdialog.h"
#include "help/userguidedialog.h"
#include "importfeedback.h"
#include "importprogresswidget.h"
#include "importresultspanel.h"
#include "ingest/importerregistry.h"
#include "job/jobpanel.h"
#include "job/jobview.h"
#include "lineage/lineagepanel.h"
#include "memory/memorypanel.h"
#include "query/querypanel.h"
#include "report/reportdialog.h"
#include "shell/shortcuttable.h"
#include "slo/slopanel.h"
#include "sourcesmodel.h"
#include "store/filesystem.h"
#include "store/workspace.h"
#include "text/textformat.h"
#include "theme.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "tracedetailswidget.h"
#include "workspacebrowser.h"
#include "workspacemodel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

#include <algorithm>

namespace plumb {

namespace {

constexpr int kMaxNameColumnPx = 300; // long file names elide; the tooltip and details show them whole

QStringList localPaths(const QMimeData *mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls()) {
        return paths;
    }
    for (const QUrl &url : mime->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        }
    }
    return paths;
}

} // namespace

MainWindow::MainWindow(const ImporterRegistry &registry, const QString &workspacePath, QWidget *parent)
    : QMainWindow(parent)
    , m_registry(registry)
    , m_session(new WorkspaceSession(registry, this))
    , m_workspaceModel(new WorkspaceModel(this))
    , m_sourcesModel(new SourcesModel(this))
    , m_diagnosticsModel(new DiagnosticsModel(this))
    , m_sourcesProxy(new QSortFilterProxyModel(this))
{
    setWindowTitle(tr("Plumb"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_sourcesProxy->setSourceModel(m_sourcesModel);
    m_sourcesProxy->setSortRole(SourcesModel::SortRole);

    createCentralArea();
    createDocks();
    createStatusBar();
    createActions();

    using S = WorkspaceSession;
    connect(m_session, &S::loadStarted, this, &MainWindow::onLoadStarted);
    connect(m_session, &S::loaded, this, &MainWindow::applySnapshot);
    connect(m_session, &S::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_session, &S::importStarted, this, [this](int fileCount) { Q_EMIT importStarted(fileCount); });
    connect(m_session, &S::importFinished, this, &MainWindow::onImportFinished);
    connect(m_session, &S::stateChanged, this, &MainWindow::updateActions);
    connect(m_session, &S::otherWriter, this, [this](const QString &holder) {
        statusBar()->showMessage(tr("%1 is writing this workspace: what it imports is shown when it is done")
                                     .arg(holder.isEmpty() ? tr("Another program") : holder),
            4 * kStatusMessageMs);
    });

    const QRect screen = this->screen()->availableGeometry();
    resize(std::min(1360, screen.width() - 40), std::min(840, screen.height() - 40));
    rememberLayout();
    updateActions();
    m_session->open(workspacePath, WorkspaceSession::Mode::CreateIfMissing);
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------------
// Layout

void MainWindow::createCentralArea()
{
    m_tree = new WorkspaceBrowser(m_workspaceModel);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &MainWindow::showTraceMenu);
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
    m_callTree = new CallTreePanel;
    m_tabs->addTab(m_callTree, tr("&Call Tree"));
    // A node clicked in the call tree: its slices outlined in the timeline (opened on its trace, in
    // the background, when it shows another one).
    const auto outline = [this](const std::vector<CallTreeSlice> &slices) {
        std::vector<CriticalPathSlice> outlined;
        outlined.reserve(slices.size());
        for (const CallTreeSlice &c : slices)
            outlined.push_back({ c.trackId, c.tsNs, c.tsNs + c.durNs, c.depth });
        m_timeline->view()->setHighlightedSlices(std::move(outlined));
    };
    connect(m_callTree, &CallTreePanel::slicesSelected, this,
        [this, outline](int64_t traceId, const std::vector<CallTreeSlice> &slices) {
            const TimelineSource &shown = m_timeline->view()->source();
            if (shown.traceId != traceId || shown.workspacePath != m_callTree->workspacePath()) {
                TimelineSource source;
                source.workspacePath = m_callTree->workspacePath();
                source.traceId = traceId;
                source.title = traceLabel(traceId);
                m_timeline->open(source);
            }
            outline(slices);
        });
    connect(m_callTree, &CallTreePanel::showInTimeline, this,
        [this, outline](int64_t traceId, int64_t fromNs, int64_t toNs) {
            // The trace where the call tree read it (a job's rank: in its shard).
            TimelineSource source;
            source.workspacePath = m_callTree->workspacePath();
            source.traceId = traceId;
            source.title = traceLabel(traceId);
            source.focusFromNs = fromNs;
            source.focusToNs = toNs;
            m_timeline->open(source);
            m_tabs->setCurrentWidget(m_timeline);
            m_timeline->view()->setFocus();
            outline(m_callTree->selectedSlices());
        });
    connect(m_timeline, &TimelinePanel::callTreeRequested, this,
        [this](int64_t traceId, int64_t fromNs, int64_t toNs, const QString &label) {
            openCallTree(traceId, fromNs, toNs, label);
        });
    m_doctor = new DoctorPanel;
    connect(m_doctor, &DoctorPanel::showInTimeline, this, &MainWindow::showInTimeline);
    connect(m_doctor, &DoctorPanel::showCallTree, this,
        [this](int64_t traceId, int64_t fromNs, int64_t toNs, const QString &label) {
            openCallTree(traceId, fromNs, toNs, label);
        });
    m_tabs->addTab(m_doctor, tr("&Doctor"));
    m_memory = new MemoryPanel;
    connect(m_memory, &MemoryPanel::showInTimeline, this, &MainWindow::showInTimeline);
    m_tabs->addTab(m_memory, tr("&Memory"));
    // Shown with no trace open (chosen by hand, or remembered from the last session): the selected trace's.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_memory && m_memory->traceId() < 0 && currentTraceId() >= 0)
            openMemory(currentTraceId());
    });
    // The Job tab is there when the workspace holds a multi-rank job.
    m_job = new JobPanel;
    m_tabs->addTab(m_job, tr("&Job"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_job), false);
    connect(m_job, &JobPanel::loaded, this,
        [this] { m_tabs->setTabVisible(m_tabs->indexOf(m_job), m_job->hasJob()); });
    connect(m_job, &JobPanel::openDoctor, this, [this](int64_t trace) { openDoctor(trace); });
    connect(m_job, &JobPanel::openTimeline, this, [this](int64_t trace) { openTimeline(trace); });
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
    m_query = new QueryPanel;
    m_tabs->addTab(m_query, tr("&Query"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateDetails);
    connect(m_experiments, &ExperimentsPanel::selectionChanged, this, &MainWindow::updateDetails);
    // A linked run: its traces' Doctor verdict when it has traces, else its metrics and config.
    connect(m_lineage, &LineagePanel::openRunRequested, this, [this](int64_t run) {
        if (const RunInfo *r = m_tree->runById(run); r && !r->traces.isEmpty()) {
            openDoctor(std::min_element(r->traces.begin(), r->traces.end(), [](const auto &a, const auto &b) {
                return a.id < b.id;
            })->id);
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
    // Closed until asked for (the badge, View > Diagnostics, an import with problems); a layout the
    // user left with them open is restored as it was (rememberLayout()).
    m_diagnosticsDock->hide();
    m_importLogDock->hide();
}

void MainWindow::showDiagnostics(bool focus)
{
    m_diagnosticsDock->show();
    m_diagnosticsDock->raise();
    if (focus)
        m_diagnosticsPanel->focusTable();
}

void MainWindow::createStatusBar()
{
    m_feedback = new ImportFeedback(m_session, statusBar(), m_importLog, m_importLogDock, this);
    m_workspaceLabel = new QLabel;
    m_workspaceLabel->setAccessibleName(tr("Workspace file"));
    statusBar()->addPermanentWidget(m_feedback->progress());
    statusBar()->addPermanentWidget(m_feedback->watchLabel());
    m_diagnosticsBadge = new DiagnosticsBadge(m_diagnosticsModel);
    connect(m_diagnosticsBadge, &DiagnosticsBadge::activated, this, [this] { showDiagnostics(); });
    statusBar()->addPermanentWidget(m_diagnosticsBadge);
    statusBar()->addPermanentWidget(m_workspaceLabel);
    statusBar()->addPermanentWidget(m_feedback->lastImportLabel());
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
        if (!workspacePath().isEmpty()) {
            ReportDialog(workspacePath(), this).exec();
        }
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
    addTableAction(view, QStringLiteral("view.diagnostics"), this, [this] { showDiagnostics(); });
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
    m_memoryAction = addTableAction(
        view, QStringLiteral("view.memory"), this, [this] { openMemoryAt(m_tree->currentIndex()); });
    m_memoryAction->setStatusTip(tr("Show where the memory of the trace selected in the browser went"));
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
    QAction *showCallTree = addTableAction(
        view, QStringLiteral("view.callTree"), this, [this] { openCallTree(currentTraceId()); });
    showCallTree->setStatusTip(
        tr("What the host did: the call tree and flame graph of the selected trace's CPU "
           "threads"));
    QAction *showSlo = addTableAction(view, QStringLiteral("view.slo"), this, &MainWindow::openSlo);
    showSlo->setStatusTip(tr("Serving objectives (latency, TTFT, error rate...) evaluated on the workspace"));
    QAction *showQuery = addTableAction(view, QStringLiteral("view.query"), this, &MainWindow::openQuery);
    showQuery->setStatusTip(
        tr("SQL over the workspace's documented views, read-only, with a table and a chart"));
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
    m_traceMenu->addAction(m_memoryAction);
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

void MainWindow::onLoadStarted(const QString &path, bool switching)
{
    if (switching) {
        statusBar()->showMessage(
            (Workspace::needsUpgrade(path) ? tr(
                 "Upgrading %1 to this version's workspace format (once; a large workspace takes a while)…")
                                           : tr("Opening %1…"))
                .arg(QDir::toNativeSeparators(path)));
    }
}

void MainWindow::refresh()
{
    m_session->refresh();
}

void MainWindow::onLoadFailed(const QString &path, const QString &reason)
{
    statusBar()->clearMessage();
    if (workspacePath().isEmpty()) {
        m_workspaceLabel->setText(tr("No workspace open"));
    }
    showError(tr("Cannot Open Workspace"),
        tr("The workspace %1 could not be opened.\n\n%2").arg(QDir::toNativeSeparators(path), reason));
    Q_EMIT workspaceLoadFailed(path, reason);
}

void MainWindow::applySnapshot(const WorkspaceSnapshot &s, bool switched)
{
    const int64_t previousTrace = switched ? -1 : currentTraceId();
    if (switched) {
        m_recentWorkspaces.add({ s.path });
        setWindowTitle(tr("%1 — Plumb").arg(QFileInfo(s.path).fileName()));
        const QString note
            = Workspace::fileSystemNote(QDir::toNativeSeparators(s.path), fileSystemOf(s.path));
        if (s.readOnly())
            statusBar()->showMessage(tr("Opened %1 for reading only (%2): nothing can be imported into it")
                                         .arg(QDir::toNativeSeparators(s.path), s.readOnlyReason),
                4 * kStatusMessageMs);
        else
            statusBar()->showMessage(note.isEmpty() ? tr("Opened %1").arg(QDir::toNativeSeparators(s.path))
                                                    : tr("Opened %1").arg(note),
                note.isEmpty() ? kStatusMessageMs : 4 * kStatusMessageMs);
        m_diagnosticsPanel->showSource(-1);
        m_timeline->close();
        m_callTree->close();
        m_doctor->close();
        m_memory->close();
        m_diff->close();
    }

    m_workspaceModel->setRuns(s.runs);
    m_sourcesModel->setSources(s.sources);
    m_experiments->setWorkspace(s.path); // every load: a new workspace, a refresh, or after an import
    m_lineage->setWorkspace(s.path);
    m_goodput->setWorkspace(s.path);
    m_slo->setWorkspace(s.path);
    m_query->setWorkspace(s.path);
    m_job->setWorkspace(s.path);
    m_diagnosticsModel->setDiagnostics(s.diagnostics);
    m_diagnosticsPanel->setSources(s.sources);
    updateStatusLabels(s.summary);
    if (s.readOnly()) {
        m_workspaceLabel->setText(tr("%1 · read-only").arg(m_workspaceLabel->text()));
        m_workspaceLabel->setToolTip(tr("%1\nRead-only (%2): nothing can be imported into it")
                                         .arg(m_workspaceLabel->toolTip(), s.readOnlyReason));
    }

    m_tree->fitColumns(kMaxNameColumnPx);
    m_sourcesTable->resizeColumnsToContents();

    // Opening a workspace: the trace imported last (ids grow with each import), as the status bar names it.
    int64_t select = previousTrace;
    if (select < 0) {
        for (const RunInfo &r : s.runs) {
            for (const TraceInfo &t : r.traces) {
                select = std::max(select, t.id);
            }
        }
    }
    selectTrace(select);
    Q_EMIT workspaceLoaded(s.path);
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
    m_feedback->showLastImport(summary.lastImport);
}

void MainWindow::selectTrace(int64_t traceId)
{
    if (m_tree->selectTrace(traceId)) {
        onTraceSelectionChanged();
    } else {
        updateDetails();
    }
}

void MainWindow::onTraceSelectionChanged()
{
    const QModelIndex current = m_tree->currentIndex();
    if (const TraceInfo *t = m_tree->traceAt(current)) {
        m_diagnosticsPanel->showSource(t->sourceId);
    } else if (m_tree->runAt(current)) {
        m_diagnosticsPanel->showSource(-1);
    }
    updateDetails();
}

void MainWindow::updateDetails()
{
    QWidget *tab = m_tabs->currentWidget();
    bool shown = true;
    if (tab == m_experiments) {
        // The first run selected in the runs table (in table order).
        const QList<int64_t> selected = m_experiments->selectedRunIds();
        const int row = m_experiments->model()->rowForRun(selected.value(0, -1));
        shown = row >= 0;
        if (shown) {
            const RunsTableModel *model = m_experiments->model();
            // The params that tell the runs apart (all of them when none differs).
            QList<QPair<QString, QString>> params;
            QStringList keys = model->varyingParamKeys();
            if (keys.isEmpty()) {
                keys = model->paramKeys();
            }
            for (const QString &key : std::as_const(keys)) {
                if (const int column = model->paramColumn(key); column >= 0) {
                    params.append({ key, model->index(row, column).data().toString() });
                }
            }
            m_details->showExperimentRun(model->run(row), params);
        }
    } else if (tab == m_lineage || tab == m_goodput || tab == m_slo || tab == m_query) {
        shown = false; // the tab shows its own details (Lineage's node) or is about the whole workspace
    } else {
        const QModelIndex current = m_tree->currentIndex();
        if (const TraceInfo *t = m_tree->traceAt(current)) {
            m_details->showTrace(*t, *m_tree->runAt(current), m_sourcesModel->sourceById(t->sourceId));
        } else if (const RunInfo *r = m_tree->runAt(current)) {
            m_details->showRun(*r);
        } else {
            m_details->clear();
            shown = tab == m_tree; // the hint on what to do first, beside the browser only
        }
    }
    m_details->setVisible(shown);
}

void MainWindow::onSourceSelectionChanged()
{
    const QModelIndex current = m_sourcesTable->currentIndex();
    if (current.isValid()) {
        m_diagnosticsPanel->showSource(current.data(SourcesModel::SourceIdRole).toLongLong());
    }
}

// ---------------------------------------------------------------------------------------------
// Importing

void MainWindow::importPaths(const QStringList &paths)
{
    QStringList wanted = paths;
    const QHash<QString, ImportOptions> options = askColumnRoles(m_registry, wanted, this);
    switch (m_session->importPaths(wanted, options)) {
    case WorkspaceSession::ImportRequest::NoWorkspace:
        showError(tr("No Workspace"), tr("Open or create a workspace before importing files."));
        break;
    case WorkspaceSession::ImportRequest::ReadOnly:
        showError(tr("Read-Only Workspace"),
            tr("%1 is open for reading only (%2), so nothing can be imported into it.\n\nTo import, open or "
               "create a workspace in a folder you can write (File > New Workspace).")
                .arg(QDir::toNativeSeparators(workspacePath()), m_session->readOnlyReason()));
        break;
    case WorkspaceSession::ImportRequest::Queued:
        statusBar()->showMessage(
            tr("Queued %1 for import").arg(text::counted(wanted.size(), tr("path"), tr("paths"))),
            kStatusMessageMs);
        break;
    case WorkspaceSession::ImportRequest::Started:
    case WorkspaceSession::ImportRequest::Nothing:
        break;
    }
}

void MainWindow::watchFolder(const QString &folder)
{
    if (!m_session->readOnlyReason().isEmpty()) {
        showError(tr("Read-Only Workspace"),
            tr("%1 is open for reading only (%2), so a folder cannot be watched into it.")
                .arg(QDir::toNativeSeparators(workspacePath()), m_session->readOnlyReason()));
    } else if (!m_session->watchFolder(folder)) {
        showError(tr("No Workspace"), tr("Open or create a workspace before watching a folder."));
    }
}

void MainWindow::stopWatching()
{
    m_session->stopWatching();
}

void MainWindow::watchFolderDialog()
{
    if (const QString dir = chooseFolderToImport(this, tr("Watch Folder")); !dir.isEmpty()) {
        watchFolder(dir);
    }
}

void MainWindow::cancelImport()
{
    m_feedback->cancel();
}

void MainWindow::onImportFinished(const ImportOutcome &o)
{
    // A live import leaves the selection and the view where the user put them.
    if (!o.live) {
        if (!o.content.traces.isEmpty()) {
            selectTrace(o.content.traces.front().id);
        }
        openChosenView(chooseView(o.content));
        // The files read now left warnings or errors: show them (no focus taken from the view opened).
        if (importNeedsDiagnostics(o.results)) {
            showDiagnostics(false);
        }
    }
    Q_EMIT importFinished(o.imported + o.already, o.problems);
}

void MainWindow::openChosenView(const ViewChoice &choice)
{
    using View = ViewChoice::View;
    switch (choice.view) {
    case View::Doctor:
        openDoctor(choice.traceId);
        break;
    case View::Diff:
        openDiff(choice.baselineTraceId, choice.traceId);
        break;
    case View::Slo:
        openSlo();
        break;
    case View::Goodput:
        openGoodput();
        m_goodput->selectRun(choice.runIds.value(0, -1));
        break;
    case View::Experiments:
        openExperiments();
        // The panel reads the new runs on a worker: select them once it shows them.
        connect(
            m_experiments, &ExperimentsPanel::loaded, this,
            [this, runs = choice.runIds] { m_experiments->selectRuns(runs); }, Qt::SingleShotConnection);
        break;
    case View::Lineage:
        openLineage();
        m_lineage->focusNode(choice.nodeId);
        break;
    case View::None:
        break;
    }
}

void MainWindow::updateActions()
{
    const bool importing = isImporting();
    const bool busy = importing || isLoading();
    m_openAction->setEnabled(!importing);
    m_newAction->setEnabled(!importing);
    m_recentMenu->setEnabled(!importing);
    m_recentFilesMenu->setEnabled(!workspacePath().isEmpty() || busy);
    // A read-only workspace: importing is off, and the actions say why.
    const QString readOnly = m_session->readOnlyReason();
    const bool writable = readOnly.isEmpty() || isLoading();
    m_importFilesAction->setEnabled((!workspacePath().isEmpty() || busy) && writable);
    m_importFolderAction->setEnabled((!workspacePath().isEmpty() || busy) && writable);
    m_cancelAction->setEnabled(importing);
    m_watchAction->setEnabled(!workspacePath().isEmpty() && writable);
    for (QAction *a : { m_importFilesAction, m_importFolderAction, m_watchAction }) {
        if (!a->property("writableStatusTip").isValid())
            a->setProperty("writableStatusTip", a->statusTip());
        a->setStatusTip(writable ? a->property("writableStatusTip").toString()
                                 : tr("The workspace is read-only (%1)").arg(readOnly));
    }
    m_stopWatchAction->setEnabled(m_session->isWatching());
    m_refreshAction->setEnabled(!workspacePath().isEmpty());
}

// ---------------------------------------------------------------------------------------------
// Drag and drop

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dragMoveEvent(QDragMoveEvent *event)
{
    if (!localPaths(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = localPaths(event->mimeData());
    if (paths.isEmpty()) {
        return;
    }
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
    if (isImporting()) {
        m_session->cancelImport(); // the session's controller waits for the worker when it is destroyed
    }
    QMainWindow::closeEvent(event);
}

// ---------------------------------------------------------------------------------------------
// Workspaces and dialogs

void MainWindow::openWorkspace(const QString &path)
{
    m_session->open(path);
}

void MainWindow::createWorkspace(const QString &path)
{
    if (!path.isEmpty() && QFileInfo(path).absoluteFilePath() == workspacePath()) {
        showError(tr("New Workspace"),
            tr("%1 is the workspace that is open now; choose another file name.")
                .arg(QDir::toNativeSeparators(workspacePath())));
        return;
    }
    m_session->create(path); // the save dialog already asked before replacing a file there
}

void MainWindow::openWorkspaceDialog()
{
    if (const QString path = chooseWorkspaceToOpen(this, workspacePath()); !path.isEmpty()) {
        openWorkspace(path);
    }
}

void MainWindow::newWorkspaceDialog()
{
    if (const QString path = chooseNewWorkspace(this); !path.isEmpty()) {
        createWorkspace(path);
    }
}

void MainWindow::importFilesDialog()
{
    if (const QStringList files = chooseFilesToImport(this); !files.isEmpty()) {
        addRecentFiles(files);
        importPaths(files);
    }
}

void MainWindow::importFolderDialog()
{
    if (const QString dir = chooseFolderToImport(this, tr("Import Folder")); !dir.isEmpty()) {
        addRecentFiles({ dir });
        importPaths({ dir });
    }
}

void MainWindow::fillRecentMenu()
{
    m_recentWorkspaces.fillMenu(m_recentMenu, [this](QAction *a, const QString &path) {
        a->setEnabled(path != workspacePath());
        connect(a, &QAction::triggered, this, [this, path] { openWorkspace(path); });
    });
}

void MainWindow::showAbout()
{
    QStringList formats;
    for (const auto &importer : m_registry.importers()) {
        formats << importer->displayName();
    }
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
