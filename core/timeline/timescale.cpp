// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timescale.h"

#include <QLocale>

#include <algorithm>
#include <bit>
#include <cmath>

namespace plumb {

int64_t TimeScale::toNs(double px) const
{
    return startNs + int64_t(std::llround(px * nsPerPx));
}

TimeScale TimeScale::fit(int64_t fromNs, int64_t toNs, double widthPx)
{
    if (toNs <= fromNs) {
        fromNs -= 500;
        toNs = fromNs + 1000;
    }
    return { fromNs, std::max(kMinNsPerPx, double(toNs - fromNs) / std::max(1.0, widthPx)) };
}

TimeScale TimeScale::zoomed(double anchorPx, double factor, double maxNsPerPx) const
{
    if (!(factor > 0))
        return *this;
    const double anchorNs = double(startNs) + anchorPx * nsPerPx;
    const double nsPx = std::clamp(nsPerPx / factor, kMinNsPerPx, std::max(kMinNsPerPx, maxNsPerPx));
    return { int64_t(std::llround(anchorNs - anchorPx * nsPx)), nsPx };
}

TimeScale TimeScale::panned(double dxPx) const
{
    return { startNs + int64_t(std::llround(dxPx * nsPerPx)), nsPerPx };
}

int lodLevelFor(int64_t minWidthNs)
{
    if (minWidthNs < 2)
        return 0;
    return int(std::bit_width(uint64_t(minWidthNs))) - 1;
}

namespace {

struct Unit {
    int64_t ns;
    const char *suffix;
};
constexpr Unit kUnits[] = { { 1'000'000'000, "s" }, { 1'000'000, "ms" }, { 1'000, "µs" }, { 1, "ns" } };

const Unit &unitFor(int64_t ns)
{
    for (const Unit &u : kUnits)
        if (ns >= u.ns)
            return u;
    return kUnits[3];
}

// Decimals needed to show multiples of stepNs in unit u.
int decimalsFor(int64_t stepNs, const Unit &u)
{
    int decimals = 0;
    for (int64_t s = u.ns; s > 1 && stepNs % s != 0 && decimals < 9; s /= 10)
        ++decimals;
    return decimals;
}

} // namespace

QString formatTimeOffset(int64_t ns, int64_t stepNs)
{
    if (ns == 0)
        return QStringLiteral("0");
    // The unit of the value, with as many decimals as the step needs ("1.4 ms" for 200 µs steps).
    const Unit &u = unitFor(std::llabs(ns));
    const int decimals = decimalsFor(std::max<int64_t>(1, stepNs), u);
    return QStringLiteral("%1 %2")
        .arg(double(ns) / double(u.ns), 0, 'f', decimals)
        .arg(QString::fromUtf8(u.suffix));
}

QString formatDuration(int64_t ns)
{
    const Unit &u = unitFor(std::llabs(ns));
    if (u.ns == 1)
        return QStringLiteral("%1 ns").arg(ns);
    const double value = double(ns) / double(u.ns);
    const double mag = std::fabs(value);
    const int decimals = mag >= 100 ? 0 : mag >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(value, 0, 'f', decimals).arg(QString::fromUtf8(u.suffix));
}

std::vector<RulerTick> rulerTicks(const TimeScale &scale, double widthPx, int64_t originNs, double minMajorPx)
{
    std::vector<RulerTick> ticks;
    if (widthPx <= 0 || scale.nsPerPx <= 0)
        return ticks;
    const double minStep = std::max(1.0, minMajorPx * scale.nsPerPx);
    int64_t step = 1;
    int minorPerMajor = 5;
    for (int64_t decade = 1;; decade *= 10) {
        bool found = false;
        for (int m : { 1, 2, 5 }) {
            if (double(decade) * m >= minStep) {
                step = decade * m;
                minorPerMajor = m == 2 ? 2 : 5;
                found = true;
                break;
            }
        }
        if (found || decade > INT64_MAX / 100)
            break;
    }
    const int64_t minor = std::max<int64_t>(1, step / minorPerMajor);
    const int64_t endNs = scale.endNs(widthPx);
    // Ticks sit on multiples of the step counted from the origin, so labels are round.
    auto floorDiv = [](int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
    int64_t k = floorDiv(scale.startNs - originNs, minor);
    for (int64_t t = originNs + k * minor; t <= endNs; t += minor) {
        if (t < scale.startNs)
            continue;
        RulerTick tick;
        tick.ns = t;
        tick.major = (t - originNs) % step == 0;
        if (tick.major)
            tick.label = formatTimeOffset(t - originNs, step);
        ticks.push_back(std::move(tick));
        if (ticks.size() > 10000)
            break;
    }
    return ticks;
}

} // namespace plumb
