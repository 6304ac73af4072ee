// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

// Level-of-detail rules of the timeline, named so paint code has no magic numbers.
constexpr double kMinVisiblePx = 3.0; // slices narrower than this fold into one box (Tracy's rule)
constexpr double kMinNsPerPx = 0.001; // deepest zoom: 1 ps per pixel

// Maps time to pixels for a view whose left edge shows `startNs`, at `nsPerPx` (> 0). Time is
// always int64 nanoseconds; pixels are doubles measured from the view's left edge.
struct TimeScale {
    int64_t startNs = 0;
    double nsPerPx = 1.0;

    [[nodiscard]] double toPx(int64_t ns) const { return double(ns - startNs) / nsPerPx; }
    [[nodiscard]] double durationPx(int64_t ns) const { return double(ns) / nsPerPx; }
    [[nodiscard]] int64_t toNs(double px) const;
    [[nodiscard]] int64_t endNs(double widthPx) const { return toNs(widthPx); }

    // The scale that shows [fromNs, toNs) across widthPx (an empty range shows 1 µs around it).
    [[nodiscard]] static TimeScale fit(int64_t fromNs, int64_t toNs, double widthPx);
    // Zooms by `factor` (> 1 zooms in) keeping the time under anchorPx where it is, with nsPerPx
    // clamped to [kMinNsPerPx, maxNsPerPx].
    [[nodiscard]] TimeScale zoomed(double anchorPx, double factor, double maxNsPerPx) const;
    // Moves the view right by dxPx pixels (negative: left).
    [[nodiscard]] TimeScale panned(double dxPx) const;

    friend bool operator==(const TimeScale &, const TimeScale &) = default;
};

// The largest power-of-two bucket width (2^level ns) not wider than `minWidthNs`, so that at most
// one slice of a depth that is at least minWidthNs long starts in any bucket; 0 for minWidthNs < 2.
[[nodiscard]] int lodLevelFor(int64_t minWidthNs);

struct RulerTick {
    int64_t ns = 0; // absolute position (same clock as the view)
    bool major = false;
    QString label; // major ticks only: offset from the ruler origin, e.g. "1.5 ms"
};

// Ticks for the visible range [scale.startNs, scale.endNs(widthPx)]: major ticks 1, 2 or 5 x 10^k ns
// apart and at least minMajorPx apart, four (step 2: one) minor ticks between them, labels giving
// the offset from originNs in the unit that fits the step.
[[nodiscard]] std::vector<RulerTick> rulerTicks(
    const TimeScale &scale, double widthPx, int64_t originNs, double minMajorPx = 90.0);

// A time offset for a ruler label whose ticks are stepNs apart: "0", "250 µs", "1.5 ms", "-2 s".
[[nodiscard]] QString formatTimeOffset(int64_t ns, int64_t stepNs);
// A duration with three significant digits and its unit: "812 ns", "1.23 µs", "45.6 ms", "2.00 s".
[[nodiscard]] QString formatDuration(int64_t ns);

} // namespace plumb
