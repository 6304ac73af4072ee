// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <cstdint>
#include <vector>

namespace plumb {

// A mergeable quantile sketch of durations (DDSketch, Masson, Rim and Lee, VLDB 2019): values fall into
// buckets whose bounds grow by a factor gamma = (1 + a) / (1 - a), so any quantile it answers is within a
// relative error `a` (kRelativeAccuracy, 0.5%) of the value at that rank, whatever the distribution, and
// two sketches merge by adding their buckets: the merge answers as one sketch of both inputs would. The
// per-step summaries (docs/sql.md, op_summary.sketch) keep one per op name and step, so percentiles over
// several steps or ranks need no events. Values are non-negative integers (ns); zero has its own count.
class QuantileSketch {
public:
    static constexpr double kRelativeAccuracy = 0.005;

    void add(int64_t value, int64_t count = 1);
    void merge(const QuantileSketch &other);

    [[nodiscard]] int64_t count() const { return m_count; }
    [[nodiscard]] bool empty() const { return m_count == 0; }
    // The nearest-rank quantile (the value at rank ceil(q * count), as kernelTable() ranks them), within
    // kRelativeAccuracy of it; 0 when empty. q in [0, 1].
    [[nodiscard]] int64_t quantile(double q) const;

    // A compact encoding (docs/sql.md): a version byte, then varints: the zero count, the first bucket's
    // index (zigzag), the bucket count and each bucket's count. decode() of a malformed blob gives an
    // empty sketch and false.
    [[nodiscard]] QByteArray encode() const;
    static bool decode(const QByteArray &bytes, QuantileSketch &out);

    friend bool operator==(const QuantileSketch &, const QuantileSketch &) = default;

private:
    [[nodiscard]] static int32_t indexOf(int64_t value);
    [[nodiscard]] static int64_t valueOf(int32_t index);

    int64_t m_count = 0;
    int64_t m_zeros = 0;
    int32_t m_first = 0; // index of m_buckets[0]
    std::vector<int64_t> m_buckets; // counts of buckets m_first, m_first + 1, ...
};

} // namespace plumb
