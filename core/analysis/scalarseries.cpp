// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/scalarseries.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

std::vector<uint32_t> segmentStarts(std::span<const ScalarPoint> points)
{
    std::vector<uint32_t> out;
    for (size_t i = 1; i < points.size(); ++i)
        if (points[i].segment != points[i - 1].segment)
            out.push_back(uint32_t(i));
    return out;
}

std::vector<uint32_t> latestSegmentPoints(std::span<const ScalarPoint> points)
{
    std::vector<uint32_t> out;
    out.reserve(points.size());
    const std::vector<uint32_t> starts = segmentStarts(points);
    if (starts.empty()) {
        for (size_t i = 0; i < points.size(); ++i)
            out.push_back(uint32_t(i));
        return out;
    }
    // limit[k]: the smallest first step of the segments after the k-th; a point of segment k shows
    // only below it.
    const size_t segments = starts.size() + 1;
    std::vector<int64_t> limit(segments, std::numeric_limits<int64_t>::max());
    for (size_t k = segments - 1; k-- > 0;)
        limit[k] = std::min(limit[k + 1], points[starts[k]].step);
    size_t k = 0;
    for (size_t i = 0; i < points.size(); ++i) {
        if (k < starts.size() && i == starts[k])
            ++k;
        if (points[i].step < limit[k])
            out.push_back(uint32_t(i));
    }
    return out;
}

std::vector<double> debiasedEma(std::span<const double> values, double weight)
{
    std::vector<double> out(values.begin(), values.end());
    if (values.empty())
        return out;
    const double w = std::clamp(std::isnan(weight) ? 0.0 : weight, 0.0, 1.0);
    const bool constant = std::all_of(values.begin(), values.end(), [&](double v) { return v == values[0]; });
    if (constant)
        return out;
    double last = 0;
    double wPowN = 1; // w^n, n the finite values so far: a product, not a pow() per point
    for (size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        if (!std::isfinite(v))
            continue;
        last = last * w + (1 - w) * v;
        wPowN *= w;
        const double debias = w == 1.0 ? 1.0 : 1.0 - wPowN;
        out[i] = last / debias;
    }
    return out;
}

std::vector<uint32_t> decimateMinMax(
    std::span<const double> x, std::span<const double> y, double xFrom, double xTo, int columns)
{
    const size_t n = std::min(x.size(), y.size());
    std::vector<uint32_t> out;
    if (n == 0)
        return out;
    const int64_t cols = std::max(columns, 1);
    const double span = xTo - xFrom;
    const double scale = span > 0 ? double(cols) / span : 0;
    // Column of a point: -1 left of the range, cols right of it.
    auto columnOf = [&](double v) -> int64_t {
        if (!(v >= xFrom))
            return -1;
        if (!(v < xTo))
            return span > 0 || v > xTo ? cols : 0;
        return std::min<int64_t>(cols - 1, int64_t((v - xFrom) * scale));
    };

    // The run being collected: its column, first, min, max and last point.
    bool open = false;
    int64_t runColumn = 0;
    uint32_t first = 0, lo = 0, hi = 0, last = 0;
    auto flush = [&] {
        if (!open)
            return;
        uint32_t keep[4] = { first, lo, hi, last };
        std::sort(keep, keep + 4);
        for (int k = 0; k < 4; ++k)
            if (k == 0 || keep[k] != keep[k - 1])
                out.push_back(keep[k]);
        open = false;
    };
    bool inGap = false;
    for (size_t i = 0; i < n; ++i) {
        const double v = y[i];
        if (!std::isfinite(v)) {
            flush();
            if (!inGap)
                out.push_back(uint32_t(i));
            inGap = true;
            continue;
        }
        inGap = false;
        const int64_t c = columnOf(x[i]);
        if (open && c == runColumn) {
            if (v < y[lo])
                lo = uint32_t(i);
            if (v > y[hi])
                hi = uint32_t(i);
            last = uint32_t(i);
            continue;
        }
        flush();
        open = true;
        runColumn = c;
        first = lo = hi = last = uint32_t(i);
    }
    flush();
    return out;
}

} // namespace plumb
