// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportoptions.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
        const int dpi = values.value(0).toInt(&ok);
        if (isList || !ok || dpi < 36 || dpi > 600)
            return QStringLiteral("is a number from 36 to 600");
        o.dpi = dpi;
        return {};
    }
    return QStringLiteral(
        "is not an option (title, author, runs, baseline, sections, page_size, theme, dpi)");
}

QString unquote(QString v)
{
    v = v.trimmed();
    if (v.size() >= 2 && (v.front() == u'"' || v.front() == u'\'') && v.back() == v.front())
        return v.mid(1, v.size() - 2);
    return v;
}

// A YAML value after the colon: a scalar, or a flow list "[a, b]".
QStringList yamlValues(const QString &text, bool *isList)
{
    const QString v = text.trimmed();
    *isList = v.startsWith(u'[');
    if (!*isList)
        return { unquote(v) };
    QStringList out;
    const QString inner = v.mid(1, v.endsWith(u']') ? v.size() - 2 : v.size() - 1);
    for (const QString &item : inner.split(u',', Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty())
            out << unquote(item);
    return out;
}

QString stripComment(const QString &line)
{
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        if (line[i] == u'"' || line[i] == u'\'')
            quoted = !quoted;
        else if (line[i] == u'#' && !quoted && (i == 0 || line[i - 1].isSpace()))
            return line.left(i);
    }
    return line;
}

QString applyJson(const QJsonObject &object, const QString &name, ReportOptions &options)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        QStringList values;
        const bool isList = it.value().isArray();
        if (isList) {
            for (const QJsonValue &v : it.value().toArray())
                values << (v.isDouble() ? QString::number(v.toDouble()) : v.toString());
        } else {
            values << (it.value().isDouble() ? QString::number(it.value().toDouble())
                                             : it.value().toString());
        }
        if (const QString e = setOption(options, it.key(), values, isList); !e.isEmpty())
            return QStringLiteral("%1: \"%2\" %3").arg(name, it.key(), e);
    }
    return {};
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
    if (text.trimmed().startsWith('{')) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError) {
            const int line = int(text.left(error.offset).count('\n')) + 1;
            return QStringLiteral("%1:%2: %3 (at byte %4)")
                .arg(name)
                .arg(line)
                .arg(error.errorString())
                .arg(error.offset);
        }
        return applyJson(doc.object(), name, options);
    }
    // YAML subset: "key: value" lines, and "- item" lines under a key with no value.
    const QStringList lines = QString::fromUtf8(text).split(u'\n');
    QString listKey;
    int listLine = 0;
    QStringList listItems;
    auto flushList = [&]() -> QString {
        if (listKey.isEmpty())
            return {};
        const QString e = setOption(options, listKey, listItems, true);
        const QString key = listKey;
        listKey.clear();
        listItems.clear();
        return e.isEmpty() ? QString()
                           : QStringLiteral("%1:%2: \"%3\" %4").arg(name).arg(listLine).arg(key, e);
    };
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = stripComment(lines[i]);
        const QString t = line.trimmed();
        if (t.isEmpty() || t == QLatin1String("---"))
            continue;
        if (t.startsWith(QLatin1String("- ")) || t == QLatin1String("-")) {
            if (listKey.isEmpty())
                return QStringLiteral(
                    "%1:%2: a list item outside a list (write \"sections:\" on the line above)")
                    .arg(name)
                    .arg(i + 1);
            listItems << unquote(t.mid(1));
            continue;
        }
        if (const QString e = flushList(); !e.isEmpty())
            return e;
        const int colon = t.indexOf(u':');
        if (colon <= 0)
            return QStringLiteral("%1:%2: expected \"key: value\", found \"%3\"").arg(name).arg(i + 1).arg(t);
        const QString key = t.left(colon).trimmed();
        const QString rest = t.mid(colon + 1).trimmed();
        if (rest.isEmpty()) {
            listKey = key;
            listLine = i + 1;
            continue;
        }
        bool isList = false;
        const QStringList values = yamlValues(rest, &isList);
        if (const QString e = setOption(options, key, values, isList); !e.isEmpty())
            return QStringLiteral("%1:%2: \"%3\" %4").arg(name).arg(i + 1).arg(key, e);
    }
    return flushList();
}

QString applyReportTemplate(const QString &path, ReportOptions &options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read the template %1: %2").arg(path, file.errorString());
    return applyReportTemplateText(file.readAll(), path, options);
}

} // namespace plumb
