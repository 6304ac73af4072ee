// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plumb {

// Counts of integer samples (durations, delays: ns) in bins that cover every sample: bin i holds
// the samples v with edges[i] <= v < edges[i + 1], the last bin also its upper edge. The bins are
// log-spaced when the samples are all positive and span kLogSpanRatio or more (kernel durations and
// launch delays are heavy-tailed: linear bins would put nearly everything in the first one), else
// linear. Their number follows the Rice rule (2 * cbrt(n)) within [1, kMaxHistogramBins].
struct Histogram {
    std::vector<double> edges; // bins + 1, ascending (ns)
    std::vector<int64_t> counts; // per bin
    bool logSpaced = false;

    // Empty bins for `samples` values within [minValue, maxValue]; add() then counts them.
    [[nodiscard]] static Histogram forRange(int64_t minValue, int64_t maxValue, int64_t samples);
    [[nodiscard]] int bins() const { return int(counts.size()); }
    // The bin holding `value` (clamped to the first or last bin outside the range).
    [[nodiscard]] int binOf(int64_t value) const;
    void add(int64_t value) { ++counts[size_t(binOf(value))]; }
    [[nodiscard]] int64_t total() const;
};

constexpr double kLogSpanRatio = 20.0;
constexpr int kMaxHistogramBins = 50;

// The histogram of `values` (any order).
[[nodiscard]] Histogram histogramOf(const std::vector<int64_t> &values);

} // namespace plumb
