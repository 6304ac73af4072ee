// SPDX-License-Identifier: GPL-3.0-or-later
// goodput.h in words and named figures: badput buckets' names, titles and remedies, the quantities
// objectives read, spans for people and the one-sentence advice.
#include "analysis/goodput.h"

#include <cmath>

namespace plumb {

QString badputName(Badput b)
{
    switch (b) {
    case Badput::Provisioning:
        return QStringLiteral("provisioning");
    case Badput::AcceleratorInit:
        return QStringLiteral("accelerator_init");
    case Badput::TrainingPrep:
        return QStringLiteral("training_prep");
    case Badput::ProgramStartup:
        return QStringLiteral("program_startup");
    case Badput::DataLoading:
        return QStringLiteral("data_loading");
    case Badput::CheckpointSave:
        return QStringLiteral("checkpoint_save");
    case Badput::CheckpointRestore:
        return QStringLiteral("checkpoint_restore");
    case Badput::WastedProgress:
        return QStringLiteral("wasted_progress");
    case Badput::DisruptionRecovery:
        return QStringLiteral("disruption_recovery");
    case Badput::Custom:
        return QStringLiteral("custom");
    case Badput::Other:
        return QStringLiteral("other");
    }
    return {};
}

QString badputTitle(Badput b)
{
    switch (b) {
    case Badput::Provisioning:
        return QStringLiteral("Provisioning");
    case Badput::AcceleratorInit:
        return QStringLiteral("Accelerator init");
    case Badput::TrainingPrep:
        return QStringLiteral("Training prep");
    case Badput::ProgramStartup:
        return QStringLiteral("Program startup");
    case Badput::DataLoading:
        return QStringLiteral("Data loading");
    case Badput::CheckpointSave:
        return QStringLiteral("Checkpoint save");
    case Badput::CheckpointRestore:
        return QStringLiteral("Checkpoint restore");
    case Badput::WastedProgress:
        return QStringLiteral("Wasted progress");
    case Badput::DisruptionRecovery:
        return QStringLiteral("Disruption recovery");
    case Badput::Custom:
        return QStringLiteral("Custom");
    case Badput::Other:
        return QStringLiteral("Other");
    }
    return {};
}

QString badputRemedy(Badput b)
{
    switch (b) {
    case Badput::Provisioning:
        return QStringLiteral(
            "Reserve capacity or keep a warm pool of nodes, so that requests do not queue.");
    case Badput::AcceleratorInit:
        return QStringLiteral(
            "Cache container images and compiled programs, and initialise devices while the data "
            "pipeline and checkpoint manager are set up.");
    case Badput::TrainingPrep:
        return QStringLiteral(
            "Overlap model and optimiser setup with the data pipeline's warm-up, and restore "
            "state lazily.");
    case Badput::ProgramStartup:
        return QStringLiteral(
            "Use a persistent compilation cache (XLA, torch.compile) so that a restart does not "
            "compile again.");
    case Badput::DataLoading:
        return QStringLiteral(
            "Prefetch more batches and give the data loader more workers, so that steps never "
            "wait for input.");
    case Badput::CheckpointSave:
        return QStringLiteral(
            "Save asynchronously (Orbax, torch.distributed.checkpoint async_save), or less often "
            "when disruptions are rare.");
    case Badput::CheckpointRestore:
        return QStringLiteral("Restore faster: read in parallel from local or regional storage, or keep an "
                              "in-memory copy of the last checkpoint on spare hosts.");
    case Badput::WastedProgress:
        return QStringLiteral(
            "Checkpoint more often: the interval that loses least is about the square root of "
            "2 x save time x mean time between disruptions (Young/Daly).");
    case Badput::DisruptionRecovery:
        return QStringLiteral(
            "Restart automatically and sooner: hot spares, faster rescheduling, and a health "
            "check that fails fast.");
    case Badput::Custom:
        return QStringLiteral(
            "The custom events mark time your own code called unproductive: see their types in "
            "the table.");
    case Badput::Other:
        return QStringLiteral(
            "The log does not say what this time was: add lifecycle events or a trace to see it.");
    }
    return {};
}

std::optional<double> goodputQuantity(const GoodputReport &r, const QString &name)
{
    if (!r.valid())
        return std::nullopt;
    if (name == QLatin1String("goodput"))
        return r.goodput;
    if (name == QLatin1String("scheduling_goodput"))
        return r.schedulingGoodput;
    if (name == QLatin1String("runtime_goodput"))
        return r.runtimeGoodput;
    if (name == QLatin1String("program_goodput"))
        return r.programGoodput;
    if (name == QLatin1String("elapsed_s"))
        return double(r.elapsedNs) / 1e9;
    if (name == QLatin1String("productive_s"))
        return double(r.productiveNs) / 1e9;
    if (name == QLatin1String("available_s"))
        return double(r.availableNs) / 1e9;
    if (name == QLatin1String("disruptions"))
        return double(r.disruptions);
    if (name == QLatin1String("ideal_step_s"))
        return r.idealStepNs > 0 ? std::optional<double>(double(r.idealStepNs) / 1e9) : std::nullopt;
    if (name == QLatin1String("step_time_deviation"))
        return r.idealStepNs > 0 ? std::optional<double>(r.stepTimeDeviation) : std::nullopt;
    if (name == QLatin1String("badput"))
        return 1.0 - r.goodput;
    if (name.startsWith(QLatin1String("badput."))) {
        QString bucket = name.mid(7);
        const bool seconds = bucket.endsWith(QLatin1String("_s"));
        if (seconds)
            bucket.chop(2);
        for (int b = 0; b < kBadputCount; ++b)
            if (badputName(Badput(b)) == bucket)
                return seconds ? double(r.badputNs[size_t(b)]) / 1e9 : r.badputShare(Badput(b));
    }
    return std::nullopt;
}

QStringList goodputQuantityNames()
{
    QStringList names { QStringLiteral("goodput"), QStringLiteral("scheduling_goodput"),
        QStringLiteral("runtime_goodput"), QStringLiteral("program_goodput"), QStringLiteral("elapsed_s"),
        QStringLiteral("productive_s"), QStringLiteral("available_s"), QStringLiteral("disruptions"),
        QStringLiteral("ideal_step_s"), QStringLiteral("step_time_deviation"), QStringLiteral("badput") };
    for (int b = 0; b < kBadputCount; ++b) {
        names << QStringLiteral("badput.") + badputName(Badput(b));
        names << QStringLiteral("badput.") + badputName(Badput(b)) + QStringLiteral("_s");
    }
    return names;
}

QString spanText(int64_t ns)
{
    const double s = double(ns) / 1e9;
    if (std::fabs(s) < 1)
        return QStringLiteral("%1 ms").arg(double(ns) / 1e6, 0, 'f', 0);
    if (std::fabs(s) < 100)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    if (std::fabs(s) < 6000)
        return QStringLiteral("%1 min").arg(s / 60, 0, 'f', 1);
    return QStringLiteral("%1 h").arg(s / 3600, 0, 'f', 1);
}

QString goodputAdvice(const GoodputReport &r)
{
    const std::optional<Badput> b = r.largestBadput();
    if (!r.valid() || !b)
        return {};
    QString text = QStringLiteral("%1 is the largest badput: %2% of the job (%3). ")
                       .arg(badputTitle(*b))
                       .arg(100.0 * r.badputShare(*b), 0, 'f', 1)
                       .arg(spanText(r.badputNs[size_t(*b)]));
    text += badputRemedy(*b);
    if (*b == Badput::WastedProgress && r.disruptions > 0 && r.meanCheckpointSaveNs > 0) {
        const double mtbf = double(r.elapsedNs) / double(r.disruptions);
        const double best = std::sqrt(2.0 * double(r.meanCheckpointSaveNs) * mtbf);
        text += QStringLiteral(
            " Here a save takes %1 and a disruption came every %2: checkpoint about every %3.")
                    .arg(spanText(r.meanCheckpointSaveNs), spanText(int64_t(mtbf)), spanText(int64_t(best)));
    }
    return text;
}
} // namespace plumb
