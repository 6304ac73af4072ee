#include "tracediff.h"

#include "sqlitedb.h"
#include "stepbreakdown.h"
#include "workspace.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace plumb {

TraceDiff::OpDelta::Change TraceDiff::OpDelta::change() const
{
    if (countA == 0 && countB > 0)
        return Change::Added;
    if (countB == 0 && countA > 0)
        return Change::Removed;
    if (std::abs(deltaNs()) <= kSameOpTolerance * totalA)
        return Change::Same;
    return deltaNs() > 0 ? Change::Slower : Change::Faster;
}

namespace {

struct Measured {
    TraceDiff::Side side;
    std::vector<KernelStats> ops;
    int steps = 0;
};

Measured measure(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, bool perStep)
{
    Measured m;
    m.side.traceId = traceId;
    SqliteStmt name(ws.db(), "SELECT name FROM trace WHERE id = ?");
    name.bind(1, traceId);
    m.side.name = name.step() ? name.columnText(0) : QString();
    const bool linked = mode == TemporalBreakdown::Mode::LinkedOnly;
    std::vector<GpuOp> ops;
    if (perStep) {
        // The ops of the steps only, and the sums of the steps' breakdowns.
        const auto steps = stepBreakdowns(ws, traceId, mode);
        m.side.steps = int(steps.size());
        for (const StepBreakdown &s : steps) {
            m.side.windowNs += double(s.gpu.totalNs());
            m.side.computeNs += double(s.gpu.computeNs);
            m.side.exposedCommNs += double(s.gpu.exposedCommNs);
            m.side.exposedMemoryNs += double(s.gpu.exposedMemoryNs);
            m.side.idleNs += double(s.gpu.idleNs());
        }
        for (const GpuOp &op : readGpuOps(ws, traceId, linked)) {
            const int64_t t = op.launchNs >= 0 ? op.launchNs : op.startNs;
            if (std::any_of(steps.begin(), steps.end(), [&](const StepBreakdown &s) { return t >= s.cpuStartNs && t < s.cpuEndNs; }))
                ops.push_back(op);
        }
    } else {
        const TemporalBreakdown b = temporalBreakdown(ws, traceId, mode);
        m.side.windowNs = double(b.totalNs());
        m.side.computeNs = double(b.computeNs);
        m.side.exposedCommNs = double(b.exposedCommNs);
        m.side.exposedMemoryNs = double(b.exposedMemoryNs);
        m.side.idleNs = double(b.idleNs());
        ops = readGpuOps(ws, traceId, linked);
    }
    m.ops = kernelTable(ws, ops);
    return m;
}

} // namespace

TraceDiff diffTraces(Workspace &ws, int64_t traceA, int64_t traceB, TemporalBreakdown::Mode mode)
{
    TraceDiff d;
    // Per step only when both traces have steps.
    d.perStep = !stepBreakdowns(ws, traceA, mode).empty() && !stepBreakdowns(ws, traceB, mode).empty();
    Measured a = measure(ws, traceA, mode, d.perStep), b = measure(ws, traceB, mode, d.perStep);
    const double na = d.perStep ? double(a.side.steps) : 1.0, nb = d.perStep ? double(b.side.steps) : 1.0;
    for (auto *side : { &a.side, &b.side }) {
        const double n = side == &a.side ? na : nb;
        side->windowNs /= n;
        side->computeNs /= n;
        side->exposedCommNs /= n;
        side->exposedMemoryNs /= n;
        side->idleNs /= n;
    }
    d.a = a.side;
    d.b = b.side;
    QHash<QString, size_t> index;
    auto row = [&](const KernelStats &k) -> TraceDiff::OpDelta & {
        auto it = index.find(k.name);
        if (it == index.end()) {
            it = index.insert(k.name, d.ops.size());
            d.ops.push_back({ k.name, k.kind });
        }
        return d.ops[*it];
    };
    for (const KernelStats &k : a.ops) {
        auto &r = row(k);
        r.countA = double(k.count) / na;
        r.totalA = double(k.totalNs) / na;
    }
    for (const KernelStats &k : b.ops) {
        auto &r = row(k);
        r.countB = double(k.count) / nb;
        r.totalB = double(k.totalNs) / nb;
    }
    std::sort(d.ops.begin(), d.ops.end(), [](const TraceDiff::OpDelta &x, const TraceDiff::OpDelta &y) {
        return std::abs(x.deltaNs()) != std::abs(y.deltaNs()) ? std::abs(x.deltaNs()) > std::abs(y.deltaNs())
                                                              : x.name < y.name;
    });
    return d;
}

} // namespace plumb
