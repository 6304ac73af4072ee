// SPDX-License-Identifier: GPL-3.0-or-later
#include "diff/diffopfilter.h"

#include "diff/diffopmodel.h"

namespace plumb {

DiffOpFilter::DiffOpFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(DiffOpModel::SortRole);
}

void DiffOpFilter::setShown(Shown shown)
{
    if (shown == m_shown)
        return;
    m_shown = shown;
    invalidateRowsFilter();
}

bool DiffOpFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    using Change = TraceDiff::OpDelta::Change;
    const auto change
        = Change(sourceModel()->index(sourceRow, 0, sourceParent).data(DiffOpModel::ChangeRole).toInt());
    switch (m_shown) {
    case Shown::Changed:
        return change != Change::Same;
    case Shown::Added:
        return change == Change::Added;
    case Shown::Removed:
        return change == Change::Removed;
    case Shown::Slower:
        return change == Change::Slower;
    case Shown::Faster:
        return change == Change::Faster;
    case Shown::All:
        return true;
    }
    return true;
}

} // namespace plumb
