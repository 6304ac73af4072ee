// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/trialtable.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;

// Configuration diff: two or more runs side by side, the first one the baseline. Rows are the runs'
// params (hyperparameters, tags, environment and library versions are all params in the workspace),
// grouped by what they are; each row holds every run's value and whether they differ (a param that
// one run lacks differs). Metric rows hold each run's last and best value of a scalar tag, the change
// of the last value from the baseline, and which run is better by the tag's direction.
struct ConfigDiff {
    // Display order. SystemTags: MLflow's own tags (mlflow.*: run name, user, source, git commit).
    // Environment: params and tags named like environment or library versions (see configRowGroup()).
    enum class Group { Params, Tags, SystemTags, Environment };

    struct Row {
        Group group = Group::Params;
        QString key;
        std::vector<std::optional<QString>> values; // per run; nullopt: the run has no such param
        bool differs = false;
    };

    struct MetricRow {
        QString key;
        MetricDirection direction = MetricDirection::Unknown;
        // Per run; NaN where the run has no finite value (or, for best, the direction is Unknown).
        std::vector<double> last;
        std::vector<double> best;
        std::vector<bool> present; // the run has this series at all
        std::vector<double> delta; // last - baseline's last; NaN where either is missing
        std::vector<double> deltaPercent; // delta / |baseline's last| x 100; NaN where that is 0 or missing
        std::vector<bool> better; // the run(s) with the best last value; none when Unknown or all equal
        bool differs = false; // last values not all equal, or missing in some run
    };

    QList<ExperimentRunInfo> runs; // as asked; runs[0] is the baseline
    std::vector<Row> rows; // by group, then key
    std::vector<MetricRow> metrics; // by key
};

[[nodiscard]] QString groupName(ConfigDiff::Group group);

// A metric value for display: 6 significant digits, "inf", "-inf", "nan".
[[nodiscard]] QString metricText(double value);
// A change from the baseline: "+2.875 (+23.0%)", without the percentage when it is NaN; "" when
// the change is NaN or none.
[[nodiscard]] QString deltaText(double delta, double percent);

// The group a param falls in: MLflow tags named mlflow.* are SystemTags; keys that name an
// environment or a library version (env., environment., system., sys., versions., platform.,
// packages., pip., conda. prefixes; _version, .version, /version suffixes; python, torch,
// tensorflow, jax, cuda, cudnn, nccl, numpy, transformers, hostname, platform, os, gpu, driver as a
// whole key or first part) are Environment, whatever their kind; other tags are Tags, the rest Params.
[[nodiscard]] ConfigDiff::Group configRowGroup(const RunParam &param);

// The diff of the table's runs (in its order), every row included; differs says which to show.
[[nodiscard]] ConfigDiff diffConfigs(const TrialTable &table);
// Reads the runs (ids, baseline first) and diffs them.
[[nodiscard]] ConfigDiff diffConfigs(Workspace &workspace, const QList<int64_t> &runIds);

// The runs' names without the folders they all share ("sweep/version_0", "sweep/version_1" ->
// "version_0", "version_1"), for column headers; `common` gets the shared part ("sweep/").
[[nodiscard]] QStringList shortRunNames(const QList<ExperimentRunInfo> &runs, QString *common = nullptr);

// Resolving the experiment runs a user named on the command line: selectRuns() (store/runselection.h)
// among `runs`. An ambiguous or unknown name is an error that lists the candidates.
struct RunLookup {
    QList<int64_t> ids;
    QString error;
};
[[nodiscard]] RunLookup resolveRuns(const QList<ExperimentRunInfo> &runs, const QStringList &specs);

} // namespace plumb
