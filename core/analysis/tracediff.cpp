// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/tracediff.h"

#include "analysis/devicebackend.h"
#include "analysis/hostanalysis.h"

#include "analysis/stepbreakdown.h"
#include "analysis/tracesummary.h"
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

// Step time: the steps' mean wall time and mean parts.
void addStepTime(TraceDiff::Side &side, const StepTimeBreakdown &b)
{
    side.timedSteps = int(b.steps.size());
    if (b.steps.empty())
        return;
    const double n = double(b.steps.size());
    side.stepWallNs = double(b.total.wallNs()) / n;
    for (int i = 0; i < kStepTimePartCount; ++i)
        side.partNs[i] = double(stepTimePartNs(b.total, StepTimePart(i))) / n;
}

// One trace read once: its name and steps, and either the report stored at import (when it counts what
// the diff counts) or its GPU ops.
struct Measured {
    TraceDiff::Side side;
    std::optional<DoctorReport> stored;
    std::vector<GpuOp> ops;
    std::vector<StepBreakdown> steps;
    std::vector<KernelStats> kernels;
};

Measured read(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode,
    const StepTimeOptions &stepOptions, ReportSource source)
{
    Measured m;
    m.side.traceId = traceId;
    SqliteStmt name(ws.db(), "SELECT name FROM trace WHERE id = ?");
    name.bind(1, traceId);
    m.side.name = name.step() ? name.columnText(0) : QString();
    if (source == ReportSource::Summaries && reportIsSummarised(mode, stepOptions))
        m.stored = storedReport(ws, traceId);
    if (m.stored) {
        m.steps = m.stored->steps;
    } else {
        m.ops = readGpuOps(ws, traceId, mode);
        m.steps = stepBreakdowns(ws, traceId, m.ops);
    }
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
        add(m.side, m.stored ? m.stored->overall : breakdownOf(m.ops));
        m.kernels = m.stored ? m.stored->kernels : kernelTable(ws, m.ops);
        return;
    }
    for (const StepBreakdown &s : m.steps) {
        add(m.side, s.gpu);
        m.side.stepNs += double(s.cpuEndNs - s.cpuStartNs);
    }
    if (m.stored) {
        m.kernels = storedStepOps(ws, m.side.traceId);
        return;
    }
    std::vector<GpuOp> inSteps;
    for (const GpuOp &op : m.ops)
        if (owningStep(m.steps, op) >= 0)
            inSteps.push_back(op);
    m.kernels = kernelTable(ws, inSteps);
}

} // namespace

TraceDiff diffTraces(Workspace &ws, int64_t traceA, int64_t traceB, TemporalBreakdown::Mode mode,
    const StepTimeOptions &stepOptions, ReportSource source)
{
    TraceDiff d;
    const DeviceBackend backendA = traceDeviceBackend(ws, traceA), backendB = traceDeviceBackend(ws, traceB);
    if (backendA != DeviceBackend::Unknown && backendB != DeviceBackend::Unknown
        && deviceNoun(backendA) == deviceNoun(backendB))
        d.deviceNoun = deviceNoun(backendA);
    const SqliteReadTransaction snapshot(ws.db());
    Measured a = read(ws, traceA, mode, stepOptions, source), b = read(ws, traceB, mode, stepOptions, source);
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
    // Step time and the doctor's verdict: stored, or over the ops already read (counted as `mode` says).
    for (Measured *m : { &a, &b }) {
        const int64_t id = m->side.traceId;
        if (m->stored) {
            addStepTime(m->side, m->stored->stepTime);
            m->side.verdict = m->stored->verdict;
        } else {
            addStepTime(m->side, stepTimeBreakdown(ws, id, m->ops, stepOptions));
            m->side.verdict = diagnose(ws, m->ops, breakdownOf(m->ops), hostAnalysis(ws, id, m->ops));
        }
    }
    d.a = a.side;
    d.b = b.side;
    if (d.hasStepTime()) {
        for (int i = 0; i < kStepTimePartCount; ++i)
            d.stepComponents.push_back({ StepTimePart(i), d.a.partNs[i], d.b.partNs[i] });
        std::stable_sort(d.stepComponents.begin(), d.stepComponents.end(),
            [](const TraceDiff::StepComponent &x, const TraceDiff::StepComponent &y) {
                return std::abs(x.deltaNs()) > std::abs(y.deltaNs());
            });
    }
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

namespace {

// Milliseconds with about three significant digits: "124.1", "77.53", "0.250".
QString msText(double ns)
{
    const double ms = ns / 1e6, mag = std::abs(ms);
    return QString::number(ms, 'f', mag >= 100 ? 1 : mag >= 1 ? 2 : 3);
}

QString signedMsText(double ns)
{
    return (ns >= 0 ? QStringLiteral("+") : QString()) + msText(ns);
}

QString rateText(double stepNs)
{
    const double rate = 1e9 / stepNs;
    return QString::number(rate, 'f', rate >= 100 ? 0 : rate >= 10 ? 1 : 2);
}

// Parts shown in the headline at most; the rest are summed.
constexpr int kHeadlineParts = 4;
// A part is named when its change is at least this share of the step time's change (or of A's step
// time, when that is larger).
constexpr double kNamedPartShare = 0.05;

QString windowHeadline(const TraceDiff &d)
{
    if (d.a.windowNs <= 0 && d.b.windowNs <= 0)
        return QStringLiteral("Neither trace has device ops to compare.");
    const double delta = d.windowDeltaNs();
    const QString scope = d.perStep
        ? QStringLiteral("Per training step (the mean of %1 and %2 steps)").arg(d.a.steps).arg(d.b.steps)
        : QStringLiteral("Over the whole trace");
    QString verdict;
    if (d.a.windowNs > 0 && std::abs(delta) < kSameStepTimeShare * d.a.windowNs)
        verdict = QStringLiteral("about the same");
    else
        verdict = delta > 0 ? QStringLiteral("B is slower") : QStringLiteral("B is faster");
    QString text = QStringLiteral("%1, the device window went from %2 to %3 ms (%4 ms%5): %6.")
                       .arg(scope, msText(d.a.windowNs), msText(d.b.windowNs), signedMsText(delta),
                           d.a.windowNs > 0 ? QStringLiteral(", %1%2%")
                                                  .arg(delta >= 0 ? QStringLiteral("+") : QString())
                                                  .arg(100 * delta / d.a.windowNs, 0, 'f', 1)
                                            : QString(),
                           verdict);
    const std::pair<const char *, double> parts[] = {
        { "device compute", d.b.computeNs - d.a.computeNs },
        { "exposed communication", d.b.exposedCommNs - d.a.exposedCommNs },
        { "exposed memcpy/memset", d.b.exposedMemoryNs - d.a.exposedMemoryNs },
        { "device idle", d.b.idleNs - d.a.idleNs },
    };
    const std::pair<const char *, double> *most = nullptr;
    for (const auto &p : parts)
        if (p.second * delta > 0 && (!most || std::abs(p.second) > std::abs(most->second)))
            most = &p;
    if (most)
        text += QStringLiteral(" Most of it is %1: %2 ms (%3% of the change).")
                    .arg(QLatin1String(most->first), signedMsText(most->second))
                    .arg(100 * most->second / delta, 0, 'f', 0);
    return text;
}

} // namespace

QString noStepTimeText(const TraceDiff &d)
{
    return QStringLiteral("No step time to compare: %1.")
        .arg(d.a.timedSteps > 0      ? QStringLiteral("B has no training steps")
                : d.b.timedSteps > 0 ? QStringLiteral("A has no training steps")
                                     : QStringLiteral("neither trace has training steps"));
}

QString diffHeadline(const TraceDiff &d)
{
    if (!d.hasStepTime())
        return noStepTimeText(d) + u' ' + windowHeadline(d);
    const double delta = d.stepTimeDeltaNs();
    QString verdict;
    if (std::abs(delta) < kSameStepTimeShare * d.a.stepWallNs)
        verdict = QStringLiteral("about the same");
    else
        verdict = QStringLiteral("B is %1% %2")
                      .arg(100 * std::abs(delta) / d.a.stepWallNs, 0, 'f', 1)
                      .arg(delta > 0 ? QStringLiteral("slower") : QStringLiteral("faster"));
    QString text = QStringLiteral("Step time %1 → %2 ms per step (%3 → %4 steps/s): %5.")
                       .arg(msText(d.a.stepWallNs), msText(d.b.stepWallNs), rateText(d.a.stepWallNs),
                           rateText(d.b.stepWallNs), verdict);
    const double threshold = kNamedPartShare * std::max(std::abs(delta), kSameStepTimeShare * d.a.stepWallNs);
    QStringList named;
    double rest = delta;
    for (const TraceDiff::StepComponent &c : d.stepComponents) {
        if (named.size() == kHeadlineParts || std::abs(c.deltaNs()) < threshold)
            break;
        named << QStringLiteral("%1 %2 ms").arg(stepTimePartName(c.part), signedMsText(c.deltaNs()));
        rest -= c.deltaNs();
    }
    if (named.isEmpty())
        return text
            + QStringLiteral(" No part of the step changed by more than %1 ms.").arg(msText(threshold));
    if (named.size() < int(d.stepComponents.size()) && std::abs(rest) >= 500) // shows as at least 0.001 ms
        named << QStringLiteral("other parts %1 ms").arg(signedMsText(rest));
    return text + QStringLiteral(" Per step, largest first: ") + named.join(QStringLiteral(", ")) + u'.';
}

QString verdictChange(const QString &componentA, const QString &componentB)
{
    return componentA == componentB
        ? QStringLiteral("Verdict: %1 in both (unchanged).").arg(componentA)
        : QStringLiteral("Verdict: %1 in A → %2 in B (changed).").arg(componentA, componentB);
}

} // namespace plumb
