// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/rankcomparison.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace plumb {

// The ranks of a run side by side (compareRanks()): one row per rank with its per-step GPU window,
// computation, communication, exposed communication and idle time. The straggler's row says so in
// its Note column (and is bold), the open trace's row says "this trace". Sort through SortRole.
class RankComparisonModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        TraceColumn,
        StepsColumn,
        WindowColumn,
        ComputeColumn,
        CommColumn,
        ExposedCommColumn,
        IdleColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole };

    explicit RankComparisonModel(QObject *parent = nullptr);

    void setComparison(RankComparison comparison, int64_t openTraceId);
    [[nodiscard]] const RankComparison &comparison() const { return m_comparison; }
    // Header then the given rows, raw numbers (ns per step), for TSV/CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    [[nodiscard]] QString note(int row) const;

    RankComparison m_comparison;
    int64_t m_openTraceId = -1;
};

} // namespace plumb
