// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;

// What a job lifecycle log says happened (the lifecycle_event table). Phases have a start and an end;
// instants have endNs == startNs.
enum class LifecycleKind {
    JobStart, // a job (attempt) started; every start after the first is a restart
    JobEnd,
    Step, // step `step` started at startNs
    Interruption, // preemption, node failure, crash: the job lost its resources at startNs
    Restart, // the job started again (the same as a JobStart after the first)
    Provisioning, // resources requested .. all of them ready
    AcceleratorInit, // ml-goodput-measurement's tpu_init
    TrainingPrep,
    DataLoading, // blocking (synchronous) data loading
    CheckpointSave, // the blocking part of a save; `step`: the last step it holds
    CheckpointRestore,
    Custom, // a custom badput event; `label`: its type
};

[[nodiscard]] QString lifecycleKindName(LifecycleKind k); // the lifecycle_event.kind spelling
[[nodiscard]] std::optional<LifecycleKind> lifecycleKindFromName(const QString &name);
[[nodiscard]] bool isPhase(LifecycleKind k);

struct LifecycleEvent {
    LifecycleKind kind = LifecycleKind::Step;
    int64_t startNs = 0; // epoch ns
    int64_t endNs = 0; // phases; == startNs for instants
    int64_t step = -1; // steps and checkpoints; -1 when not said
    QString label; // custom: its type; interruption: the reason
};

// The buckets time that was not productive training goes to: those of Google's
// ml-goodput-measurement (BadputType), plus provisioning, which that library leaves to the scheduler.
enum class Badput {
    Provisioning, // waiting for requested resources (scheduling badput)
    AcceleratorInit,
    TrainingPrep,
    ProgramStartup, // attempt start to its first step not covered above, and the first step's
                    // time beyond the ideal step time (compilation)
    DataLoading,
    CheckpointSave,
    CheckpointRestore,
    WastedProgress, // steps done again after a disruption (progress since the last checkpoint)
                    // and steps cut short by one
    DisruptionRecovery, // from a disruption to the next attempt's start, less provisioning
    Custom,
    Other, // in the job's span, none of the above and no step
};
inline constexpr int kBadputCount = int(Badput::Other) + 1;

[[nodiscard]] QString badputName(Badput b); // "checkpoint_save": the name quantities use
[[nodiscard]] QString badputTitle(Badput b); // "Checkpoint save"
// What usually reduces it, one sentence.
[[nodiscard]] QString badputRemedy(Badput b);

struct GoodputOptions {
    double flopsPerStep = 0; // model FLOPs of one training step (all devices); 0: from the log
    double peakFlopsPerSecond = 0; // peak of all devices together; 0: from the log
    int64_t intervalNs = 0; // goodput over time: window length; 0 picks ~48 windows
};

// A stretch of the job's span and where its time went: productive training (category -1) or a
// Badput. Consecutive stretches of one category are merged.
struct GoodputSegment {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int category = -1;
    [[nodiscard]] bool productive() const { return category < 0; }
};

struct GoodputWindow {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t productiveNs = 0;
    int64_t availableNs = 0;
    std::array<int64_t, kBadputCount> badputNs {};
    [[nodiscard]] double goodput() const
    {
        return endNs > startNs ? double(productiveNs) / double(endNs - startNs) : 0;
    }
};

struct StepDeviation {
    int64_t step = 0;
    int64_t stepNs = 0; // the step's productive time (per step when a record covers several)
    int64_t deviationNs = 0; // stepNs - ideal
};

// Goodput and badput of one job. Every nanosecond of [startNs, endNs) is counted exactly once: to
// productive training or to one Badput bucket, by this precedence when several things overlap:
// provisioning, disruption recovery, checkpoint restore, checkpoint save, accelerator init, training
// prep, data loading, custom events, steps, program startup, other. Overlapping custom events of
// different types are not counted twice: the one that started first keeps the shared time.
struct GoodputReport {
    int64_t runId = 0;
    QString runName;
    QString basis; // "lifecycle log" or "experiment log (loss, wall time per step)"
    QString problem; // why nothing could be computed; empty when the report holds figures

    int64_t startNs = 0; // the job's span: first start (or request) .. last end (or last record)
    int64_t endNs = 0;
    int64_t elapsedNs = 0;
    int64_t availableNs = 0; // all requested resources there: elapsed less provisioning and the
                             // time from an interruption to resources ready again
    int64_t productiveNs = 0; // kept step time, less the badput inside steps
    std::array<int64_t, kBadputCount> badputNs {};
    std::map<QString, int64_t> customNs; // custom badput by type

    double schedulingGoodput = 0; // available / elapsed
    double runtimeGoodput = 0; // productive / available
    double goodput = 0; // productive / elapsed (ml-goodput-measurement's job goodput)
    std::optional<double> programGoodput; // achieved model FLOP/s during productive time / peak
    QString programBasis; // where its FLOPs and peak came from

    int disruptions = 0; // attempts that ended without the job ending (interruptions, restarts)
    int attempts = 0;
    int64_t productiveSteps = 0; // steps completed and kept
    int64_t wastedSteps = 0; // steps done again or cut short
    int64_t lastStep = -1;
    int checkpointSaves = 0;
    int64_t meanCheckpointSaveNs = 0; // of the saves' whole phases, overlaps or not
    int64_t idealStepNs = 0; // mean step time after dropping outliers (> median + 3 MAD)
    double stepTimeDeviation = 0; // mean |step time - ideal| / ideal over kept steps
    std::vector<StepDeviation> steps;

    std::vector<GoodputSegment> segments; // in time order, covering [startNs, endNs)
    std::vector<GoodputWindow> windows; // goodput over time
    std::vector<LifecycleEvent> markers; // instants to draw: starts, interruptions, checkpoints, end

    [[nodiscard]] bool valid() const { return problem.isEmpty() && elapsedNs > 0; }
    [[nodiscard]] double badputShare(Badput b) const
    {
        return elapsedNs > 0 ? double(badputNs[size_t(b)]) / double(elapsedNs) : 0;
    }
    // The largest bucket; nullopt when there is no badput.
    [[nodiscard]] std::optional<Badput> largestBadput() const;
};

// The analysis itself, on events in any order. Pure.
[[nodiscard]] GoodputReport analyzeGoodput(
    const std::vector<LifecycleEvent> &events, const GoodputOptions &options);

// The lifecycle events of a run (lifecycle_event), or, when it has none, step records derived from
// its experiment log: the wall time of each point of its longest scalar series, a restart where the
// series' segment changes (the step went backwards).
[[nodiscard]] std::vector<LifecycleEvent> lifecycleEvents(
    Workspace &ws, int64_t runId, QString *basis = nullptr);

// analyzeGoodput() of a run. FLOPs per step and peak come from `options`, else from the run's params
// (flops_per_step, peak_flops_per_second: a lifecycle log's job_info), else from a trace of the run
// (achieved over peak of its matrix and attention kernels, core/analysis/flops.h).
[[nodiscard]] GoodputReport computeGoodput(Workspace &ws, int64_t runId, const GoodputOptions &options = {});

struct GoodputRun {
    int64_t id = 0;
    QString name;
    bool lifecycle = false; // has lifecycle events; else a run with a scalar series
    int64_t events = 0; // lifecycle events, or points of its longest series
};
// Runs goodput can be computed for: those with lifecycle events first (newest first), then runs with
// scalar series (newest first).
[[nodiscard]] std::vector<GoodputRun> goodputRuns(Workspace &ws);

// A figure of the report by name, for objectives and scripts: goodput, scheduling_goodput,
// runtime_goodput, program_goodput (0..1), elapsed_s, productive_s, disruptions, ideal_step_s,
// step_time_deviation, badput.<bucket> (share 0..1) and badput.<bucket>_s; nullopt for an unknown
// name or a figure the report does not have.
[[nodiscard]] std::optional<double> goodputQuantity(const GoodputReport &r, const QString &name);
[[nodiscard]] QStringList goodputQuantityNames();

// A span for people: "850 ms", "12.5 s", "41 min", "3.2 h".
[[nodiscard]] QString spanText(int64_t ns);

// "Checkpoint save is the largest badput: 12% of the job (41 min). Save asynchronously ..." or empty.
[[nodiscard]] QString goodputAdvice(const GoodputReport &r);

} // namespace plumb
