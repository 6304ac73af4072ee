// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/temporalbreakdown.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// The doctor's verdict for a trace: which single component limits it, with the numbers that decided
// and the tunables that usually fix it; "inconclusive" with the runner-up when the evidence is weak or
// two components weigh about the same. Never a guess.
//
// How the GPU window is attributed: computation is its own component; exposed communication and
// exposed memcpy/memset are theirs; every stretch in which no GPU op runs (GPU idle) goes to what the
// host was doing then: fetching a batch (input pipeline), blocked in a synchronising call
// (synchronisation), or anything else (host/launch overhead: the CPU could not queue work fast enough).
// In a multi-rank run, the time a rank waits in collectives for the straggler (see rankcomparison.h)
// is the straggler's, not its own exposed communication: weighStraggler() moves it.
struct Verdict {
    enum class Component {
        InputPipeline,
        HostLaunch,
        Synchronization,
        MemoryCopies,
        ExposedCommunication,
        StragglerRank,
        GpuCompute,
        Inconclusive
    };
    struct Cost {
        Component component;
        int64_t ns = 0;
    };
    Component component = Component::Inconclusive;
    Component runnerUp = Component::Inconclusive;
    QString headline; // one sentence
    QStringList evidence; // the numbers that decided
    QStringList tunables; // what usually fixes it
    std::vector<Cost> costs; // every non-compute component, largest first
    // Where to look (trace time): the steps in which the named component (the top one when
    // inconclusive) cost most, else, without steps, the longest GPU idle stretches it explains.
    struct Where {
        int64_t startNs = 0;
        int64_t endNs = 0;
        QString label;
    };
    std::vector<Where> where;
    TemporalBreakdown breakdown;
    // The part of the ExposedCommunication cost that is GPU idle while the host was in MPI calls (the
    // rest is collective kernels running alone).
    int64_t hostCommunicationNs = 0;
    [[nodiscard]] int64_t costOf(Component c) const;
};

// A component must explain at least this share of the window to be named, and beat the next by
// this factor; computation is the limit when it fills at least kComputeBoundShare and nothing else
// qualifies.
constexpr double kMinLimitingShare = 0.15;
constexpr double kClearMargin = 1.25;
constexpr double kComputeBoundShare = 0.70;
// How many places Verdict::where lists.
constexpr int kWhereCount = 5;

[[nodiscard]] QString componentName(Verdict::Component c);
// `text` with "GPU" (and "GPUs") said as `noun` ("device" for an accelerator that is not a GPU, see
// deviceNoun()); unchanged when noun is "GPU".
[[nodiscard]] QString sayDevice(const QString &text, const QString &noun);
// The verdict's sentences (headline, evidence, tunables, where) through sayDevice(); its components
// keep their names (they are identifiers in the JSON outputs).
void sayDevice(Verdict &v, const QString &noun);
// What usually fixes a component (empty for Inconclusive).
[[nodiscard]] QStringList componentTunables(Verdict::Component c);
[[nodiscard]] Verdict diagnose(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode);
struct HostAnalysis;
struct KernelStats;
// The same over what was already read and computed (readGpuOps(), breakdownOf() of them, hostAnalysis(),
// and optionally kernelTable() of them, else computed when a compute-bound verdict names its kernels).
[[nodiscard]] Verdict diagnose(Workspace &ws, const std::vector<GpuOp> &ops,
    const TemporalBreakdown &breakdown, const HostAnalysis &host,
    const std::vector<KernelStats> *kernels = nullptr);

struct RankComparison;
// For a trace of a multi-rank run: when another rank is the straggler, the time this rank waited for
// it (its communication per step beyond the straggler's, times its steps, at most its exposed
// communication) becomes the straggler's cost and the verdict is decided again; when this rank is the
// straggler, the evidence says so. Nothing changes without a straggler.
// `kernels` is the trace's kernel table (kernelTable()), which names the top kernels of a compute-bound
// verdict.
void weighStraggler(Workspace &ws, const std::vector<KernelStats> &kernels, const RankComparison &ranks,
    int64_t traceId, Verdict &v);

} // namespace plumb
