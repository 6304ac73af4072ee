// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/configdiff.h"

#include <QAbstractTableModel>

#include <vector>

namespace plumb {

// A ConfigDiff as a table with the runs as columns: a marker column (≠ on rows whose values
// differ, so a difference does not rest on the row's tint alone), the group (params, tags, system
// tags, environment, metrics), the key, then one column per run, the baseline first. Each metric
// has a row of last values (the others with their change from the baseline) and, when its
// direction is known, a row of best values; the better run's value is bold with ▲ (higher is
// better) or ▼ (lower is better). With diffOnly set, only rows that differ are shown.
// records() gives raw values (and a row of changes per metric) for TSV/CSV.
class ConfigDiffModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { MarkerColumn, GroupColumn, KeyColumn, FirstRunColumn };

    using QAbstractTableModel::QAbstractTableModel;

    void setDiff(const ConfigDiff &diff);
    void setDiffOnly(bool diffOnly);
    [[nodiscard]] bool diffOnly() const { return m_diffOnly; }
    [[nodiscard]] const ConfigDiff &diff() const { return m_diff; }
    // Whether a shown row differs.
    [[nodiscard]] bool rowDiffers(int row) const;
    // Rows of the whole diff (config rows + metric rows) that differ, and all of them.
    [[nodiscard]] int differingCount() const;
    [[nodiscard]] int totalCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The header, then the rows given (model rows), raw: metric values in full precision.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

private:
    enum class Kind { Config, MetricLast, MetricBest };
    struct Line {
        Kind kind;
        size_t index; // into m_diff.rows or m_diff.metrics
        bool differs;
    };
    void rebuild();

    ConfigDiff m_diff;
    bool m_diffOnly = true;
    std::vector<Line> m_lines;
};

} // namespace plumb
