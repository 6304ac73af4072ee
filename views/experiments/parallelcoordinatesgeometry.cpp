// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiments/parallelcoordinatesgeometry.h"

#include <QCollator>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A string param with a different value in every run, from this many runs on, is an identifier.
constexpr int kMinRunsForIdentifier = 5;

QString tickText(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

void ParallelCoordinatesGeometry::setData(
    const TrialTable &table, const QList<AxisSpec> &specs, MetricStatistic statistic)
{
    std::vector<Axis> old = std::move(m_axes);
    const bool sameRuns = m_runs == table.size();
    m_axes.clear();
    m_runs = table.size();
    const size_t n = size_t(m_runs);
    for (const AxisSpec &spec : specs) {
        Axis a;
        a.spec = spec;
        a.pos.assign(n, kNaN);
        std::vector<double> values(n, kNaN);
        if (spec.metric) {
            for (size_t i = 0; i < n; ++i)
                values[i] = table.metricValue(int(i), spec.key, statistic);
        } else {
            std::vector<std::optional<QString>> text(n);
            bool numeric = true;
            for (size_t i = 0; i < n; ++i) {
                const auto it = table.params[i].constFind(spec.key);
                if (it == table.params[i].cend())
                    continue;
                text[i] = it->value;
                bool ok = false;
                const double v = it->value.toDouble(&ok);
                if (it->kind == QLatin1String("number") && ok && std::isfinite(v))
                    values[i] = v;
                else
                    numeric = false;
            }
            if (!numeric) {
                a.categorical = true;
                QSet<QString> distinct;
                for (const auto &t : text)
                    if (t)
                        distinct.insert(*t);
                a.categories = QStringList(distinct.cbegin(), distinct.cend());
                bool allNumbers = true;
                for (const QString &c : a.categories) {
                    bool ok = false;
                    c.toDouble(&ok);
                    allNumbers = allNumbers && ok;
                }
                if (allNumbers) {
                    std::sort(a.categories.begin(), a.categories.end(),
                        [](const QString &x, const QString &y) { return x.toDouble() < y.toDouble(); });
                } else {
                    QCollator collator;
                    collator.setNumericMode(true);
                    std::sort(a.categories.begin(), a.categories.end(), collator);
                }
                const qsizetype k = a.categories.size();
                for (size_t i = 0; i < n; ++i)
                    if (text[i]) {
                        const qsizetype c = a.categories.indexOf(*text[i]);
                        a.pos[i] = k == 1 ? 0.5 : double(c) / double(k - 1);
                    }
            }
        }
        if (!a.categorical) {
            bool any = false, positive = true;
            for (double v : values)
                if (!std::isnan(v)) {
                    a.min = any ? std::min(a.min, v) : v;
                    a.max = any ? std::max(a.max, v) : v;
                    positive = positive && v > 0;
                    any = true;
                }
            a.logScale = any && positive && a.max / a.min >= kLogRatio;
            for (size_t i = 0; i < n; ++i)
                if (!std::isnan(values[i]))
                    a.pos[i] = valueToPos(a, values[i]);
        }
        if (sameRuns)
            for (const Axis &o : old)
                if (o.spec == spec && o.categorical == a.categorical && o.categories == a.categories)
                    a.brush = o.brush;
        m_axes.push_back(std::move(a));
    }
}

void ParallelCoordinatesGeometry::setColorMetric(
    const TrialTable &table, const QString &key, MetricStatistic statistic)
{
    m_colorKey = key;
    m_color.assign(size_t(table.size()), kNaN);
    bool any = false;
    for (int i = 0; i < table.size(); ++i) {
        const double v = key.isEmpty() ? kNaN : table.metricValue(i, key, statistic);
        m_color[size_t(i)] = v;
        if (!std::isnan(v)) {
            m_colorMin = any ? std::min(m_colorMin, v) : v;
            m_colorMax = any ? std::max(m_colorMax, v) : v;
            any = true;
        }
    }
    if (!any)
        m_colorMin = m_colorMax = 0;
}

double ParallelCoordinatesGeometry::colorPos(int run) const
{
    if (run < 0 || size_t(run) >= m_color.size() || std::isnan(m_color[size_t(run)]))
        return kNaN;
    if (m_colorMax == m_colorMin)
        return 0.5;
    return (m_color[size_t(run)] - m_colorMin) / (m_colorMax - m_colorMin);
}

double ParallelCoordinatesGeometry::valueToPos(const Axis &a, double value)
{
    if (a.max == a.min)
        return 0.5;
    const double pos = a.logScale ? (std::log(value) - std::log(a.min)) / (std::log(a.max) - std::log(a.min))
                                  : (value - a.min) / (a.max - a.min);
    return std::clamp(pos, 0.0, 1.0);
}

double ParallelCoordinatesGeometry::posToValue(const Axis &a, double pos)
{
    if (a.max == a.min)
        return a.min;
    return a.logScale ? std::exp(std::log(a.min) + pos * (std::log(a.max) - std::log(a.min)))
                      : a.min + pos * (a.max - a.min);
}

std::vector<std::pair<double, QString>> ParallelCoordinatesGeometry::ticks(
    const Axis &a, int inner, int maxLabels)
{
    std::vector<std::pair<double, QString>> out;
    if (a.categorical) {
        const qsizetype k = a.categories.size();
        const qsizetype every = k > maxLabels ? (k + maxLabels - 1) / maxLabels : 1;
        for (qsizetype c = 0; c < k; c += every)
            out.emplace_back(k == 1 ? 0.5 : double(c) / double(k - 1), a.categories[c]);
        return out;
    }
    if (std::isnan(a.min) || (a.min == 0 && a.max == 0 && a.pos.empty()))
        return out;
    if (a.max == a.min) {
        out.emplace_back(0.5, tickText(a.min));
        return out;
    }
    if (a.logScale) {
        // Decades, with the ends: 1e-4, 1e-3, ... rather than 0.003162.
        out.emplace_back(0.0, tickText(a.min));
        for (double decade = std::pow(10.0, std::ceil(std::log10(a.min))); decade < a.max; decade *= 10) {
            const double pos = valueToPos(a, decade);
            if (pos > 0.04 && pos < 0.96)
                out.emplace_back(pos, tickText(decade));
        }
        out.emplace_back(1.0, tickText(a.max));
        return out;
    }
    for (int i = 0; i <= inner + 1; ++i) {
        const double pos = double(i) / double(inner + 1);
        out.emplace_back(pos, tickText(posToValue(a, pos)));
    }
    return out;
}

void ParallelCoordinatesGeometry::setBrush(int axis, double lo, double hi)
{
    if (axis < 0 || axis >= axisCount())
        return;
    if (lo > hi)
        std::swap(lo, hi);
    lo = std::clamp(lo, 0.0, 1.0);
    hi = std::clamp(hi, 0.0, 1.0);
    if (hi <= lo)
        m_axes[size_t(axis)].brush.reset();
    else
        m_axes[size_t(axis)].brush = std::make_pair(lo, hi);
}

void ParallelCoordinatesGeometry::clearBrush(int axis)
{
    if (axis >= 0 && axis < axisCount())
        m_axes[size_t(axis)].brush.reset();
}

void ParallelCoordinatesGeometry::clearBrushes()
{
    for (Axis &a : m_axes)
        a.brush.reset();
}

bool ParallelCoordinatesGeometry::hasBrushes() const
{
    return std::any_of(m_axes.cbegin(), m_axes.cend(), [](const Axis &a) { return a.brush.has_value(); });
}

bool ParallelCoordinatesGeometry::kept(int run) const
{
    if (run < 0 || run >= m_runs)
        return false;
    for (const Axis &a : m_axes) {
        if (!a.brush)
            continue;
        const double p = a.pos[size_t(run)];
        // Positions are computed, brushes dragged: allow a hair of rounding at the edges.
        constexpr double kEps = 1e-9;
        if (std::isnan(p) || p < a.brush->first - kEps || p > a.brush->second + kEps)
            return false;
    }
    return true;
}

QList<int> ParallelCoordinatesGeometry::keptRuns() const
{
    QList<int> out;
    for (int i = 0; i < m_runs; ++i)
        if (kept(i))
            out << i;
    return out;
}

double ParallelCoordinatesGeometry::axisX(int axis, int count, double left, double width)
{
    if (count <= 0)
        return left;
    return left + width * (double(axis) + 0.5) / double(count);
}

double ParallelCoordinatesGeometry::posToY(double pos, double top, double height)
{
    return top + (1 - pos) * height;
}

double ParallelCoordinatesGeometry::yToPos(double y, double top, double height)
{
    return height > 0 ? 1 - (y - top) / height : 0;
}

int ParallelCoordinatesGeometry::axisNear(double x, int count, double left, double width, double tolerance)
{
    if (count <= 0 || width <= 0)
        return -1;
    const int i = std::clamp(int(std::floor((x - left) / width * count)), 0, count - 1);
    return std::abs(x - axisX(i, count, left, width)) <= tolerance ? i : -1;
}

QStringList ParallelCoordinatesGeometry::varyingParams(const TrialTable &table, int limit)
{
    struct Candidate {
        QString key;
        int present;
        bool numeric;
        qsizetype values;
    };
    std::vector<Candidate> candidates;
    const int n = table.size();
    for (const QString &key : table.paramKeys()) {
        QSet<QString> values;
        int present = 0;
        bool tag = false, numeric = true;
        for (int i = 0; i < n; ++i) {
            const auto it = table.params[size_t(i)].constFind(key);
            if (it == table.params[size_t(i)].cend())
                continue;
            ++present;
            tag = tag || it->kind == QLatin1String("tag");
            numeric = numeric && it->kind == QLatin1String("number");
            values.insert(it->value);
        }
        if (tag || 2 * present < n)
            continue;
        const bool varies = values.size() > 1 || present < n;
        const bool identifier = !numeric && n >= kMinRunsForIdentifier && values.size() == n;
        if (varies && !identifier)
            candidates.push_back({ key, present, numeric, values.size() });
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
        if (a.present != b.present)
            return a.present > b.present;
        if (a.numeric != b.numeric)
            return a.numeric;
        return a.values > b.values;
    });
    if (int(candidates.size()) > limit)
        candidates.resize(size_t(limit));
    QStringList out;
    for (const Candidate &c : candidates)
        out << c.key;
    out.sort();
    return out;
}

} // namespace plumb
