// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/histogramstepsgeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr double kSinglePointPad = 0.1; // of |value|, each side, when every value is the same
constexpr double kRangePad = 0.02; // of the span, below the first step and below the last baseline

} // namespace

int EqualBins::binOf(double v) const
{
    if (!(v > lo)) // NaN too
        return 0;
    const double k = (v - lo) / width();
    return k >= count ? count - 1 : int(k);
}

bool hasCounts(const StepHistogram &h)
{
    for (size_t i = 0; i < h.bucketCount(); ++i)
        if (h.buckets[i * 3 + 2] > 0)
            return true;
    return false;
}

EqualBins commonBins(const std::vector<const StepHistogram *> &histograms, int count)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const StepHistogram *h : histograms)
        for (size_t i = 0; i < h->bucketCount(); ++i) {
            const double *b = &h->buckets[i * 3];
            if (!(b[2] > 0))
                continue;
            if (std::isfinite(b[0])) {
                lo = std::min(lo, b[0]);
                hi = std::max(hi, b[0]);
            }
            if (std::isfinite(b[1])) {
                lo = std::min(lo, b[1]);
                hi = std::max(hi, b[1]);
            }
        }
    EqualBins bins;
    bins.count = std::max(1, count);
    if (!(lo <= hi))
        return bins;
    if (lo == hi) {
        const double pad = lo != 0 ? std::abs(lo) * kSinglePointPad : 1.0;
        lo -= pad;
        hi += pad;
    }
    bins.lo = lo;
    bins.hi = hi;
    return bins;
}

std::vector<double> rebin(const StepHistogram &h, const EqualBins &bins)
{
    std::vector<double> out(size_t(bins.count), 0.0);
    const double w = bins.width();
    for (size_t i = 0; i < h.bucketCount(); ++i) {
        const double left = h.buckets[i * 3], right = h.buckets[i * 3 + 1], c = h.buckets[i * 3 + 2];
        if (!(c > 0))
            continue;
        if (!(right > left) || !std::isfinite(right - left)) {
            out[size_t(bins.binOf(std::isfinite(left) ? left : right))] += c;
            continue;
        }
        // Clamped to the bins: what lies outside goes to the end bins, through the overlap below.
        const double l = std::clamp(left, bins.lo, bins.hi), r = std::clamp(right, bins.lo, bins.hi);
        if (!(r > l)) {
            out[size_t(bins.binOf(l))] += c;
            continue;
        }
        const int first = bins.binOf(l),
                  last = std::min(bins.count - 1, int(std::ceil((r - bins.lo) / w)) - 1);
        double placed = 0;
        for (int k = first; k <= last; ++k) {
            const double binLeft = bins.lo + k * w, binRight = k == bins.count - 1 ? bins.hi : binLeft + w;
            const double overlap = std::min(r, binRight) - std::max(l, binLeft);
            if (overlap > 0) {
                const double part = c * overlap / (r - l);
                out[size_t(k)] += part;
                placed += part;
            }
        }
        out[size_t(std::max(first, last))] += c - placed; // rounding, and what the clamp cut off
    }
    return out;
}

std::vector<size_t> evenlySpacedIndices(size_t n, size_t cap)
{
    std::vector<size_t> out;
    if (n == 0)
        return out;
    cap = std::max<size_t>(cap, 2);
    if (n <= cap) {
        out.resize(n);
        for (size_t i = 0; i < n; ++i)
            out[i] = i;
        return out;
    }
    out.reserve(cap);
    for (size_t i = 0; i < cap; ++i) {
        const auto k = size_t(std::llround(double(i) * double(n - 1) / double(cap - 1)));
        if (out.empty() || k != out.back())
            out.push_back(k);
    }
    return out;
}

RidgeLayout ridgeLayout(int64_t firstStep, int64_t lastStep, size_t curves)
{
    RidgeLayout l;
    const double span = double(lastStep - firstStep);
    if (span <= 0 || curves < 2)
        l.peak = 1;
    else
        l.peak = std::min(kRidgeOverlap * span / double(curves - 1), kRidgeMaxFraction * span);
    const double total = span + l.peak;
    l.top = double(firstStep) - l.peak - total * kRangePad;
    l.bottom = double(lastStep) + total * kRangePad;
    return l;
}

} // namespace plumb
