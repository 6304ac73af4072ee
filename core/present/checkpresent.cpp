// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/checkpresent.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QXmlStreamWriter>

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

namespace {

// Text XML 1.0 can hold: the characters it forbids (C0 controls but tab, newline and carriage return;
// U+FFFE, U+FFFF; surrogates not in a pair) cannot even be escaped, so they become U+FFFD.
QString xmlText(const QString &s)
{
    QString out = s;
    for (qsizetype i = 0; i < out.size(); ++i) {
        const char16_t c = out.at(i).unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < out.size()
            && QChar::isLowSurrogate(out.at(i + 1).unicode())) {
            ++i; // a pair: a character beyond the BMP
            continue;
        }
        const bool allowed = (c >= 0x20 && c < 0xD800) || (c >= 0xE000 && c < 0xFFFE) || c == u'\t'
            || c == u'\n' || c == u'\r';
        if (!allowed)
            out[i] = QChar::ReplacementCharacter;
    }
    return out;
}

} // namespace

QByteArray checkJUnit(const CheckPresentation &p)
{
    const CheckReport &report = p.report;
    const bool allowMissing = p.allowMissing;
    const int skipped = allowMissing ? report.noData : 0;
    const int failures = report.failed + (allowMissing ? 0 : report.noData);
    QByteArray bytes;
    QXmlStreamWriter x(&bytes);
    x.setAutoFormatting(true);
    x.setAutoFormattingIndent(2);
    x.writeStartDocument();
    const auto counts = [&](const QString &name) {
        x.writeAttribute(QStringLiteral("name"), xmlText(name));
        x.writeAttribute(QStringLiteral("tests"), QString::number(report.results.size()));
        x.writeAttribute(QStringLiteral("failures"), QString::number(failures));
        x.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
        x.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
    };
    x.writeStartElement(QStringLiteral("testsuites"));
    counts(QStringLiteral("plumb check"));
    x.writeStartElement(QStringLiteral("testsuite"));
    counts(QFileInfo(p.objectivesPath).fileName());
    for (const ObjectiveResult &r : report.results) {
        x.writeStartElement(QStringLiteral("testcase"));
        x.writeAttribute(QStringLiteral("classname"), QStringLiteral("plumb.objectives"));
        x.writeAttribute(QStringLiteral("name"), xmlText(r.spec.name));
        x.writeAttribute(QStringLiteral("time"), QStringLiteral("0"));
        const QString summary
            = QStringLiteral("%1: measured %2, margin %3")
                  .arg(r.spec.text, formatObjectiveValue(r, r.value), signedValue(r, r.margin));
        if (r.status == ObjectiveStatus::Fail) {
            x.writeStartElement(QStringLiteral("failure"));
            x.writeAttribute(QStringLiteral("type"), QStringLiteral("broken"));
            x.writeAttribute(QStringLiteral("message"), xmlText(summary));
            x.writeCharacters(xmlText(r.detail));
            x.writeEndElement();
        } else if (r.status == ObjectiveStatus::NoData) {
            x.writeEmptyElement(allowMissing ? QStringLiteral("skipped") : QStringLiteral("failure"));
            if (!allowMissing)
                x.writeAttribute(QStringLiteral("type"), QStringLiteral("no-data"));
            x.writeAttribute(QStringLiteral("message"), xmlText(QStringLiteral("no data: ") + r.detail));
        }
        x.writeTextElement(QStringLiteral("system-out"),
            xmlText(r.status == ObjectiveStatus::NoData
                    ? r.detail
                    : summary + QStringLiteral(" (") + r.detail + QLatin1Char(')')));
        x.writeEndElement(); // testcase
    }
    x.writeEndDocument();
    return bytes;
}

} // namespace plumb
