// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/histogramseries.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plumb {

// The geometry of HistogramStepsChart, kept apart from drawing so that it can be tested.
//
// Histograms of different steps have different bucket edges (TensorBoard's exponential buckets,
// or the ones a framework chose), so they cannot share an x axis as they are. Like TensorBoard's
// Histograms tab we re-bin each one to the same equal-width bins over the range of every
// histogram shown, and draw the count per bin: with equal widths that is proportional to the
// density, and a zero-width bucket (every value the same) stays a finite spike instead of an
// infinite density.

inline constexpr int kHistogramBins = 30; // TensorBoard's

// `count` equal bins over [lo, hi] (lo < hi).
struct EqualBins {
    double lo = 0;
    double hi = 1;
    int count = kHistogramBins;
    [[nodiscard]] double width() const { return (hi - lo) / count; }
    [[nodiscard]] double centre(int i) const { return lo + (i + 0.5) * width(); }
    // The bin holding value v, clamped to the end bins.
    [[nodiscard]] int binOf(double v) const;
};

// True when h has a bucket with a positive count (an empty histogram draws nothing).
[[nodiscard]] bool hasCounts(const StepHistogram &h);

// Bins over the values the histograms hold: from the lowest left edge to the highest right edge of
// a bucket with a count (non-finite edges are passed over). When those are equal (every value the
// same), the range is widened by a tenth of the value on each side (1 around zero), so that the
// spike stands in the middle of the axis; with no value at all it is [0, 1].
[[nodiscard]] EqualBins commonBins(
    const std::vector<const StepHistogram *> &histograms, int count = kHistogramBins);

// h's counts over `bins`: a bucket's count is split in proportion to its overlap with each bin (the
// values taken as uniform within a bucket); a zero-width bucket's whole count goes to the bin that
// holds it; what lies outside [lo, hi] goes to the end bins. The total count is kept.
[[nodiscard]] std::vector<double> rebin(const StepHistogram &h, const EqualBins &bins);

// At most `cap` (at least 2) of the indices 0..n-1, ascending, evenly spaced, the first and the last
// always among them: which steps a ridge or overlay draws when there are too many to read.
[[nodiscard]] std::vector<size_t> evenlySpacedIndices(size_t n, size_t cap);

// The offset ("ridge") layout: each histogram's baseline is its step on a reversed step axis (the
// first step on top, the latest at the bottom, in front), and its curve rises above the baseline,
// the tallest bin of all reaching `peak` steps up. peak is kRidgeOverlap times the mean spacing of
// the curves, but at most kRidgeMaxFraction of the steps' span (1 step when all are at one step).
struct RidgeLayout {
    double peak = 1; // in steps
    double top = 0; // the axis range in steps: top (smallest) .. bottom
    double bottom = 1;
};
inline constexpr double kRidgeOverlap = 3.0;
inline constexpr double kRidgeMaxFraction = 0.3;
[[nodiscard]] RidgeLayout ridgeLayout(int64_t firstStep, int64_t lastStep, size_t curves);

} // namespace plumb
