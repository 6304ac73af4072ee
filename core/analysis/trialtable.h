// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/experimentreader.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Which way a metric improves, guessed from its name: the words of the tag (split at anything that
// is not a letter or digit) are matched against lists. Rates per unit of time (throughput,
// tokens_per_second, qps) are higher-is-better before "second" could make them time-like; then
// loss/error/perplexity-like words are lower-is-better, accuracy/f1/auc/score-like words
// higher-is-better, and latency/time/duration-like words lower-is-better. Anything else (hp_metric,
// lr, epoch) is Unknown: no best value, no mark.
enum class MetricDirection { Unknown, LowerIsBetter, HigherIsBetter };
[[nodiscard]] MetricDirection metricDirection(const QString &key);

// Which value of a run's series stands for the run: its last point, or its best one (the min or max
// over every finite point, by metricDirection(); NaN for a metric of Unknown direction).
enum class MetricStatistic { Last, Best };

// The runs given, each with its params by key and its scalar series by tag, as one trial of a
// search sees them: its own series and those of the runs beneath it (Keras writes train/ and
// validation/ as runs whose parent is the trial), prefixed by that run's folder name
// ("validation/epoch_accuracy"). Histograms are left out. What the config diff, the importance and
// the parallel coordinates read.
struct TrialTable {
    QList<ExperimentRunInfo> runs; // in the order asked for; ids that are not experiment runs dropped
    std::vector<QMap<QString, RunParam>> params; // per run (same index), by key
    std::vector<QMap<QString, SeriesSummary>> metrics; // per run, scalar series by (prefixed) tag

    [[nodiscard]] int size() const { return int(runs.size()); }
    // Every scalar tag any run has, sorted.
    [[nodiscard]] QStringList metricKeys() const;
    // Every param key any run has (tags included), sorted.
    [[nodiscard]] QStringList paramKeys() const;
    // The tag most runs have a finite value of (ties: a tag of known direction, then one measured on
    // held-out data such as val_loss over train_loss, then by name); the metric a page shows first.
    // Empty when there is none.
    [[nodiscard]] QString defaultMetric() const;
    // Run `run`'s value of `key` (NaN when it has no such series or no finite value).
    [[nodiscard]] double metricValue(int run, const QString &key, MetricStatistic statistic) const;
};

[[nodiscard]] TrialTable readTrialTable(Workspace &workspace, const QList<int64_t> &runIds);

// The value `statistic` picks from one series (NaN when there is none: no finite point, or Best of an
// Unknown direction).
[[nodiscard]] double seriesValue(
    const SeriesSummary &series, MetricStatistic statistic, MetricDirection direction);

// "12 alpha": how runs are named in tables and messages.
[[nodiscard]] QString runLabel(const ExperimentRunInfo &run);

} // namespace plumb
