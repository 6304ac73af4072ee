// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace plumb {

// Where a job's time went (GoodputReport) as rows: productive training, then every badput bucket
// with time (custom events also by type, indented under Custom), each with its time, its share of
// the elapsed time and what usually reduces it. Sort through SortRole (numbers, never text).
class GoodputBreakdownModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CategoryColumn, TimeColumn, ShareColumn, RemedyColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    explicit GoodputBreakdownModel(QObject *parent = nullptr);

    void setReport(const GoodputReport &report);
    // Header then the given rows, raw numbers (seconds, shares 0..1), for TSV/CSV.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        int category; // -1: productive
        QString name;
        int64_t ns;
        double share;
        bool sub; // a custom event type under Custom
    };
    std::vector<Row> m_rows;
};

} // namespace plumb
