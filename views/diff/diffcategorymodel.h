// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tracediff.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace plumb {

// Where a trace diff's change of the GPU window went: one row for the window, then one per category
// (computation, exposed communication, exposed memcpy/memset, idle), with the time on each side
// (per step, or for the whole trace), the change, the change relative to the baseline, and the
// category's share of the window's change. The categories' changes add up to the window's.
class DiffCategoryModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Row { WindowRow, ComputeRow, ExposedCommRow, ExposedMemoryRow, IdleRow, RowCount };
    enum Column {
        CategoryColumn,
        AColumn,
        BColumn,
        DeltaColumn,
        DeltaPercentColumn,
        ShareColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole };

    explicit DiffCategoryModel(QObject *parent = nullptr);

    void setDiff(const TraceDiff::Side &a, const TraceDiff::Side &b, bool perStep);
    void clear();
    // Time (ns) of `row` on side A or B.
    [[nodiscard]] double valueA(int row) const;
    [[nodiscard]] double valueB(int row) const;
    [[nodiscard]] double deltaNs(int row) const { return valueB(row) - valueA(row); }
    [[nodiscard]] static QString categoryName(int row);
    // A header record, then the given rows as raw values (ns, percent) for TSV/CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    TraceDiff::Side m_a, m_b;
    bool m_perStep = false;
    bool m_empty = true;
};

} // namespace plumb
