// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace plumb {

// One stored histogram of a series (see the histogram table): buckets normalised to
// bucketCount x (left edge, right edge, count).
struct StepHistogram {
    int64_t segment = 0;
    int64_t step = 0;
    int64_t wallNs = 0;
    std::vector<double> buckets; // 3 doubles per bucket
    [[nodiscard]] size_t bucketCount() const { return buckets.size() / 3; }
};

// The basis points (1/100 of a percent) of TensorBoard's distribution view: the normal CDF at
// -inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5 and +inf standard deviations, so the bands around the
// median are 1, 2 and 3 standard deviations wide, then the tails.
inline constexpr std::array<int, 9> kDistributionBasisPoints { 0, 668, 1587, 3085, 5000, 6915, 8413, 9332,
    10000 };

// The value at each of kDistributionBasisPoints, interpolated linearly within buckets as
// TensorBoard's compress_histogram does (so that our bands match its Distributions tab): the
// cumulative count is scaled to 10000, each basis point falls in the first bucket whose cumulative
// weight exceeds it, and a point past the last bucket with weight is the rightmost edge. An empty
// histogram gives zeros.
[[nodiscard]] std::array<double, 9> distributionBands(const double *buckets, size_t bucketCount);

// The histograms TensorBoard shows for a series that restarted: at each step, the latest segment
// that reached it (an earlier segment's histogram at a step a later segment also started at or
// before is dropped), ordered by step. Input in (segment, step) order, as ExperimentReader reads it.
[[nodiscard]] std::vector<StepHistogram> latestSegmentView(std::vector<StepHistogram> histograms);

} // namespace plumb
