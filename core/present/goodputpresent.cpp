// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/goodputpresent.h"

#include "store/runselection.h"
#include "text/textformat.h"

#include <QJsonArray>

namespace plumb {

namespace {

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100.0 * share, 0, 'f', 1);
}

} // namespace

GoodputLookup readGoodput(Workspace &workspace, const QString &run, const GoodputOptions &options)
{
    GoodputLookup out;
    const std::vector<GoodputRun> runs = goodputRuns(workspace);
    int64_t runId = -1;
    if (run.isEmpty()) {
        if (runs.empty()) {
            out.error = QStringLiteral("the workspace has no job lifecycle log and no run with step timings; "
                                       "import one (plumb import job.jsonl)");
            return out;
        }
        runId = runs.front().id;
    } else {
        std::vector<RunChoice> choices;
        choices.reserve(runs.size());
        for (const GoodputRun &r : runs)
            choices.push_back({ r.id, r.name });
        const RunSelection s
            = selectRuns(choices, { run }, QStringLiteral("no run %1 with a lifecycle log or step timings"));
        if (!s.ok()) {
            out.error = s.error;
            return out;
        }
        runId = s.ids.front();
    }
    out.report = computeGoodput(workspace, runId, options);
    if (!out.report.valid())
        out.error
            = QStringLiteral("run %1: goodput cannot be computed: %2").arg(runId).arg(out.report.problem);
    return out;
}

QJsonObject goodputJson(const GoodputReport &r)
{
    QJsonObject o;
    o[QStringLiteral("schema")] = QStringLiteral("plumb.goodput/1");
    o[QStringLiteral("run")] = qint64(r.runId);
    o[QStringLiteral("run_name")] = r.runName;
    o[QStringLiteral("basis")] = r.basis;
    o[QStringLiteral("start_ns")] = qint64(r.startNs);
    o[QStringLiteral("end_ns")] = qint64(r.endNs);
    for (const QString &name : goodputQuantityNames()) {
        if (name.startsWith(QLatin1String("badput.")))
            continue;
        const std::optional<double> v = goodputQuantity(r, name);
        o[name] = v ? QJsonValue(*v) : QJsonValue();
    }
    if (r.programGoodput)
        o[QStringLiteral("program_goodput_basis")] = r.programBasis;
    o[QStringLiteral("attempts")] = r.attempts;
    o[QStringLiteral("productive_steps")] = qint64(r.productiveSteps);
    o[QStringLiteral("wasted_steps")] = qint64(r.wastedSteps);
    o[QStringLiteral("last_step")] = qint64(r.lastStep);
    o[QStringLiteral("checkpoint_saves")] = r.checkpointSaves;
    QJsonObject badput;
    for (int b = 0; b < kBadputCount; ++b)
        badput[badputName(Badput(b))]
            = QJsonObject { { QStringLiteral("seconds"), double(r.badputNs[size_t(b)]) / 1e9 },
                  { QStringLiteral("share"), r.badputShare(Badput(b)) } };
    o[QStringLiteral("badput_breakdown")] = badput;
    QJsonObject custom;
    for (const auto &[label, ns] : r.customNs)
        custom[label] = double(ns) / 1e9;
    o[QStringLiteral("custom_badput_seconds")] = custom;
    QJsonArray windows;
    for (const GoodputWindow &w : r.windows)
        windows.append(QJsonObject { { QStringLiteral("start_s"), double(w.startNs - r.startNs) / 1e9 },
            { QStringLiteral("end_s"), double(w.endNs - r.startNs) / 1e9 },
            { QStringLiteral("goodput"), w.goodput() },
            { QStringLiteral("available_s"), double(w.availableNs) / 1e9 } });
    o[QStringLiteral("windows")] = windows;
    const std::optional<Badput> largest = r.largestBadput();
    o[QStringLiteral("largest_badput")] = largest ? QJsonValue(badputName(*largest)) : QJsonValue();
    o[QStringLiteral("advice")] = goodputAdvice(r);
    return o;
}

QString goodputText(const GoodputReport &r)
{
    QString out;
    out += QStringLiteral("run %1  %2  (%3)\n").arg(r.runId).arg(r.runName, r.basis);
    out += QStringLiteral("span        %1 .. %2  (%3)\n")
               .arg(text::dateTime(r.startNs), text::dateTime(r.endNs), spanText(r.elapsedNs));
    QString line = QStringLiteral("goodput     %1   scheduling %2   runtime %3")
                       .arg(percent(r.goodput), percent(r.schedulingGoodput), percent(r.runtimeGoodput));
    if (r.programGoodput)
        line += QStringLiteral("   program %1").arg(percent(*r.programGoodput));
    out += line + QLatin1Char('\n');
    if (r.programGoodput)
        out += QStringLiteral("            program goodput: %1\n").arg(r.programBasis);
    out += QStringLiteral("disruptions %1 (%2 %3); steps: %4 kept, %5 wasted")
               .arg(r.disruptions)
               .arg(r.attempts)
               .arg(r.attempts == 1 ? QStringLiteral("attempt") : QStringLiteral("attempts"))
               .arg(text::count(r.productiveSteps), text::count(r.wastedSteps));
    if (r.idealStepNs > 0)
        out += QStringLiteral("; ideal step %1, deviation %2")
                   .arg(spanText(r.idealStepNs), percent(r.stepTimeDeviation));
    out += QStringLiteral("\n\n%1 %2 %3\n")
               .arg(QStringLiteral("where the time went").leftJustified(22),
                   QStringLiteral("time").rightJustified(10), QStringLiteral("share").rightJustified(7));
    out += QStringLiteral("%1 %2 %3\n")
               .arg(QStringLiteral("productive training").leftJustified(22),
                   spanText(r.productiveNs).rightJustified(10), percent(r.goodput).rightJustified(7));
    for (int b = 0; b < kBadputCount; ++b) {
        if (r.badputNs[size_t(b)] == 0)
            continue;
        out += QStringLiteral("%1 %2 %3\n")
                   .arg(badputTitle(Badput(b)).leftJustified(22),
                       spanText(r.badputNs[size_t(b)]).rightJustified(10),
                       percent(r.badputShare(Badput(b))).rightJustified(7));
        if (Badput(b) == Badput::Custom)
            for (const auto &[label, ns] : r.customNs)
                out += QStringLiteral("  %1 %2\n")
                           .arg(label.leftJustified(20), spanText(ns).rightJustified(10));
    }
    const QString advice = goodputAdvice(r);
    if (!advice.isEmpty())
        out += QLatin1Char('\n') + advice + QLatin1Char('\n');
    return out;
}

} // namespace plumb
