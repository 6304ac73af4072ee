// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of MainWindow that make it pleasant to live in rather than what it shows: the
// shortcut-table actions beyond the basic menus, the remembered layout, File > Recent Files, the
// Sources context menu with Remove Source, and the welcome tour.
#include "mainwindow.h"

#include "calltree/calltreepanel.h"

#include "diagnosticspanel.h"
#include "diff/diffpanel.h"
#include "doctor/doctorpanel.h"
#include "experiments/experimentspanel.h"
#include "goodput/goodputpanel.h"
#include "importresultspanel.h"
#include "lineage/lineagepanel.h"
#include "memory/memorypanel.h"
#include "query/querypanel.h"
#include "shell/shortcutsdialog.h"
#include "shell/shortcuttable.h"
#include "shell/viewsettings.h"
#include "shell/welcometour.h"
#include "slo/slopanel.h"
#include "sourcesmodel.h"
#include "store/sourceremoval.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "tableexport.h"
#include "text/textformat.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "workspacemodel.h"

#include <QAbstractSpinBox>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QtConcurrent>

namespace plumb {

namespace {

constexpr int kShellMessageMs = 6000;

QRect rectIn(const QWidget *window, const QWidget *w, QRect r = {})
{
    if (r.isNull())
        r = w->rect();
    return QRect(w->mapTo(window, r.topLeft()), r.size());
}

} // namespace

void MainWindow::createShellActions(QMenu *view)
{
    view->addSeparator();
    addTableAction(view, QStringLiteral("view.nextTab"), this,
        [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count()); });
    addTableAction(view, QStringLiteral("view.previousTab"), this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    addTableAction(view, QStringLiteral("view.closeTab"), this, &MainWindow::closeCurrentView);
    addTableAction(view, QStringLiteral("view.find"), this, &MainWindow::focusFind);
    view->addSeparator();
    addTableAction(view, QStringLiteral("view.zoomIn"), this,
        [this] { zoomTimeline(TimelineView::kWheelZoomPerNotch); });
    addTableAction(view, QStringLiteral("view.zoomOut"), this,
        [this] { zoomTimeline(1.0 / TimelineView::kWheelZoomPerNotch); });
    addTableAction(view, QStringLiteral("view.zoomFit"), this, [this] { zoomTimeline(0); });
    QAction *fullScreen = addTableAction(view, QStringLiteral("view.fullScreen"), this,
        [this](bool on) { setWindowState(windowState().setFlag(Qt::WindowFullScreen, on)); });
    fullScreen->setCheckable(true);

    connect(m_doctor, &DoctorPanel::showOpInTimeline, this, [this](int64_t traceId, const QString &name) {
        openTimeline(traceId);
        m_timeline->findFirst(name);
    });

    // The Sources table: Copy / Copy as CSV / Export CSV of what it shows, and per source the
    // views of its trace and Remove Source.
    installTableExportActions(m_sourcesTable, displayedRecords(m_sourcesTable), QStringLiteral("sources"));
    m_sourcesTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_sourcesTable, &QWidget::customContextMenuRequested, this, &MainWindow::showSourceMenu);
}

void MainWindow::rememberLayout()
{
    ViewSettings::remember(this, QStringLiteral("mainWindow"));
    if (auto *splitter = qobject_cast<QSplitter *>(centralWidget()))
        ViewSettings::remember(splitter, QStringLiteral("mainWindow/splitter"));
    ViewSettings::remember(m_tree->header(), QStringLiteral("workspaceBrowser"));
    ViewSettings::remember(m_sourcesTable->horizontalHeader(), QStringLiteral("sources"));
    ViewSettings::rememberAll(m_diagnosticsPanel, QStringLiteral("diagnostics"));
    ViewSettings::rememberAll(m_importLog, QStringLiteral("importLog"));
    const std::pair<QWidget *, QString> panels[] = {
        { m_timeline, QStringLiteral("timeline") },
        { m_doctor, QStringLiteral("doctor") },
        { m_memory, QStringLiteral("memory") },
        { m_diff, QStringLiteral("diff") },
        { m_experiments, QStringLiteral("experiments") },
        { m_lineage, QStringLiteral("lineage") },
        { m_goodput, QStringLiteral("goodput") },
        { m_slo, QStringLiteral("slo") },
        { m_query, QStringLiteral("query") },
    };
    for (const auto &[panel, key] : panels)
        ViewSettings::rememberAll(panel, key);
}

// ---------------------------------------------------------------------------------------------
// Recent files

void MainWindow::addRecentFiles(const QStringList &paths)
{
    QStringList absolute;
    for (const QString &p : paths)
        absolute << QFileInfo(p).absoluteFilePath();
    m_recentFiles.add(absolute);
}

void MainWindow::fillRecentFilesMenu()
{
    m_recentFiles.fillMenu(m_recentFilesMenu, [this](QAction *a, const QString &path) {
        a->setEnabled(QFileInfo::exists(path) && !workspacePath().isEmpty());
        a->setStatusTip(
            tr("Import %1 into this workspace again (nothing new is read when it has not changed)")
                .arg(QDir::toNativeSeparators(path)));
        connect(a, &QAction::triggered, this, [this, path] { importPaths({ path }); });
    });
}

// ---------------------------------------------------------------------------------------------
// View actions

void MainWindow::closeCurrentView()
{
    QWidget *current = m_tabs->currentWidget();
    if (current == m_timeline)
        m_timeline->close();
    else if (current == m_doctor)
        m_doctor->close();
    else if (current == m_callTree)
        m_callTree->close();
    else if (current == m_diff)
        m_diff->close();
    m_tabs->setCurrentWidget(m_tree);
    m_tree->setFocus();
}

void MainWindow::focusFind()
{
    // The first search or filter field of the view shown.
    const auto edits = m_tabs->currentWidget()->findChildren<QLineEdit *>();
    for (QLineEdit *edit : edits) {
        if (edit->isVisibleTo(m_tabs) && edit->isEnabled() && !edit->isReadOnly()
            && !qobject_cast<QAbstractSpinBox *>(edit->parentWidget())) {
            edit->setFocus(Qt::ShortcutFocusReason);
            edit->selectAll();
            return;
        }
    }
    statusBar()->showMessage(
        tr("This view has no search field; in a list or table, type the start of a name"), kShellMessageMs);
}

// factor 0: fit the whole trace.
void MainWindow::zoomTimeline(double factor)
{
    if (m_tabs->currentWidget() != m_timeline) {
        statusBar()->showMessage(
            tr("Zoom applies to the Timeline tab (Ctrl+T opens the selected trace's)"), kShellMessageMs);
        return;
    }
    if (factor == 0)
        m_timeline->view()->fit();
    else
        m_timeline->view()->zoomByKeys(factor);
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(this);
    dialog.exec();
}

// ---------------------------------------------------------------------------------------------
// Sources context menu and removal

void MainWindow::showSourceMenu(const QPoint &pos)
{
    const QModelIndex index = m_sourcesTable->indexAt(pos);
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("sourceContextMenu"));
    if (index.isValid()) {
        m_sourcesTable->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const int64_t sourceId = index.data(SourcesModel::SourceIdRole).toLongLong();
        const TraceInfo *trace = m_workspaceModel->traceAt(m_workspaceModel->indexForSource(sourceId));
        const int64_t traceId = trace ? trace->id : -1;
        menu.addAction(tr("Show in &Timeline"), this, [this, traceId] { openTimeline(traceId); })
            ->setEnabled(trace);
        menu.addAction(tr("Open in &Doctor"), this, [this, traceId] { openDoctor(traceId); })
            ->setEnabled(trace);
        QMenu *compare = menu.addMenu(tr("Compare &With"));
        for (int64_t other : traceIds()) {
            if (other == traceId)
                continue;
            QString label = traceLabel(other);
            label.replace(QLatin1Char('&'), QStringLiteral("&&"));
            compare->addAction(label, this, [this, traceId, other] { openDiff(traceId, other); });
        }
        compare->setEnabled(trace && !compare->isEmpty());
        menu.addSeparator();
        menu.addActions(m_sourcesTable->actions());
        menu.addSeparator();
        QAction *remove = menu.addAction(
            tr("&Remove Source…"), this, [this, sourceId] { confirmRemoveSource(sourceId); });
        remove->setEnabled(!isImporting() && !m_removingSource);
    } else {
        menu.addActions(m_sourcesTable->actions());
    }
    menu.exec(m_sourcesTable->viewport()->mapToGlobal(pos));
}

void MainWindow::confirmRemoveSource(int64_t sourceId)
{
    SourceRemoval plan;
    try {
        Workspace ws(workspacePath(), Workspace::Role::Reader);
        plan = planSourceRemoval(ws.db(), sourceId);
    } catch (const std::exception &e) {
        showError(tr("Remove Source"), QString::fromUtf8(e.what()));
        return;
    }
    if (!plan.found())
        return;
    if (!plan.blocker.isEmpty()) {
        showError(tr("Remove Source"), tr("%1 cannot be removed.\n\n%2").arg(plan.name, plan.blocker));
        return;
    }
    QMessageBox box(QMessageBox::Warning, tr("Remove Source"),
        tr("Remove %1 from the workspace?").arg(plan.name), QMessageBox::Cancel, this);
    QStringList lines = plan.summary();
    if (lines.isEmpty())
        lines << tr("the record of the import");
    box.setInformativeText(tr("This removes everything its import wrote:\n• %1\n\nThe file on disk is not "
                              "touched; import it again to bring it back. This cannot be undone.")
                               .arg(lines.join(QStringLiteral("\n• "))));
    QAbstractButton *remove = box.addButton(tr("&Remove"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == remove)
        removeSource(sourceId);
}

void MainWindow::removeSource(int64_t sourceId)
{
    if (isImporting() || m_removingSource || workspacePath().isEmpty())
        return;
    m_removingSource = true;
    statusBar()->showMessage(tr("Removing the source…"));
    const QString path = workspacePath();
    QtConcurrent::run([path, sourceId]() -> QString {
        try {
            Workspace ws(path, Workspace::Role::Writer);
            const SourceRemoval done = plumb::removeSource(ws.db(), sourceId);
            return done.blocker;
        } catch (const std::exception &e) {
            return QString::fromUtf8(e.what());
        }
    }).then(this, [this](const QString &error) {
        m_removingSource = false;
        if (!error.isEmpty())
            showError(tr("Remove Source"), tr("Nothing was removed.\n\n%1").arg(error));
        else
            statusBar()->showMessage(tr("Source removed"), kShellMessageMs);
        refresh();
    });
}

// ---------------------------------------------------------------------------------------------
// Welcome tour

void MainWindow::showWelcomeTour()
{
    if (!m_tour) {
        const int doctorTab = m_tabs->indexOf(m_doctor);
        QList<WelcomeTour::Step> steps = {
            { tr("Drop a trace or a folder here"),
                tr("Drag profiler traces (PyTorch/Kineto JSON, Nsight Systems SQLite exports, XPlane), "
                   "experiment "
                   "logs (TensorBoard, MLflow, CSV) or a whole folder onto the window, or use <b>File &gt; "
                   "Import "
                   "Files</b> (%1) and <b>Import Folder</b> (%2). Everything lands in this workspace, one "
                   "SQLite file.")
                    .arg(keysText(*findShortcut(QStringLiteral("file.importFiles"))),
                        keysText(*findShortcut(QStringLiteral("file.importFolder")))),
                [this] {
                    // The upper part of the tabs: with the docks closed the card needs room below.
                    QRect r = rectIn(this, m_tabs);
                    r.setHeight(r.height() * 3 / 5);
                    return r;
                } },
            { tr("The Doctor names the bottleneck"),
                tr("Select a trace and open the <b>Doctor</b> (%1). Its verdict names the single component "
                   "that "
                   "limits the run (input pipeline, launch overhead, synchronisation, memory copies, exposed "
                   "communication, a straggler rank or GPU compute) with the numbers behind it and the "
                   "settings "
                   "that usually fix it. <i>Inconclusive</i> means no single cause stands out: it does not "
                   "guess.")
                    .arg(keysText(*findShortcut(QStringLiteral("view.doctor")))),
                [this, doctorTab] {
                    return rectIn(this, m_tabs->tabBar(), m_tabs->tabBar()->tabRect(doctorTab));
                } },
            { tr("A report for the review"),
                tr("<b>File &gt; Export Report</b> (%1) assembles the verdict, the breakdowns, the kernel "
                   "table and "
                   "the comparisons into a PDF or PNG pages to hand on. Every table and chart also copies "
                   "and "
                   "exports on its own (right-click).")
                    .arg(keysText(*findShortcut(QStringLiteral("file.exportReport")))),
                [this] {
                    const QList<QAction *> menus = menuBar()->actions();
                    return menus.isEmpty()
                        ? QRect()
                        : rectIn(this, menuBar(), menuBar()->actionGeometry(menus.first()));
                } },
            { tr("The same analyses on the command line"),
                tr("<code>plumb import</code>, <code>plumb doctor</code>, <code>plumb diff A B</code>, "
                   "<code>plumb report -o review.pdf</code> and <code>plumb check --objectives FILE</code> "
                   "run "
                   "without a window on the same workspace (<code>--json</code> for scripts); "
                   "<code>plumb --help</code> lists them. Help &gt; Keyboard Shortcuts (%1) lists every key, "
                   "and Help &gt; Show Welcome Tour brings this tour back.")
                    .arg(keysText(*findShortcut(QStringLiteral("help.shortcuts")))),
                [this] {
                    const QList<QAction *> menus = menuBar()->actions();
                    return menus.isEmpty() ? QRect()
                                           : rectIn(this, menuBar(), menuBar()->actionGeometry(menus.last()));
                } },
        };
        m_tour = new WelcomeTour(std::move(steps), this);
    }
    m_tour->start();
}

} // namespace plumb
