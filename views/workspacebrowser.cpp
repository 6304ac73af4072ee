// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspacebrowser.h"

#include "workspacemodel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>

#include <algorithm>

namespace plumb {

WorkspaceBrowser::WorkspaceBrowser(WorkspaceModel *model, QWidget *parent)
    : QTreeView(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(WorkspaceModel::SortRole);
    setModel(m_proxy);
    setAccessibleName(tr("Workspace browser"));
    setAccessibleDescription(tr("Runs and their traces, with event counts"));
    setSortingEnabled(true);
    sortByColumn(WorkspaceModel::NameColumn, Qt::AscendingOrder);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection); // two traces to compare
    setContextMenuPolicy(Qt::CustomContextMenu);
    header()->setStretchLastSection(true);
    header()->setSectionsMovable(false);
}

const TraceInfo *WorkspaceBrowser::traceAt(const QModelIndex &viewIndex) const
{
    return m_model->traceAt(m_proxy->mapToSource(viewIndex).siblingAtColumn(0));
}

const RunInfo *WorkspaceBrowser::runAt(const QModelIndex &viewIndex) const
{
    return m_model->runAt(m_proxy->mapToSource(viewIndex).siblingAtColumn(0));
}

const RunInfo *WorkspaceBrowser::runById(int64_t runId) const
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (const RunInfo *r = m_model->runAt(m_model->index(row, 0)); r && r->id == runId) {
            return r;
        }
    }
    return nullptr;
}

int64_t WorkspaceBrowser::currentTraceId() const
{
    const TraceInfo *t = traceAt(currentIndex());
    return t ? t->id : -1;
}

QList<int64_t> WorkspaceBrowser::selectedTraceIds() const
{
    auto traceOf = [this](const QModelIndex &viewIndex) -> int64_t {
        if (const TraceInfo *t = traceAt(viewIndex)) {
            return t->id;
        }
        if (const RunInfo *r = runAt(viewIndex); r && r->traces.size() == 1) {
            return r->traces.first().id;
        }
        return -1;
    };
    QModelIndexList rows = selectionModel()->selectedRows();
    // Tree order: runs by row, each run's traces by row beneath it.
    auto position = [](const QModelIndex &i) {
        return i.parent().isValid() ? std::pair(i.parent().row(), i.row() + 1) : std::pair(i.row(), 0);
    };
    std::sort(rows.begin(), rows.end(),
        [&](const QModelIndex &x, const QModelIndex &y) { return position(x) < position(y); });
    QList<int64_t> ids;
    for (const QModelIndex &row : rows) {
        if (const int64_t id = traceOf(row); id >= 0 && !ids.contains(id)) {
            ids << id;
        }
    }
    const int64_t current = traceOf(currentIndex());
    if (ids.removeOne(current)) {
        ids << current;
    }
    return ids;
}

QList<int64_t> WorkspaceBrowser::traceIds() const
{
    QList<int64_t> ids;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex run = m_proxy->index(row, 0);
        for (int t = 0; t < m_proxy->rowCount(run); ++t) {
            if (const TraceInfo *info = traceAt(m_proxy->index(t, 0, run))) {
                ids << info->id;
            }
        }
    }
    return ids;
}

QString WorkspaceBrowser::traceLabel(int64_t traceId) const
{
    const QModelIndex index = m_model->indexForTrace(traceId);
    const TraceInfo *t = m_model->traceAt(index);
    if (!t) {
        return {};
    }
    const RunInfo *r = m_model->runAt(index);
    return r && r->name != t->name ? tr("%1 (run %2)").arg(t->name, r->name) : t->name;
}

bool WorkspaceBrowser::selectTrace(int64_t traceId)
{
    const QModelIndex source = m_model->indexForTrace(traceId);
    if (!source.isValid()) {
        selectionModel()->clearCurrentIndex();
        return false;
    }
    const QModelIndex row = m_proxy->mapFromSource(source);
    selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(row);
    return true;
}

void WorkspaceBrowser::fitColumns(int maxNamePx)
{
    expandAll();
    for (int c = 0; c < WorkspaceModel::ColumnCount; ++c) {
        resizeColumnToContents(c);
    }
    setColumnWidth(WorkspaceModel::NameColumn, std::min(columnWidth(WorkspaceModel::NameColumn), maxNamePx));
}

} // namespace plumb
