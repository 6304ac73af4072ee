// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportoptions.h"

#include "text/yamldocument.h"

#include <QFile>

#include <cmath>

namespace plumb {

namespace {

QString setText(QString &field, const QStringList &values, bool isList)
{
    if (isList || values.size() != 1)
        return QStringLiteral("needs one value, not a list");
    field = values.front();
    return {};
}

QString setOption(ReportOptions &o, const QString &key, const QStringList &values, bool isList)
{
    if (key == QLatin1String("title"))
        return setText(o.title, values, isList);
    if (key == QLatin1String("author"))
        return setText(o.author, values, isList);
    if (key == QLatin1String("baseline"))
        return setText(o.baseline, values, isList);
    if (key == QLatin1String("runs")) {
        o.runs = values;
        return {};
    }
    if (key == QLatin1String("sections")) {
        if (values.isEmpty())
            return QStringLiteral("lists no section");
        o.sections = values;
        return {};
    }
    if (key == QLatin1String("page_size")) {
        const QString v = values.value(0).toLower();
        if (isList || values.size() != 1 || (v != QLatin1String("a4") && v != QLatin1String("letter")))
            return QStringLiteral("is A4 or Letter");
        o.pageSize = v == QLatin1String("a4") ? ReportOptions::PageSize::A4 : ReportOptions::PageSize::Letter;
        return {};
    }
    if (key == QLatin1String("theme")) {
        if (values.size() != 1 || values.front().toLower() != QLatin1String("light"))
            return QStringLiteral("is light (the only theme so far)");
        o.theme = QStringLiteral("light");
        return {};
    }
    if (key == QLatin1String("dpi")) {
        bool ok = false;
        const double number = values.value(0).toDouble(&ok); // 150, or JSON's 150.0
        const int dpi = ok && number == std::floor(number) && std::abs(number) < 1e6 ? int(number) : 0;
        if (isList || !ok || dpi < 36 || dpi > 600)
            return QStringLiteral("is a number from 36 to 600");
        o.dpi = dpi;
        return {};
    }
    return QStringLiteral(
        "is not an option (title, author, runs, baseline, sections, page_size, theme, dpi)");
}

} // namespace

QDateTime reportDate()
{
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    if (ok)
        return QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC);
    return QDateTime::currentDateTime();
}

QString pageSizeName(ReportOptions::PageSize size)
{
    return size == ReportOptions::PageSize::Letter ? QStringLiteral("Letter") : QStringLiteral("A4");
}

QString applyReportTemplateText(const QByteArray &text, const QString &name, ReportOptions &options)
{
    YamlDocument::Error error;
    const std::optional<YamlDocument::Node> doc = YamlDocument::parse(text, error);
    if (!doc) {
        return error.text(name);
    }
    const auto at
        = [&](int line, int column) { return QStringLiteral("%1:%2:%3: ").arg(name).arg(line).arg(column); };
    if (doc->isSequence()) {
        return at(doc->line, doc->column)
            + QStringLiteral("a list item outside a list (write \"sections:\" on the line above)");
    }
    if (doc->isScalar()) {
        return at(doc->line, doc->column)
            + QStringLiteral("expected \"key: value\" lines, found \"%1\"").arg(doc->text);
    }
    for (const auto &m : doc->members) {
        // A key with nothing after it is an empty list ("runs:" with no "- " line below).
        const YamlDocument::Node &v = m.value;
        QStringList values;
        bool isList = v.isSequence() || v.isNull();
        if (v.isMap()) {
            return at(m.line, m.column)
                + QStringLiteral("\"%1\" needs a value or a list, not a map").arg(m.key);
        }
        if (v.isScalar()) {
            values << v.text;
        }
        for (const YamlDocument::Node &item : v.items) {
            if (!item.isScalar()) {
                return at(item.line, item.column) + QStringLiteral("\"%1\" lists a list or a map").arg(m.key);
            }
            values << item.text;
        }
        if (const QString e = setOption(options, m.key, values, isList); !e.isEmpty()) {
            return at(m.line, m.column) + QStringLiteral("\"%1\" %2").arg(m.key, e);
        }
    }
    return {};
}

QString applyReportTemplate(const QString &path, ReportOptions &options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read the template %1: %2").arg(path, file.errorString());
    return applyReportTemplateText(file.readAll(), path, options);
}

} // namespace plumb
