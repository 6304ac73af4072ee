// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/checkpresent.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

QString signedValue(const ObjectiveResult &r, double v)
{
    const QString s = formatObjectiveValue(r, std::fabs(v));
    return (v < 0 ? QStringLiteral("-") : QStringLiteral("+")) + s;
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

} // namespace

bool CheckPresentation::broken() const
{
    return report.failed > 0 || (!allowMissing && report.noData > 0);
}

std::optional<ObjectivesFile> readObjectivesFile(const QString &path, QString &error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read the objectives file %1").arg(path);
        return std::nullopt;
    }
    ObjectivesError perr;
    std::optional<ObjectivesFile> file = parseObjectives(f.readAll(), perr);
    if (!file)
        error = perr.text(path);
    return file;
}

CheckPresentation checkObjectives(Workspace &workspace, const ObjectivesFile &file,
    const QString &objectivesPath, const CheckOptions &options, bool allowMissing)
{
    CheckPresentation p;
    p.report = evaluateObjectives(workspace, file, options, builtinQuantities());
    p.objectivesPath = objectivesPath;
    p.allowMissing = allowMissing;
    return p;
}

QJsonObject checkJson(const CheckPresentation &p)
{
    const CheckReport &report = p.report;
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("plumb.check/1");
    root[QStringLiteral("objectives_file")] = p.objectivesPath;
    if (report.runId >= 0)
        root[QStringLiteral("run")] = qint64(report.runId);
    if (!report.runName.isEmpty())
        root[QStringLiteral("run_name")] = report.runName;
    if (report.baselineRunId >= 0) {
        root[QStringLiteral("baseline")] = qint64(report.baselineRunId);
        root[QStringLiteral("baseline_name")] = report.baselineName;
    }
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
    root[QStringLiteral("ok")] = !p.broken();
    return root;
}

QString checkText(const CheckPresentation &p)
{
    const CheckReport &report = p.report;
    QString out;
    out += QStringLiteral("Objectives of %1%2%3\n\n")
               .arg(QFileInfo(p.objectivesPath).fileName(),
                   report.runName.isEmpty() ? QString() : QStringLiteral(" on run %1").arg(report.runName),
                   report.baselineRunId >= 0 ? QStringLiteral(" (baseline %1)").arg(report.baselineName)
                                             : QString());
    int width = 9;
    for (const auto &r : report.results)
        width = std::max(width, int(r.spec.name.size()));
    width = std::min(width, 60);
    out += QStringLiteral("%1  %2  %3  %4  %5\n")
               .arg(QStringLiteral("status"), -7)
               .arg(QStringLiteral("objective"), -width)
               .arg(QStringLiteral("value"), 12)
               .arg(QStringLiteral("threshold"), 12)
               .arg(QStringLiteral("margin"), 12);
    for (const ObjectiveResult &r : report.results) {
        const QString status = r.status == ObjectiveStatus::Pass ? QStringLiteral("pass")
            : r.status == ObjectiveStatus::Fail                  ? QStringLiteral("FAIL")
                                                                 : QStringLiteral("no data");
        const bool data = r.status != ObjectiveStatus::NoData;
        out += QStringLiteral("%1  %2  %3  %4  %5\n")
                   .arg(status, -7)
                   .arg(r.spec.name.left(width), -width)
                   .arg(data ? formatObjectiveValue(r, r.value) : QStringLiteral("-"), 12)
                   .arg(formatObjectiveValue(r, r.spec.threshold), 12)
                   .arg(data ? signedValue(r, r.margin) : QStringLiteral("-"), 12);
        out += QStringLiteral("%1  %2\n").arg(QString(), -7).arg(r.detail);
    }
    out += QStringLiteral("\n%1 objectives: %2 hold, %3 broken, %4 without data%5\n")
               .arg(report.results.size())
               .arg(report.passed)
               .arg(report.failed)
               .arg(report.noData)
               .arg(report.noData > 0 && p.allowMissing ? QStringLiteral(" (allowed)") : QString());
    return out;
}

QByteArray checkJUnit(const CheckPresentation &p)
{
    const CheckReport &report = p.report;
    const bool allowMissing = p.allowMissing;
    const QString fileName = QFileInfo(p.objectivesPath).fileName();
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
             .arg(fileName.toHtmlEscaped())
             .arg(report.results.size())
             .arg(failures)
             .arg(skipped);
    for (const ObjectiveResult &r : report.results) {
        x += QStringLiteral("    <testcase classname=\"plumb.objectives\" name=\"%1\" time=\"0\">\n")
                 .arg(r.spec.name.toHtmlEscaped());
        const QString summary
            = QStringLiteral("%1: measured %2, margin %3")
                  .arg(r.spec.text, formatObjectiveValue(r, r.value), signedValue(r, r.margin));
        if (r.status == ObjectiveStatus::Fail)
            x += QStringLiteral("      <failure type=\"broken\" message=\"%1\">%2</failure>\n")
                     .arg(summary.toHtmlEscaped(), r.detail.toHtmlEscaped());
        else if (r.status == ObjectiveStatus::NoData)
            x += allowMissing
                ? QStringLiteral("      <skipped message=\"no data: %1\"/>\n").arg(r.detail.toHtmlEscaped())
                : QStringLiteral("      <failure type=\"no-data\" message=\"no data: %1\"/>\n")
                      .arg(r.detail.toHtmlEscaped());
        x += QStringLiteral("      <system-out>%1</system-out>\n")
                 .arg((r.status == ObjectiveStatus::NoData
                         ? r.detail
                         : summary + QStringLiteral(" (") + r.detail + QLatin1Char(')'))
                          .toHtmlEscaped());
        x += QStringLiteral("    </testcase>\n");
    }
    x += QStringLiteral("  </testsuite>\n</testsuites>\n");
    return x.toUtf8();
}

} // namespace plumb
