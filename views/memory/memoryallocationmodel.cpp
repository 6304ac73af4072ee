// SPDX-License-Identifier: GPL-3.0-or-later
#include "memory/memoryallocationmodel.h"

#include "text/textformat.h"

namespace plumb {

MemoryAllocationModel::MemoryAllocationModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void MemoryAllocationModel::setAllocations(const std::vector<MemoryAllocation> &allocations, int64_t originNs)
{
    beginResetModel();
    m_rows = allocations;
    m_originNs = originNs;
    endResetModel();
}

int MemoryAllocationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MemoryAllocationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryAllocationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MemoryAllocation &a = m_rows[size_t(index.row())];
    if (role == TimeRole)
        return qint64(a.tsNs);
    if (role == SortRole) {
        switch (index.column()) {
        case BytesColumn:
            return qint64(a.bytes);
        case AllocatedColumn:
            return qint64(a.tsNs);
        case FreedColumn: // never freed sorts last
            return a.freedNs >= 0 ? qint64(a.freedNs) : std::numeric_limits<qint64>::max();
        case OpColumn:
            return a.op;
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case BytesColumn:
            return text::bytes(a.bytes);
        case AllocatedColumn:
            return text::milliseconds(a.tsNs - m_originNs);
        case FreedColumn:
            return a.freedNs >= 0 ? text::milliseconds(a.freedNs - m_originNs) : tr("never");
        case OpColumn:
            return a.op.isEmpty() ? tr("(no op)") : a.op;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == BytesColumn)
            return tr("%1 bytes at 0x%2").arg(text::count(a.bytes), QString::number(quint64(a.addr), 16));
        if (index.column() == OpColumn)
            return a.op.isEmpty() ? tr("Allocated outside every op on its thread") : a.op;
        return tr("Double-click to show it in the timeline");
    }
    if (role == Qt::TextAlignmentRole && index.column() != OpColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant MemoryAllocationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BytesColumn:
        return tr("Size");
    case AllocatedColumn:
        return tr("Allocated (ms)");
    case FreedColumn:
        return tr("Freed (ms)");
    case OpColumn:
        return tr("Op");
    default:
        return {};
    }
}

QList<QStringList> MemoryAllocationModel::records(const QList<int> &rows) const
{
    QList<QStringList> out { { QStringLiteral("bytes"), QStringLiteral("allocated_ns"),
        QStringLiteral("freed_ns"), QStringLiteral("op") } };
    for (const int row : rows) {
        if (row < 0 || size_t(row) >= m_rows.size())
            continue;
        const MemoryAllocation &a = m_rows[size_t(row)];
        out.append({ QString::number(a.bytes), QString::number(a.tsNs - m_originNs),
            a.freedNs >= 0 ? QString::number(a.freedNs - m_originNs) : QString(), a.op });
    }
    return out;
}

} // namespace plumb
