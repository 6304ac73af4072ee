// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/workspacereader.h"

#include <QAbstractTableModel>
#include <QList>

namespace plumb {

// The Diagnostics table: one row per diagnostic (a kind of problem found in one source, with how
// often it occurred and where first), row r = WorkspaceReader::diagnostics()[r] over all sources.
// Filter by source with SourceFilterProxy on SourceIdRole; sorting by severity uses its rank
// (error < warning < info), not the word.
class DiagnosticsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SeverityColumn,
        SourceColumn,
        CodeColumn,
        LocationColumn,
        CountColumn,
        MessageColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // severity rank, counts as qint64, text as QString
        SourceIdRole, // qint64
    };

    explicit DiagnosticsModel(QObject *parent = nullptr);

    void setDiagnostics(const QList<DiagnosticRow> &rows);
    [[nodiscard]] const QList<DiagnosticRow> &diagnostics() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<DiagnosticRow> m_rows;
};

} // namespace plumb
