// SPDX-License-Identifier: GPL-3.0-or-later
#include "diff/diffcategorymodel.h"

#include "signedformat.h"
#include "timeline/timescale.h"

#include <QFont>

#include <cmath>

namespace plumb {

namespace {

double value(const TraceDiff::Side &s, int row)
{
    switch (row) {
    case DiffCategoryModel::WindowRow:
        return s.windowNs;
    case DiffCategoryModel::ComputeRow:
        return s.computeNs;
    case DiffCategoryModel::ExposedCommRow:
        return s.exposedCommNs;
    case DiffCategoryModel::ExposedMemoryRow:
        return s.exposedMemoryNs;
    case DiffCategoryModel::IdleRow:
        return s.idleNs;
    }
    return 0;
}

} // namespace

DiffCategoryModel::DiffCategoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DiffCategoryModel::setDiff(const TraceDiff::Side &a, const TraceDiff::Side &b, bool perStep)
{
    beginResetModel();
    m_a = a;
    m_b = b;
    m_perStep = perStep;
    m_empty = false;
    endResetModel();
}

void DiffCategoryModel::clear()
{
    beginResetModel();
    m_a = m_b = {};
    m_empty = true;
    endResetModel();
}

double DiffCategoryModel::valueA(int row) const
{
    return value(m_a, row);
}

double DiffCategoryModel::valueB(int row) const
{
    return value(m_b, row);
}

QString DiffCategoryModel::categoryName(int row)
{
    switch (row) {
    case WindowRow:
        return tr("GPU window");
    case ComputeRow:
        return tr("computation");
    case ExposedCommRow:
        return tr("exposed communication");
    case ExposedMemoryRow:
        return tr("exposed memcpy/memset");
    case IdleRow:
        return tr("idle");
    }
    return {};
}

int DiffCategoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_empty ? 0 : RowCount;
}

int DiffCategoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffCategoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const double a = valueA(row), b = valueB(row), delta = b - a;
    const double windowDelta = deltaNs(WindowRow);
    if (role == SortRole) {
        switch (index.column()) {
        case CategoryColumn:
            return row;
        case AColumn:
            return a;
        case BColumn:
            return b;
        case DeltaColumn:
            return delta;
        case DeltaPercentColumn:
            return a > 0 ? delta / a : 0.0;
        case ShareColumn:
            return windowDelta != 0 ? delta / windowDelta : 0.0;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CategoryColumn:
            return categoryName(row);
        case AColumn:
            return formatDuration(std::llround(a));
        case BColumn:
            return formatDuration(std::llround(b));
        case DeltaColumn:
            return signedDuration(delta);
        case DeltaPercentColumn:
            return a > 0 ? signedPercent(delta / a) : (b > 0 ? tr("new") : QString());
        case ShareColumn:
            // A share, not a change: signed only when negative (a category that moved against the window).
            return row == WindowRow || windowDelta == 0 ? QString()
                                                        : QStringLiteral("%1%")
                                                              .arg(100 * delta / windowDelta, 0, 'f', 1)
                                                              .replace(u'-', QChar(0x2212));
        }
        return {};
    }
    if (role == Qt::FontRole && row == WindowRow) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::TextAlignmentRole && index.column() != CategoryColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DiffCategoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        static const char *const names[] = { "Category", "A", "B", "Δ", "Δ %", "Share of Δ" };
        return tr(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        const QString per = m_perStep ? tr(", per step") : tr(", over the whole trace");
        switch (section) {
        case AColumn:
            return QString(tr("The baseline (A)") + per);
        case BColumn:
            return QString(tr("The compared trace (B)") + per);
        case DeltaColumn:
            return QString(tr("B − A") + per);
        case DeltaPercentColumn:
            return tr("The change relative to the baseline");
        case ShareColumn:
            return tr("This category's part of the GPU window's change (the parts add up to 100%)");
        }
    }
    return {};
}

QList<QStringList> DiffCategoryModel::records(const QList<int> &rows) const
{
    QList<QStringList> out;
    out << QStringList { tr("Category"), tr("A (ns)"), tr("B (ns)"), tr("Delta (ns)"), tr("Delta (%)"),
        tr("Share of delta (%)") };
    const double windowDelta = deltaNs(WindowRow);
    for (int r : rows) {
        const double a = valueA(r), delta = deltaNs(r);
        out << QStringList { categoryName(r), QString::number(a, 'f', 1), QString::number(valueB(r), 'f', 1),
            QString::number(delta, 'f', 1), a > 0 ? QString::number(100 * delta / a, 'f', 3) : QString(),
            windowDelta != 0 ? QString::number(100 * delta / windowDelta, 'f', 3) : QString() };
    }
    return out;
}

} // namespace plumb
