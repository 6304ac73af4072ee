// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/verdict.h"

#include "analysis/hostanalysis.h"
#include "analysis/kerneltable.h"
#include "analysis/rankcomparison.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QRegularExpression>

#include <algorithm>

namespace plumb {

QString componentName(Verdict::Component c)
{
    switch (c) {
    case Verdict::Component::InputPipeline:
        return QStringLiteral("input pipeline");
    case Verdict::Component::HostLaunch:
        return QStringLiteral("host/launch overhead (CPU-bound)");
    case Verdict::Component::Synchronization:
        return QStringLiteral("synchronisation stalls");
    case Verdict::Component::MemoryCopies:
        return QStringLiteral("memory copies");
    case Verdict::Component::ExposedCommunication:
        return QStringLiteral("exposed communication");
    case Verdict::Component::StragglerRank:
        return QStringLiteral("straggler rank");
    case Verdict::Component::GpuCompute:
        return QStringLiteral("GPU compute");
    case Verdict::Component::Inconclusive:
        return QStringLiteral("inconclusive");
    }
    return {};
}

QString sayDevice(const QString &text, const QString &noun)
{
    if (noun == QLatin1String("GPU"))
        return text;
    static const QRegularExpression gpu(QStringLiteral("\\bGPU(s?)\\b"));
    QString out = text;
    return out.replace(gpu, noun + QStringLiteral("\\1"));
}

void sayDevice(Verdict &v, const QString &noun)
{
    if (noun == QLatin1String("GPU"))
        return;
    v.headline = sayDevice(v.headline, noun);
    for (QStringList *list : { &v.evidence, &v.tunables })
        for (QString &s : *list)
            s = sayDevice(s, noun);
    for (Verdict::Where &w : v.where)
        w.label = sayDevice(w.label, noun);
}

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// A blocking call that returns this shortly before the GPU goes idle still caused it.
constexpr int64_t kSyncSlackNs = 5'000;

// Length of [a, b) covered by the sorted, disjoint ranges.
int64_t overlap(int64_t a, int64_t b, const Intervals &ranges)
{
    auto it = std::upper_bound(
        ranges.begin(), ranges.end(), a, [](int64_t t, const auto &r) { return t < r.second; });
    int64_t covered = 0;
    for (; it != ranges.end() && it->first < b; ++it)
        covered += std::min(it->second, b) - std::max(it->first, a);
    return covered;
}

} // namespace

QStringList componentTunables(Verdict::Component c)
{
    switch (c) {
    case Verdict::Component::InputPipeline:
        return { QStringLiteral("more DataLoader workers (num_workers) and prefetch_factor"),
            QStringLiteral("pin_memory=True and non_blocking copies"),
            QStringLiteral("move decoding/augmentation off the training process or onto the GPU") };
    case Verdict::Component::HostLaunch:
        return { QStringLiteral("CUDA graphs or torch.compile to launch many small kernels at once"),
            QStringLiteral("larger batches or fused ops so each launch does more work"),
            QStringLiteral("remove Python work between ops in the hot loop") };
    case Verdict::Component::Synchronization:
        return { QStringLiteral("remove .item()/.cpu()/print of GPU tensors from the training loop"),
            QStringLiteral("replace cudaDeviceSynchronize/stream syncs with events where an order is needed"),
            QStringLiteral("log metrics every N steps, asynchronously") };
    case Verdict::Component::MemoryCopies:
        return { QStringLiteral("pinned host memory and non_blocking=True copies"),
            QStringLiteral("overlap copies with compute on a separate stream"),
            QStringLiteral("keep tensors on the GPU between steps") };
    case Verdict::Component::ExposedCommunication:
        return { QStringLiteral(
                     "overlap communication with backward (DDP bucket_cap_mb, gradient bucketing)"),
            QStringLiteral("fewer/larger collectives, or gradient accumulation"),
            QStringLiteral("check the interconnect (NCCL_* settings, topology)") };
    case Verdict::Component::StragglerRank:
        return {
            QStringLiteral(
                "rebalance the straggler's work (uneven data shards, sequence lengths or pipeline stages)"),
            QStringLiteral("check that rank's GPU and host (clocks, thermal throttling, a noisy neighbour)"),
            QStringLiteral("look at the straggler's own verdict: what slows it slows everyone")
        };
    case Verdict::Component::GpuCompute:
        return { QStringLiteral(
                     "the top kernels: mixed precision (bf16/fp16, TF32), fused kernels, better shapes"),
            QStringLiteral("torch.compile / kernel fusion"), QStringLiteral("more GPUs") };
    case Verdict::Component::Inconclusive:
        break;
    }
    return {};
}

namespace {

QStringList tunablesFor(Verdict::Component c)
{
    return componentTunables(c);
}

// Whether a blocking call returned within the idle stretch [s, e) (or just before it): the host
// waited instead of queueing work ahead. What the stretch is mostly: the input pipeline where the host
// was fetching a batch for most of it, else a synchronisation stall, else host/launch overhead.
bool syncStall(int64_t s, int64_t e, const std::vector<int64_t> &syncEnds)
{
    const auto it = std::lower_bound(syncEnds.begin(), syncEnds.end(), s - kSyncSlackNs);
    return it != syncEnds.end() && *it < e;
}

// The host's ranges an idle stretch is weighed against, each united: fetching input, in MPI calls.
struct HostRanges {
    Intervals input;
    Intervals communication;
};

HostRanges hostRangesOf(const HostAnalysis &host)
{
    return { uniteIntervals(host.inputPipeline.ranges), uniteIntervals(host.communication.ranges) };
}

Verdict::Component classifyGap(
    int64_t s, int64_t e, const HostRanges &host, const std::vector<int64_t> &syncEnds)
{
    if (2 * overlap(s, e, host.input) > e - s)
        return Verdict::Component::InputPipeline;
    if (2 * overlap(s, e, host.communication) > e - s)
        return Verdict::Component::ExposedCommunication;
    return syncStall(s, e, syncEnds) ? Verdict::Component::Synchronization : Verdict::Component::HostLaunch;
}

// An exposed-communication verdict that is mostly the host's MPI calls (the GPU window's own split shows
// that time as idle): its headline says so, and the remedies are MPI's, not NCCL's.
bool mpiMostly(const Verdict &v)
{
    return v.component == Verdict::Component::ExposedCommunication
        && v.hostCommunicationNs > v.breakdown.exposedCommNs;
}

QStringList mpiTunables()
{
    return { QStringLiteral(
                 "non-blocking MPI (MPI_Isend/MPI_Irecv, MPI_Iallreduce) waited on after the GPU work that "
                 "does not need the data is queued"),
        QStringLiteral("CUDA-aware MPI, or NCCL, to exchange GPU buffers without staging them on the host"),
        QStringLiteral("fewer, larger messages; check for a rank that arrives late at each exchange") };
}

// Decides from v.costs (any order) and v.breakdown: the component, runner-up, headline and tunables;
// with nameKernels, a compute-bound verdict names the top kernels (from `kernels` when given, the
// kernel table of the ops already computed; once).
void conclude(Workspace &ws, const std::vector<GpuOp> &ops, Verdict &v, bool nameKernels = true,
    const std::vector<KernelStats> *kernels = nullptr)
{
    using C = Verdict::Component;
    const TemporalBreakdown &b = v.breakdown;
    if (b.totalNs() <= 0) { // GPU ops that span no time: no share of a window can be given
        v.component = C::Inconclusive;
        v.headline = QStringLiteral("Inconclusive: the GPU ops span no time (a zero-length window).");
        return;
    }
    std::stable_sort(v.costs.begin(), v.costs.end(),
        [](const Verdict::Cost &x, const Verdict::Cost &y) { return x.ns > y.ns; });
    const double window = double(b.totalNs());
    auto pct = [&](int64_t ns) -> QString {
        return QStringLiteral("%1%").arg(100.0 * double(ns) / window, 0, 'f', 1);
    };
    const Verdict::Cost &top = v.costs[0], &second = v.costs[1];
    v.tunables.clear();
    if (double(top.ns) >= kMinLimitingShare * window) {
        if (double(second.ns) * kClearMargin > double(top.ns)) {
            v.component = C::Inconclusive;
            v.runnerUp = second.component;
            v.headline
                = QStringLiteral("Inconclusive: %1 (%2 of the GPU window) and %3 (%4) weigh about the same.")
                      .arg(componentName(top.component), pct(top.ns), componentName(second.component),
                          pct(second.ns));
            v.tunables = tunablesFor(top.component) + tunablesFor(second.component);
            return;
        }
        v.component = top.component;
        v.runnerUp = second.component;
        v.headline
            = QStringLiteral("Limited by %1: %2 of the GPU window (next: %3, %4).")
                  .arg(mpiMostly(v) ? QStringLiteral("exposed communication in the host's MPI calls, the GPU "
                                                     "idle meanwhile")
                                    : componentName(top.component),
                      pct(top.ns), componentName(second.component), pct(second.ns));
    } else if (double(b.computeNs) >= kComputeBoundShare * window) {
        v.component = C::GpuCompute;
        v.runnerUp = top.component;
        v.headline = QStringLiteral("Limited by GPU compute: the GPU computes %1 of its window.")
                         .arg(pct(b.computeNs));
        if (!nameKernels) {
            v.tunables = tunablesFor(v.component);
            return;
        }
        const QString prefix = QStringLiteral("top kernels: ");
        const bool named = std::any_of(
            v.evidence.begin(), v.evidence.end(), [&](const QString &e) { return e.startsWith(prefix); });
        if (!named) {
            const std::vector<KernelStats> table
                = kernels ? std::vector<KernelStats> {} : kernelTable(ws, ops);
            const std::vector<KernelStats> &ranked = kernels ? *kernels : table;
            // The computation's own kernels: a copy or a collective the kernels hid is not what bounds them.
            QStringList names;
            for (size_t i = 0; i < ranked.size() && names.size() < 3; ++i)
                if (ranked[i].kind == GpuOp::Kind::Compute)
                    names << QStringLiteral("%1 (%2%)")
                                 .arg(text::elided(ranked[i].name, 60))
                                 .arg(100.0 * ranked[i].share, 0, 'f', 1);
            if (!names.isEmpty())
                v.evidence << prefix + names.join(QStringLiteral(", "));
        }
    } else {
        v.component = C::Inconclusive;
        v.runnerUp = top.component;
        v.headline
            = QStringLiteral("Inconclusive: nothing explains %1 of the GPU window; the largest is %2 (%3).")
                  .arg(pct(int64_t(kMinLimitingShare * window)), componentName(top.component), pct(top.ns));
        return;
    }
    v.tunables = mpiMostly(v) ? mpiTunables() : tunablesFor(v.component);
}

// diagnose() with the host's ranges already united; nameKernels as for conclude().
Verdict diagnoseWith(Workspace &ws, const std::vector<GpuOp> &ops, const TemporalBreakdown &breakdown,
    const HostAnalysis &host, const HostRanges &hostRanges, bool nameKernels,
    const std::vector<KernelStats> *kernels = nullptr);

} // namespace

Verdict diagnose(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    const std::vector<GpuOp> ops = readGpuOps(ws, traceId, mode);
    return diagnose(ws, ops, breakdownOf(ops), hostAnalysis(ws, traceId, ops));
}

namespace {

// What the host was doing while the GPU waited, from its CPU samples and its threads' scheduling, for a
// verdict that blames the host side (the per-step verdicts leave it out: the counts are the whole
// trace's).
void addIdleHostEvidence(Verdict &v, const HostAnalysis &host)
{
    constexpr int64_t kMinIdleSamples = 10; // fewer say little about where the host's time went
    using C = Verdict::Component;
    const C named = v.component == C::Inconclusive && !v.costs.empty() ? v.costs[0].component : v.component;
    const bool hostSide
        = named == C::HostLaunch || named == C::Synchronization || named == C::InputPipeline || mpiMostly(v);
    if (!hostSide)
        return;
    if (host.cpuSamplesInIdle >= kMinIdleSamples) {
        QStringList functions;
        for (const auto &[name, n] : host.idleSampleFunctions)
            functions << QStringLiteral("%1 %2%")
                             .arg(text::elided(name, 60))
                             .arg(100.0 * double(n) / double(host.cpuSamplesInIdle), 0, 'f', 0);
        v.evidence << QStringLiteral("CPU samples while the GPU was idle (%1 of %2): %3")
                          .arg(text::count(host.cpuSamplesInIdle), text::count(host.cpuSamples),
                              functions.join(QStringLiteral(", ")));
    }
    if (host.schedIdleNs > 0)
        v.evidence << QStringLiteral(
            "While the GPU was idle, the launching %1 on no CPU %2% of the time (%3 of %4 ms, "
            "from the threads' scheduling): %5")
                          .arg(host.schedThreads == 1 ? QStringLiteral("thread was")
                                                      : QStringLiteral("threads were"))
                          .arg(100.0 * double(host.offCpuIdleNs) / double(host.schedIdleNs), 0, 'f', 0)
                          .arg(text::milliseconds(host.offCpuIdleNs), text::milliseconds(host.schedIdleNs),
                              2 * host.offCpuIdleNs >= host.schedIdleNs
                                  ? QStringLiteral(
                                      "it waited (a blocking call, a sleep) or was preempted, rather "
                                      "than ran slowly")
                                  : QStringLiteral(
                                      "it was mostly running, so its own CPU work is what the GPU "
                                      "waited for"));
}

} // namespace

Verdict diagnose(Workspace &ws, const std::vector<GpuOp> &ops, const TemporalBreakdown &breakdown,
    const HostAnalysis &host, const std::vector<KernelStats> *kernels)
{
    Verdict v = diagnoseWith(ws, ops, breakdown, host, hostRangesOf(host), true, kernels);
    addIdleHostEvidence(v, host);
    return v;
}

namespace {

Verdict diagnoseWith(Workspace &ws, const std::vector<GpuOp> &ops, const TemporalBreakdown &breakdown,
    const HostAnalysis &host, const HostRanges &hostRanges, bool nameKernels,
    const std::vector<KernelStats> *kernels)
{
    Verdict v;
    v.breakdown = breakdown;
    const TemporalBreakdown &b = v.breakdown;
    if (b.ops == 0) {
        v.headline = QStringLiteral("No GPU ops to diagnose.");
        return v;
    }
    if (b.totalNs() <= 0) { // no window to take shares of: never "nan%"
        v.component = Verdict::Component::Inconclusive;
        v.headline = QStringLiteral("Inconclusive: the GPU ops span no time (a zero-length window).");
        return v;
    }
    // An idle stretch is the input pipeline's where the host was fetching a batch, communication's where
    // it was in an MPI call (the GPU waits for the data exchange as it would for a collective kernel);
    // the rest of it is a synchronisation stall when a blocking call returned as the GPU ran dry (the
    // host waited instead of queueing work ahead), else host/launch overhead.
    std::vector<int64_t> syncEnds;
    for (const auto &[s, e] : host.synchronization.ranges)
        syncEnds.push_back(e);
    std::sort(syncEnds.begin(), syncEnds.end());
    const std::vector<std::pair<int64_t, int64_t>> idle = gpuIdleIntervals(ops);
    int64_t input = 0, hostComm = 0, sync = 0, launch = 0;
    for (const auto &[s, e] : idle) {
        const int64_t inInput = overlap(s, e, hostRanges.input);
        const int64_t inComm = std::min(overlap(s, e, hostRanges.communication), e - s - inInput);
        input += inInput;
        hostComm += inComm;
        (syncStall(s, e, syncEnds) ? sync : launch) += e - s - inInput - inComm;
    }
    using C = Verdict::Component;
    v.costs = { { C::InputPipeline, input }, { C::HostLaunch, launch }, { C::Synchronization, sync },
        { C::MemoryCopies, b.exposedMemoryNs }, { C::ExposedCommunication, b.exposedCommNs + hostComm } };
    const double window = double(b.totalNs());
    auto pct = [&](int64_t ns) -> QString {
        return QStringLiteral("%1%").arg(100.0 * double(ns) / window, 0, 'f', 1);
    };
    v.evidence << QStringLiteral(
        "GPU window %1: computation %2, exposed communication %3, exposed memcpy/memset %4, idle %5")
                      .arg(formatDuration(b.totalNs()), pct(b.computeNs), pct(b.exposedCommNs),
                          pct(b.exposedMemoryNs), pct(b.idleNs()));
    if (host.communication.count > 0)
        v.evidence << QStringLiteral(
            "GPU idle while the host was fetching input %1, in MPI calls %2, blocked in syncs "
            "%3, doing anything else %4")
                          .arg(pct(input), pct(hostComm), pct(sync), pct(launch));
    else
        v.evidence << QStringLiteral(
            "GPU idle while the host was fetching input %1, blocked in syncs %2, doing anything "
            "else %3")
                          .arg(pct(input), pct(sync), pct(launch));
    if (host.launchedOps)
        v.evidence << QStringLiteral(
            "%1 of %2 GPU ops ran shorter than their launch call; launch to start p50 %3")
                          .arg(text::count(host.shortOps), text::count(host.launchedOps))
                          .arg(formatDuration(host.launchDelayP50Ns));
    v.hostCommunicationNs = hostComm;
    conclude(ws, ops, v, nameKernels, kernels);
    // Without steps to point at, the longest idle stretches the named component explains.
    const C named = v.component == C::Inconclusive ? v.costs[0].component : v.component;
    if (named == C::InputPipeline || named == C::HostLaunch || named == C::Synchronization
        || (named == C::ExposedCommunication && v.hostCommunicationNs > b.exposedCommNs)) {
        std::vector<std::pair<int64_t, int64_t>> gaps;
        for (const auto &[s, e] : idle)
            if (classifyGap(s, e, hostRanges, syncEnds) == named)
                gaps.emplace_back(s, e);
        std::partial_sort(gaps.begin(),
            gaps.begin() + std::min<ptrdiff_t>(ptrdiff_t(gaps.size()), kWhereCount), gaps.end(),
            [](auto &x, auto &y) { return x.second - x.first > y.second - y.first; });
        gaps.resize(std::min(gaps.size(), size_t(kWhereCount)));
        for (const auto &[s, e] : gaps)
            v.where.push_back({ s, e, QStringLiteral("GPU idle %1").arg(formatDuration(e - s)) });
    }
    return v;
}

} // namespace

int64_t Verdict::costOf(Component c) const
{
    for (const Cost &cost : costs)
        if (cost.component == c)
            return cost.ns;
    return 0;
}

void weighStraggler(Workspace &ws, const std::vector<KernelStats> &kernels, const RankComparison &ranks,
    int64_t traceId, Verdict &v)
{
    if (ranks.straggler < 0 || v.breakdown.ops == 0)
        return;
    const RankSummary &straggler = ranks.ranks[size_t(ranks.straggler)];
    const auto self = std::find_if(
        ranks.ranks.begin(), ranks.ranks.end(), [&](const RankSummary &r) { return r.traceId == traceId; });
    if (self == ranks.ranks.end())
        return;
    if (self->traceId == straggler.traceId) {
        v.evidence << QStringLiteral(
            "this rank is the run's straggler: it computes %1 per step, the others %2 less on average; "
            "they wait for it in collectives")
                          .arg(formatDuration(int64_t(straggler.computeNs)),
                              formatDuration(int64_t(ranks.othersWaitNs)));
        return;
    }
    const double steps = double(std::max(1, self->steps));
    const int64_t waited = std::clamp(int64_t((self->commNs - straggler.commNs) * steps), int64_t(0),
        v.costOf(Verdict::Component::ExposedCommunication));
    if (waited <= 0)
        return;
    for (Verdict::Cost &c : v.costs)
        if (c.component == Verdict::Component::ExposedCommunication)
            c.ns -= waited;
    v.costs.push_back({ Verdict::Component::StragglerRank, waited });
    v.evidence << QStringLiteral(
        "rank %1 is the run's straggler: this rank spends %2 more per step in communication, "
        "waiting for it (%3 in all)")
                      .arg(straggler.rank)
                      .arg(formatDuration(int64_t(self->commNs - straggler.commNs)), formatDuration(waited));
    conclude(ws, {}, v, true, &kernels);
}

} // namespace plumb
