// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/trialtable.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Which params move a metric, across the runs of a search: for each param, its Pearson correlation
// with the metric and its importance in a random forest of regression trees fitted to the metric.
//
// Runs: those with a finite value of the metric and at least one param that is not a tag (a sub-run
// that holds only series says nothing about the config). MLflow tags are not params here.
// Param values:
//  - numbers, and bools as 0/1, are numeric. A run without the param gets the mean of the runs that
//    have it (for the forest only; its correlation is over the runs that have it).
//  - anything else (strings, json, null, numbers mixed with strings) is categorical, one-hot
//    encoded: one 0/1 feature per value, "missing" a value of its own, and the importance of the
//    param the sum of its features'. One-hot rather than target encoding, because target encoding
//    feeds each run's own metric into its feature and, with a few dozen runs, makes any categorical
//    look predictive. Its "correlation" is the correlation ratio eta (0..1, unsigned): the share of
//    the metric's spread explained by the category means, square-rooted.
//  - a param with one value over every run is skipped as constant; a categorical one with a
//    different value in every run (an output folder, a run name) is skipped as an identifier.
// Forest: kTrees trees, each on a bootstrap sample of the runs, grown until leaves are pure or hold
// one run; at each node the best split (largest decrease of the sum of squared deviations) among a
// random subset of max(3, ceil(features / 3)) features (all of them when there are three or fewer:
// with a handful of params, a subset that leaves out the one that matters makes the node split on
// noise, and a third of the importance went to noise that way on a 3-param test). A param's importance is its
// mean decrease of impurity: the variance reduction of its splits weighted by the runs they split, normalised
// per tree to sum to 1, averaged over trees. Seeded with a fixed value: the same input gives the same
// figures.
struct ParamImportance {
    struct Entry {
        QString key;
        bool categorical = false;
        int levels = 0; // categorical: values seen (missing included); numeric: distinct values
        int runs = 0; // runs that have the param
        double correlation = 0; // numeric: Pearson r (NaN under 3 runs with it); categorical: eta
        double importance = 0; // 0..1, sums to 1 over entries (0 everywhere when the metric is constant)
    };
    struct Skipped {
        QString key;
        QString reason;
    };

    QString metric;
    MetricStatistic statistic = MetricStatistic::Last;
    int runs = 0; // runs used
    std::vector<Entry> entries; // by importance, highest first
    std::vector<Skipped> skipped; // by key
    QString reason; // why entries is empty, when it is
};

// One run's data for the importance: its params (tags included: they are dropped) and the target.
struct ImportanceSample {
    QList<RunParam> params;
    double target = 0;
};

inline constexpr int kImportanceTrees = 200;
inline constexpr int kMinImportanceRuns = 3;

[[nodiscard]] ParamImportance paramImportance(const std::vector<ImportanceSample> &samples);
// Over the table's runs, with `metric`'s value per run picked by `statistic`.
[[nodiscard]] ParamImportance paramImportance(
    const TrialTable &table, const QString &metric, MetricStatistic statistic);

// Pearson's r of two equally long series; NaN when shorter than 2 or either is constant.
[[nodiscard]] double pearson(const std::vector<double> &x, const std::vector<double> &y);

} // namespace plumb
