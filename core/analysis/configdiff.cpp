// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/configdiff.h"

#include "store/runselection.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool isEnvironmentKey(const QString &key)
{
    const QString k = key.toLower();
    for (const char *p : { "env.", "env/", "environment.", "environment/", "system.", "system/", "sys.",
             "versions.", "versions/", "version.", "platform.", "packages.", "package.", "pip.", "conda.",
             "library.", "libraries.", "lib." })
        if (k.startsWith(QLatin1String(p)))
            return true;
    for (const char *s : { "_version", ".version", "/version", "-version", "version_", "_ver" })
        if (k.endsWith(QLatin1String(s)))
            return true;
    // The whole key, or its first part ("torch.version", "cuda/available").
    static const QRegularExpression separators(QStringLiteral("[./:]"));
    const QString head = k.section(separators, 0, 0);
    for (const char *w :
        { "python", "torch", "pytorch", "tensorflow", "jax", "jaxlib", "cuda", "cudnn", "nccl", "numpy",
            "transformers", "lightning", "pytorch_lightning", "hostname", "host", "platform", "os", "gpu",
            "gpu_name", "gpus", "driver", "cpu", "git_commit", "git_sha", "commit" })
        if (head == QLatin1String(w))
            return true;
    return false;
}

bool sameValues(const std::vector<std::optional<QString>> &values)
{
    for (const auto &v : values)
        if (v != values.front())
            return false;
    return true;
}

} // namespace

QString groupName(ConfigDiff::Group group)
{
    switch (group) {
    case ConfigDiff::Group::Params:
        return QStringLiteral("params");
    case ConfigDiff::Group::Tags:
        return QStringLiteral("tags");
    case ConfigDiff::Group::SystemTags:
        return QStringLiteral("system tags");
    case ConfigDiff::Group::Environment:
        return QStringLiteral("environment");
    }
    return {};
}

QString metricText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 6);
}

QString deltaText(double delta, double percent)
{
    if (std::isnan(delta) || delta == 0)
        return {};
    QString s = (delta >= 0 ? QStringLiteral("+") : QString()) + QString::number(delta, 'g', 4);
    if (!std::isnan(percent))
        s += QStringLiteral(" (%1%2%)")
                 .arg(percent >= 0 ? QStringLiteral("+") : QString())
                 .arg(percent, 0, 'f', std::abs(percent) >= 100 ? 0 : 1);
    return s;
}

ConfigDiff::Group configRowGroup(const RunParam &param)
{
    const bool tag = param.kind == QLatin1String("tag");
    if (tag && param.key.startsWith(QLatin1String("mlflow.")))
        return ConfigDiff::Group::SystemTags;
    if (isEnvironmentKey(param.key))
        return ConfigDiff::Group::Environment;
    return tag ? ConfigDiff::Group::Tags : ConfigDiff::Group::Params;
}

ConfigDiff diffConfigs(const TrialTable &table)
{
    ConfigDiff d;
    d.runs = table.runs;
    const size_t n = size_t(table.size());
    if (n == 0)
        return d;
    for (const QString &key : table.paramKeys()) {
        ConfigDiff::Row row;
        row.key = key;
        row.values.resize(n);
        bool grouped = false;
        for (size_t i = 0; i < n; ++i) {
            const auto it = table.params[i].constFind(key);
            if (it == table.params[i].cend())
                continue;
            row.values[i] = it->value;
            // A key is a tag in one run and a param in another only across stores; the first decides.
            if (!grouped) {
                row.group = configRowGroup(*it);
                grouped = true;
            }
        }
        row.differs = !sameValues(row.values);
        d.rows.push_back(std::move(row));
    }
    std::stable_sort(d.rows.begin(), d.rows.end(),
        [](const ConfigDiff::Row &a, const ConfigDiff::Row &b) { return int(a.group) < int(b.group); });

    for (const QString &key : table.metricKeys()) {
        ConfigDiff::MetricRow m;
        m.key = key;
        m.direction = metricDirection(key);
        m.last.assign(n, kNaN);
        m.best.assign(n, kNaN);
        m.present.assign(n, false);
        m.delta.assign(n, kNaN);
        m.deltaPercent.assign(n, kNaN);
        m.better.assign(n, false);
        for (size_t i = 0; i < n; ++i) {
            const auto it = table.metrics[i].constFind(key);
            if (it == table.metrics[i].cend())
                continue;
            m.present[i] = true;
            if (!it->hasValues)
                continue;
            m.last[i] = it->lastValue; // may be NaN or ±inf, as logged
            m.best[i] = seriesValue(*it, MetricStatistic::Best, m.direction);
        }
        const double base = m.last[0];
        for (size_t i = 0; i < n; ++i) {
            if (std::isfinite(base) && std::isfinite(m.last[i])) {
                m.delta[i] = m.last[i] - base;
                if (base != 0)
                    m.deltaPercent[i] = 100 * m.delta[i] / std::abs(base);
            }
        }
        // Differs: a run without the series, or last values that are not all the same (NaN included).
        for (size_t i = 0; i < n && !m.differs; ++i) {
            const bool nanI = std::isnan(m.last[i]), nan0 = std::isnan(m.last[0]);
            m.differs = m.present[i] != m.present[0] || nanI != nan0 || (!nanI && m.last[i] != m.last[0]);
        }
        if (m.direction != MetricDirection::Unknown) {
            const bool lower = m.direction == MetricDirection::LowerIsBetter;
            double bestValue = kNaN;
            int finite = 0;
            for (double v : m.last)
                if (!std::isnan(v)) {
                    ++finite;
                    if (std::isnan(bestValue) || (lower ? v < bestValue : v > bestValue))
                        bestValue = v;
                }
            bool allEqual = true;
            for (double v : m.last)
                if (!std::isnan(v) && v != bestValue)
                    allEqual = false;
            // One run alone, or every run equal: nothing is better.
            if (finite >= 2 && !allEqual)
                for (size_t i = 0; i < n; ++i)
                    m.better[i] = m.last[i] == bestValue;
        }
        d.metrics.push_back(std::move(m));
    }
    return d;
}

ConfigDiff diffConfigs(Workspace &workspace, const QList<int64_t> &runIds)
{
    return diffConfigs(readTrialTable(workspace, runIds));
}

QStringList shortRunNames(const QList<ExperimentRunInfo> &runs, QString *common)
{
    QString prefix;
    if (runs.size() > 1) {
        prefix = runs.front().name;
        for (const auto &r : runs) {
            qsizetype i = 0;
            while (i < prefix.size() && i < r.name.size() && prefix[i] == r.name[i])
                ++i;
            prefix.truncate(i);
        }
        prefix.truncate(prefix.lastIndexOf(u'/') + 1); // whole folders only
        // A name that is all prefix ("a" beside "a/b") keeps its whole name.
        for (const auto &r : runs)
            if (r.name.size() == prefix.size())
                prefix.clear();
    }
    if (common)
        *common = prefix;
    QStringList out;
    for (const auto &r : runs)
        out << r.name.mid(prefix.size());
    return out;
}

RunLookup resolveRuns(const QList<ExperimentRunInfo> &runs, const QStringList &specs)
{
    std::vector<RunChoice> choices;
    choices.reserve(size_t(runs.size()));
    for (const ExperimentRunInfo &r : runs)
        choices.push_back({ r.id, r.name });
    RunSelection s = selectRuns(choices, specs, QStringLiteral("no experiment run %1"));
    return { std::move(s.ids), std::move(s.error) };
}

} // namespace plumb
