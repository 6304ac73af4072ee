// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QTreeView>

#include <cstdint>

class QSortFilterProxyModel;

namespace plumb {

struct RunInfo;
struct TraceInfo;
class WorkspaceModel;

// The Workspace tab's tree: a WorkspaceModel (runs > traces) through a sort proxy, several rows
// selectable (two traces to compare). Maps between the view's rows and trace or run ids, so the window
// asks for "the current trace" or "the selected traces" without touching indexes. A run of one trace
// counts as its trace where a trace is wanted.
class WorkspaceBrowser final : public QTreeView {
    Q_OBJECT
public:
    explicit WorkspaceBrowser(WorkspaceModel *model, QWidget *parent = nullptr);

    // The trace or run at a row of this view (any column); nullptr when the row is the other kind.
    [[nodiscard]] const TraceInfo *traceAt(const QModelIndex &viewIndex) const;
    [[nodiscard]] const RunInfo *runAt(const QModelIndex &viewIndex) const;
    // The run with this id, nullptr when the workspace shown has none.
    [[nodiscard]] const RunInfo *runById(int64_t runId) const;
    // Id of the current trace, -1 when none (or the current row is a run).
    [[nodiscard]] int64_t currentTraceId() const;
    // Selected traces in tree order, except that the current one comes last: pick the baseline first,
    // then the trace to compare with it.
    [[nodiscard]] QList<int64_t> selectedTraceIds() const;
    // Every trace, in tree order.
    [[nodiscard]] QList<int64_t> traceIds() const;
    // "name (run R)" when the run's name differs from the trace's, else the trace's name.
    [[nodiscard]] QString traceLabel(int64_t traceId) const;
    // Makes the trace the current, selected row and scrolls to it; clears the current row (false)
    // when there is no such trace.
    bool selectTrace(int64_t traceId);
    // After new data: every run expanded, columns fitted, the name column at most `maxNamePx` wide.
    void fitColumns(int maxNamePx);

private:
    WorkspaceModel *m_model;
    QSortFilterProxyModel *m_proxy;
};

} // namespace plumb
