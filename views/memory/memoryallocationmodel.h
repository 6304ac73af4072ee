// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/memorytimeline.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace plumb {

// Allocations of one device (the live set at its peak, or its largest allocations) as rows: size, when it
// was allocated and freed (ms after the trace's start), and the op that allocated it. Sort through
// SortRole (bytes and ns, never text); TimeRole gives the allocation's trace time for the timeline.
class MemoryAllocationModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { BytesColumn, AllocatedColumn, FreedColumn, OpColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, TimeRole };

    explicit MemoryAllocationModel(QObject *parent = nullptr);

    // `originNs`: the trace's start, times shown after it.
    void setAllocations(const std::vector<MemoryAllocation> &allocations, int64_t originNs);
    [[nodiscard]] const MemoryAllocation &allocation(int row) const { return m_rows[size_t(row)]; }
    // Header then the given rows, raw numbers (bytes, ns after the start), for TSV/CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<MemoryAllocation> m_rows;
    int64_t m_originNs = 0;
};

} // namespace plumb
