// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/kerneltable.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace plumb {

// The doctor's GPU op table (kernelTable()): one row per op name with its kind, count, total and
// share of GPU op time, mean, p50, p90, p99 and max. Sort through SortRole (numbers).
class KernelTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        KindColumn,
        CountColumn,
        TotalColumn,
        ShareColumn,
        MeanColumn,
        P50Column,
        P90Column,
        P99Column,
        MaxColumn,
        OccupancyColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole };

    explicit KernelTableModel(QObject *parent = nullptr);

    void setRows(std::vector<KernelStats> rows);
    [[nodiscard]] const std::vector<KernelStats> &rows() const { return m_rows; }
    // A header, then the given rows with raw numbers (ns), for TSV/CSV (tableexport.h).
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<KernelStats> m_rows;
};

} // namespace plumb
