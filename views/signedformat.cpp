// SPDX-License-Identifier: GPL-3.0-or-later
#include "signedformat.h"

#include "timeline/timescale.h"

#include <cmath>

namespace plumb {

namespace {

const QChar kMinus(0x2212);

} // namespace

QString signedDuration(double ns)
{
    const int64_t rounded = std::llround(ns);
    if (rounded == 0)
        return QStringLiteral("±0 ns");
    return (rounded > 0 ? QChar(u'+') : kMinus) + formatDuration(std::llabs(rounded));
}

QString signedPercent(double fraction)
{
    const double pct = 100 * fraction;
    const QString digits = QString::number(std::abs(pct), 'f', std::abs(pct) < 100 ? 1 : 0);
    if (digits.toDouble() == 0)
        return QStringLiteral("±0%");
    return (pct > 0 ? QChar(u'+') : kMinus) + digits + u'%';
}

} // namespace plumb
