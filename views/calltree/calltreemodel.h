// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/calltree.h"

#include <QAbstractItemModel>

#include <memory>

namespace plumb {

// A CallTree (top-down or bottom-up) as an item model: one row per node under its parent (the tree's
// root is not shown: its children are the top-level rows), columns name, total, self, count and the
// total's share of the range. Sorting is on numbers (SortRole); a QSortFilterProxyModel with recursive
// filtering on the name column is the search. The internal pointer of an index is its node number.
class CallTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TotalColumn, SelfColumn, CountColumn, ShareColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, NodeRole };

    explicit CallTreeModel(QObject *parent = nullptr);

    void setTree(std::shared_ptr<const CallTree> tree);
    [[nodiscard]] const std::shared_ptr<const CallTree> &tree() const { return m_tree; }
    // The node of an index of this model (0, the root, for an invalid one) and back.
    [[nodiscard]] int32_t nodeOf(const QModelIndex &index) const;
    [[nodiscard]] QModelIndex indexOf(int32_t node, int column = 0) const;

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex &child) const override;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const CallTree> m_tree;
    std::vector<int32_t> m_row; // per node: its row under its parent
};

} // namespace plumb
