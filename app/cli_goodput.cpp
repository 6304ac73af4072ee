// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_goodput.h"

#include "analysis/goodput.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

using namespace plumb;

namespace {

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100.0 * share, 0, 'f', 1);
}

QJsonObject reportJson(const GoodputReport &r)
{
    QJsonObject o;
    o[QStringLiteral("run")] = qint64(r.runId);
    o[QStringLiteral("run_name")] = r.runName;
    o[QStringLiteral("basis")] = r.basis;
    o[QStringLiteral("start_ns")] = QString::number(r.startNs); // beyond a double's exact integers
    o[QStringLiteral("end_ns")] = QString::number(r.endNs);
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
    for (const GoodputWindow &w : r.windows) {
        QJsonObject wo { { QStringLiteral("start_s"), double(w.startNs - r.startNs) / 1e9 },
            { QStringLiteral("end_s"), double(w.endNs - r.startNs) / 1e9 },
            { QStringLiteral("goodput"), w.goodput() },
            { QStringLiteral("available_s"), double(w.availableNs) / 1e9 } };
        windows.append(wo);
    }
    o[QStringLiteral("windows")] = windows;
    const std::optional<Badput> largest = r.largestBadput();
    o[QStringLiteral("largest_badput")] = largest ? QJsonValue(badputName(*largest)) : QJsonValue();
    o[QStringLiteral("advice")] = goodputAdvice(r);
    return o;
}

void printReport(const GoodputReport &r)
{
    out(QStringLiteral("run %1  %2  (%3)\n").arg(r.runId).arg(r.runName, r.basis));
    out(QStringLiteral("span        %1 .. %2  (%3)\n")
            .arg(text::dateTime(r.startNs), text::dateTime(r.endNs), spanText(r.elapsedNs)));
    QString line = QStringLiteral("goodput     %1   scheduling %2   runtime %3")
                       .arg(percent(r.goodput), percent(r.schedulingGoodput), percent(r.runtimeGoodput));
    if (r.programGoodput)
        line += QStringLiteral("   program %1").arg(percent(*r.programGoodput));
    out(line + QLatin1Char('\n'));
    if (r.programGoodput)
        out(QStringLiteral("            program goodput: %1\n").arg(r.programBasis));
    out(QStringLiteral("disruptions %1 (%2 attempts); steps: %3 kept, %4 wasted")
            .arg(r.disruptions)
            .arg(r.attempts)
            .arg(text::count(r.productiveSteps), text::count(r.wastedSteps)));
    if (r.idealStepNs > 0)
        out(QStringLiteral("; ideal step %1, deviation %2")
                .arg(spanText(r.idealStepNs), percent(r.stepTimeDeviation)));
    out(QStringLiteral("\n\n%1 %2 %3\n")
            .arg(QStringLiteral("where the time went").leftJustified(22),
                QStringLiteral("time").rightJustified(10), QStringLiteral("share").rightJustified(7)));
    out(QStringLiteral("%1 %2 %3\n")
            .arg(QStringLiteral("productive training").leftJustified(22),
                spanText(r.productiveNs).rightJustified(10), percent(r.goodput).rightJustified(7)));
    for (int b = 0; b < kBadputCount; ++b) {
        if (r.badputNs[size_t(b)] == 0)
            continue;
        out(QStringLiteral("%1 %2 %3\n")
                .arg(badputTitle(Badput(b)).leftJustified(22),
                    spanText(r.badputNs[size_t(b)]).rightJustified(10),
                    percent(r.badputShare(Badput(b))).rightJustified(7)));
        if (Badput(b) == Badput::Custom)
            for (const auto &[label, ns] : r.customNs)
                out(QStringLiteral("  %1 %2\n")
                        .arg(label.leftJustified(20), spanText(ns).rightJustified(10)));
    }
    const QString advice = goodputAdvice(r);
    if (!advice.isEmpty())
        out(QLatin1Char('\n') + advice + QLatin1Char('\n'));
}

} // namespace

int runGoodput(const cli::Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
            "no workspace at %1; import a job lifecycle log or an experiment log first, or pass "
            "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const std::vector<GoodputRun> runs = goodputRuns(ws);
        int64_t runId = -1;
        if (a.paths.isEmpty()) {
            if (runs.empty()) {
                err(QStringLiteral(
                    "the workspace has no job lifecycle log and no run with step timings; import one "
                    "(plumb import job.jsonl)"));
                return 1;
            }
            runId = runs.front().id;
        } else {
            bool isId = false;
            const qlonglong id = a.paths.front().toLongLong(&isId);
            QStringList named;
            for (const GoodputRun &r : runs) {
                if ((isId && r.id == id) || r.name == a.paths.front()) {
                    if (runId < 0)
                        runId = r.id;
                    named << QStringLiteral("#%1").arg(r.id);
                }
            }
            if (runId < 0) {
                err(QStringLiteral("no run %1 with a lifecycle log or step timings (plumb ls lists the runs)")
                        .arg(a.paths.front()));
                return 1;
            }
            if (named.size() > 1) {
                err(QStringLiteral("%1 names %2 runs (%3); give an id")
                        .arg(a.paths.front())
                        .arg(named.size())
                        .arg(named.join(QStringLiteral(", "))));
                return 1;
            }
        }
        const GoodputReport r = computeGoodput(ws, runId, a.goodput);
        if (!r.valid()) {
            err(QStringLiteral("run %1: goodput cannot be computed: %2").arg(runId).arg(r.problem));
            return 1;
        }
        if (a.json)
            out(QString::fromUtf8(QJsonDocument(reportJson(r)).toJson(QJsonDocument::Indented)));
        else
            printReport(r);
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
