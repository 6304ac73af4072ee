// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/histogram.h"

#include <algorithm>
#include <cmath>

namespace plumb {

Histogram Histogram::forRange(int64_t minValue, int64_t maxValue, int64_t samples)
{
    Histogram h;
    if (samples <= 0)
        return h;
    if (maxValue < minValue)
        std::swap(minValue, maxValue);
    const double lo = double(minValue);
    // One past the largest sample, so that it lands inside the last bin on either spacing.
    const double hi = double(maxValue) + 1.0;
    const int n = maxValue == minValue
        ? 1
        : std::clamp(int(std::ceil(2.0 * std::cbrt(double(samples)))), 1, kMaxHistogramBins);
    h.logSpaced = minValue > 0 && hi / lo >= kLogSpanRatio;
    h.edges.resize(size_t(n) + 1);
    for (int i = 0; i <= n; ++i) {
        const double f = double(i) / double(n);
        h.edges[size_t(i)] = h.logSpaced ? lo * std::pow(hi / lo, f) : lo + (hi - lo) * f;
    }
    h.edges.front() = lo;
    h.edges.back() = hi;
    h.counts.assign(size_t(n), 0);
    return h;
}

int Histogram::binOf(int64_t value) const
{
    const int n = bins();
    const double v = double(value);
    if (n <= 1 || v < edges[1])
        return 0;
    if (v >= edges[size_t(n) - 1])
        return n - 1;
    // The last edge at or below v (at most 50 bins: a few comparisons, cheaper than a logarithm).
    return int(std::upper_bound(edges.begin() + 1, edges.begin() + n, v) - edges.begin()) - 1;
}

int64_t Histogram::total() const
{
    int64_t sum = 0;
    for (int64_t c : counts)
        sum += c;
    return sum;
}

Histogram histogramOf(const std::vector<int64_t> &values)
{
    if (values.empty())
        return {};
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    Histogram h = Histogram::forRange(*lo, *hi, int64_t(values.size()));
    for (int64_t v : values)
        h.add(v);
    return h;
}

} // namespace plumb
