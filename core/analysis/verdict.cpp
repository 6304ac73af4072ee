#include "verdict.h"

#include "hostanalysis.h"
#include "kerneltable.h"
#include "timescale.h"

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
    case Verdict::Component::GpuCompute:
        return QStringLiteral("GPU compute");
    case Verdict::Component::Inconclusive:
        return QStringLiteral("inconclusive");
    }
    return {};
}

namespace {

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

// A blocking call that returns this shortly before the GPU goes idle still caused it.
constexpr int64_t kSyncSlackNs = 5'000;

// Length of [a, b) covered by the sorted (possibly overlapping) ranges.
int64_t overlap(int64_t a, int64_t b, const Intervals &ranges)
{
    int64_t covered = 0, cursor = a;
    for (const auto &[s, e] : ranges) {
        if (s >= b)
            break;
        if (e <= cursor)
            continue;
        covered += std::min(e, b) - std::max(s, cursor);
        cursor = std::min(e, b);
        if (cursor >= b)
            break;
    }
    return covered;
}

QStringList tunablesFor(Verdict::Component c)
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
        return { QStringLiteral("overlap communication with backward (DDP bucket_cap_mb, gradient bucketing)"),
                 QStringLiteral("fewer/larger collectives, or gradient accumulation"),
                 QStringLiteral("check the interconnect (NCCL_* settings, topology)") };
    case Verdict::Component::GpuCompute:
        return { QStringLiteral("the top kernels: mixed precision (bf16/fp16, TF32), fused kernels, better shapes"),
                 QStringLiteral("torch.compile / kernel fusion"), QStringLiteral("more GPUs") };
    case Verdict::Component::Inconclusive:
        break;
    }
    return {};
}

} // namespace

Verdict diagnose(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    const std::vector<GpuOp> ops = readGpuOps(ws, traceId, mode);
    return diagnose(ws, ops, breakdownOf(ops), hostAnalysis(ws, traceId, ops));
}

Verdict diagnose(Workspace &ws, const std::vector<GpuOp> &ops, const TemporalBreakdown &breakdown,
                 const HostAnalysis &host)
{
    Verdict v;
    v.breakdown = breakdown;
    const TemporalBreakdown &b = v.breakdown;
    if (b.ops == 0) {
        v.headline = QStringLiteral("No GPU ops to diagnose.");
        return v;
    }
    // An idle stretch is the input pipeline's where the host was fetching a batch; the rest of it is a
    // synchronisation stall when a blocking call returned as the GPU ran dry (the host waited instead
    // of queueing work ahead), else host/launch overhead.
    std::vector<int64_t> syncEnds;
    for (const auto &[s, e] : host.synchronization.ranges)
        syncEnds.push_back(e);
    std::sort(syncEnds.begin(), syncEnds.end());
    int64_t input = 0, sync = 0, launch = 0;
    for (const auto &[s, e] : gpuIdleIntervals(ops)) {
        const int64_t inInput = overlap(s, e, host.inputPipeline.ranges);
        input += inInput;
        const auto it = std::lower_bound(syncEnds.begin(), syncEnds.end(), s - kSyncSlackNs);
        (it != syncEnds.end() && *it < e ? sync : launch) += e - s - inInput;
    }
    using C = Verdict::Component;
    v.costs = { { C::InputPipeline, input }, { C::HostLaunch, launch }, { C::Synchronization, sync },
                { C::MemoryCopies, b.exposedMemoryNs }, { C::ExposedCommunication, b.exposedCommNs } };
    std::stable_sort(v.costs.begin(), v.costs.end(), [](const Verdict::Cost &x, const Verdict::Cost &y) { return x.ns > y.ns; });
    const double window = double(b.totalNs());
    auto pct = [&](int64_t ns) { return QStringLiteral("%1%").arg(100.0 * double(ns) / window, 0, 'f', 1); };
    const Verdict::Cost &top = v.costs[0], &second = v.costs[1];
    v.evidence << QStringLiteral("GPU window %1: computation %2, exposed communication %3, exposed memcpy/memset %4, idle %5")
                      .arg(formatDuration(b.totalNs()), pct(b.computeNs), pct(b.exposedCommNs), pct(b.exposedMemoryNs),
                           pct(b.idleNs()));
    v.evidence << QStringLiteral("GPU idle while the host was fetching input %1, blocked in syncs %2, doing anything else %3")
                      .arg(pct(input), pct(sync), pct(launch));
    if (host.launchedOps)
        v.evidence << QStringLiteral("%1 of %2 GPU ops ran shorter than their launch call; launch to start p50 %3")
                          .arg(host.shortOps)
                          .arg(host.launchedOps)
                          .arg(formatDuration(host.launchDelayP50Ns));
    if (double(top.ns) >= kMinLimitingShare * window) {
        if (double(second.ns) * kClearMargin > double(top.ns)) {
            v.component = C::Inconclusive;
            v.runnerUp = second.component;
            v.headline = QStringLiteral("Inconclusive: %1 (%2 of the GPU window) and %3 (%4) weigh about the same.")
                             .arg(componentName(top.component), pct(top.ns), componentName(second.component), pct(second.ns));
            v.tunables = tunablesFor(top.component) + tunablesFor(second.component);
            return v;
        }
        v.component = top.component;
        v.runnerUp = second.component;
        v.headline = QStringLiteral("Limited by %1: %2 of the GPU window (next: %3, %4).")
                         .arg(componentName(top.component), pct(top.ns), componentName(second.component), pct(second.ns));
    } else if (double(b.computeNs) >= kComputeBoundShare * window) {
        v.component = C::GpuCompute;
        v.runnerUp = top.component;
        const auto kernels = kernelTable(ws, ops);
        QStringList names;
        for (size_t i = 0; i < kernels.size() && i < 3; ++i)
            names << QStringLiteral("%1 (%2%)").arg(kernels[i].name.left(60)).arg(100.0 * kernels[i].share, 0, 'f', 1);
        v.headline = QStringLiteral("Limited by GPU compute: the GPU computes %1 of its window.").arg(pct(b.computeNs));
        v.evidence << QStringLiteral("top kernels: %1").arg(names.join(QStringLiteral(", ")));
    } else {
        v.component = C::Inconclusive;
        v.runnerUp = top.component;
        v.headline = QStringLiteral("Inconclusive: nothing explains %1 of the GPU window; the largest is %2 (%3).")
                         .arg(pct(int64_t(kMinLimitingShare * window)), componentName(top.component), pct(top.ns));
        return v;
    }
    v.tunables = tunablesFor(v.component);
    return v;
}

} // namespace plumb
