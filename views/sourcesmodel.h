// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/workspacereader.h"

#include <QAbstractTableModel>
#include <QList>

namespace plumb {

// The Sources table: one row per imported file, row r = WorkspaceReader::sources()[r].
// Replaced wholesale by setSources(); sort through a proxy on SortRole.
class SourcesModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        FormatColumn,
        SizeColumn,
        StatusColumn,
        EventsColumn,
        SkippedColumn,
        DiagnosticsColumn,
        ImportedAtColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // numbers as qint64, text as QString
        SourceIdRole, // qint64
    };

    explicit SourcesModel(QObject *parent = nullptr);

    void setSources(const QList<SourceInfo> &sources);
    [[nodiscard]] const QList<SourceInfo> &sources() const { return m_sources; }
    [[nodiscard]] const SourceInfo *sourceById(int64_t id) const;
    [[nodiscard]] QModelIndex indexForSource(int64_t id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<SourceInfo> m_sources;
};

} // namespace plumb
