// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/histogramseries.h"

#include <algorithm>
#include <map>

namespace plumb {

std::array<double, 9> distributionBands(const double *buckets, size_t bucketCount)
{
    std::array<double, 9> out {};
    if (bucketCount == 0)
        return out;
    const double minmin = buckets[0];
    const double maxmax = buckets[(bucketCount - 1) * 3 + 1];
    double total = 0;
    for (size_t i = 0; i < bucketCount; ++i)
        total += buckets[i * 3 + 2];
    const double scale = double(kDistributionBasisPoints.back()) / (total != 0 ? total : 1.0);
    std::vector<double> weights(bucketCount); // cumulative, scaled to 10000
    double sum = 0;
    for (size_t i = 0; i < bucketCount; ++i) {
        sum += buckets[i * 3 + 2] * scale;
        weights[i] = sum;
    }
    const auto rightEdge = [&](size_t i) { return buckets[i * 3 + 1]; };

    size_t bp = 0;
    for (; bp < kDistributionBasisPoints.size(); ++bp) {
        const double x = kDistributionBasisPoints[bp];
        size_t i = size_t(std::upper_bound(weights.begin(), weights.end(), x) - weights.begin());
        bool found = false;
        for (; i < bucketCount; ++i) {
            const double cum = weights[i];
            const double prev = i > 0 ? weights[i - 1] : 0.0;
            if (cum == prev)
                continue; // an empty bucket: nothing to interpolate in
            const double lhs = (i == 0 || prev == 0) ? minmin : std::max(rightEdge(i - 1), minmin);
            const double rhs = std::min(rightEdge(i), maxmax);
            out[bp] = lhs + (x - prev) * (rhs - lhs) / (cum - prev);
            found = true;
            break;
        }
        if (!found)
            break;
    }
    for (; bp < kDistributionBasisPoints.size(); ++bp)
        out[bp] = maxmax;
    return out;
}

std::vector<StepHistogram> latestSegmentView(std::vector<StepHistogram> histograms)
{
    // The first step of each segment: a point is superseded when a later segment starts at or
    // before its step.
    std::map<int64_t, int64_t> firstStep;
    for (const auto &h : histograms) {
        auto [it, inserted] = firstStep.emplace(h.segment, h.step);
        if (!inserted)
            it->second = std::min(it->second, h.step);
    }
    std::vector<StepHistogram> kept;
    kept.reserve(histograms.size());
    for (auto &h : histograms) {
        bool superseded = false;
        for (auto it = firstStep.upper_bound(h.segment); it != firstStep.end() && !superseded; ++it)
            superseded = it->second <= h.step;
        if (!superseded)
            kept.push_back(std::move(h));
    }
    std::stable_sort(kept.begin(), kept.end(),
        [](const StepHistogram &a, const StepHistogram &b) { return a.step < b.step; });
    return kept;
}

} // namespace plumb
