// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/runsfilterproxy.h"

#include "experiments/runstablemodel.h"

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

// Natural order, case-insensitive: version_2 before version_10 (QCollator's numeric mode needs ICU).
int naturalCompare(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // Compare the digit runs by value: longer (without leading zeros) is larger.
            QStringView x = QStringView(a).mid(i, ei - i), y = QStringView(b).mid(j, ej - j);
            while (x.size() > 1 && x.front() == u'0')
                x = x.mid(1);
            while (y.size() > 1 && y.front() == u'0')
                y = y.mid(1);
            if (x.size() != y.size())
                return x.size() < y.size() ? -1 : 1;
            if (const int c = x.compare(y); c != 0)
                return c < 0 ? -1 : 1;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb ? -1 : 1;
        ++i;
        ++j;
    }
    return i < a.size() ? 1 : (j < b.size() ? -1 : 0);
}

// -1, 0, 1 for a < b, a == b, a > b; numbers before text; missing (and NaN) values are "largest".
int compareValues(const QVariant &a, const QVariant &b)
{
    auto missing = [](const QVariant &v) {
        return !v.isValid() || (v.typeId() == QMetaType::Double && std::isnan(v.toDouble()));
    };
    const bool ma = missing(a), mb = missing(b);
    if (ma || mb)
        return ma == mb ? 0 : (ma ? 1 : -1);
    const bool na = a.typeId() == QMetaType::Double, nb = b.typeId() == QMetaType::Double;
    if (na != nb)
        return na ? -1 : 1;
    if (na) {
        const double x = a.toDouble(), y = b.toDouble();
        return x < y ? -1 : (y < x ? 1 : 0);
    }
    const int c = naturalCompare(a.toString(), b.toString());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

} // namespace

RunsFilterProxy::RunsFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RunsTableModel::SortRole);
}

void RunsFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    m_model = qobject_cast<RunsTableModel *>(model);
    Q_ASSERT(m_model);
    QSortFilterProxyModel::setSourceModel(model);
}

void RunsFilterProxy::setFilterText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

int RunsFilterProxy::runRowCount() const
{
    int n = 0;
    for (int r = 0; r < rowCount(); ++r)
        n += !index(r, 0).data(RunsTableModel::HeaderRole).toBool();
    return n;
}

bool RunsFilterProxy::runAccepted(int sourceRow) const
{
    const QString needle = m_text.trimmed();
    return needle.isEmpty() || m_model->filterText(sourceRow).contains(needle, Qt::CaseInsensitive);
}

bool RunsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    if (!m_model->isHeader(sourceRow))
        return runAccepted(sourceRow);
    const QList<int> members = m_model->groupMembers(sourceRow);
    return std::any_of(members.begin(), members.end(), [this](int r) { return runAccepted(r); });
}

bool RunsFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Qt sorts descending with lessThan(right, left): decisions that must not flip with the order
    // (group order, header first, missing last) are returned flipped in that case.
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    auto fixed = [ascending](bool leftFirst) { return ascending ? leftFirst : !leftFirst; };
    if (!m_model->groupBy().isEmpty()) {
        const int g = compareValues(
            left.data(RunsTableModel::GroupSortRole), right.data(RunsTableModel::GroupSortRole));
        if (g != 0)
            return fixed(g < 0);
        const bool hl = left.data(RunsTableModel::HeaderRole).toBool();
        const bool hr = right.data(RunsTableModel::HeaderRole).toBool();
        if (hl != hr)
            return fixed(hl);
    }
    const QVariant a = left.data(sortRole()), b = right.data(sortRole());
    const bool ma = !a.isValid() || (a.typeId() == QMetaType::Double && std::isnan(a.toDouble()));
    const bool mb = !b.isValid() || (b.typeId() == QMetaType::Double && std::isnan(b.toDouble()));
    if (ma != mb)
        return fixed(mb); // the present value first
    return compareValues(a, b) < 0;
}

} // namespace plumb
