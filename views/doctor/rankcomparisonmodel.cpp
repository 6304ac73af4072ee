// SPDX-License-Identifier: GPL-3.0-or-later
#include "doctor/rankcomparisonmodel.h"

#include "timeline/timescale.h"

#include <QFont>

namespace plumb {

namespace {

double RankSummary::*const kTimes[] = { &RankSummary::windowNs, &RankSummary::computeNs, &RankSummary::commNs,
    &RankSummary::exposedCommNs, &RankSummary::idleNs };

} // namespace

RankComparisonModel::RankComparisonModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RankComparisonModel::setComparison(RankComparison comparison, int64_t openTraceId)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_openTraceId = openTraceId;
    endResetModel();
}

int RankComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_comparison.ranks.size());
}

int RankComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RankComparisonModel::note(int row) const
{
    QStringList notes;
    if (row == m_comparison.straggler)
        notes << tr("straggler (computes longest)");
    if (m_comparison.ranks[size_t(row)].traceId == m_openTraceId)
        notes << tr("this trace");
    return notes.join(QStringLiteral("; "));
}

QVariant RankComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const RankSummary &r = m_comparison.ranks[size_t(index.row())];
    const int c = index.column();
    if (role == SortRole) {
        if (c >= WindowColumn && c <= IdleColumn)
            return r.*kTimes[c - WindowColumn];
        switch (c) {
        case RankColumn:
            return qlonglong(r.rank);
        case TraceColumn:
            return r.name;
        case StepsColumn:
            return r.steps;
        case NoteColumn:
            return note(index.row());
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        if (c >= WindowColumn && c <= IdleColumn)
            return formatDuration(int64_t(r.*kTimes[c - WindowColumn]));
        switch (c) {
        case RankColumn:
            return r.rank >= 0 ? QVariant(qlonglong(r.rank)) : QVariant(tr("unknown"));
        case TraceColumn:
            return r.name;
        case StepsColumn:
            return r.steps ? QVariant(r.steps) : QVariant(tr("whole trace"));
        case NoteColumn:
            return note(index.row());
        }
    }
    if (role == Qt::FontRole && index.row() == m_comparison.straggler) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole && c == TraceColumn)
        return r.name;
    if (role == Qt::TextAlignmentRole && c != TraceColumn && c != NoteColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RankComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    // The times are per step (the panel says so above the table).
    static const char *const names[] = { "Rank", "Trace", "Steps", "GPU window", "Computation",
        "Communication", "Exposed comm.", "Idle", "Note" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QList<QStringList> RankComparisonModel::records(const QList<int> &rows) const
{
    QList<QStringList> out;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c) {
        const bool time = c >= WindowColumn && c <= IdleColumn;
        header << headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()
                + (time ? QStringLiteral(" per step (ns)") : QString());
    }
    out << header;
    for (int row : rows) {
        const RankSummary &r = m_comparison.ranks[size_t(row)];
        QStringList record { QString::number(r.rank), r.name, QString::number(r.steps) };
        for (double RankSummary::*t : kTimes)
            record << QString::number(r.*t, 'f', 0);
        record << note(row);
        out << record;
    }
    return out;
}

} // namespace plumb
