// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/diffpresent.h"

#include "analysis/verdict.h"

#include "text/textformat.h"

#include <QJsonArray>

namespace plumb {

namespace {

constexpr int kOpsShown = 12; // in the text
constexpr int kTextWidth = 100; // the headline's lines at most

QJsonObject sideJson(const TraceDiff::Side &s)
{
    QJsonObject j;
    j[QStringLiteral("trace")] = double(s.traceId);
    j[QStringLiteral("name")] = s.name;
    j[QStringLiteral("steps")] = s.steps;
    j[QStringLiteral("window_ns")] = s.windowNs;
    j[QStringLiteral("compute_ns")] = s.computeNs;
    j[QStringLiteral("exposed_comm_ns")] = s.exposedCommNs;
    j[QStringLiteral("exposed_memory_ns")] = s.exposedMemoryNs;
    j[QStringLiteral("idle_ns")] = s.idleNs;
    if (s.stepNs > 0)
        j[QStringLiteral("step_ns")] = s.stepNs;
    return j;
}

QString ms(double ns)
{
    return QString::number(ns / 1e6, 'f', 3);
}

QString signedMs(double ns)
{
    return (ns >= 0 ? QStringLiteral("+") : QString()) + QString::number(ns / 1e6, 'f', 3);
}

// "12 steps", "1 step", or "no steps" when the diff is of whole traces.
QString stepsOf(const TraceDiff &d, const TraceDiff::Side &s)
{
    return d.perStep ? text::counted(s.steps, QStringLiteral("step"), QStringLiteral("steps"))
                     : QStringLiteral("no steps");
}

// The step time object of plumb.diff/1; null without step time on both sides.
QJsonValue stepTimeJson(const TraceDiff &d)
{
    if (!d.hasStepTime())
        return QJsonValue::Null;
    QJsonObject j;
    j[QStringLiteral("baseline_ns")] = d.a.stepWallNs;
    j[QStringLiteral("compared_ns")] = d.b.stepWallNs;
    j[QStringLiteral("delta_ns")] = d.stepTimeDeltaNs();
    j[QStringLiteral("baseline_steps")] = d.a.timedSteps;
    j[QStringLiteral("compared_steps")] = d.b.timedSteps;
    QJsonArray parts;
    for (const TraceDiff::StepComponent &c : d.stepComponents) {
        QJsonObject p;
        p[QStringLiteral("part")] = stepTimePartKey(c.part);
        p[QStringLiteral("name")] = stepTimePartName(c.part);
        p[QStringLiteral("baseline_ns")] = c.baselineNs;
        p[QStringLiteral("compared_ns")] = c.comparedNs;
        p[QStringLiteral("delta_ns")] = c.deltaNs();
        parts.append(p);
    }
    j[QStringLiteral("components")] = parts;
    return j;
}

} // namespace

QString changeName(TraceDiff::OpDelta::Change c)
{
    switch (c) {
    case TraceDiff::OpDelta::Change::Added:
        return QStringLiteral("added");
    case TraceDiff::OpDelta::Change::Removed:
        return QStringLiteral("removed");
    case TraceDiff::OpDelta::Change::Slower:
        return QStringLiteral("slower");
    case TraceDiff::OpDelta::Change::Faster:
        return QStringLiteral("faster");
    case TraceDiff::OpDelta::Change::Same:
        return QStringLiteral("same");
    }
    return {};
}

QJsonObject diffJson(const TraceDiff &d, GpuOpMode mode, const QString &verdictA, const QString &verdictB)
{
    QJsonObject o;
    o[QStringLiteral("schema")] = QStringLiteral("plumb.diff/1");
    o[QStringLiteral("mode")] = gpuOpModeName(mode);
    QJsonObject a = sideJson(d.a), b = sideJson(d.b);
    if (!verdictA.isEmpty())
        a[QStringLiteral("verdict")] = verdictA;
    if (!verdictB.isEmpty())
        b[QStringLiteral("verdict")] = verdictB;
    o[QStringLiteral("baseline")] = a;
    o[QStringLiteral("compared")] = b;
    o[QStringLiteral("headline")] = diffHeadline(d);
    o[QStringLiteral("step_time")] = stepTimeJson(d);
    o[QStringLiteral("per_step")] = d.perStep;
    o[QStringLiteral("window_delta_ns")] = d.windowDeltaNs();
    QJsonArray ops;
    for (const auto &op : d.ops) {
        if (op.change() == TraceDiff::OpDelta::Change::Same)
            continue;
        QJsonObject j;
        j[QStringLiteral("name")] = op.name;
        j[QStringLiteral("change")] = changeName(op.change());
        j[QStringLiteral("count_baseline")] = op.countA;
        j[QStringLiteral("count_compared")] = op.countB;
        j[QStringLiteral("total_baseline_ns")] = op.totalA;
        j[QStringLiteral("total_compared_ns")] = op.totalB;
        j[QStringLiteral("delta_ns")] = op.deltaNs();
        ops.append(j);
    }
    o[QStringLiteral("ops")] = ops;
    return o;
}

QString diffText(const TraceDiff &d, const QString &verdictA, const QString &verdictB)
{
    QString out = QStringLiteral("baseline  trace %1  %2  (%3)\ncompared  trace %4  %5  (%6)\n")
                      .arg(d.a.traceId)
                      .arg(d.a.name, stepsOf(d, d.a))
                      .arg(d.b.traceId)
                      .arg(d.b.name, stepsOf(d, d.b));
    out += QStringLiteral("\n");
    for (const QString &l : text::wrapped(diffHeadline(d), kTextWidth))
        out += l + u'\n';
    if (!verdictA.isEmpty() && !verdictB.isEmpty())
        out += verdictChange(verdictA, verdictB) + u'\n';
    out += u'\n';
    if (d.hasStepTime()) {
        out += QStringLiteral("%1 baseline ms   compared ms      change ms\n")
                   .arg(QStringLiteral("step time per step (%1 and %2 steps)")
                            .arg(d.a.timedSteps)
                            .arg(d.b.timedSteps),
                       -36);
        auto row = [&](const QString &label, double x, double y) {
            out += QStringLiteral("  %1 %2 %3 %4\n")
                       .arg(label, -32)
                       .arg(ms(x), 12)
                       .arg(ms(y), 13)
                       .arg(signedMs(y - x), 14);
        };
        row(QStringLiteral("step time"), d.a.stepWallNs, d.b.stepWallNs);
        for (const TraceDiff::StepComponent &c : d.stepComponents)
            row(QStringLiteral("  ") + stepTimePartName(c.part), c.baselineNs, c.comparedNs);
        out += u'\n';
    }
    out += QStringLiteral("%1                 baseline ms   compared ms      change ms\n")
               .arg(d.perStep ? QStringLiteral("per step, GPU       ")
                              : QStringLiteral("whole trace, GPU    "));
    auto line = [&](const QString &label, double x, double y) {
        out += QStringLiteral("  %1 %2 %3 %4\n")
                   .arg(label, -32)
                   .arg(ms(x), 12)
                   .arg(ms(y), 13)
                   .arg(signedMs(y - x), 14);
    };
    line(QStringLiteral("window"), d.a.windowNs, d.b.windowNs);
    line(QStringLiteral("  computation"), d.a.computeNs, d.b.computeNs);
    line(QStringLiteral("  exposed communication"), d.a.exposedCommNs, d.b.exposedCommNs);
    line(QStringLiteral("  exposed memcpy/memset"), d.a.exposedMemoryNs, d.b.exposedMemoryNs);
    line(QStringLiteral("  idle"), d.a.idleNs, d.b.idleNs);
    out += QStringLiteral("  GPU ops that changed most                            change    count     total "
                          "ms (A -> B)\n");
    int shown = 0;
    for (const auto &op : d.ops) {
        if (op.change() == TraceDiff::OpDelta::Change::Same || shown == kOpsShown)
            continue;
        ++shown;
        const QString shortName = op.name.size() > 48 ? op.name.left(47) + QChar(0x2026) : op.name;
        out += QStringLiteral("    %1 %2 %3 -> %4  %5 -> %6 (%7)\n")
                   .arg(shortName, -48)
                   .arg(changeName(op.change()), 8)
                   .arg(op.countA, 6, 'f', 0)
                   .arg(op.countB, 0, 'f', 0)
                   .arg(ms(op.totalA), 9)
                   .arg(ms(op.totalB))
                   .arg(signedMs(op.deltaNs()));
    }
    return sayDevice(out, d.deviceNoun);
}

} // namespace plumb
