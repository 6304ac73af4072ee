// SPDX-License-Identifier: GPL-3.0-or-later
#include "calltree/calltreemodel.h"

#include "timeline/timescale.h"

#include <QLocale>

namespace plumb {

CallTreeModel::CallTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void CallTreeModel::setTree(std::shared_ptr<const CallTree> tree)
{
    beginResetModel();
    m_tree = std::move(tree);
    m_row.assign(m_tree ? m_tree->nodes.size() : 0, 0);
    if (m_tree)
        for (const CallTreeNode &n : m_tree->nodes)
            for (size_t i = 0; i < n.children.size(); ++i)
                m_row[size_t(n.children[i])] = int32_t(i);
    endResetModel();
}

int32_t CallTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? int32_t(index.internalId()) : 0;
}

QModelIndex CallTreeModel::indexOf(int32_t node, int column) const
{
    if (!m_tree || node <= 0 || size_t(node) >= m_tree->nodes.size())
        return {};
    return createIndex(m_row[size_t(node)], column, quintptr(node));
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!m_tree || row < 0 || column < 0 || column >= ColumnCount)
        return {};
    const CallTreeNode &p = m_tree->nodes[size_t(nodeOf(parent))];
    if (size_t(row) >= p.children.size())
        return {};
    return createIndex(row, column, quintptr(p.children[size_t(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex &child) const
{
    if (!m_tree || !child.isValid())
        return {};
    return indexOf(m_tree->nodes[size_t(nodeOf(child))].parent);
}

int CallTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!m_tree || (parent.isValid() && parent.column() != 0))
        return 0;
    return int(m_tree->nodes[size_t(nodeOf(parent))].children.size());
}

int CallTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex &index, int role) const
{
    if (!m_tree || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int32_t node = nodeOf(index);
    const CallTreeNode &n = m_tree->nodes[size_t(node)];
    const int64_t range = m_tree->rangeNs();
    const double share = range > 0 ? 100.0 * double(n.totalNs) / double(range) : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return m_tree->nameOf(node);
        case TotalColumn:
            return formatDuration(n.totalNs);
        case SelfColumn:
            return formatDuration(n.selfNs);
        case CountColumn:
            return QLocale().toString(qlonglong(n.count));
        case ShareColumn:
            return QStringLiteral("%1%").arg(share, 0, 'f', 1);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return m_tree->nameOf(node);
        case TotalColumn:
            return qlonglong(n.totalNs);
        case SelfColumn:
            return qlonglong(n.selfNs);
        case CountColumn:
            return qlonglong(n.count);
        case ShareColumn:
            return share;
        }
        return {};
    case NodeRole:
        return node;
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == NameColumn)
            return m_tree->nameOf(node);
        if (index.column() == CountColumn && m_tree->source == CallTreeSource::Samples)
            return tr("%1 samples of %2 each").arg(n.count).arg(formatDuration(m_tree->samplePeriodNs));
        return tr("%1 ns total, %2 ns self")
            .arg(QLocale().toString(qlonglong(n.totalNs)), QLocale().toString(qlonglong(n.selfNs)));
    }
    return {};
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return m_tree && m_tree->bottomUp ? tr("Function (callers below)")
                                              : tr("Function (callees below)");
        case TotalColumn:
            return tr("Total");
        case SelfColumn:
            return tr("Self");
        case CountColumn:
            return m_tree && m_tree->source == CallTreeSource::Samples ? tr("Samples") : tr("Calls");
        case ShareColumn:
            return tr("% of range");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TotalColumn:
            return tr("Time in it and what it called, inside the range (recursion counted once at the top "
                      "of the bottom-up tree)");
        case SelfColumn:
            return tr("Time in it, less what it called");
        case ShareColumn:
            return tr("Total as a share of the range's length (threads summed, so it can pass 100%)");
        }
    }
    return {};
}

} // namespace plumb
