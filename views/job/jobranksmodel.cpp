// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/jobranksmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace plumb {

namespace {

QString ms(double ns)
{
    return QString::number(ns / 1e6, 'f', 2);
}

} // namespace

void JobRanksModel::setJob(const JobView &job)
{
    beginResetModel();
    m_ranks = job.ranks;
    m_straggler = job.comparison.straggler >= 0 ? job.comparison.ranks[size_t(job.comparison.straggler)].rank
                                                : job.straggler;
    endResetModel();
}

const JobRank *JobRanksModel::rankAt(int row) const
{
    return row >= 0 && size_t(row) < m_ranks.size() ? &m_ranks[size_t(row)] : nullptr;
}

int JobRanksModel::rowOfRank(int64_t rank) const
{
    for (size_t i = 0; i < m_ranks.size(); ++i)
        if (m_ranks[i].rank == rank)
            return int(i);
    return -1;
}

int JobRanksModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ranks.size());
}

int JobRanksModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobRanksModel::data(const QModelIndex &index, int role) const
{
    const JobRank *r = rankAt(index.row());
    if (!r)
        return {};
    const bool merged = r->traceId > 0;
    if (role == RankRole)
        return qlonglong(r->rank);
    if (role == Qt::TextAlignmentRole)
        return index.column() == VerdictColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                               : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && r->rank == m_straggler) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ForegroundRole && !merged)
        return QBrush(QColor(0xb0, 0x30, 0x30));
    if (role == Qt::ToolTipRole)
        return merged ? r->headline : r->message;
    if (role == SortRole) {
        switch (index.column()) {
        case RankColumn:
            return qlonglong(r->rank);
        case StepColumn:
            return r->stepNs;
        case SpreadColumn:
            return r->maxStepNs - r->minStepNs;
        case CommColumn:
            return r->exposedCommNs;
        case InputColumn:
            return r->inputNs;
        case LastColumn:
            return r->lastArrivals;
        case WaitColumn:
            return qlonglong(r->causedWaitNs);
        case VerdictColumn:
            return merged ? r->verdict : r->status;
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == RankColumn)
        return QString::number(r->rank);
    if (!merged)
        return index.column() == VerdictColumn ? QStringLiteral("%1: %2").arg(r->status, r->message)
                                               : QVariant();
    switch (index.column()) {
    case StepColumn:
        return ms(r->stepNs);
    case SpreadColumn:
        return ms(r->maxStepNs - r->minStepNs);
    case CommColumn:
        return ms(r->exposedCommNs);
    case InputColumn:
        return ms(r->inputNs);
    case LastColumn:
        return r->lastArrivals;
    case WaitColumn:
        return ms(double(r->causedWaitNs));
    case VerdictColumn:
        return r->rank == m_straggler ? tr("%1 (the straggler)").arg(r->verdict) : r->verdict;
    }
    return {};
}

QVariant JobRanksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StepColumn:
            return tr("Mean wall time of its steps");
        case SpreadColumn:
            return tr("Its longest step minus its shortest");
        case CommColumn:
            return tr("Exposed communication per step: mostly waiting for the last rank in collectives");
        case InputColumn:
            return tr("Input pipeline per step (the DataLoader)");
        case LastColumn:
            return tr("Collectives at which it arrived last (its kernel the shortest)");
        case WaitColumn:
            return tr("The others' mean wait for it, summed over those collectives");
        case VerdictColumn:
            return tr("Its doctor's verdict, the job's straggler weighed in");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case StepColumn:
        return tr("Step ms");
    case SpreadColumn:
        return tr("Spread ms");
    case CommColumn:
        return tr("Exp. comm ms");
    case InputColumn:
        return tr("Input ms");
    case LastColumn:
        return tr("Last at");
    case WaitColumn:
        return tr("Waited for ms");
    case VerdictColumn:
        return tr("Verdict");
    }
    return {};
}

} // namespace plumb
