// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/tracediff.h"

#include "analysis/stepbreakdown.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

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

// One trace read once: its name, GPU ops and steps.
struct Measured {
    TraceDiff::Side side;
    std::vector<GpuOp> ops;
    std::vector<StepBreakdown> steps;
    std::vector<KernelStats> kernels;
};

Measured read(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
{
    Measured m;
    m.side.traceId = traceId;
    SqliteStmt name(ws.db(), "SELECT name FROM trace WHERE id = ?");
    name.bind(1, traceId);
    m.side.name = name.step() ? name.columnText(0) : QString();
    m.ops = readGpuOps(ws, traceId, mode);
    m.steps = stepBreakdowns(ws, traceId, m.ops);
    return m;
}

void add(TraceDiff::Side &side, const TemporalBreakdown &b)
{
    side.windowNs += double(b.totalNs());
    side.computeNs += double(b.computeNs);
    side.exposedCommNs += double(b.exposedCommNs);
    side.exposedMemoryNs += double(b.exposedMemoryNs);
    side.idleNs += double(b.idleNs());
}

// Fills the side's times (per step, or for the whole trace) and its op table (the steps' ops only).
void summarise(Workspace &ws, Measured &m, bool perStep)
{
    m.side.steps = perStep ? int(m.steps.size()) : 0;
    if (!perStep) {
        add(m.side, breakdownOf(m.ops));
        m.kernels = kernelTable(ws, m.ops);
        return;
    }
    for (const StepBreakdown &s : m.steps) {
        add(m.side, s.gpu);
        m.side.stepNs += double(s.cpuEndNs - s.cpuStartNs);
    }
    std::vector<GpuOp> inSteps;
    for (const GpuOp &op : m.ops)
        if (owningStep(m.steps, op) >= 0)
            inSteps.push_back(op);
    m.kernels = kernelTable(ws, inSteps);
}

} // namespace

TraceDiff diffTraces(Workspace &ws, int64_t traceA, int64_t traceB, TemporalBreakdown::Mode mode)
{
    TraceDiff d;
    Measured a = read(ws, traceA, mode), b = read(ws, traceB, mode);
    // Per step only when both traces have steps.
    d.perStep = !a.steps.empty() && !b.steps.empty();
    summarise(ws, a, d.perStep);
    summarise(ws, b, d.perStep);
    const double na = d.perStep ? double(a.side.steps) : 1.0, nb = d.perStep ? double(b.side.steps) : 1.0;
    for (auto *side : { &a.side, &b.side }) {
        const double n = side == &a.side ? na : nb;
        side->windowNs /= n;
        side->computeNs /= n;
        side->exposedCommNs /= n;
        side->exposedMemoryNs /= n;
        side->idleNs /= n;
        side->stepNs /= n;
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
    for (const KernelStats &k : a.kernels) {
        auto &r = row(k);
        r.countA = double(k.count) / na;
        r.totalA = double(k.totalNs) / na;
    }
    for (const KernelStats &k : b.kernels) {
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

QString stepTimeNote(const TraceDiff &d)
{
    if (!d.perStep || d.a.stepNs <= 0 || d.b.stepNs <= 0)
        return {};
    const auto ms = [](double ns) { return QString::number(ns / 1e6, 'f', 3); };
    const auto signedMs
        = [&](double ns) -> QString { return (ns >= 0 ? QStringLiteral("+") : QString()) + ms(ns); };
    const double step = d.b.stepNs - d.a.stepNs, rest = step - d.windowDeltaNs();
    QString s = QStringLiteral("The steps themselves (on the CPU) went from %1 to %2 ms (%3 ms)")
                    .arg(ms(d.a.stepNs), ms(d.b.stepNs), signedMs(step));
    if (std::abs(rest) < kSameOpTolerance * d.a.stepNs)
        return s + QStringLiteral(", about as much as the GPU window.");
    return s
        + QStringLiteral(
            ": %1 ms in the GPU window and %2 ms in time the steps spent with no GPU work of their "
            "own (loading input, host work before the first launch).")
              .arg(signedMs(d.windowDeltaNs()), signedMs(rest));
}

} // namespace plumb
