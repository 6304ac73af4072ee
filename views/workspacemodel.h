// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/workspacereader.h"

#include <QAbstractItemModel>
#include <QList>

namespace plumb {

// The workspace browser's tree: runs at the top level, each run's traces below it.
//
// Maps WorkspaceReader::runs() one to one: row r of the root is runs()[r], row t below it is
// runs()[r].traces[t]. A run row shows the sums of its traces' counts and the span from the earliest
// start to the latest end. Internal ids: 0 for a run index, run row + 1 for a trace index.
// The data is replaced wholesale by setRuns() (loaded off the GUI thread); there are no partial updates.
class WorkspaceModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        FormatColumn,
        RankColumn,
        EventsColumn,
        SlicesColumn,
        KernelsColumn,
        GpuOpsColumn,
        FlowsColumn,
        DurationColumn,
        DeviceTypeColumn, // the accelerator backend: CUDA, ROCm/HIP, MTIA, Intel XPU
        DevicesColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // numbers as qint64 / double, text as QString
        TraceIdRole, // qint64, -1 on run rows
        RunIdRole, // qint64
        SourceIdRole, // qint64, -1 on run rows
    };

    explicit WorkspaceModel(QObject *parent = nullptr);

    void setRuns(const QList<RunInfo> &runs);
    [[nodiscard]] const QList<RunInfo> &runs() const { return m_runs; }
    [[nodiscard]] int traceCount() const;

    // nullptr when `index` is not a trace (resp. run) row of this model.
    [[nodiscard]] const TraceInfo *traceAt(const QModelIndex &index) const;
    [[nodiscard]] const RunInfo *runAt(const QModelIndex &index) const;
    // Column 0 index of the trace with that id / of the first trace read from that source; invalid if none.
    [[nodiscard]] QModelIndex indexForTrace(int64_t traceId) const;
    [[nodiscard]] QModelIndex indexForSource(int64_t sourceId) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant traceData(const TraceInfo &trace, int column, int role) const;
    QVariant runData(const RunInfo &run, int column, int role) const;

    QList<RunInfo> m_runs;
};

} // namespace plumb
