// SPDX-License-Identifier: GPL-3.0-or-later
// The scalar charts' pure functions: TensorBoard's debiased EMA against hand-computed values (NaN and
// inf passed through, constants kept, the weight's ends), the latest-segment rule for restarted
// series, and min/max decimation against brute force per pixel column (first, last, min and max
// of every column kept, out-of-range points folded, gaps kept, unsorted x).

#include "analysis/scalarseries.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace plumb;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<ScalarPoint> segmented(std::initializer_list<std::pair<int64_t, int64_t>> segments)
{
    std::vector<ScalarPoint> points;
    int64_t segment = 0;
    for (const auto &[from, to] : segments) {
        for (int64_t s = from; s <= to; ++s)
            points.push_back({ segment, s, s * 1000, double(segment * 100 + s) });
        ++segment;
    }
    return points;
}

} // namespace

class TestScalarSeries : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // w = 0.5 over 1, 2, 3: last = 0.5, 1.25, 2.125; debias 0.5, 0.75, 0.875 -> 1, 5/3, 17/7.
    void emaKnownAnswer()
    {
        const std::vector<double> v = { 1, 2, 3 };
        const std::vector<double> s = debiasedEma(v, 0.5);
        QCOMPARE(s.size(), size_t(3));
        QCOMPARE(s[0], 1.0);
        QVERIFY(std::abs(s[1] - 5.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(s[2] - 17.0 / 7.0) < 1e-12);
        // w = 0.9 over 10, 0: last = 1, 0.9; debias 0.1, 0.19 -> 10, 90/19.
        const std::vector<double> t = debiasedEma(std::vector<double> { 10, 0 }, 0.9);
        QVERIFY(std::abs(t[0] - 10.0) < 1e-12);
        QVERIFY(std::abs(t[1] - 0.9 / 0.19) < 1e-12);
    }

    // NaN and inf pass through and do not count: 1, NaN, 3 at w = 0.5 -> 1, NaN, 1.75 / 0.75.
    void emaNonFinite()
    {
        const std::vector<double> s = debiasedEma(std::vector<double> { 1, kNaN, 3, kInf, -kInf }, 0.5);
        QCOMPARE(s[0], 1.0);
        QVERIFY(std::isnan(s[1]));
        QVERIFY(std::abs(s[2] - 1.75 / 0.75) < 1e-12);
        QCOMPARE(s[3], kInf);
        QCOMPARE(s[4], -kInf);
        // Leading NaNs: the first finite value is its own average.
        const std::vector<double> t = debiasedEma(std::vector<double> { kNaN, 4, 8 }, 0.5);
        QVERIFY(std::isnan(t[0]));
        QCOMPARE(t[1], 4.0);
        QVERIFY(std::abs(t[2] - (0.25 * 4 + 0.5 * 8) / 0.75) < 1e-12);
    }

    void emaEnds()
    {
        const std::vector<double> v = { 3, -1, 7, 2 };
        QCOMPARE(debiasedEma(v, 0.0), v); // no smoothing
        QCOMPARE(debiasedEma(v, -0.5), v); // clamped to 0
        const std::vector<double> one = debiasedEma(v, 1.0); // TensorBoard: stays at 0, no debias
        QCOMPARE(one, (std::vector<double> { 0, 0, 0, 0 }));
        const std::vector<double> c = { 0.1, 0.1, 0.1 };
        QCOMPARE(debiasedEma(c, 0.6), c); // constants kept exactly
        QVERIFY(debiasedEma(std::vector<double> {}, 0.6).empty());
        // A high weight still starts at the first value (the point of the debiasing).
        const std::vector<double> h = debiasedEma(std::vector<double> { 5, 5.5 }, 0.999);
        QCOMPARE(h[0], 5.0);
        QVERIFY(h[1] > 5.0 && h[1] < 5.5);
    }

    // seg0 steps 0..9, seg1 5..14, seg2 12..20: seg0 shows 0..4, seg1 5..11, seg2 12..20.
    void latestSegment()
    {
        const std::vector<ScalarPoint> p = segmented({ { 0, 9 }, { 5, 14 }, { 12, 20 } });
        const std::vector<uint32_t> kept = latestSegmentPoints(p);
        QCOMPARE(kept.size(), size_t(21));
        for (size_t i = 0; i < kept.size(); ++i) {
            const ScalarPoint &q = p[kept[i]];
            QCOMPARE(q.step, int64_t(i));
            QCOMPARE(q.segment, i < 5 ? 0 : (i < 12 ? 1 : 2));
        }
        QCOMPARE(segmentStarts(p), (std::vector<uint32_t> { 10, 20 }));
        // A later segment that restarts earlier than an intermediate one hides both: seg0 0..9,
        // seg1 6..9, seg2 3..4 -> seg0 0..2, seg1 nothing, seg2 3..4.
        const std::vector<ScalarPoint> q = segmented({ { 0, 9 }, { 6, 9 }, { 3, 4 } });
        std::vector<int64_t> steps, segs;
        for (uint32_t i : latestSegmentPoints(q)) {
            steps.push_back(q[i].step);
            segs.push_back(q[i].segment);
        }
        QCOMPARE(steps, (std::vector<int64_t> { 0, 1, 2, 3, 4 }));
        QCOMPARE(segs, (std::vector<int64_t> { 0, 0, 0, 2, 2 }));
        // No restart: everything.
        QCOMPARE(latestSegmentPoints(segmented({ { 0, 3 } })).size(), size_t(4));
        QVERIFY(latestSegmentPoints({}).empty());
    }

    // 100k random points over 0..1000 in 37 columns: per column, the kept points include its first and
    // last point and reach its min and max; nothing else is kept.
    void decimationAgainstBruteForce()
    {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> noise(-1, 1);
        const int n = 100'000, columns = 37;
        std::vector<double> x(n), y(n);
        for (int i = 0; i < n; ++i) {
            x[size_t(i)] = i * 0.01;
            y[size_t(i)] = std::sin(i * 1e-3) + noise(rng);
        }
        const double from = 0, to = 1000;
        const std::vector<uint32_t> kept = decimateMinMax(x, y, from, to, columns);
        QVERIFY(std::is_sorted(kept.begin(), kept.end()));
        QVERIFY(kept.size() <= size_t(4 * columns));
        std::set<uint32_t> keptSet(kept.begin(), kept.end());
        QCOMPARE(keptSet.size(), kept.size());
        QVERIFY(keptSet.count(0));
        QVERIFY(keptSet.count(n - 1));
        for (int c = 0; c < columns; ++c) {
            double lo = kInf, hi = -kInf, keptLo = kInf, keptHi = -kInf;
            int first = -1, last = -1;
            for (int i = 0; i < n; ++i) {
                const int col = std::min(columns - 1, int((x[size_t(i)] - from) * columns / (to - from)));
                if (col != c)
                    continue;
                if (first < 0)
                    first = i;
                last = i;
                lo = std::min(lo, y[size_t(i)]);
                hi = std::max(hi, y[size_t(i)]);
                if (keptSet.count(uint32_t(i))) {
                    keptLo = std::min(keptLo, y[size_t(i)]);
                    keptHi = std::max(keptHi, y[size_t(i)]);
                }
            }
            QVERIFY(first >= 0);
            QVERIFY(keptSet.count(uint32_t(first)));
            QVERIFY(keptSet.count(uint32_t(last)));
            QCOMPARE(keptLo, lo);
            QCOMPARE(keptHi, hi);
        }
    }

    // Zoomed in: the points left and right of the range fold into one column each, whose last (left)
    // and first (right) points connect the line to the plot's edges.
    void decimationOutOfRange()
    {
        std::vector<double> x, y;
        for (int i = 0; i < 1000; ++i) {
            x.push_back(i);
            y.push_back(i % 7);
        }
        const std::vector<uint32_t> kept = decimateMinMax(x, y, 400, 410, 10);
        std::set<uint32_t> s(kept.begin(), kept.end());
        QVERIFY(s.count(0) && s.count(399)); // first and last left of the range
        QVERIFY(s.count(410) && s.count(999)); // first and last right of it
        for (uint32_t i = 400; i < 410; ++i) // one point per column: all kept
            QVERIFY(s.count(i));
        QVERIFY(kept.size() <= 4 + 10 + 4);
    }

    // A NaN ends the column's run and is kept once per run of NaNs; inf counts as a gap too.
    void decimationGaps()
    {
        const std::vector<double> x = { 0, 1, 2, 3, 4, 5, 6, 7 };
        const std::vector<double> y = { 1, 2, kNaN, kNaN, 3, kInf, 4, 5 };
        const std::vector<uint32_t> kept = decimateMinMax(x, y, 0, 8, 1);
        QCOMPARE(kept, (std::vector<uint32_t> { 0, 1, 2, 4, 5, 6, 7 }));
    }

    void decimationEdgeCases()
    {
        QVERIFY(decimateMinMax({}, {}, 0, 1, 10).empty());
        const std::vector<double> x = { 5 }, y = { 1 };
        QCOMPARE(decimateMinMax(x, y, 0, 10, 0), (std::vector<uint32_t> { 0 }));
        // An empty range (one step on the axis) still keeps first/min/max/last.
        const std::vector<double> x2 = { 3, 3, 3, 3, 3 }, y2 = { 2, 9, 1, 5, 4 };
        QCOMPARE(decimateMinMax(x2, y2, 3, 3, 100), (std::vector<uint32_t> { 0, 1, 2, 4 }));
        // Unsorted x (wall time going back): columns are runs of consecutive points.
        const std::vector<double> x3 = { 0.1, 0.2, 5.1, 5.2, 0.3, 0.4 }, y3 = { 1, 2, 3, 4, 5, 6 };
        QCOMPARE(decimateMinMax(x3, y3, 0, 10, 10), (std::vector<uint32_t> { 0, 1, 2, 3, 4, 5 }));
    }
};

QTEST_GUILESS_MAIN(TestScalarSeries)
#include "tst_scalarseries.moc"
