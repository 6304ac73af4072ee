// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/paramimportance.h"

#include <QHash>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace plumb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr uint64_t kSeed = 0x706c756d62ULL; // "plumb"
// A categorical param with a different value in every run, from this many runs on, is an identifier.
constexpr int kMinRunsForIdentifier = 5;
// Features tried per split, at least (all of them when there are fewer).
constexpr size_t kMinFeaturesPerSplit = 3;
// The level of a run without the param (no stored value starts with U+0001).
const QString kMissing = QStringLiteral("\u0001missing");

// splitmix64: small, and the same sequence on every platform (std distributions are not).
struct Rng {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return size_t(next() % n); }
};

struct Forest {
    const std::vector<std::vector<double>> &x; // [feature][sample]
    const std::vector<double> &y;
    size_t mtry;
    Rng rng;
    std::vector<double> gain; // per feature, this tree
    std::vector<size_t> order; // feature draw order scratch

    // Grows one node over the samples idx (bootstrap: indices repeat).
    void grow(std::vector<int> &idx)
    {
        const size_t n = idx.size();
        if (n < 2)
            return;
        double sum = 0, sumSq = 0;
        for (int i : idx) {
            sum += y[size_t(i)];
            sumSq += y[size_t(i)] * y[size_t(i)];
        }
        const double sse = sumSq - sum * sum / double(n);
        if (sse <= 1e-12 * (std::abs(sumSq) + 1e-300))
            return;
        // Draw features in random order; try the first mtry, and go on only while none could split.
        std::iota(order.begin(), order.end(), 0);
        double bestDecrease = 0;
        size_t bestFeature = 0;
        double bestThreshold = 0;
        bool found = false;
        std::vector<int> sorted = idx;
        for (size_t k = 0; k < order.size(); ++k) {
            std::swap(order[k], order[k + rng.below(order.size() - k)]);
            if (k >= mtry && found)
                break;
            const std::vector<double> &f = x[order[k]];
            std::sort(
                sorted.begin(), sorted.end(), [&f](int a, int b) { return f[size_t(a)] < f[size_t(b)]; });
            double lSum = 0, lSq = 0;
            for (size_t j = 0; j + 1 < n; ++j) {
                const double v = y[size_t(sorted[j])];
                lSum += v;
                lSq += v * v;
                const double here = f[size_t(sorted[j])], next = f[size_t(sorted[j + 1])];
                if (!(here < next))
                    continue;
                const double nl = double(j + 1), nr = double(n - j - 1);
                const double rSum = sum - lSum, rSq = sumSq - lSq;
                const double children = (lSq - lSum * lSum / nl) + (rSq - rSum * rSum / nr);
                const double decrease = sse - children;
                if (!found || decrease > bestDecrease) {
                    found = true;
                    bestDecrease = decrease;
                    bestFeature = order[k];
                    bestThreshold = here + (next - here) / 2;
                }
            }
        }
        if (!found)
            return; // every feature is constant over these samples
        gain[bestFeature] += std::max(0.0, bestDecrease);
        std::vector<int> left, right;
        const std::vector<double> &f = x[bestFeature];
        for (int i : idx)
            (f[size_t(i)] <= bestThreshold ? left : right).push_back(i);
        if (left.empty() || right.empty())
            return;
        grow(left);
        grow(right);
    }
};

double toNumber(const RunParam &p, bool *ok)
{
    if (p.kind == QLatin1String("bool")) {
        *ok = p.value == QLatin1String("true") || p.value == QLatin1String("false");
        return p.value == QLatin1String("true") ? 1 : 0;
    }
    if (p.kind != QLatin1String("number")) {
        *ok = false;
        return 0;
    }
    const double v = p.value.toDouble(ok);
    *ok = *ok && std::isfinite(v);
    return v;
}

} // namespace

double pearson(const std::vector<double> &x, const std::vector<double> &y)
{
    const size_t n = std::min(x.size(), y.size());
    if (n < 2)
        return kNaN;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= double(n);
    my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx <= 0 || syy <= 0)
        return kNaN;
    return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

ParamImportance paramImportance(const std::vector<ImportanceSample> &all)
{
    ParamImportance out;
    // Runs with a finite target and at least one param that is not a tag.
    std::vector<const ImportanceSample *> samples;
    for (const ImportanceSample &s : all) {
        if (!std::isfinite(s.target))
            continue;
        if (std::any_of(s.params.cbegin(), s.params.cend(),
                [](const RunParam &p) { return p.kind != QLatin1String("tag"); }))
            samples.push_back(&s);
    }
    out.runs = int(samples.size());
    if (out.runs < kMinImportanceRuns) {
        out.reason
            = QStringLiteral("needs at least %1 runs with both params and a value of the metric; %2 %3")
                  .arg(kMinImportanceRuns)
                  .arg(out.runs)
                  .arg(out.runs == 1 ? QStringLiteral("has") : QStringLiteral("have"));
        return out;
    }
    const size_t n = samples.size();
    std::vector<double> y(n);
    for (size_t i = 0; i < n; ++i)
        y[i] = samples[i]->target;

    // Param values by key, per sample.
    QMap<QString, std::vector<const RunParam *>> byKey;
    for (size_t i = 0; i < n; ++i)
        for (const RunParam &p : samples[i]->params) {
            if (p.kind == QLatin1String("tag"))
                continue;
            auto &v = byKey[p.key];
            if (v.empty())
                v.resize(n, nullptr);
            v[i] = &p;
        }

    std::vector<std::vector<double>> features; // [feature][sample]
    std::vector<size_t> featureEntry; // feature -> index in out.entries
    for (auto it = byKey.cbegin(); it != byKey.cend(); ++it) {
        const std::vector<const RunParam *> &values = it.value();
        ParamImportance::Entry e;
        e.key = it.key();
        std::vector<double> numbers(n, kNaN);
        bool numeric = true;
        QSet<double> distinct;
        for (size_t i = 0; i < n; ++i) {
            if (!values[i])
                continue;
            ++e.runs;
            bool ok = false;
            numbers[i] = toNumber(*values[i], &ok);
            numeric = numeric && ok;
            if (ok)
                distinct.insert(numbers[i]);
        }
        const bool someMissing = e.runs < int(n);
        // A number present in some runs only, with one value, says "set or not": a category.
        if (numeric && distinct.size() == 1 && someMissing)
            numeric = false;
        if (numeric) {
            e.levels = int(distinct.size());
            if (distinct.size() < 2) {
                out.skipped.push_back({ e.key, QStringLiteral("the same in every run") });
                continue;
            }
            std::vector<double> px, py;
            double mean = 0;
            for (size_t i = 0; i < n; ++i)
                if (!std::isnan(numbers[i])) {
                    px.push_back(numbers[i]);
                    py.push_back(y[i]);
                    mean += numbers[i];
                }
            mean /= double(px.size());
            e.correlation = px.size() >= 3 ? pearson(px, py) : kNaN;
            for (double &v : numbers)
                if (std::isnan(v))
                    v = mean;
            features.push_back(std::move(numbers));
            featureEntry.push_back(out.entries.size());
            out.entries.push_back(e);
            continue;
        }
        // Categorical: one-hot over its values, "missing" one of them.
        e.categorical = true;
        QMap<QString, std::vector<size_t>> levels;
        for (size_t i = 0; i < n; ++i)
            levels[values[i] ? values[i]->value : kMissing].push_back(i);
        e.levels = int(levels.size());
        if (levels.size() < 2) {
            out.skipped.push_back({ e.key, QStringLiteral("the same in every run") });
            continue;
        }
        if (size_t(levels.size()) == n && int(n) >= kMinRunsForIdentifier) {
            out.skipped.push_back({ e.key, QStringLiteral("a different value in every run") });
            continue;
        }
        double mean = std::accumulate(y.cbegin(), y.cend(), 0.0) / double(n), between = 0, total = 0;
        for (double v : y)
            total += (v - mean) * (v - mean);
        for (const std::vector<size_t> &members : levels) {
            double m = 0;
            for (size_t i : members)
                m += y[i];
            m /= double(members.size());
            between += double(members.size()) * (m - mean) * (m - mean);
            std::vector<double> f(n, 0);
            for (size_t i : members)
                f[i] = 1;
            features.push_back(std::move(f));
            featureEntry.push_back(out.entries.size());
            if (levels.size() == 2)
                break; // two levels: one indicator says it all
        }
        e.correlation = total > 0 ? std::sqrt(std::clamp(between / total, 0.0, 1.0)) : kNaN;
        out.entries.push_back(e);
    }
    std::sort(out.skipped.begin(), out.skipped.end(),
        [](const ParamImportance::Skipped &a, const ParamImportance::Skipped &b) { return a.key < b.key; });
    if (out.entries.empty()) {
        out.reason = QStringLiteral("no param varies across these %1 runs").arg(n);
        return out;
    }
    const double yMin = *std::min_element(y.cbegin(), y.cend()),
                 yMax = *std::max_element(y.cbegin(), y.cend());
    if (yMin == yMax) {
        out.reason = QStringLiteral("the metric is %1 in every run").arg(yMin);
        for (auto &e : out.entries)
            e.correlation = kNaN;
        return out;
    }

    const size_t p = features.size();
    Forest forest { features, y, std::max<size_t>(std::min<size_t>(kMinFeaturesPerSplit, p), (p + 2) / 3),
        Rng { kSeed }, std::vector<double>(p), std::vector<size_t>(p) };
    std::vector<double> featureImportance(p, 0);
    int trees = 0;
    for (int t = 0; t < kImportanceTrees; ++t) {
        std::vector<int> idx(n);
        for (size_t i = 0; i < n; ++i)
            idx[i] = int(forest.rng.below(n));
        std::fill(forest.gain.begin(), forest.gain.end(), 0);
        forest.grow(idx);
        const double total = std::accumulate(forest.gain.cbegin(), forest.gain.cend(), 0.0);
        if (total <= 0)
            continue; // a bootstrap of one repeated run: nothing to split
        for (size_t f = 0; f < p; ++f)
            featureImportance[f] += forest.gain[f] / total;
        ++trees;
    }
    double sum = 0;
    for (size_t f = 0; f < p; ++f) {
        out.entries[featureEntry[f]].importance += featureImportance[f];
        sum += featureImportance[f];
    }
    if (sum > 0 && trees > 0)
        for (auto &e : out.entries)
            e.importance /= sum;
    std::stable_sort(out.entries.begin(), out.entries.end(),
        [](const ParamImportance::Entry &a, const ParamImportance::Entry &b) {
            return a.importance > b.importance;
        });
    return out;
}

ParamImportance paramImportance(const TrialTable &table, const QString &metric, MetricStatistic statistic)
{
    std::vector<ImportanceSample> samples;
    for (int i = 0; i < table.size(); ++i) {
        ImportanceSample s;
        s.target = table.metricValue(i, metric, statistic);
        for (const RunParam &p : table.params[size_t(i)])
            s.params << p;
        samples.push_back(std::move(s));
    }
    ParamImportance out = paramImportance(samples);
    out.metric = metric;
    out.statistic = statistic;
    if (statistic == MetricStatistic::Best && metricDirection(metric) == MetricDirection::Unknown)
        out.reason
            = QStringLiteral("%1 has no known direction, so no best value: use its last value").arg(metric);
    return out;
}

} // namespace plumb
