// SPDX-License-Identifier: GPL-3.0-or-later
#include "query/queryresultmodel.h"

#include <QApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>
#include <numeric>

namespace plumb {

namespace {

constexpr int kShownDigits = 6;

// The order of kinds when sorting: NULL, numbers, text, BLOBs.
int kindRank(const QVariant &v)
{
    if (v.isNull())
        return 0;
    switch (v.typeId()) {
    case QMetaType::LongLong:
    case QMetaType::Double:
        return 1;
    case QMetaType::QByteArray:
        return 3;
    default:
        return 2;
    }
}

bool lessThan(const QVariant &a, const QVariant &b)
{
    const int ka = kindRank(a), kb = kindRank(b);
    if (ka != kb)
        return ka < kb;
    switch (ka) {
    case 1:
        if (a.typeId() == QMetaType::LongLong && b.typeId() == QMetaType::LongLong)
            return a.toLongLong() < b.toLongLong();
        return a.toDouble() < b.toDouble();
    case 2:
        return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
    case 3:
        return a.toByteArray() < b.toByteArray();
    default:
        return false;
    }
}

} // namespace

QueryResultModel::QueryResultModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void QueryResultModel::setResult(const QStringList &columns, std::vector<QVariantList> rows)
{
    beginResetModel();
    m_columns = columns;
    m_rows = std::move(rows);
    endResetModel();
}

void QueryResultModel::clear()
{
    setResult({}, {});
}

std::optional<double> QueryResultModel::number(int row, int column) const
{
    const QVariant &v = value(row, column);
    if (v.isNull() || v.typeId() == QMetaType::QByteArray)
        return std::nullopt;
    bool ok = false;
    const double d
        = v.typeId() == QMetaType::QString ? v.toString().trimmed().toDouble(&ok) : v.toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

bool QueryResultModel::isNumeric(int column) const
{
    bool any = false;
    for (int r = 0; r < rowCount(); ++r) {
        if (value(r, column).isNull())
            continue;
        if (!number(r, column))
            return false;
        any = true;
    }
    return any;
}

QString QueryResultModel::text(const QVariant &v)
{
    if (v.isNull())
        return QStringLiteral("NULL");
    switch (v.typeId()) {
    case QMetaType::Double:
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QMetaType::QByteArray:
        return tr("<BLOB, %n byte(s)>", nullptr, int(v.toByteArray().size()));
    default:
        return v.toString();
    }
}

QList<QStringList> QueryResultModel::records(const QList<int> &rows) const
{
    QList<QStringList> out { m_columns };
    for (int r : rows) {
        if (r < 0 || r >= rowCount())
            continue;
        QStringList record;
        for (const QVariant &v : m_rows[size_t(r)])
            record << (v.isNull() ? QString() : text(v));
        out << record;
    }
    return out;
}

int QueryResultModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int QueryResultModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant QueryResultModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant &v = value(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        // Reals to 6 significant digits (a mean of nanoseconds has a dozen); copies keep them all.
        return v.typeId() == QMetaType::Double ? QString::number(v.toDouble(), 'g', kShownDigits) : text(v);
    case Qt::ToolTipRole:
        return v.typeId() == QMetaType::QString && v.toString().size() > 60 ? v : QVariant();
    case SortRole:
        return v;
    case Qt::TextAlignmentRole:
        return kindRank(v) == 1 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (v.isNull())
            return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    default:
        return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_columns.size() ? QVariant(m_columns[section]) : QVariant();
    return section + 1;
}

void QueryResultModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= m_columns.size())
        return;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<int> perm(m_rows.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
        const QVariant &va = m_rows[size_t(a)][column], &vb = m_rows[size_t(b)][column];
        return order == Qt::AscendingOrder ? lessThan(va, vb) : lessThan(vb, va);
    });
    std::vector<QVariantList> sorted;
    sorted.reserve(m_rows.size());
    std::vector<int> newRow(m_rows.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        sorted.push_back(std::move(m_rows[size_t(perm[i])]));
        newRow[size_t(perm[i])] = int(i);
    }
    m_rows = std::move(sorted);
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex &i : from)
        to << index(newRow[size_t(i.row())], i.column());
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace plumb
