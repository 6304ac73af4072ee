// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/importancemodel.h"

#include <cmath>
#include <limits>

namespace plumb {

void ImportanceModel::setImportance(const ParamImportance &importance)
{
    beginResetModel();
    m_importance = importance;
    endResetModel();
}

int ImportanceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_importance.entries.size());
}

int ImportanceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportanceModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_importance.entries.size())
        return {};
    const ParamImportance::Entry &e = m_importance.entries[size_t(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
        case ParamColumn:
            return e.key;
        case KindColumn:
            return e.categorical ? 1 : 0;
        // NaN does not order: put it below every real correlation.
        case CorrelationColumn:
            return std::isnan(e.correlation) ? -2.0 : e.categorical ? e.correlation : std::abs(e.correlation);
        case ImportanceColumn:
            return e.importance;
        case RunsColumn:
            return e.runs;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ParamColumn:
            return e.key;
        case KindColumn:
            return e.categorical ? tr("categorical (%1)").arg(e.levels) : tr("numeric");
        case CorrelationColumn:
            if (std::isnan(e.correlation))
                return QStringLiteral("–");
            return e.categorical ? QStringLiteral("η %1").arg(e.correlation, 0, 'f', 2)
                                 : QStringLiteral("%1%2")
                                       .arg(e.correlation >= 0 ? QStringLiteral("+") : QString())
                                       .arg(e.correlation, 0, 'f', 2);
        case ImportanceColumn:
            return QString::number(e.importance, 'f', 3);
        case RunsColumn:
            return e.runs;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CorrelationColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == KindColumn)
        return e.categorical
            ? tr(
                "%n value(s), one-hot encoded for the forest (a run without it counts as a value of its own)",
                nullptr, e.levels)
            : tr("%n distinct value(s); a run without it gets the mean for the forest", nullptr, e.levels);
    if (role == Qt::ToolTipRole && index.column() == CorrelationColumn)
        return e.categorical
            ? tr("Correlation ratio eta: how much of the metric's spread the means per value explain (0..1, "
                 "no sign)")
            : tr("Pearson's r over the runs that have this param (positive: the metric rises with it)");
    return {};
}

QVariant ImportanceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ParamColumn:
            return tr("Param");
        case KindColumn:
            return tr("Kind");
        case CorrelationColumn:
            return tr("Correlation");
        case ImportanceColumn:
            return tr("Importance");
        case RunsColumn:
            return tr("Runs");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CorrelationColumn:
            return tr("Pearson's r for numeric params, the correlation ratio eta for categorical ones");
        case ImportanceColumn:
            return tr("Mean decrease of impurity in a random forest of %1 regression trees fitted to the "
                      "metric; sums to 1")
                .arg(kImportanceTrees);
        case RunsColumn:
            return tr("Runs that have this param (the others count as missing)");
        }
    }
    return {};
}

QList<QStringList> ImportanceModel::records(const QList<int> &rows) const
{
    QList<QStringList> out { { QStringLiteral("param"), QStringLiteral("kind"), QStringLiteral("values"),
        QStringLiteral("correlation"), QStringLiteral("importance"), QStringLiteral("runs") } };
    for (int row : rows) {
        if (row < 0 || size_t(row) >= m_importance.entries.size())
            continue;
        const ParamImportance::Entry &e = m_importance.entries[size_t(row)];
        out << QStringList { e.key, e.categorical ? QStringLiteral("categorical") : QStringLiteral("numeric"),
            QString::number(e.levels),
            std::isnan(e.correlation) ? QString() : QString::number(e.correlation, 'g', 17),
            QString::number(e.importance, 'g', 17), QString::number(e.runs) };
    }
    return out;
}

} // namespace plumb
