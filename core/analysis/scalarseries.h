// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/experimentreader.h"

#include <cstdint>
#include <span>
#include <vector>

namespace plumb {

// Pure functions behind the scalar charts: which points of a restarted series to show, TensorBoard's
// smoothing, and the reduction of a series to what a chart of a given width can show.

// The indices of `points` (in (segment, step) order, as ExperimentReader::scalarPoints returns them)
// that TensorBoard shows: at each step the latest segment that reached it. A point of segment s is
// superseded when a later segment starts at or before its step. The indices come out in step order.
[[nodiscard]] std::vector<uint32_t> latestSegmentPoints(std::span<const ScalarPoint> points);

// The index of the first point of each segment after the first (where a restart resumed logging).
[[nodiscard]] std::vector<uint32_t> segmentStarts(std::span<const ScalarPoint> points);

// TensorBoard's smoothing of a scalar series (its "classic" debiased exponential moving average):
//   last = last * weight + (1 - weight) * value;  smoothed = last / (1 - weight^n)
// where n counts the finite values seen so far and last starts at 0. Non-finite values (NaN, ±inf)
// are passed through unsmoothed and do not move the average; a series whose values are all equal is
// returned as is (TensorBoard does the same so that a constant does not drift by rounding).
// weight is clamped to [0, 1]; at 1 the average never moves from 0 and no debiasing is applied, as
// in TensorBoard.
[[nodiscard]] std::vector<double> debiasedEma(std::span<const double> values, double weight);

// Reduces a line to at most four points per pixel column, so that it draws as it would with every
// point: consecutive points whose x falls in the same column of [xFrom, xTo) divided into `columns`
// keep the first, the smallest, the largest and the last (each once, in their original order).
// Points left of xFrom form one column and points right of xTo another, so the line still runs to
// the plot's edges. A non-finite y ends the run it interrupts and is kept (one per run of non-finite
// values) so that the line shows the gap. x need not be sorted: a column is a run of consecutive
// points. Returns indices into x/y, ascending. columns < 1 counts as 1.
[[nodiscard]] std::vector<uint32_t> decimateMinMax(
    std::span<const double> x, std::span<const double> y, double xFrom, double xTo, int columns);

} // namespace plumb
