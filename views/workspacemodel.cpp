// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspacemodel.h"

#include "analysis/devicebackend.h"
#include "text/textformat.h"

namespace plumb {

namespace {

// The counts a trace row shows and a run row sums.
int64_t countFor(const TraceInfo &t, int column)
{
    switch (column) {
    case WorkspaceModel::EventsColumn:
        return t.events;
    case WorkspaceModel::SlicesColumn:
        return t.slices;
    case WorkspaceModel::KernelsColumn:
        return t.kernels;
    case WorkspaceModel::GpuOpsColumn:
        return t.gpuOps;
    case WorkspaceModel::FlowsColumn:
        return t.flows;
    default:
        return 0;
    }
}

bool isCountColumn(int column)
{
    return column >= WorkspaceModel::EventsColumn && column <= WorkspaceModel::FlowsColumn;
}

QVariant alignment(int column)
{
    const bool numeric = column >= WorkspaceModel::RankColumn && column <= WorkspaceModel::DurationColumn;
    return int((numeric ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
}

int64_t durationNs(const TraceInfo &t)
{
    return t.endNs > t.startNs ? t.endNs - t.startNs : 0;
}

} // namespace

WorkspaceModel::WorkspaceModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void WorkspaceModel::setRuns(const QList<RunInfo> &runs)
{
    beginResetModel();
    m_runs = runs;
    endResetModel();
}

int WorkspaceModel::traceCount() const
{
    int n = 0;
    for (const RunInfo &r : m_runs)
        n += int(r.traces.size());
    return n;
}

const TraceInfo *WorkspaceModel::traceAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == 0)
        return nullptr;
    return &m_runs[int(index.internalId() - 1)].traces[index.row()];
}

const RunInfo *WorkspaceModel::runAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return &m_runs[index.internalId() == 0 ? index.row() : int(index.internalId() - 1)];
}

QModelIndex WorkspaceModel::indexForTrace(int64_t traceId) const
{
    for (int r = 0; r < m_runs.size(); ++r) {
        const auto &traces = m_runs[r].traces;
        for (int t = 0; t < traces.size(); ++t) {
            if (traces[t].id == traceId)
                return createIndex(t, 0, quintptr(r) + 1);
        }
    }
    return {};
}

QModelIndex WorkspaceModel::indexForSource(int64_t sourceId) const
{
    for (int r = 0; r < m_runs.size(); ++r) {
        const auto &traces = m_runs[r].traces;
        for (int t = 0; t < traces.size(); ++t) {
            if (traces[t].sourceId == sourceId)
                return createIndex(t, 0, quintptr(r) + 1);
        }
    }
    return {};
}

QModelIndex WorkspaceModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_runs.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= m_runs.size())
        return {}; // traces have no children
    return row < m_runs[parent.row()].traces.size() ? createIndex(row, column, quintptr(parent.row()) + 1)
                                                    : QModelIndex();
}

QModelIndex WorkspaceModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int WorkspaceModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_runs.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0;
    return int(m_runs[parent.row()].traces.size());
}

int WorkspaceModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant WorkspaceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return alignment(index.column());
    if (const TraceInfo *t = traceAt(index))
        return traceData(*t, index.column(), role);
    return runData(m_runs[index.row()], index.column(), role);
}

QVariant WorkspaceModel::traceData(const TraceInfo &t, int column, int role) const
{
    switch (role) {
    case TraceIdRole:
        return qint64(t.id);
    case RunIdRole:
        return qint64(t.runId);
    case SourceIdRole:
        return qint64(t.sourceId);
    case Qt::ToolTipRole:
        if (column == NameColumn)
            return tr("%1\n%2 events, %3 ms")
                .arg(t.name, text::count(t.events), text::milliseconds(durationNs(t)));
        return {};
    case SortRole:
        switch (column) {
        case NameColumn:
            return t.name;
        case FormatColumn:
            return t.format;
        case RankColumn:
            return qint64(t.rank);
        case DurationColumn:
            return qint64(durationNs(t));
        case DeviceTypeColumn:
            return deviceTypeName(deviceBackendFromId(t.deviceType));
        case DevicesColumn:
            return t.devices;
        default:
            return qint64(countFor(t, column));
        }
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return t.name;
        case FormatColumn:
            return t.format;
        case RankColumn:
            if (t.rank < 0)
                return QString();
            return t.worldSize > 0 ? tr("%1 / %2").arg(t.rank).arg(t.worldSize) : QString::number(t.rank);
        case DurationColumn:
            return text::milliseconds(durationNs(t));
        case DeviceTypeColumn:
            return deviceTypeName(deviceBackendFromId(t.deviceType));
        case DevicesColumn:
            return t.devices;
        default:
            return text::count(countFor(t, column));
        }
    default:
        return {};
    }
}

QVariant WorkspaceModel::runData(const RunInfo &run, int column, int role) const
{
    int64_t sum = 0;
    for (const TraceInfo &t : run.traces)
        sum += countFor(t, column);
    const int64_t spanNs = run.spanNs();
    switch (role) {
    case TraceIdRole:
        return qint64(-1);
    case RunIdRole:
        return qint64(run.id);
    case SourceIdRole:
        return qint64(-1);
    case Qt::ToolTipRole:
        return column == NameColumn
            ? tr("Run %1: %2").arg(run.name, text::counted(run.traces.size(), tr("trace"), tr("traces")))
            : QVariant();
    case SortRole:
        if (column == NameColumn)
            return run.name;
        if (column == DurationColumn)
            return qint64(spanNs);
        return isCountColumn(column) ? QVariant(qint64(sum)) : QVariant(QString());
    case Qt::DisplayRole:
        if (column == NameColumn)
            return run.name;
        if (run.traces.isEmpty()) // an experiment or serving run: its trace columns say nothing
            return QString();
        if (column == DurationColumn)
            return text::milliseconds(spanNs);
        return isCountColumn(column) ? QVariant(text::count(sum)) : QVariant(QString());
    default:
        return {};
    }
}

QVariant WorkspaceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return alignment(section);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RankColumn:
            return tr("Rank / world size, when the trace records them");
        case EventsColumn:
            return tr("Trace events read from the file (all phases)");
        case GpuOpsColumn:
            return tr("GPU activities: kernels, memory copies and memsets");
        case FlowsColumn:
            return tr("Flow links, e.g. CPU launch to GPU kernel");
        case DurationColumn:
            return tr("From the first event's start to the last event's end");
        case DeviceTypeColumn:
            return tr("The accelerator the trace ran on, as its categories and devices tell: CUDA, ROCm/HIP, "
                      "MTIA, Intel XPU");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case FormatColumn:
        return tr("Format");
    case RankColumn:
        return tr("Rank");
    case EventsColumn:
        return tr("Events");
    case SlicesColumn:
        return tr("Slices");
    case KernelsColumn:
        return tr("Kernels");
    case GpuOpsColumn:
        return tr("GPU ops");
    case FlowsColumn:
        return tr("Flows");
    case DurationColumn:
        return tr("Duration (ms)");
    case DeviceTypeColumn:
        return tr("Device");
    case DevicesColumn:
        return tr("Devices");
    }
    return {};
}

} // namespace plumb
