// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job/jobview.h"

#include <QAbstractTableModel>

namespace plumb {

// The Job tab's ranks: one row per rank of the job (missing ones too), its step time and spread, the
// parts of it that vary across ranks (exposed communication, input pipeline), how often the collectives
// waited for it and how long, and its verdict with its run weighed in. SortRole sorts by number.
class JobRanksModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        VerdictColumn,
        StepColumn,
        SpreadColumn,
        CommColumn,
        InputColumn,
        LastColumn,
        WaitColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RankRole = Qt::UserRole + 2;

    using QAbstractTableModel::QAbstractTableModel;
    void setJob(const JobView &job);
    [[nodiscard]] const JobRank *rankAt(int row) const;
    [[nodiscard]] int rowOfRank(int64_t rank) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<JobRank> m_ranks;
    int64_t m_straggler = -1;
};

} // namespace plumb
