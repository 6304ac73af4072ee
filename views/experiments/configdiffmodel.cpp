// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/configdiffmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace plumb {

namespace {

QString oneLine(const QString &value)
{
    QString s = value;
    return s.replace(u'\n', QStringLiteral("⏎"));
}

QString raw(double v)
{
    if (std::isnan(v))
        return {};
    return std::isinf(v) ? metricText(v) : QString::number(v, 'g', 17);
}

QString directionMark(MetricDirection d)
{
    return d == MetricDirection::HigherIsBetter ? QStringLiteral("▲")
        : d == MetricDirection::LowerIsBetter   ? QStringLiteral("▼")
                                                : QString();
}

} // namespace

void ConfigDiffModel::setDiff(const ConfigDiff &diff)
{
    beginResetModel();
    m_diff = diff;
    rebuild();
    endResetModel();
}

void ConfigDiffModel::setDiffOnly(bool diffOnly)
{
    if (diffOnly == m_diffOnly)
        return;
    beginResetModel();
    m_diffOnly = diffOnly;
    rebuild();
    endResetModel();
}

void ConfigDiffModel::rebuild()
{
    m_lines.clear();
    for (size_t i = 0; i < m_diff.rows.size(); ++i)
        if (!m_diffOnly || m_diff.rows[i].differs)
            m_lines.push_back({ Kind::Config, i, m_diff.rows[i].differs });
    for (size_t i = 0; i < m_diff.metrics.size(); ++i) {
        const ConfigDiff::MetricRow &m = m_diff.metrics[i];
        if (m_diffOnly && !m.differs)
            continue;
        m_lines.push_back({ Kind::MetricLast, i, m.differs });
        if (m.direction != MetricDirection::Unknown) {
            bool bestDiffers = false;
            for (size_t r = 1; r < m.best.size(); ++r)
                bestDiffers = bestDiffers || std::isnan(m.best[r]) != std::isnan(m.best[0])
                    || (!std::isnan(m.best[r]) && m.best[r] != m.best[0]);
            m_lines.push_back({ Kind::MetricBest, i, bestDiffers });
        }
    }
}

bool ConfigDiffModel::rowDiffers(int row) const
{
    return row >= 0 && size_t(row) < m_lines.size() && m_lines[size_t(row)].differs;
}

int ConfigDiffModel::differingCount() const
{
    int n = 0;
    for (const auto &r : m_diff.rows)
        n += r.differs;
    for (const auto &m : m_diff.metrics)
        n += m.differs;
    return n;
}

int ConfigDiffModel::totalCount() const
{
    return int(m_diff.rows.size() + m_diff.metrics.size());
}

int ConfigDiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int ConfigDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstRunColumn + int(m_diff.runs.size());
}

QVariant ConfigDiffModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_lines.size())
        return {};
    const Line &line = m_lines[size_t(index.row())];
    const int column = index.column();
    const size_t run = size_t(std::max(0, column - FirstRunColumn));
    const bool isRun = column >= FirstRunColumn;

    if (role == Qt::BackgroundRole && line.differs) {
        // A tint that reads on light and dark palettes; the ≠ column says the same without colour.
        return QBrush(QColor(0xf2, 0xa9, 0x00, 0x38));
    }
    if (line.kind == Kind::Config) {
        const ConfigDiff::Row &r = m_diff.rows[line.index];
        switch (role) {
        case Qt::DisplayRole:
            if (column == MarkerColumn)
                return line.differs ? QStringLiteral("≠") : QString();
            if (column == GroupColumn)
                return groupName(r.group);
            if (column == KeyColumn)
                return r.key;
            return r.values[run] ? oneLine(*r.values[run]) : QStringLiteral("—");
        case Qt::ToolTipRole:
            if (isRun)
                return r.values[run] ? *r.values[run]
                                     : tr("%1 has no %2").arg(runLabel(m_diff.runs[qsizetype(run)]), r.key);
            if (column == MarkerColumn && line.differs)
                return tr("The runs differ here");
            return {};
        case Qt::ForegroundRole:
            if (isRun && !r.values[run])
                return QGuiApplication::palette().brush(QPalette::PlaceholderText);
            return {};
        case Qt::TextAlignmentRole:
            if (column == MarkerColumn)
                return int(Qt::AlignCenter);
            return {};
        }
        return {};
    }

    const ConfigDiff::MetricRow &m = m_diff.metrics[line.index];
    const bool best = line.kind == Kind::MetricBest;
    switch (role) {
    case Qt::DisplayRole:
        if (column == MarkerColumn)
            return line.differs ? QStringLiteral("≠") : QString();
        if (column == GroupColumn)
            return best ? QString() : tr("metrics");
        if (column == KeyColumn)
            return best ? tr("    best")
                        : QStringLiteral("%1 %2").arg(m.key, directionMark(m.direction)).trimmed();
        if (!m.present[run])
            return QStringLiteral("—");
        if (best)
            return std::isnan(m.best[run]) ? QStringLiteral("—") : metricText(m.best[run]);
        {
            QString s = metricText(m.last[run]);
            if (run > 0 && !deltaText(m.delta[run], m.deltaPercent[run]).isEmpty())
                s += QStringLiteral("  ") + deltaText(m.delta[run], m.deltaPercent[run]);
            if (m.better[run])
                s += u' ' + directionMark(m.direction);
            return s;
        }
    case Qt::FontRole:
        if (isRun && !best && m.better[run]) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (isRun && !m.present[run])
            return QGuiApplication::palette().brush(QPalette::PlaceholderText);
        return {};
    case Qt::TextAlignmentRole:
        if (column == MarkerColumn)
            return int(Qt::AlignCenter);
        if (isRun)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == KeyColumn)
            return m.direction == MetricDirection::LowerIsBetter ? tr("%1: lower is better").arg(m.key)
                : m.direction == MetricDirection::HigherIsBetter
                ? tr("%1: higher is better").arg(m.key)
                : tr("%1: no known direction, no better run").arg(m.key);
        if (isRun && !best)
            return m.better[run] ? tr("The better run") : QVariant();
        if (isRun && best)
            return m.direction == MetricDirection::LowerIsBetter ? tr("The lowest value logged")
                                                                 : tr("The highest value logged");
        return {};
    }
    return {};
}

QVariant ConfigDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (section >= FirstRunColumn && section - FirstRunColumn < m_diff.runs.size()) {
        const ExperimentRunInfo &r = m_diff.runs[section - FirstRunColumn];
        if (role == Qt::DisplayRole) {
            // Without the folders every run shares: what tells trials of one search apart.
            QString name = shortRunNames(m_diff.runs)[section - FirstRunColumn];
            if (name.size() > 32)
                name = QStringLiteral("…") + name.right(31);
            return section == FirstRunColumn ? tr("%1 (baseline)").arg(name) : name;
        }
        if (role == Qt::ToolTipRole)
            return tr("Run %1: %2").arg(r.id).arg(r.name);
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case MarkerColumn:
            return QStringLiteral("≠");
        case GroupColumn:
            return tr("Group");
        case KeyColumn:
            return tr("Key");
        }
    }
    if (role == Qt::ToolTipRole && section == MarkerColumn)
        return tr("≠ marks the rows whose values differ between the runs (a value missing in a run counts)");
    return {};
}

QList<QStringList> ConfigDiffModel::records(const QList<int> &rows) const
{
    QStringList header { QStringLiteral("differs"), QStringLiteral("group"), QStringLiteral("key") };
    for (const auto &r : m_diff.runs)
        header << runLabel(r);
    QList<QStringList> out { header };
    for (int row : rows) {
        if (row < 0 || size_t(row) >= m_lines.size())
            continue;
        const Line &line = m_lines[size_t(row)];
        QStringList rec { line.differs ? QStringLiteral("1") : QStringLiteral("0") };
        if (line.kind == Kind::Config) {
            const ConfigDiff::Row &r = m_diff.rows[line.index];
            rec << groupName(r.group) << r.key;
            for (const auto &v : r.values)
                rec << v.value_or(QString());
            out << rec;
            continue;
        }
        const ConfigDiff::MetricRow &m = m_diff.metrics[line.index];
        if (line.kind == Kind::MetricBest) {
            rec << QStringLiteral("metrics") << m.key + QStringLiteral(" (best)");
            for (double v : m.best)
                rec << raw(v);
            out << rec;
            continue;
        }
        rec << QStringLiteral("metrics") << m.key + QStringLiteral(" (last)");
        for (double v : m.last)
            rec << raw(v);
        out << rec;
        // The changes from the baseline, a row of their own so each cell stays one number.
        QStringList delta { rec[0], QStringLiteral("metrics"),
            m.key + QStringLiteral(" (change from baseline)") };
        for (double v : m.delta)
            delta << raw(v);
        out << delta;
    }
    return out;
}

} // namespace plumb
