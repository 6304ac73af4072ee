// SPDX-License-Identifier: GPL-3.0-or-later
#include "sourcesmodel.h"

#include "text/textformat.h"

namespace plumb {

namespace {
bool isNumeric(int column)
{
    return column == SourcesModel::SizeColumn || column == SourcesModel::EventsColumn
        || column == SourcesModel::SkippedColumn || column == SourcesModel::DiagnosticsColumn;
}
} // namespace

SourcesModel::SourcesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void SourcesModel::setSources(const QList<SourceInfo> &sources)
{
    beginResetModel();
    m_sources = sources;
    endResetModel();
}

const SourceInfo *SourcesModel::sourceById(int64_t id) const
{
    for (const SourceInfo &s : m_sources) {
        if (s.id == id)
            return &s;
    }
    return nullptr;
}

QModelIndex SourcesModel::indexForSource(int64_t id) const
{
    for (int r = 0; r < m_sources.size(); ++r) {
        if (m_sources[r].id == id)
            return index(r, 0);
    }
    return {};
}

int SourcesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sources.size());
}

int SourcesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SourcesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SourceInfo &s = m_sources[index.row()];
    switch (role) {
    case SourceIdRole:
        return qint64(s.id);
    case Qt::TextAlignmentRole:
        return int((isNumeric(index.column()) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == NameColumn)
            return s.path;
        if (index.column() == ImportedAtColumn)
            return tr("Imported in %1 ms").arg(s.importMs);
        return {};
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return s.name;
        case FormatColumn:
            return s.format;
        case SizeColumn:
            return qint64(s.sizeBytes);
        case StatusColumn:
            return s.status;
        case EventsColumn:
            return qint64(s.events);
        case SkippedColumn:
            return qint64(s.skipped);
        case DiagnosticsColumn:
            return qint64(s.diagnostics);
        case ImportedAtColumn:
            return qint64(s.importedAtNs);
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return s.name;
        case FormatColumn:
            return s.format;
        case SizeColumn:
            return text::bytes(s.sizeBytes);
        case StatusColumn:
            return s.status;
        case EventsColumn:
            return text::count(s.events);
        case SkippedColumn:
            return text::count(s.skipped);
        case DiagnosticsColumn:
            return text::count(s.diagnostics);
        case ImportedAtColumn:
            return text::dateTime(s.importedAtNs);
        }
        return {};
    default:
        return {};
    }
}

QVariant SourcesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return int((isNumeric(section) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StatusColumn:
            return tr("ok, or partial when the importer reported errors");
        case SkippedColumn:
            return tr("Records the importer could not use");
        case DiagnosticsColumn:
            return tr("Kinds of problem noted; see the Diagnostics panel");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case FormatColumn:
        return tr("Format");
    case SizeColumn:
        return tr("Size");
    case StatusColumn:
        return tr("Status");
    case EventsColumn:
        return tr("Events");
    case SkippedColumn:
        return tr("Skipped");
    case DiagnosticsColumn:
        return tr("Diagnostics");
    case ImportedAtColumn:
        return tr("Imported at");
    }
    return {};
}

} // namespace plumb
