// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of MainWindow that take the user to a view: a trace, step or time range opened in the Timeline,
// Call Tree, Doctor or Memory tab, the tabs of the workspace's other data, two traces compared, and a
// trace's context menu.
#include "mainwindow.h"

#include "calltree/calltreepanel.h"
#include "diff/diffpanel.h"
#include "doctor/doctorpanel.h"
#include "experiments/experimentspanel.h"
#include "goodput/goodputpanel.h"
#include "job/jobpanel.h"
#include "lineage/lineagepanel.h"
#include "memory/memorypanel.h"
#include "query/querypanel.h"
#include "slo/slopanel.h"
#include "store/eventslocation.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"
#include "workspacebrowser.h"
#include "workspacemodel.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

namespace plumb {

void MainWindow::openTimelineAt(const QModelIndex &viewIndex)
{
    if (const TraceInfo *t = m_tree->traceAt(viewIndex)) {
        openTimeline(t->id);
    } else if (const RunInfo *r = m_tree->runAt(viewIndex)) {
        openTimeline(-1, r->id);
    }
}

void MainWindow::openDoctorAt(const QModelIndex &viewIndex)
{
    const TraceInfo *t = m_tree->traceAt(viewIndex);
    if (const RunInfo *r = m_tree->runAt(viewIndex); !t && r && !r->traces.isEmpty()) {
        t = &r->traces.first(); // a run: its first trace
    }
    if (t) {
        openDoctor(t->id);
    }
}

void MainWindow::openCallTree(int64_t traceId, int64_t fromNs, int64_t toNs, const QString &label)
{
    if (workspacePath().isEmpty() || traceId < 0)
        return;
    // A rank of a job merged from shards: its events are in its shard.
    QString path = workspacePath();
    try {
        Workspace ws(path, Workspace::Role::Reader);
        if (const std::optional<EventsLocation> at = eventsLocation(ws, traceId)) {
            path = at->workspacePath;
            traceId = at->traceId;
        }
    } catch (const SqlError &) {
        // the panel's own read says what is wrong with the workspace
    }
    m_callTree->open(path, traceId);
    if (fromNs != INT64_MIN || toNs != INT64_MAX)
        m_callTree->showRange(fromNs, toNs, label.isEmpty() ? tr("Range") : label);
    m_tabs->setCurrentWidget(m_callTree);
}

void MainWindow::openMemoryAt(const QModelIndex &viewIndex)
{
    const TraceInfo *t = m_tree->traceAt(viewIndex);
    if (const RunInfo *r = m_tree->runAt(viewIndex); !t && r && !r->traces.isEmpty()) {
        t = &r->traces.first(); // a run: its first trace
    }
    if (t) {
        openMemory(t->id);
    }
}

void MainWindow::openMemory(int64_t traceId)
{
    const TraceInfo *t = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(traceId));
    if (workspacePath().isEmpty() || !t) {
        return;
    }
    m_memory->open(workspacePath(), t->id, t->name);
    m_tabs->setCurrentWidget(m_memory);
}

void MainWindow::openDoctor(int64_t traceId)
{
    const TraceInfo *t = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(traceId));
    if (workspacePath().isEmpty() || !t) {
        return;
    }
    m_doctor->open(workspacePath(), t->id, t->name);
    m_tabs->setCurrentWidget(m_doctor);
}

QList<int64_t> MainWindow::lastImportedTraceIds() const
{
    QList<int64_t> ids;
    for (const FileImportResult &r : lastImportResults()) {
        if (r.status != FileImportResult::Status::Imported
            && r.status != FileImportResult::Status::AlreadyImported) {
            continue;
        }
        if (const TraceInfo *t = m_workspaceModel->traceAt(m_workspaceModel->indexForSource(r.sourceId));
            t && !ids.contains(t->id)) {
            ids << t->id;
        }
    }
    return ids;
}

void MainWindow::openDiff(int64_t baselineId, int64_t comparedId)
{
    const TraceInfo *a = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(baselineId));
    const TraceInfo *b = m_workspaceModel->traceAt(m_workspaceModel->indexForTrace(comparedId));
    if (workspacePath().isEmpty() || !a || !b || a == b) {
        return;
    }
    m_diff->open(workspacePath(), a->id, a->name, b->id, b->name);
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

void MainWindow::openJob()
{
    if (m_job->hasJob())
        m_tabs->setCurrentWidget(m_job);
}

void MainWindow::openGoodput()
{
    m_tabs->setCurrentWidget(m_goodput);
}

void MainWindow::openSlo()
{
    m_tabs->setCurrentWidget(m_slo);
}

void MainWindow::openQuery()
{
    m_tabs->setCurrentWidget(m_query);
    m_query->editor()->setFocus();
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
    if (ok && labels.contains(picked)) {
        openDiff(ids.front(), others[labels.indexOf(picked)]);
    }
}

void MainWindow::showTraceMenu(const QPoint &pos)
{
    const QModelIndex index = m_tree->indexAt(pos);
    if (!index.isValid()) {
        return;
    }
    const bool onTrace = m_tree->traceAt(index) != nullptr;
    m_compareWithMenu->setEnabled(onTrace && traceIds().size() >= 2);
    m_traceMenu->popup(m_tree->viewport()->mapToGlobal(pos));
}

void MainWindow::fillCompareWithMenu()
{
    m_compareWithMenu->clear();
    const int64_t baseline = currentTraceId();
    for (int64_t id : traceIds()) {
        if (id == baseline) {
            continue;
        }
        QString label = traceLabel(id);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction *a
            = m_compareWithMenu->addAction(label, this, [this, baseline, id] { openDiff(baseline, id); });
        a->setData(qlonglong(id));
    }
    if (m_compareWithMenu->isEmpty()) {
        m_compareWithMenu->addAction(tr("No other trace"))->setEnabled(false);
    }
}

void MainWindow::showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs)
{
    openTimeline(traceId, -1, { fromNs, toNs });
}

void MainWindow::openTimeline(int64_t traceId, int64_t runId, std::pair<int64_t, int64_t> focus)
{
    if (workspacePath().isEmpty()) {
        return;
    }
    TimelineSource source;
    source.focusFromNs = focus.first;
    source.focusToNs = focus.second;
    source.workspacePath = workspacePath();
    const QModelIndex index = runId >= 0 ? QModelIndex() : m_workspaceModel->indexForTrace(traceId);
    if (const TraceInfo *t = m_workspaceModel->traceAt(index)) {
        source.traceId = t->id;
        source.title = t->name;
    } else if (const RunInfo *r = m_tree->runById(runId)) {
        source.title = r->name; // a run of one trace is that trace's timeline
        if (r->traces.size() == 1) {
            source.traceId = r->traces.first().id;
        } else {
            source.runId = r->id;
        }
    }
    if (source.traceId < 0 && source.runId < 0) {
        return;
    }
    // A rank of a job merged from shards: its events are in its shard, read from there.
    if (source.traceId >= 0) {
        try {
            Workspace ws(source.workspacePath, Workspace::Role::Reader);
            if (const std::optional<EventsLocation> at = eventsLocation(ws, source.traceId)) {
                source.workspacePath = at->workspacePath;
                source.traceId = at->traceId;
            }
        } catch (const SqlError &) {
            // the timeline's own open says what is wrong with the workspace
        }
    }
    m_timeline->open(source);
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->view()->setFocus();
}

} // namespace plumb
