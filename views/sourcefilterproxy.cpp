// SPDX-License-Identifier: GPL-3.0-or-later
#include "sourcefilterproxy.h"

namespace plumb {

SourceFilterProxy::SourceFilterProxy(int sourceIdRole, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_sourceIdRole(sourceIdRole)
{
}

void SourceFilterProxy::setSourceId(int64_t sourceId)
{
    if (sourceId == m_sourceId)
        return;
    // Qt 6.4 has no beginFilterChange(); invalidateRowsFilter() re-runs filterAcceptsRow only.
    m_sourceId = sourceId;
    invalidateRowsFilter();
}

bool SourceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_sourceId < 0)
        return true;
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    return idx.data(m_sourceIdRole).toLongLong() == m_sourceId;
}

} // namespace plumb
