// SPDX-License-Identifier: GPL-3.0-or-later
#include "goodput/goodputbreakdownmodel.h"

#include "charts/goodputpalette.h"

#include <QBrush>

namespace plumb {

GoodputBreakdownModel::GoodputBreakdownModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void GoodputBreakdownModel::setReport(const GoodputReport &r)
{
    beginResetModel();
    m_rows.clear();
    if (r.valid()) {
        const double elapsed = double(r.elapsedNs);
        m_rows.push_back({ -1, goodputCategoryTitle(-1), r.productiveNs, r.goodput, false });
        for (int b = 0; b < kBadputCount; ++b) {
            const int64_t ns = r.badputNs[size_t(b)];
            if (ns == 0)
                continue;
            m_rows.push_back({ b, badputTitle(Badput(b)), ns, double(ns) / elapsed, false });
            if (Badput(b) == Badput::Custom)
                for (const auto &[label, labelNs] : r.customNs)
                    m_rows.push_back({ b, label, labelNs, double(labelNs) / elapsed, true });
        }
    }
    endResetModel();
}

QList<QStringList> GoodputBreakdownModel::records(const QList<int> &rows) const
{
    QList<QStringList> out { { QStringLiteral("category"), QStringLiteral("seconds"),
        QStringLiteral("share") } };
    for (const int i : rows) {
        const Row &r = m_rows[size_t(i)];
        out << QStringList { r.sub
                ? QStringLiteral("custom: ") + r.name
                : (r.category < 0 ? QStringLiteral("productive") : badputName(Badput(r.category))),
            QString::number(double(r.ns) / 1e9, 'g', 12), QString::number(r.share, 'g', 12) };
    }
    return out;
}

int GoodputBreakdownModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GoodputBreakdownModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GoodputBreakdownModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const Row &r = m_rows[size_t(index.row())];
    if (role == SortRole) {
        switch (index.column()) {
        case CategoryColumn:
            return index.row();
        case TimeColumn:
            return qlonglong(r.ns);
        case ShareColumn:
            return r.share;
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CategoryColumn:
            return r.sub ? QStringLiteral("    ") + r.name : r.name;
        case TimeColumn:
            return spanText(r.ns);
        case ShareColumn:
            return QStringLiteral("%1%").arg(100 * r.share, 0, 'f', 1);
        case RemedyColumn:
            return r.category < 0 || r.sub ? QString() : badputRemedy(Badput(r.category));
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole && index.column() == CategoryColumn && !r.sub)
        return goodputColor(r.category);
    if (role == Qt::ToolTipRole && index.column() == RemedyColumn && r.category >= 0 && !r.sub)
        return badputRemedy(Badput(r.category));
    if (role == Qt::TextAlignmentRole && (index.column() == TimeColumn || index.column() == ShareColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant GoodputBreakdownModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CategoryColumn:
        return tr("Where the time went");
    case TimeColumn:
        return tr("Time");
    case ShareColumn:
        return tr("Share");
    case RemedyColumn:
        return tr("What usually reduces it");
    default:
        return {};
    }
}

} // namespace plumb
