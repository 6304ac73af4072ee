// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosticsmodel.h"

#include "text/textformat.h"

#include <QApplication>
#include <QStyle>

namespace plumb {

namespace {
int severityRank(const QString &severity)
{
    if (severity == QLatin1String("error"))
        return 0;
    if (severity == QLatin1String("warning"))
        return 1;
    return 2;
}
} // namespace

DiagnosticsModel::DiagnosticsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setDiagnostics(const QList<DiagnosticRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DiagnosticsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const DiagnosticRow &d = m_rows[index.row()];
    switch (role) {
    case SourceIdRole:
        return qint64(d.sourceId);
    case Qt::TextAlignmentRole:
        return int((index.column() == CountColumn ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn)
            return {};
        switch (severityRank(d.severity)) {
        case 0:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxCritical);
        case 1:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxWarning);
        default:
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxInformation);
        }
    case Qt::ToolTipRole:
        return index.column() == MessageColumn ? d.message : QVariant();
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityRank(d.severity);
        case SourceColumn:
            return d.sourceName;
        case CodeColumn:
            return d.code;
        case LocationColumn:
            return d.location;
        case CountColumn:
            return qint64(d.count);
        case MessageColumn:
            return d.message;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return d.severity;
        case SourceColumn:
            return d.sourceName;
        case CodeColumn:
            return d.code;
        case LocationColumn:
            return d.location;
        case CountColumn:
            return text::count(d.count);
        case MessageColumn:
            return d.message;
        }
        return {};
    default:
        return {};
    }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return int((section == CountColumn ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case SourceColumn:
        return tr("Source");
    case CodeColumn:
        return tr("Code");
    case LocationColumn:
        return tr("Location");
    case CountColumn:
        return tr("Count");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace plumb
