// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/configdiffpresent.h"

#include "store/experimentreader.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <vector>

namespace plumb {

namespace {

// A param value on one line: line ends as \\n, cut to `width` characters with an ellipsis.
QString cell(const QString &value, int width)
{
    QString s = value;
    s.replace(u'\n', QStringLiteral("\\n"));
    return s.size() > width ? s.left(width - 1) + QChar(0x2026) : s;
}

QJsonValue jsonNumber(double v)
{
    if (std::isnan(v))
        return QJsonValue(QJsonValue::Null);
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return v;
}

} // namespace

ConfigDiffLookup readConfigDiff(Workspace &workspace, const QStringList &runs, bool allRows)
{
    ConfigDiffLookup out;
    out.presentation.allRows = allRows;
    const RunLookup lookup = resolveRuns(ExperimentReader(workspace).runs(), runs);
    if (!lookup.error.isEmpty()) {
        out.error = lookup.error;
        return out;
    }
    out.presentation.diff = diffConfigs(workspace, lookup.ids);
    return out;
}

QJsonObject configDiffJson(const ConfigDiffPresentation &p)
{
    static const char *const directionNames[] = { "unknown", "lower", "higher" };
    const ConfigDiff &d = p.diff;
    QJsonObject o;
    o[QStringLiteral("schema")] = QStringLiteral("plumb.config-diff/1");
    QJsonArray runs;
    for (const auto &r : d.runs)
        runs.append(
            QJsonObject { { QStringLiteral("id"), qint64(r.id) }, { QStringLiteral("name"), r.name } });
    o[QStringLiteral("runs")] = runs;
    o[QStringLiteral("all_rows")] = p.allRows;
    QJsonArray rows;
    for (const auto &r : d.rows) {
        if (!r.differs && !p.allRows)
            continue;
        QJsonArray values;
        for (const auto &v : r.values)
            values.append(v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null));
        rows.append(
            QJsonObject { { QStringLiteral("group"), groupName(r.group) }, { QStringLiteral("key"), r.key },
                { QStringLiteral("differs"), r.differs }, { QStringLiteral("values"), values } });
    }
    o[QStringLiteral("rows")] = rows;
    QJsonArray metrics;
    for (const auto &m : d.metrics) {
        if (!m.differs && !p.allRows)
            continue;
        QJsonArray last, best, delta, pct, better;
        for (size_t i = 0; i < m.last.size(); ++i) {
            last.append(jsonNumber(m.last[i]));
            best.append(jsonNumber(m.best[i]));
            delta.append(jsonNumber(m.delta[i]));
            pct.append(jsonNumber(m.deltaPercent[i]));
            better.append(bool(m.better[i]));
        }
        metrics.append(QJsonObject { { QStringLiteral("key"), m.key },
            { QStringLiteral("direction"), QLatin1String(directionNames[int(m.direction)]) },
            { QStringLiteral("differs"), m.differs }, { QStringLiteral("last"), last },
            { QStringLiteral("best"), best }, { QStringLiteral("delta"), delta },
            { QStringLiteral("delta_percent"), pct }, { QStringLiteral("better"), better } });
    }
    o[QStringLiteral("metrics")] = metrics;
    return o;
}

QString configDiffText(const ConfigDiffPresentation &p)
{
    const ConfigDiff &d = p.diff;
    QString out;
    // Text: a column per run, as wide as its widest cell (up to kMaxCell).
    constexpr int kMaxCell = 40, kMaxKey = 36;
    const size_t n = size_t(d.runs.size());
    if (n == 0)
        return out;
    std::vector<QStringList> table; // key column, then one cell per run; empty key: a heading
    auto heading = [&table](const QString &title) { table.push_back({ title }); };
    int differingRows = 0, differingMetrics = 0;
    QString common;
    const QStringList names = shortRunNames(d.runs, &common);
    out += QStringLiteral("%1 runs%2; the baseline is run %3 %4\n")
               .arg(n)
               .arg(common.isEmpty() ? QString() : QStringLiteral(" in ") + common)
               .arg(d.runs[0].id)
               .arg(names[0]);
    QStringList header { QString() };
    for (size_t i = 0; i < n; ++i)
        header
            << QStringLiteral("%1 %2").arg(d.runs[qsizetype(i)].id).arg(cell(names[qsizetype(i)], kMaxCell));
    table.push_back(header);
    int group = -1;
    for (const auto &r : d.rows) {
        differingRows += r.differs;
        if (!r.differs && !p.allRows)
            continue;
        if (int(r.group) != group) {
            group = int(r.group);
            heading(groupName(r.group));
        }
        QStringList line { (r.differs ? QStringLiteral("* ") : QStringLiteral("  ")) + cell(r.key, kMaxKey) };
        for (const auto &v : r.values)
            line << (!v ? QStringLiteral("-") : v->isEmpty() ? QStringLiteral("\"\"") : cell(*v, kMaxCell));
        table.push_back(line);
    }
    bool metricHeading = false;
    for (const auto &m : d.metrics) {
        differingMetrics += m.differs;
        if (!m.differs && !p.allRows)
            continue;
        if (!metricHeading) {
            heading(QStringLiteral("metrics: last value, change from the baseline; \u25b2/\u25bc marks the "
                                   "better run (higher/lower is better)"));
            metricHeading = true;
        }
        const QString mark = m.direction == MetricDirection::HigherIsBetter ? QStringLiteral(" \u25b2")
            : m.direction == MetricDirection::LowerIsBetter                 ? QStringLiteral(" \u25bc")
                                                                            : QString();
        QStringList line { (m.differs ? QStringLiteral("* ") : QStringLiteral("  ")) + cell(m.key, kMaxKey) };
        QStringList bestLine { QStringLiteral("    best") };
        bool bestDiffers = false;
        for (size_t i = 0; i < n; ++i) {
            if (!m.present[i]) {
                line << QStringLiteral("-");
                bestLine << QStringLiteral("-");
                continue;
            }
            QString c = metricText(m.last[i]);
            if (i > 0 && !deltaText(m.delta[i], m.deltaPercent[i]).isEmpty())
                c += u' ' + deltaText(m.delta[i], m.deltaPercent[i]);
            if (m.better[i])
                c += mark;
            line << c;
            bestLine << (std::isnan(m.best[i]) ? QStringLiteral("-") : metricText(m.best[i]));
            bestDiffers = bestDiffers || (!std::isnan(m.best[i]) && m.best[i] != m.last[i]);
        }
        table.push_back(line);
        if (bestDiffers)
            table.push_back(bestLine);
    }
    std::vector<int> width(n + 1, 0);
    for (const QStringList &line : table)
        if (line.size() > 1)
            for (qsizetype c = 0; c < line.size(); ++c)
                width[size_t(c)] = std::max<int>(width[size_t(c)], int(line[c].size()));
    for (const QStringList &line : table) {
        if (line.size() == 1) {
            out += line[0] + u'\n';
            continue;
        }
        QString text;
        for (qsizetype c = 0; c < line.size(); ++c)
            text += line[c].leftJustified(width[size_t(c)] + 2);
        while (text.endsWith(u' '))
            text.chop(1);
        out += text + u'\n';
    }
    out += QStringLiteral("%1 of %2 config rows and %3 of %4 metrics differ%5\n")
               .arg(differingRows)
               .arg(d.rows.size())
               .arg(differingMetrics)
               .arg(d.metrics.size())
               .arg(p.allRows ? QString() : QStringLiteral(" (--all shows every row)"));
    return out;
}

} // namespace plumb
