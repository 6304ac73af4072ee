// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/rangeaggregatemodel.h"

#include "timeline/timescale.h"

#include <QLocale>

namespace plumb {

RangeAggregateModel::RangeAggregateModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RangeAggregateModel::setRows(std::vector<RangeAggregateRow> rows, int64_t rangeNs)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_rangeNs = rangeNs;
    endResetModel();
}

int RangeAggregateModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RangeAggregateModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeAggregateModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RangeAggregateRow &r = m_rows[size_t(index.row())];
    auto ns = [&]() -> int64_t {
        switch (index.column()) {
        case TotalColumn:
            return r.totalNs;
        case SelfColumn:
            return r.selfNs;
        case MeanColumn:
            return int64_t(r.meanNs());
        case MaxColumn:
            return r.maxNs;
        default:
            return 0;
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return r.name;
        if (index.column() == CountColumn)
            return QLocale().toString(qlonglong(r.count));
        return formatDuration(ns());
    case SortRole:
        if (index.column() == NameColumn)
            return r.name;
        if (index.column() == CountColumn)
            return qlonglong(r.count);
        if (index.column() == MeanColumn)
            return r.meanNs();
        return qlonglong(ns());
    case NanosecondsRole:
        return index.column() == NameColumn || index.column() == CountColumn ? QVariant()
                                                                             : QVariant(qlonglong(ns()));
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == NameColumn)
            return r.name;
        if (index.column() == TotalColumn && m_rangeNs > 0)
            return tr("%1 ns, %2% of the range (summed over tracks)")
                .arg(QLocale().toString(qlonglong(r.totalNs)))
                .arg(100.0 * double(r.totalNs) / double(m_rangeNs), 0, 'f', 1);
        if (index.column() != CountColumn)
            return tr("%1 ns").arg(QLocale().toString(qlonglong(ns())));
        return {};
    default:
        return {};
    }
}

QVariant RangeAggregateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case CountColumn:
        return tr("Count");
    case TotalColumn:
        return tr("Total");
    case SelfColumn:
        return tr("Self");
    case MeanColumn:
        return tr("Mean");
    case MaxColumn:
        return tr("Max");
    default:
        return {};
    }
}

} // namespace plumb
