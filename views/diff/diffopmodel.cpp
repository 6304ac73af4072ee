// SPDX-License-Identifier: GPL-3.0-or-later
#include "diff/diffopmodel.h"

#include "signedformat.h"
#include "theme.h"
#include "timeline/timescale.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QLocale>

#include <cmath>
#include <limits>

namespace plumb {

namespace {

using Change = TraceDiff::OpDelta::Change;

QString kindName(GpuOp::Kind kind)
{
    switch (kind) {
    case GpuOp::Kind::Compute:
        return DiffOpModel::tr("computation");
    case GpuOp::Kind::Comm:
        return DiffOpModel::tr("communication");
    case GpuOp::Kind::Memory:
        return DiffOpModel::tr("memory");
    }
    return {};
}

// Counts are means per step: whole numbers print as such, others with two decimals.
QString countText(double n)
{
    return QLocale().toString(n, 'f', n == std::round(n) ? 0 : 2);
}

// The change relative to the baseline's total; +infinity for an op the baseline did not run.
double relativeChange(const TraceDiff::OpDelta &op)
{
    if (op.totalA == 0)
        return op.totalB == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return op.deltaNs() / op.totalA;
}

} // namespace

DiffOpModel::DiffOpModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString DiffOpModel::changeName(Change change)
{
    switch (change) {
    case Change::Added:
        return tr("added");
    case Change::Removed:
        return tr("removed");
    case Change::Slower:
        return tr("slower");
    case Change::Faster:
        return tr("faster");
    case Change::Same:
        return tr("same");
    }
    return {};
}

void DiffOpModel::setOps(std::vector<TraceDiff::OpDelta> ops, bool perStep)
{
    beginResetModel();
    m_ops = std::move(ops);
    m_perStep = perStep;
    endResetModel();
}

int DiffOpModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ops.size());
}

int DiffOpModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffOpModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_ops.size()))
        return {};
    const TraceDiff::OpDelta &op = m_ops[size_t(index.row())];
    if (role == ChangeRole)
        return int(op.change());
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return op.name;
        case KindColumn:
            return int(op.kind);
        case ChangeColumn:
            return int(op.change());
        case CountAColumn:
            return op.countA;
        case CountBColumn:
            return op.countB;
        case TotalAColumn:
            return op.totalA;
        case TotalBColumn:
            return op.totalB;
        case DeltaColumn:
            return op.deltaNs();
        case DeltaPercentColumn:
            return relativeChange(op);
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return op.name;
        case KindColumn:
            return kindName(op.kind);
        case ChangeColumn:
            return changeName(op.change());
        case CountAColumn:
            return countText(op.countA);
        case CountBColumn:
            return countText(op.countB);
        case TotalAColumn:
            return op.countA > 0 ? formatDuration(std::llround(op.totalA)) : QString();
        case TotalBColumn:
            return op.countB > 0 ? formatDuration(std::llround(op.totalB)) : QString();
        case DeltaColumn:
            return signedDuration(op.deltaNs());
        case DeltaPercentColumn:
            return op.totalA == 0 ? tr("new") : signedPercent(relativeChange(op));
        }
        return {};
    }
    if (role == Qt::ForegroundRole && (index.column() == ChangeColumn || index.column() >= DeltaColumn)) {
        // Slower in red, faster in green, as a second cue beside the sign; lighter on a dark palette.
        const Change c = op.change();
        const bool dark = isDark(QGuiApplication::palette());
        if (c == Change::Slower || c == Change::Added)
            return QBrush(dark ? QColor(0xff, 0x85, 0x70) : QColor(0xb0, 0x30, 0x20));
        if (c == Change::Faster || c == Change::Removed)
            return QBrush(dark ? QColor(0x7c, 0xd6, 0x8a) : QColor(0x2a, 0x7a, 0x3a));
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return op.name;
    if (role == Qt::TextAlignmentRole && index.column() >= CountAColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DiffOpModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        static const char *const names[]
            = { "Name", "Kind", "Change", "Count A", "Count B", "Total A", "Total B", "Δ Total", "Δ %" };
        return tr(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        const QString per = m_perStep ? tr(" per step") : tr(" over the whole trace");
        switch (section) {
        case CountAColumn:
            return QString(tr("Launches in the baseline (A)") + per);
        case CountBColumn:
            return QString(tr("Launches in the compared trace (B)") + per);
        case TotalAColumn:
            return QString(tr("GPU time in the baseline (A)") + per);
        case TotalBColumn:
            return QString(tr("GPU time in the compared trace (B)") + per);
        case DeltaColumn:
            return QString(tr("Total B − total A") + per);
        case DeltaPercentColumn:
            return tr("The change relative to the baseline's total");
        case ChangeColumn:
            return tr("Same: the total moved by at most %1% of the baseline's").arg(100 * kSameOpTolerance);
        }
    }
    return {};
}

QList<QStringList> DiffOpModel::records(const QList<int> &rows) const
{
    QList<QStringList> out;
    out << QStringList { tr("Name"), tr("Kind"), tr("Change"), tr("Count A"), tr("Count B"),
        tr("Total A (ns)"), tr("Total B (ns)"), tr("Delta (ns)"), tr("Delta (%)") };
    for (int r : rows) {
        const TraceDiff::OpDelta &op = m_ops[size_t(r)];
        // Raw numbers, so a spreadsheet can compute with them; the relative change is empty for an added op.
        out << QStringList { op.name, kindName(op.kind), changeName(op.change()),
            QString::number(op.countA, 'g', 10), QString::number(op.countB, 'g', 10),
            QString::number(op.totalA, 'f', 1), QString::number(op.totalB, 'f', 1),
            QString::number(op.deltaNs(), 'f', 1),
            op.totalA == 0 ? QString() : QString::number(100 * relativeChange(op), 'f', 3) };
    }
    return out;
}

} // namespace plumb
