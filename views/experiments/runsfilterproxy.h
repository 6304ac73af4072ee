// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace plumb {

class RunsTableModel;

// Filters and sorts a RunsTableModel. The filter text matches (case-insensitively) a run's name,
// group, parent and its params written "key=value", so "lr=0.01" or "adam" both work. Sorting is on
// SortRole: numbers as numbers, text after numbers, missing values last in either order.
//
// When the model is grouped, rows are ordered by group value (ascending, numbers as numbers, in
// either sort order), each group's header first, then its runs in the chosen order; a header shows
// while at least one of its runs passes the filter.
class RunsFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsFilterProxy(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    void setFilterText(const QString &text);
    [[nodiscard]] QString filterText() const { return m_text; }
    // Rows shown that are runs (not group headers).
    [[nodiscard]] int runRowCount() const;

protected:
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    [[nodiscard]] bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    [[nodiscard]] bool runAccepted(int sourceRow) const;

    RunsTableModel *m_model = nullptr;
    QString m_text;
};

} // namespace plumb
