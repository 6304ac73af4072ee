// SPDX-License-Identifier: GPL-3.0-or-later
#include "doctor/kerneltablemodel.h"

#include "text/textformat.h"
#include "timeline/timescale.h"

namespace plumb {

namespace {

QString kindName(GpuOp::Kind kind)
{
    switch (kind) {
    case GpuOp::Kind::Compute:
        return KernelTableModel::tr("computation");
    case GpuOp::Kind::Comm:
        return KernelTableModel::tr("communication");
    case GpuOp::Kind::Memory:
        return KernelTableModel::tr("memory");
    }
    return {};
}

} // namespace

KernelTableModel::KernelTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void KernelTableModel::setRows(std::vector<KernelStats> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KernelTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const KernelStats &k = m_rows[size_t(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return k.name;
        case KindColumn:
            return int(k.kind);
        case CountColumn:
            return qlonglong(k.count);
        case TotalColumn:
            return qlonglong(k.totalNs);
        case ShareColumn:
            return k.share;
        case MeanColumn:
            return k.meanNs();
        case P50Column:
            return qlonglong(k.p50Ns);
        case P90Column:
            return qlonglong(k.p90Ns);
        case P99Column:
            return qlonglong(k.p99Ns);
        case MaxColumn:
            return qlonglong(k.maxNs);
        case OccupancyColumn:
            return k.occupancy;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return k.name;
        case KindColumn:
            return kindName(k.kind);
        case CountColumn:
            return text::count(k.count);
        case TotalColumn:
            return formatDuration(k.totalNs);
        case ShareColumn:
            return QStringLiteral("%1%").arg(100.0 * k.share, 0, 'f', 1);
        case MeanColumn:
            return formatDuration(int64_t(k.meanNs()));
        case P50Column:
            return formatDuration(k.p50Ns);
        case P90Column:
            return formatDuration(k.p90Ns);
        case P99Column:
            return formatDuration(k.p99Ns);
        case MaxColumn:
            return formatDuration(k.maxNs);
        case OccupancyColumn:
            return k.occupancy >= 0 ? QStringLiteral("%1%").arg(k.occupancy, 0, 'f', 0) : QStringLiteral("–");
        }
    }
    if (role == Qt::ToolTipRole && index.column() == OccupancyColumn)
        return tr("Estimated achieved occupancy, as the profiler recorded it (mean over the runs, weighted "
                  "by duration)");
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return k.name;
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Name", "Kind", "Count", "Total", "Share", "Mean", "p50", "p90", "p99", "Max", "Occupancy" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QList<QStringList> KernelTableModel::records(const QList<int> &rows) const
{
    QList<QStringList> out;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c) {
        const bool time = c == TotalColumn || (c >= MeanColumn && c <= MaxColumn);
        header << headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()
                + (time                        ? QStringLiteral(" (ns)")
                        : c == OccupancyColumn ? QStringLiteral(" (%)")
                                               : QString());
    }
    out << header;
    for (int r : rows) {
        const KernelStats &k = m_rows[size_t(r)];
        // Raw numbers (ns), so a spreadsheet can compute with them.
        out << QStringList { k.name, kindName(k.kind), QString::number(k.count), QString::number(k.totalNs),
            QString::number(k.share, 'f', 6), QString::number(k.meanNs(), 'f', 1), QString::number(k.p50Ns),
            QString::number(k.p90Ns), QString::number(k.p99Ns), QString::number(k.maxNs),
            k.occupancy >= 0 ? QString::number(k.occupancy, 'f', 2) : QString() };
    }
    return out;
}

} // namespace plumb
