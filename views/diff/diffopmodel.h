// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tracediff.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace plumb {

// The trace diff's GPU op table (TraceDiff::ops): one row per op name with its kind, how it changed
// (added, removed, slower, faster, same), its count and total time on each side (per step when the
// diff is per step) and the change of its total, in time and relative to the baseline. Sort through
// SortRole (numbers; an added op's relative change sorts as +infinity).
class DiffOpModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        KindColumn,
        ChangeColumn,
        CountAColumn,
        CountBColumn,
        TotalAColumn,
        TotalBColumn,
        DeltaColumn,
        DeltaPercentColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,
        ChangeRole, // int(TraceDiff::OpDelta::Change)
    };

    explicit DiffOpModel(QObject *parent = nullptr);

    void setOps(std::vector<TraceDiff::OpDelta> ops, bool perStep);
    [[nodiscard]] const std::vector<TraceDiff::OpDelta> &ops() const { return m_ops; }
    // A header record, then the given rows as raw values (ns, counts, percent) for TSV/CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] static QString changeName(TraceDiff::OpDelta::Change change);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<TraceDiff::OpDelta> m_ops;
    bool m_perStep = false; // counts and totals are means per step
};

} // namespace plumb
