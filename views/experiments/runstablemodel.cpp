// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/runstablemodel.h"

#include "analysis/trialtable.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QFont>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

const QString kNoGroup = QStringLiteral("(none)");

// Numbers in the table: up to 6 significant digits, as a chart's axis would print them.
QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 6);
}

QString statName(RunsTableModel::Stat s)
{
    switch (s) {
    case RunsTableModel::Stat::Last:
        return RunsTableModel::tr("last");
    case RunsTableModel::Stat::Best:
        return RunsTableModel::tr("best");
    case RunsTableModel::Stat::Min:
        return RunsTableModel::tr("min");
    }
    return {};
}

} // namespace

RunsTableModel::RunsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    for (int c = 0; c < FixedColumnCount; ++c)
        m_columns << ColumnInfo { Kind::Fixed, {}, Stat::Last };
}

bool RunsTableModel::guessBestIsMax(const QString &tag)
{
    return metricDirection(tag) == MetricDirection::HigherIsBetter;
}

bool RunsTableModel::wellKnownMetric(const QString &tag)
{
    return metricDirection(tag) != MetricDirection::Unknown;
}

bool RunsTableModel::bestIsMax(const QString &tag) const
{
    return m_bestIsMax.value(tag, guessBestIsMax(tag));
}

void RunsTableModel::setBestIsMax(const QString &tag, bool max)
{
    m_bestIsMax.insert(tag, max);
    const int c = metricColumn(tag, Stat::Best);
    if (c >= 0 && rowCount() > 0) {
        Q_EMIT dataChanged(index(0, c), index(rowCount() - 1, c));
        Q_EMIT headerDataChanged(Qt::Horizontal, c, c);
    }
}

void RunsTableModel::clear()
{
    setRuns({}, {}, {});
}

void RunsTableModel::setRuns(QList<ExperimentRunInfo> runs, const std::vector<RunParam> &params,
    const std::vector<SeriesSummary> &series)
{
    beginResetModel();
    m_runs = std::move(runs);
    m_rowOfRun.clear();
    for (int r = 0; r < m_runs.size(); ++r)
        m_rowOfRun.insert(m_runs[r].id, r);
    m_params.assign(size_t(m_runs.size()), {});
    m_series.assign(size_t(m_runs.size()), {});
    QSet<QString> paramKeys, metricKeys;
    for (const RunParam &p : params) {
        const int row = m_rowOfRun.value(p.runId, -1);
        if (row < 0)
            continue;
        m_params[size_t(row)].insert(p.key, p);
        paramKeys.insert(p.key);
    }
    for (const SeriesSummary &s : series) {
        const int row = m_rowOfRun.value(s.runId, -1);
        if (row < 0 || s.histogram)
            continue;
        m_series[size_t(row)].insert(s.key, s);
        metricKeys.insert(s.key);
    }
    m_paramKeys = QStringList(paramKeys.begin(), paramKeys.end());
    m_metricKeys = QStringList(metricKeys.begin(), metricKeys.end());
    m_paramKeys.sort();
    m_metricKeys.sort();
    m_columns.resize(FixedColumnCount);
    for (const QString &k : std::as_const(m_paramKeys))
        m_columns << ColumnInfo { Kind::Param, k, Stat::Last };
    for (const QString &k : std::as_const(m_metricKeys))
        for (Stat s : { Stat::Last, Stat::Best, Stat::Min })
            m_columns << ColumnInfo { Kind::Metric, k, s };
    rebuildGroups();
    endResetModel();
}

void RunsTableModel::setGroupBy(const QString &key)
{
    if (key == m_groupBy)
        return;
    beginResetModel();
    m_groupBy = key;
    rebuildGroups();
    endResetModel();
}

QString RunsTableModel::groupValue(int row) const
{
    const auto it = m_params[size_t(row)].constFind(m_groupBy);
    return it == m_params[size_t(row)].cend() ? kNoGroup : it->value;
}

void RunsTableModel::rebuildGroups()
{
    m_groups.clear();
    if (m_groupBy.isEmpty())
        return;
    QHash<QString, int> groupOf;
    for (int r = 0; r < m_runs.size(); ++r) {
        const QString v = groupValue(r);
        auto it = groupOf.find(v);
        if (it == groupOf.end()) {
            it = groupOf.insert(v, int(m_groups.size()));
            m_groups << Group { v, {} };
        }
        m_groups[*it].rows << r;
    }
}

QList<int> RunsTableModel::groupMembers(int headerRow) const
{
    const int g = headerRow - int(m_runs.size());
    return g >= 0 && g < m_groups.size() ? m_groups[g].rows : QList<int>();
}

int RunsTableModel::paramColumn(const QString &key) const
{
    const qsizetype i = m_paramKeys.indexOf(key);
    return i < 0 ? -1 : FixedColumnCount + int(i);
}

int RunsTableModel::metricColumn(const QString &tag, Stat stat) const
{
    const qsizetype i = m_metricKeys.indexOf(tag);
    return i < 0 ? -1 : FixedColumnCount + int(m_paramKeys.size()) + 3 * int(i) + int(stat);
}

QStringList RunsTableModel::varyingParamKeys() const
{
    QStringList out;
    for (const QString &k : m_paramKeys) {
        QSet<QString> values;
        for (const auto &p : m_params) {
            const auto it = p.constFind(k);
            values.insert(it == p.cend() ? kNoGroup : it->value);
            if (values.size() > 1)
                break;
        }
        if (values.size() > 1)
            out << k;
    }
    return out;
}

QList<int> RunsTableModel::defaultColumns() const
{
    QList<int> out;
    for (int c = 0; c < FixedColumnCount; ++c) {
        // Fixed columns that no run fills (no group, no parent, no restart) stay hidden.
        bool any = c == NameColumn;
        for (int r = 0; r < m_runs.size() && !any; ++r)
            any = c == RestartsColumn ? m_runs[r].restarts > 0 : value(r, c).isValid();
        if (any)
            out << c;
    }
    const QStringList varying = varyingParamKeys();
    for (qsizetype i = 0; i < std::min<qsizetype>(varying.size(), kDefaultParams); ++i)
        out << paramColumn(varying[i]);
    // Loss- and score-like tags first, then the rest by name.
    QStringList tags = m_metricKeys;
    std::stable_sort(tags.begin(), tags.end(),
        [](const QString &a, const QString &b) { return wellKnownMetric(a) > wellKnownMetric(b); });
    for (qsizetype i = 0; i < std::min<qsizetype>(tags.size(), kDefaultMetrics); ++i) {
        out << metricColumn(tags[i], Stat::Last);
        out << metricColumn(tags[i], Stat::Best);
    }
    return out;
}

QString RunsTableModel::filterText(int row) const
{
    if (isHeader(row))
        return {};
    const ExperimentRunInfo &r = m_runs[row];
    QString text = r.name + u'\n' + r.groupName + u'\n' + raw(row, ParentColumn);
    for (const RunParam &p : m_params[size_t(row)])
        text += u'\n' + p.key + u'=' + p.value;
    return text;
}

int RunsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size() + m_groups.size());
}

int RunsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant RunsTableModel::value(int row, int column) const
{
    const ExperimentRunInfo &r = m_runs[row];
    const ColumnInfo &info = m_columns[column];
    switch (info.kind) {
    case Kind::Fixed:
        switch (Column(column)) {
        case NameColumn:
            return r.name;
        case StatusColumn:
            return r.status.isEmpty() ? QVariant() : QVariant(r.status);
        case GroupColumn:
            return r.groupName.isEmpty() ? QVariant() : QVariant(r.groupName);
        case ParentColumn: {
            const int p = m_rowOfRun.value(r.parentRunId, -1);
            return p < 0 ? QVariant() : QVariant(m_runs[p].name);
        }
        case StartColumn:
            return r.startNs > 0 ? QVariant(double(r.startNs)) : QVariant();
        case DurationColumn:
            return r.startNs > 0 && r.endNs >= r.startNs ? QVariant(double(r.endNs - r.startNs)) : QVariant();
        case RestartsColumn:
            return double(r.restarts);
        case FixedColumnCount:
            break;
        }
        return {};
    case Kind::Param: {
        const auto it = m_params[size_t(row)].constFind(info.key);
        if (it == m_params[size_t(row)].cend())
            return {};
        if (it->kind == QLatin1String("number")) {
            bool ok = false;
            const double v = it->value.toDouble(&ok);
            if (ok)
                return v;
        }
        return it->value;
    }
    case Kind::Metric: {
        const auto it = m_series[size_t(row)].constFind(info.key);
        if (it == m_series[size_t(row)].cend())
            return {};
        const SeriesSummary &s = *it;
        switch (info.stat) {
        case Stat::Last:
            return s.lastValue;
        case Stat::Best:
            if (!s.hasValues)
                return {};
            return bestIsMax(info.key) ? s.maxValue : s.minValue;
        case Stat::Min:
            return s.hasValues ? QVariant(s.minValue) : QVariant();
        }
        return {};
    }
    }
    return {};
}

QString RunsTableModel::display(int row, int column) const
{
    const QVariant v = value(row, column);
    if (!v.isValid())
        return {};
    if (column == StartColumn)
        return text::dateTime(int64_t(v.toDouble()));
    if (column == DurationColumn)
        return formatDuration(int64_t(v.toDouble()));
    if (column == RestartsColumn)
        return v.toDouble() > 0 ? QString::number(int64_t(v.toDouble())) : QString();
    if (v.typeId() == QMetaType::Double)
        return m_columns[column].kind == Kind::Param ? m_params[size_t(row)][m_columns[column].key].value
                                                     : number(v.toDouble());
    return v.toString();
}

QString RunsTableModel::raw(int row, int column) const
{
    const QVariant v = value(row, column);
    if (!v.isValid())
        return {};
    if (column == StartColumn || column == DurationColumn || column == RestartsColumn)
        return QString::number(int64_t(v.toDouble()));
    if (m_columns[column].kind == Kind::Param)
        return m_params[size_t(row)][m_columns[column].key].value;
    if (v.typeId() == QMetaType::Double)
        return QString::number(v.toDouble(), 'g', 17);
    return v.toString();
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row(), column = index.column();
    if (isHeader(row)) {
        const Group &g = m_groups[row - int(m_runs.size())];
        switch (role) {
        case Qt::DisplayRole:
            return column == NameColumn
                ? tr("%1 = %2 (%3)")
                      .arg(m_groupBy, g.value, text::counted(g.rows.size(), tr("run"), tr("runs")))
                : QVariant();
        case Qt::FontRole: {
            QFont f;
            f.setBold(true);
            return f;
        }
        case Qt::ToolTipRole:
            return column == NameColumn ? tr("Select this row to select every run of the group") : QVariant();
        case RunIdRole:
            return qlonglong(-1);
        case HeaderRole:
            return true;
        case GroupRole:
            return g.value;
        case GroupSortRole: {
            bool ok = false;
            const double v = g.value.toDouble(&ok);
            return ok ? QVariant(v) : QVariant(g.value);
        }
        default: // SortRole included: a group row has no sort value
            return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case Qt::ToolTipRole:
        if (column == NameColumn)
            return m_runs[row].path.isEmpty() ? m_runs[row].name : m_runs[row].path;
        return {};
    case Qt::TextAlignmentRole: {
        const QVariant v = value(row, column);
        if (v.typeId() == QMetaType::Double && column != StartColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    case SortRole:
        return value(row, column);
    case RunIdRole:
        return qlonglong(m_runs[row].id);
    case HeaderRole:
        return false;
    case GroupRole:
        return m_groupBy.isEmpty() ? QVariant() : QVariant(groupValue(row));
    case GroupSortRole: {
        if (m_groupBy.isEmpty())
            return {};
        const QString g = groupValue(row);
        bool ok = false;
        const double v = g.toDouble(&ok);
        return ok ? QVariant(v) : QVariant(g);
    }
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return {};
    const ColumnInfo &info = m_columns[section];
    if (role == Qt::DisplayRole) {
        switch (info.kind) {
        case Kind::Fixed: {
            static const char *names[] = { QT_TR_NOOP("Name"), QT_TR_NOOP("Status"), QT_TR_NOOP("Group"),
                QT_TR_NOOP("Parent"), QT_TR_NOOP("Start"), QT_TR_NOOP("Duration"), QT_TR_NOOP("Restarts") };
            return tr(names[section]);
        }
        case Kind::Param:
            return info.key;
        case Kind::Metric:
            if (info.stat == Stat::Best)
                return tr("%1 best %2")
                    .arg(info.key, bestIsMax(info.key) ? QStringLiteral("↑") : QStringLiteral("↓"));
            return tr("%1 %2").arg(info.key, statName(info.stat));
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (info.kind) {
        case Kind::Fixed:
            return {};
        case Kind::Param:
            return tr("Param %1").arg(info.key);
        case Kind::Metric:
            switch (info.stat) {
            case Stat::Last:
                return tr("%1: the last value logged (of the last segment after a restart)").arg(info.key);
            case Stat::Best:
                return tr("%1: the best value logged, the %2 (change it from the header's menu)")
                    .arg(info.key, bestIsMax(info.key) ? tr("maximum") : tr("minimum"));
            case Stat::Min:
                return tr("%1: the smallest finite value logged").arg(info.key);
            }
        }
    }
    return {};
}

QList<QStringList> RunsTableModel::records(const QList<int> &rows, const QList<int> &columns) const
{
    QList<QStringList> out;
    QStringList header;
    for (int c : columns) {
        QString h = headerData(c, Qt::Horizontal).toString();
        if (c == StartColumn)
            h = tr("Start (epoch ns)");
        else if (c == DurationColumn)
            h = tr("Duration (ns)");
        else if (m_columns[c].kind == Kind::Metric && m_columns[c].stat == Stat::Best)
            h = tr("%1 best (%2)").arg(m_columns[c].key, bestIsMax(m_columns[c].key) ? tr("max") : tr("min"));
        header << h;
    }
    out << header;
    for (int r : rows) {
        if (r < 0 || isHeader(r))
            continue;
        QStringList record;
        for (int c : columns)
            record << raw(r, c);
        out << record;
    }
    return out;
}

} // namespace plumb
