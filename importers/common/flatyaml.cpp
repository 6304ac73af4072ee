// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/flatyaml.h"

#include <QStringList>

namespace plumb {

namespace {

QString unquoteDouble(QStringView v)
{
    QString out;
    for (qsizetype i = 0; i < v.size(); ++i) {
        const QChar c = v[i];
        if (c != QLatin1Char('\\') || i + 1 == v.size()) {
            out += c;
            continue;
        }
        const QChar e = v[++i];
        switch (e.unicode()) {
        case 'n':
            out += QLatin1Char('\n');
            break;
        case 't':
            out += QLatin1Char('\t');
            break;
        case 'r':
            out += QLatin1Char('\r');
            break;
        case '0':
            out += QChar(0);
            break;
        default:
            out += e;
            break; // \" \\ \/ and anything unknown: the character itself
        }
    }
    return out;
}

QString scalar(QStringView v)
{
    v = v.trimmed();
    if (v.size() >= 2 && v.front() == QLatin1Char('\'') && v.back() == QLatin1Char('\''))
        return v.mid(1, v.size() - 2).toString().replace(QStringLiteral("''"), QStringLiteral("'"));
    if (v.size() >= 2 && v.front() == QLatin1Char('"') && v.back() == QLatin1Char('"'))
        return unquoteDouble(v.mid(1, v.size() - 2));
    if (v.isEmpty() || v == QLatin1String("~") || v == QLatin1String("null"))
        return {};
    // A plain scalar ends at " #" (a comment).
    const qsizetype comment = v.indexOf(QLatin1String(" #"));
    return (comment >= 0 ? v.left(comment).trimmed() : v).toString();
}

} // namespace

QHash<QString, QString> FlatYaml::parse(QByteArrayView text)
{
    QHash<QString, QString> out;
    const QString all = QString::fromUtf8(text);
    for (QStringView line : QStringView(all).split(QLatin1Char('\n'))) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.isEmpty() || line.front().isSpace() || line.front() == QLatin1Char('#')
            || line.front() == QLatin1Char('-'))
            continue;
        const qsizetype colon = line.indexOf(QLatin1String(": "));
        if (colon > 0)
            out.insert(line.left(colon).trimmed().toString(), scalar(line.mid(colon + 2)));
        else if (line.endsWith(QLatin1Char(':')))
            out.insert(line.chopped(1).trimmed().toString(), QString());
    }
    return out;
}

} // namespace plumb
