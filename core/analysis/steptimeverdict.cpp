// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/steptimeverdict.h"

#include "timeline/timescale.h"

#include <QStringList>

#include <algorithm>

namespace plumb {

namespace {

using C = Verdict::Component;

std::vector<Verdict::Cost> costsOf(const StepTimeParts &p)
{
    return { { C::InputPipeline, p.inputPipelineNs },
        { C::HostLaunch, p.runtimeNs + p.otherCpuNs + p.idleNs }, { C::Synchronization, p.synchronizationNs },
        { C::MemoryCopies, p.exposedMemoryNs }, { C::ExposedCommunication, p.exposedCommNs } };
}

// The parts that took any time worth a figure (0.1% or more), largest first.
QString partsLine(const StepTimeParts &p)
{
    const double wall = double(p.wallNs());
    std::vector<std::pair<double, const char *>> shares;
    for (const StepTimePartInfo &part : stepTimeParts())
        if (wall > 0 && double(p.*part.member) >= 0.0005 * wall)
            shares.emplace_back(100.0 * double(p.*part.member) / wall, part.name);
    std::stable_sort(
        shares.begin(), shares.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    QStringList parts;
    for (const auto &[share, name] : shares)
        parts << QStringLiteral("%1 %2%").arg(QLatin1String(name)).arg(share, 0, 'f', 1);
    return parts.join(QStringLiteral(", "));
}

} // namespace

Verdict stepTimeVerdict(const StepTimeParts &p)
{
    Verdict v;
    const int64_t wallNs = p.wallNs();
    if (wallNs <= 0) {
        v.headline = QStringLiteral("Inconclusive: the step spans no time.");
        return v;
    }
    const double wall = double(wallNs);
    auto pct = [&](int64_t ns) { return QStringLiteral("%1%").arg(100.0 * double(ns) / wall, 0, 'f', 1); };
    v.costs = costsOf(p);
    std::stable_sort(v.costs.begin(), v.costs.end(),
        [](const Verdict::Cost &x, const Verdict::Cost &y) { return x.ns > y.ns; });
    const Verdict::Cost &top = v.costs[0], &second = v.costs[1];
    v.evidence << QStringLiteral("step time %1: %2").arg(formatDuration(wallNs), partsLine(p));
    if (double(top.ns) >= kMinLimitingShare * wall) {
        v.runnerUp = second.component;
        if (double(second.ns) * kClearMargin > double(top.ns)) {
            v.headline
                = QStringLiteral("Inconclusive: %1 (%2 of the step time) and %3 (%4) weigh about the same.")
                      .arg(componentName(top.component), pct(top.ns), componentName(second.component),
                          pct(second.ns));
            v.tunables = componentTunables(top.component) + componentTunables(second.component);
            return v;
        }
        v.component = top.component;
        v.headline = QStringLiteral("Limited by %1: %2 of the step time (next: %3, %4).")
                         .arg(componentName(top.component), pct(top.ns), componentName(second.component),
                             pct(second.ns));
    } else if (double(p.computeNs) >= kComputeBoundShare * wall) {
        v.component = C::GpuCompute;
        v.runnerUp = top.component;
        v.headline = QStringLiteral("Limited by %1: the device computes %2 of the step time.")
                         .arg(componentName(C::GpuCompute), pct(p.computeNs));
    } else {
        v.runnerUp = top.component;
        v.headline
            = QStringLiteral("Inconclusive: nothing explains %1 of the step time; the largest is %2 (%3).")
                  .arg(pct(int64_t(kMinLimitingShare * wall)), componentName(top.component), pct(top.ns));
        return v;
    }
    v.tunables = componentTunables(v.component);
    return v;
}

std::vector<Verdict> diagnoseStepTimes(const StepTimeBreakdown &st, Verdict &overall)
{
    std::vector<Verdict> out;
    out.reserve(st.steps.size());
    for (const StepTime &s : st.steps)
        out.push_back(stepTimeVerdict(s.parts));
    const C named = overall.component != C::Inconclusive ? overall.component
        : !overall.costs.empty()                         ? overall.costs[0].component
                                                         : C::Inconclusive;
    if (st.steps.empty() || named == C::Inconclusive)
        return out;
    // A straggler shows in a step's own time as its exposed communication (the wait for it).
    auto weight = [&](size_t i) {
        const StepTimeParts &p = st.steps[i].parts;
        return named == C::GpuCompute   ? p.computeNs
            : named == C::StragglerRank ? p.exposedCommNs
                                        : out[i].costOf(named);
    };
    std::vector<size_t> order(st.steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return weight(x) > weight(y); });
    overall.where.clear();
    for (size_t k = 0; k < order.size() && k < size_t(kWhereCount); ++k) {
        const size_t i = order[k];
        if (weight(i) <= 0)
            break;
        const StepTime &s = st.steps[i];
        overall.where.push_back({ s.startNs, s.endNs,
            QStringLiteral("%1 (%2 of %3)")
                .arg(s.name.isEmpty() ? QStringLiteral("step %1").arg(s.step) : s.name,
                    formatDuration(weight(i)), formatDuration(s.wallNs())) });
    }
    return out;
}

QString stepTimeEvidence(const StepTimeBreakdown &st)
{
    if (st.steps.empty())
        return {};
    const int64_t n = int64_t(st.steps.size());
    return QStringLiteral("step time %1 a step over %2: %3")
        .arg(formatDuration(st.total.wallNs() / n),
            n == 1 ? QStringLiteral("1 step") : QStringLiteral("%1 steps").arg(n), partsLine(st.total));
}

} // namespace plumb
