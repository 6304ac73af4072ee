// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/textformat.h"

#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace plumb::text {

QString bytes(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString count(int64_t n)
{
    return QLocale().toString(qlonglong(n));
}

QString counted(int64_t n, const QString &singular, const QString &plural)
{
    return count(n) + QLatin1Char(' ') + (n == 1 ? singular : plural);
}

QString elided(const QString &s, int maxChars)
{
    if (s.size() <= maxChars)
        return s;
    return s.left(maxChars - 1).trimmed() + QChar(0x2026);
}

QStringList wrapped(const QString &text, qsizetype width)
{
    QStringList lines;
    QString line;
    for (const QString &w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + w.size() > width) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + w;
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

QString counterValue(const QString &trackName, double value)
{
    if (trackName.startsWith(QLatin1String("Memory allocated")) && std::abs(value) < 9.0e18)
        return (value < 0 ? QStringLiteral("-") : QString()) + bytes(int64_t(std::llround(std::abs(value))));
    return QLocale().toString(value, 'g', 4);
}

QString milliseconds(int64_t ns)
{
    return QLocale().toString(double(ns) / 1e6, 'f', 3);
}

QString dateTime(int64_t epochNs)
{
    if (epochNs <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(epochNs / 1000000).toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
}

} // namespace plumb::text
