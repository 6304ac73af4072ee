// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/paramimportance.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace plumb {

// A ParamImportance's entries as a table: param, kind, correlation with the metric (Pearson's r of a
// numeric param, eta of a categorical one), importance, runs that have the param. SortRole gives
// the raw numbers (NaN correlations sort last); records() the raw values for TSV/CSV.
class ImportanceModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ParamColumn, KindColumn, CorrelationColumn, ImportanceColumn, RunsColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setImportance(const ParamImportance &importance);
    [[nodiscard]] const ParamImportance &importance() const { return m_importance; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The header, then the rows given (source rows), raw.
    [[nodiscard]] QList<QStringList> records(const QList<int> &rows) const;

private:
    ParamImportance m_importance;
};

} // namespace plumb
