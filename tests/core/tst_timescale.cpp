// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's coordinate maths: time <-> pixels, zoom about a point, pan, fit, the LOD level for a
// minimum width, ruler ticks and the time labels.

#include "timeline/timescale.h"

#include <QtTest>

using namespace plumb;

class TestTimeScale : public QObject {
    Q_OBJECT

private slots:
    void mapsBothWays()
    {
        const TimeScale s { 1'000'000, 250.0 };
        QCOMPARE(s.toPx(1'000'000), 0.0);
        QCOMPARE(s.toPx(1'025'000), 100.0);
        QCOMPARE(s.toPx(975'000), -100.0);
        QCOMPARE(s.toNs(100.0), Q_INT64_C(1'025'000));
        QCOMPARE(s.endNs(1000.0), Q_INT64_C(1'250'000));
        QCOMPARE(s.durationPx(500), 2.0);
        // Large absolute times (ns since the epoch) keep their precision.
        const TimeScale epoch { Q_INT64_C(1'712'195'495'920'681'434), 0.5 };
        QCOMPARE(epoch.toNs(epoch.toPx(Q_INT64_C(1'712'195'495'920'681'934))),
            Q_INT64_C(1'712'195'495'920'681'934));
    }

    void fitShowsTheRange()
    {
        const TimeScale s = TimeScale::fit(2'000, 12'000, 1000.0);
        QCOMPARE(s.startNs, Q_INT64_C(2'000));
        QCOMPARE(s.nsPerPx, 10.0);
        // An empty range shows 1 µs around it rather than dividing by zero.
        const TimeScale e = TimeScale::fit(5'000, 5'000, 1000.0);
        QVERIFY(e.startNs < 5'000 && e.endNs(1000.0) > 5'000);
        QVERIFY(e.nsPerPx > 0);
    }

    void zoomKeepsTheAnchor_data()
    {
        QTest::addColumn<double>("anchorPx");
        QTest::addColumn<double>("factor");
        QTest::newRow("in at the left edge") << 0.0 << 2.0;
        QTest::newRow("in mid view") << 333.0 << 1.25;
        QTest::newRow("out at the right edge") << 1000.0 << 0.5;
        QTest::newRow("deep in") << 640.0 << 1e6;
    }
    void zoomKeepsTheAnchor()
    {
        QFETCH(double, anchorPx);
        QFETCH(double, factor);
        const TimeScale s { 10'000'000, 1000.0 };
        const TimeScale z = s.zoomed(anchorPx, factor, 1e9);
        QVERIFY(std::abs(double(z.toNs(anchorPx) - s.toNs(anchorPx))) <= std::max(1.0, z.nsPerPx));
        QCOMPARE(z.nsPerPx, std::max(kMinNsPerPx, s.nsPerPx / factor));
    }

    void zoomIsClamped()
    {
        const TimeScale s { 0, 1.0 };
        QCOMPARE(s.zoomed(0, 1e9, 1e6).nsPerPx, kMinNsPerPx);
        QCOMPARE(s.zoomed(0, 1e-9, 1e6).nsPerPx, 1e6);
        QCOMPARE(s.zoomed(0, 0.0, 1e6), s); // a nonsense factor changes nothing
        QCOMPARE(s.zoomed(0, -2.0, 1e6), s);
    }

    void pans()
    {
        const TimeScale s { 1000, 10.0 };
        QCOMPARE(s.panned(5).startNs, Q_INT64_C(1050));
        QCOMPARE(s.panned(-5).startNs, Q_INT64_C(950));
        QCOMPARE(s.panned(-5).nsPerPx, 10.0);
    }

    void lodLevel()
    {
        QCOMPARE(lodLevelFor(0), 0);
        QCOMPARE(lodLevelFor(1), 0);
        QCOMPARE(lodLevelFor(2), 1);
        QCOMPARE(lodLevelFor(3), 1);
        QCOMPARE(lodLevelFor(4), 2);
        QCOMPARE(lodLevelFor(1023), 9);
        QCOMPARE(lodLevelFor(1024), 10);
        // Never wider than asked.
        for (int64_t w : { 5, 17, 1000, 999'999, 123'456'789 })
            QVERIFY((int64_t(1) << lodLevelFor(w)) <= w && (int64_t(2) << lodLevelFor(w)) > w);
    }

    void rulerTicks_data()
    {
        QTest::addColumn<double>("nsPerPx");
        QTest::addColumn<qint64>("startNs");
        QTest::newRow("ns") << 0.05 << Q_INT64_C(1003);
        QTest::newRow("µs") << 37.0 << Q_INT64_C(-12'345);
        QTest::newRow("ms") << 12'345.0 << Q_INT64_C(98'765'432);
        QTest::newRow("s") << 40'000'000.0 << Q_INT64_C(3'000'000'000);
    }
    void rulerTicks()
    {
        QFETCH(double, nsPerPx);
        QFETCH(qint64, startNs);
        const TimeScale s { startNs, nsPerPx };
        const double width = 1600;
        const int64_t origin = 1000;
        const auto ticks = plumb::rulerTicks(s, width, origin, 90.0);
        std::vector<int64_t> majors;
        for (const RulerTick &t : ticks) {
            QVERIFY(t.ns >= s.startNs && t.ns <= s.endNs(width));
            if (t.major) {
                majors.push_back(t.ns);
                QVERIFY(!t.label.isEmpty());
            } else {
                QVERIFY(t.label.isEmpty());
            }
        }
        QVERIFY(majors.size() >= 2);
        const int64_t step = majors[1] - majors[0];
        // 1, 2 or 5 x 10^k, at least 90 px apart, and not more than needed.
        int64_t mantissa = step;
        while (mantissa % 10 == 0)
            mantissa /= 10;
        QVERIFY2(mantissa == 1 || mantissa == 2 || mantissa == 5, qPrintable(QString::number(step)));
        QVERIFY(s.durationPx(step) >= 90.0);
        QVERIFY(s.durationPx(step) < 90.0 * 2.5 + 1);
        for (size_t i = 1; i < majors.size(); ++i)
            QCOMPARE(majors[i] - majors[i - 1], step);
        QCOMPARE((majors[0] - origin) % step, Q_INT64_C(0)); // round offsets from the origin
    }

    void labels()
    {
        QCOMPARE(formatTimeOffset(0, 100), QStringLiteral("0"));
        QCOMPARE(formatTimeOffset(500, 100), QStringLiteral("500 ns"));
        QCOMPARE(formatTimeOffset(250'000, 50'000), QStringLiteral("250 µs"));
        QCOMPARE(formatTimeOffset(1'400'000, 200'000), QStringLiteral("1.4 ms"));
        QCOMPARE(formatTimeOffset(-2'000'000'000, 1'000'000'000), QStringLiteral("-2 s"));
        QCOMPARE(formatTimeOffset(1'500'000'000, 500'000'000), QStringLiteral("1.5 s"));
        QCOMPARE(formatDuration(812), QStringLiteral("812 ns"));
        QCOMPARE(formatDuration(1'234), QStringLiteral("1.23 µs"));
        QCOMPARE(formatDuration(45'600'000), QStringLiteral("45.6 ms"));
        QCOMPARE(formatDuration(2'000'000'000), QStringLiteral("2.00 s"));
        QCOMPARE(formatDuration(497'181), QStringLiteral("497 µs"));
    }
};

QTEST_GUILESS_MAIN(TestTimeScale)
#include "tst_timescale.moc"
