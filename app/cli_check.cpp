// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_check.h"

#include "analysis/objectivecheck.h"
#include "serving/objectivesfile.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cmath>
#include <cstdio>

using namespace plumb;

namespace {

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

int inputError(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
    return 2;
}

QString signedValue(const ObjectiveResult &r, double v)
{
    const QString s = formatObjectiveValue(r, std::fabs(v));
    return (v < 0 ? QStringLiteral("-") : QStringLiteral("+")) + s;
}

QString xmlEscaped(const QString &s)
{
    return s.toHtmlEscaped();
}

// JUnit XML as CI systems read it: one test case per objective, a broken one a <failure>, one
// without data a <failure> too, or <skipped> with --allow-missing.
QByteArray junit(const CheckReport &report, const QString &fileName, bool allowMissing)
{
    const int skipped = allowMissing ? report.noData : 0;
    const int failures = report.failed + (allowMissing ? 0 : report.noData);
    QString x = QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x += QStringLiteral(
        "<testsuites name=\"plumb check\" tests=\"%1\" failures=\"%2\" errors=\"0\" skipped=\"%3\">\n")
             .arg(report.results.size())
             .arg(failures)
             .arg(skipped);
    x += QStringLiteral(
        "  <testsuite name=\"%1\" tests=\"%2\" failures=\"%3\" errors=\"0\" skipped=\"%4\">\n")
             .arg(xmlEscaped(fileName))
             .arg(report.results.size())
             .arg(failures)
             .arg(skipped);
    for (const ObjectiveResult &r : report.results) {
        x += QStringLiteral("    <testcase classname=\"plumb.objectives\" name=\"%1\" time=\"0\">\n")
                 .arg(xmlEscaped(r.spec.name));
        const QString summary
            = QStringLiteral("%1: measured %2, margin %3")
                  .arg(r.spec.text, formatObjectiveValue(r, r.value), signedValue(r, r.margin));
        if (r.status == ObjectiveStatus::Fail)
            x += QStringLiteral("      <failure type=\"broken\" message=\"%1\">%2</failure>\n")
                     .arg(xmlEscaped(summary), xmlEscaped(r.detail));
        else if (r.status == ObjectiveStatus::NoData)
            x += allowMissing
                ? QStringLiteral("      <skipped message=\"no data: %1\"/>\n").arg(xmlEscaped(r.detail))
                : QStringLiteral("      <failure type=\"no-data\" message=\"no data: %1\"/>\n")
                      .arg(xmlEscaped(r.detail));
        x += QStringLiteral("      <system-out>%1</system-out>\n")
                 .arg(xmlEscaped(r.status == ObjectiveStatus::NoData
                         ? r.detail
                         : summary + QStringLiteral(" (") + r.detail + QLatin1Char(')')));
        x += QStringLiteral("    </testcase>\n");
    }
    x += QStringLiteral("  </testsuite>\n</testsuites>\n");
    return x.toUtf8();
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

} // namespace

int runCheck(const cli::Args &a)
{
    const QString &objectivesPath = a.objectivesPath, &workspace = a.workspace, &junitPath = a.junitPath;
    const CheckOptions &options = a.check;
    const bool json = a.json, allowMissing = a.allowMissing;
    QFile f(objectivesPath);
    if (!f.open(QIODevice::ReadOnly))
        return inputError(QStringLiteral("cannot read the objectives file %1").arg(objectivesPath));
    ObjectivesError perr;
    const auto file = parseObjectives(f.readAll(), perr);
    if (!file)
        return inputError(perr.text(objectivesPath));
    if (!QFileInfo::exists(workspace))
        return inputError(QStringLiteral("no workspace at %1 (plumb import creates one)").arg(workspace));

    CheckReport report;
    try {
        Workspace ws(workspace, Workspace::Role::Reader);
        report = evaluateObjectives(ws, *file, options, builtinQuantities());
    } catch (const CheckInputError &e) {
        return inputError(e.message);
    } catch (const SqlError &e) {
        return inputError(QStringLiteral("cannot read the workspace %1: %2").arg(workspace, e.message()));
    }

    const QString fileName = QFileInfo(objectivesPath).fileName();
    if (!junitPath.isEmpty()) {
        QFile j(junitPath);
        if (!j.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || j.write(junit(report, fileName, allowMissing)) < 0)
            return inputError(QStringLiteral("cannot write the JUnit file %1").arg(junitPath));
    }
    const bool broken = report.failed > 0 || (!allowMissing && report.noData > 0);
    if (json) {
        QJsonObject root;
        root[QStringLiteral("objectives_file")] = objectivesPath;
        if (!report.runName.isEmpty())
            root[QStringLiteral("run")] = report.runName;
        if (report.baselineRunId >= 0)
            root[QStringLiteral("baseline")] = report.baselineName;
        QJsonArray items;
        for (const ObjectiveResult &r : report.results) {
            QJsonObject o;
            o[QStringLiteral("name")] = r.spec.name;
            o[QStringLiteral("objective")] = r.spec.text;
            o[QStringLiteral("line")] = r.spec.line;
            o[QStringLiteral("status")] = objectiveStatusName(r.status);
            if (r.status != ObjectiveStatus::NoData) {
                o[QStringLiteral("value")] = number(r.value);
                o[QStringLiteral("margin")] = number(r.margin);
            }
            o[QStringLiteral("threshold")] = r.spec.threshold;
            o[QStringLiteral("unit")] = r.fraction ? QStringLiteral("fraction") : r.unit;
            o[QStringLiteral("samples")] = qint64(r.samples);
            if (!r.windows.empty()) {
                o[QStringLiteral("windows")] = qint64(r.windows.size());
                o[QStringLiteral("windows_broken")] = qint64(r.windowsBroken);
            }
            o[QStringLiteral("detail")] = r.detail;
            items.append(o);
        }
        root[QStringLiteral("results")] = items;
        root[QStringLiteral("passed")] = report.passed;
        root[QStringLiteral("failed")] = report.failed;
        root[QStringLiteral("no_data")] = report.noData;
        root[QStringLiteral("ok")] = !broken;
        out(QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented)));
        return broken ? 1 : 0;
    }
    out(QStringLiteral("Objectives of %1%2%3\n\n")
            .arg(fileName,
                report.runName.isEmpty() ? QString() : QStringLiteral(" on run %1").arg(report.runName),
                report.baselineRunId >= 0 ? QStringLiteral(" (baseline %1)").arg(report.baselineName)
                                          : QString()));
    int width = 9;
    for (const auto &r : report.results)
        width = std::max(width, int(r.spec.name.size()));
    width = std::min(width, 60);
    out(QStringLiteral("%1  %2  %3  %4  %5\n")
            .arg(QStringLiteral("status"), -7)
            .arg(QStringLiteral("objective"), -width)
            .arg(QStringLiteral("value"), 12)
            .arg(QStringLiteral("threshold"), 12)
            .arg(QStringLiteral("margin"), 12));
    for (const ObjectiveResult &r : report.results) {
        const QString status = r.status == ObjectiveStatus::Pass ? QStringLiteral("pass")
            : r.status == ObjectiveStatus::Fail                  ? QStringLiteral("FAIL")
                                                                 : QStringLiteral("no data");
        const bool data = r.status != ObjectiveStatus::NoData;
        out(QStringLiteral("%1  %2  %3  %4  %5\n")
                .arg(status, -7)
                .arg(r.spec.name.left(width), -width)
                .arg(data ? formatObjectiveValue(r, r.value) : QStringLiteral("-"), 12)
                .arg(formatObjectiveValue(r, r.spec.threshold), 12)
                .arg(data ? signedValue(r, r.margin) : QStringLiteral("-"), 12));
        out(QStringLiteral("%1  %2\n").arg(QString(), -7).arg(r.detail));
    }
    out(QStringLiteral("\n%1 objectives: %2 hold, %3 broken, %4 without data%5\n")
            .arg(report.results.size())
            .arg(report.passed)
            .arg(report.failed)
            .arg(report.noData)
            .arg(report.noData > 0 && allowMissing ? QStringLiteral(" (allowed)") : QString()));
    return broken ? 1 : 0;
}
