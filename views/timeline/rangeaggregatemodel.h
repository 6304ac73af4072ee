// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinequery.h"

#include <QAbstractTableModel>

#include <vector>

namespace plumb {

// What a selected time range holds, one row per slice name (rangeAggregate()): count, total, self
// and mean time, longest. Times are clipped to the range. Sort through SortRole (numbers).
class RangeAggregateModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, TotalColumn, SelfColumn, MeanColumn, MaxColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, NanosecondsRole };

    explicit RangeAggregateModel(QObject *parent = nullptr);

    void setRows(std::vector<RangeAggregateRow> rows, int64_t rangeNs);
    void clear() { setRows({}, 0); }
    [[nodiscard]] const std::vector<RangeAggregateRow> &rows() const { return m_rows; }
    [[nodiscard]] int64_t rangeNs() const { return m_rangeNs; }

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<RangeAggregateRow> m_rows;
    int64_t m_rangeNs = 0; // width of the selected range, for the share of total time
};

} // namespace plumb
