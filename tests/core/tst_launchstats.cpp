// SPDX-License-Identifier: GPL-3.0-or-later
// Launch statistics: the per-stream queue length against a brute force over every nanosecond (exact
// and reduced series), its max and time-weighted mean, and the launch-delay and generic histograms
// against counting each bin's samples directly.

#include "analysis/histogram.h"
#include "analysis/launchstats.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace plumb;

namespace {

GpuOp op(int64_t track, int64_t launchNs, int64_t startNs, int64_t endNs)
{
    GpuOp o;
    o.streamTrackId = track;
    o.launchNs = launchNs;
    o.startNs = startNs;
    o.endNs = endNs;
    return o;
}

// The queue at t, straight from the definition.
int32_t bruteQueue(const std::vector<GpuOp> &ops, int64_t track, int64_t t)
{
    int32_t n = 0;
    for (const GpuOp &o : ops) {
        if (o.streamTrackId != track)
            continue;
        const int64_t in = o.launchNs >= 0 ? std::min(o.launchNs, o.startNs) : o.startNs;
        const int64_t out = std::max(o.endNs, in);
        n += in <= t && t < out;
    }
    return n;
}

// The step series' value at t.
int32_t seriesAt(const std::vector<QueuePoint> &s, int64_t t)
{
    int32_t v = 0;
    for (const QueuePoint &p : s) {
        if (p.timeNs > t)
            break;
        v = p.queued;
    }
    return v;
}

// Each bin's count recounted from its edges.
void checkBins(const Histogram &h, const std::vector<int64_t> &values)
{
    QCOMPARE(h.total(), int64_t(values.size()));
    QCOMPARE(h.edges.size(), h.counts.size() + 1);
    for (int i = 0; i < h.bins(); ++i) {
        const bool last = i == h.bins() - 1;
        const int64_t n = std::count_if(values.begin(), values.end(), [&](int64_t v) {
            return double(v) >= h.edges[size_t(i)]
                && (double(v) < h.edges[size_t(i) + 1] || (last && double(v) <= h.edges.back()));
        });
        QCOMPARE(h.counts[size_t(i)], n);
    }
}

std::vector<GpuOp> randomOps(std::mt19937 &rng, int count)
{
    std::uniform_int_distribution<int> track(1, 3), start(0, 500), len(0, 40), lead(0, 80), kind(0, 9);
    std::vector<GpuOp> ops;
    for (int i = 0; i < count; ++i) {
        const int64_t s = start(rng);
        const int k = kind(rng);
        // Mostly launched before the GPU start; some with no launch, a few with a skewed clock.
        const int64_t launch = k == 0 ? -1 : k == 1 ? s + lead(rng) / 4 : std::max<int64_t>(0, s - lead(rng));
        ops.push_back(op(track(rng), launch, s, s + len(rng)));
    }
    std::sort(ops.begin(), ops.end(), [](const GpuOp &a, const GpuOp &b) { return a.startNs < b.startNs; });
    return ops;
}

} // namespace

class TestLaunchStats : public QObject {
    Q_OBJECT

private slots:
    void knownAnswer()
    {
        // Stream 7: launched at 0 and 5, run [10,20) and [20,30). Stream 8: one op nobody launched.
        const std::vector<GpuOp> ops = { op(7, 0, 10, 20), op(7, 5, 20, 30), op(8, -1, 12, 14) };
        const LaunchStats s = launchStats(ops);
        QCOMPARE(s.queues.size(), size_t(2));
        const StreamQueue &q = s.queues[0];
        QCOMPARE(q.streamTrackId, Q_INT64_C(7));
        QCOMPARE(q.ops, Q_INT64_C(2));
        QVERIFY(!q.reduced);
        const std::vector<std::pair<int64_t, int32_t>> expected
            = { { 0, 1 }, { 5, 2 }, { 20, 1 }, { 30, 0 } };
        QCOMPARE(q.series.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(q.series[i].timeNs, expected[i].first);
            QCOMPARE(q.series[i].queued, expected[i].second);
        }
        QCOMPARE(q.maxQueued, 2);
        QCOMPARE(q.meanQueued, (5 * 1 + 15 * 2 + 10 * 1) / 30.0);
        QCOMPARE(s.queues[1].maxQueued, 1);
        QCOMPARE(s.queues[1].firstNs, Q_INT64_C(12));
        // Delays 10 and 15: two linked ops, one unlinked.
        QCOMPARE(s.launchedOps, Q_INT64_C(2));
        QCOMPARE(s.minDelayNs, Q_INT64_C(10));
        QCOMPARE(s.maxDelayNs, Q_INT64_C(15));
        QCOMPARE(s.launchDelay.total(), Q_INT64_C(2));
        QVERIFY(!s.launchDelay.logSpaced);

        const LaunchStats none = launchStats({});
        QVERIFY(none.queues.empty());
        QCOMPARE(none.launchDelay.total(), Q_INT64_C(0));
    }

    void queueMatchesBruteForce()
    {
        std::mt19937 rng(11);
        for (int trial = 0; trial < 300; ++trial) {
            std::vector<GpuOp> ops = randomOps(rng, std::uniform_int_distribution<int>(1, 40)(rng));
            // Also out of start order, as another caller might hand them over.
            if (trial % 3 == 0)
                std::shuffle(ops.begin(), ops.end(), rng);
            const LaunchStats s = launchStats(ops, 0);
            for (const StreamQueue &q : s.queues) {
                QVERIFY(!q.reduced);
                int32_t max = 0;
                double area = 0;
                for (int64_t t = q.firstNs - 3; t < q.lastNs + 3; ++t) {
                    const int32_t brute = bruteQueue(ops, q.streamTrackId, t);
                    QCOMPARE(seriesAt(q.series, t), brute);
                    max = std::max(max, brute);
                    area += brute;
                }
                QCOMPARE(q.maxQueued, max);
                if (q.lastNs > q.firstNs)
                    QVERIFY(qAbs(q.meanQueued - area / double(q.lastNs - q.firstNs)) < 1e-9);
                QCOMPARE(q.series.back().queued, 0);
                QVERIFY(q.series.back().timeNs <= q.lastNs);
                for (size_t i = 1; i < q.series.size(); ++i) {
                    QVERIFY(q.series[i].timeNs > q.series[i - 1].timeNs);
                    QVERIFY(q.series[i].queued != q.series[i - 1].queued);
                }
            }
        }
    }

    void fifoStreamsMatchBruteForce()
    {
        // As CUDA streams run them: per stream, launches in order and ops back to back, so entries and
        // exits are already in order among the ops (the path that reads them without sorting).
        std::mt19937 rng(17);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<GpuOp> ops;
            std::uniform_int_distribution<int> gap(0, 12), len(0, 15), lead(0, 40);
            for (int64_t track = 1; track <= 2; ++track) {
                int64_t launch = 0, free = 0;
                for (int i = std::uniform_int_distribution<int>(1, 25)(rng); i > 0; --i) {
                    launch += gap(rng);
                    const int64_t start = std::max(free, launch + lead(rng));
                    free = start + len(rng);
                    ops.push_back(op(track, trial % 4 == 0 && i % 5 == 0 ? -1 : launch, start, free));
                }
            }
            std::stable_sort(
                ops.begin(), ops.end(), [](const GpuOp &a, const GpuOp &b) { return a.startNs < b.startNs; });
            for (int maxPoints : { 0, 7 }) {
                const LaunchStats s = launchStats(ops, maxPoints);
                for (const StreamQueue &q : s.queues) {
                    int32_t max = 0;
                    for (int64_t t = q.firstNs - 2; t < q.lastNs + 2; ++t) {
                        const int32_t brute = bruteQueue(ops, q.streamTrackId, t);
                        if (!q.reduced)
                            QCOMPARE(seriesAt(q.series, t), brute);
                        else
                            QVERIFY(seriesAt(q.series, t) >= brute);
                        max = std::max(max, brute);
                    }
                    QCOMPARE(q.maxQueued, max);
                }
            }
        }
    }

    void reducedSeriesKeepsPeaks()
    {
        std::mt19937 rng(5);
        for (int trial = 0; trial < 100; ++trial) {
            const std::vector<GpuOp> ops = randomOps(rng, std::uniform_int_distribution<int>(10, 80)(rng));
            const int maxPoints = std::uniform_int_distribution<int>(2, 12)(rng);
            const LaunchStats exact = launchStats(ops, 0);
            const LaunchStats s = launchStats(ops, maxPoints);
            QCOMPARE(s.queues.size(), exact.queues.size());
            for (size_t k = 0; k < s.queues.size(); ++k) {
                const StreamQueue &q = s.queues[k];
                QCOMPARE(q.maxQueued, exact.queues[k].maxQueued);
                QCOMPARE(q.meanQueued, exact.queues[k].meanQueued);
                if (!q.reduced)
                    continue;
                // One point per bucket at most, plus the final zero.
                QVERIFY(int(q.series.size()) <= maxPoints + 2);
                QCOMPARE(q.series.back().queued, 0);
                QVERIFY(q.series.back().timeNs <= q.lastNs);
                int32_t peak = 0;
                // Each point holds the largest queue until the next one.
                for (size_t i = 0; i + 1 < q.series.size(); ++i) {
                    int32_t max = 0;
                    for (int64_t t = q.series[i].timeNs; t < q.series[i + 1].timeNs; ++t)
                        max = std::max(max, bruteQueue(ops, q.streamTrackId, t));
                    QCOMPARE(q.series[i].queued, max);
                    peak = std::max(peak, q.series[i].queued);
                }
                QCOMPARE(peak, q.maxQueued);
            }
        }
    }

    void launchDelayHistogram()
    {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 100; ++trial) {
            const std::vector<GpuOp> ops = randomOps(rng, std::uniform_int_distribution<int>(1, 200)(rng));
            const LaunchStats s = launchStats(ops);
            std::vector<int64_t> delays;
            for (const GpuOp &o : ops)
                if (o.launchNs >= 0)
                    delays.push_back(o.startNs - o.launchNs);
            QCOMPARE(s.launchedOps, int64_t(delays.size()));
            if (delays.empty())
                continue;
            QCOMPARE(s.minDelayNs, *std::min_element(delays.begin(), delays.end()));
            QCOMPARE(s.maxDelayNs, *std::max_element(delays.begin(), delays.end()));
            checkBins(s.launchDelay, delays);
        }
    }

    void histogramBins_data()
    {
        QTest::addColumn<QList<qlonglong>>("values");
        QTest::addColumn<bool>("logSpaced");
        QTest::newRow("one value") << QList<qlonglong> { 42 } << false;
        QTest::newRow("all equal") << QList<qlonglong> { 5, 5, 5 } << false;
        QTest::newRow("narrow") << QList<qlonglong> { 100, 150, 120, 199, 101 } << false;
        QTest::newRow("negative") << QList<qlonglong> { -50, 3, 10'000, 7 } << false;
        QTest::newRow("zero") << QList<qlonglong> { 0, 1, 100'000 } << false;
        QTest::newRow("heavy tail") << QList<qlonglong> { 2'000, 2'100, 2'500, 3'000, 9'000, 1'500'000 }
                                    << true;
        QList<qlonglong> wide;
        for (qlonglong v = 1; v < 10'000'000'000LL; v = v * 3 + 1)
            wide << v << v + 1 << v * 2;
        QTest::newRow("decades") << wide << true;
    }

    void histogramBins()
    {
        QFETCH(QList<qlonglong>, values);
        QFETCH(bool, logSpaced);
        const std::vector<int64_t> v(values.begin(), values.end());
        const Histogram h = histogramOf(v);
        QCOMPARE(h.logSpaced, logSpaced);
        QVERIFY(h.bins() >= 1 && h.bins() <= kMaxHistogramBins);
        for (size_t i = 1; i < h.edges.size(); ++i)
            QVERIFY(h.edges[i] > h.edges[i - 1]);
        checkBins(h, v);
    }

    void histogramEdgesExactly()
    {
        // Every value from 1 to 10^6 on log bins: the formula's rounding must not misplace any.
        std::vector<int64_t> v;
        for (int64_t i = 1; i <= 1'000'000; i += 7)
            v.push_back(i);
        v.push_back(1'000'000);
        const Histogram h = histogramOf(v);
        QVERIFY(h.logSpaced);
        QCOMPARE(h.bins(), kMaxHistogramBins);
        for (int64_t x : v) {
            const int b = h.binOf(x);
            QVERIFY(double(x) >= h.edges[size_t(b)]);
            QVERIFY(double(x) < h.edges[size_t(b) + 1]);
        }
        QCOMPARE(histogramOf({}).bins(), 0);
    }
};

QTEST_MAIN(TestLaunchStats)
#include "tst_launchstats.moc"
