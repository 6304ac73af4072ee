// SPDX-License-Identifier: GPL-3.0-or-later
// Distribution bands (TensorBoard's compressed histograms) and the latest-segment view of
// histogram series, against hand-computed answers and the real logs.
#include "analysis/histogramseries.h"
#include "importhelpers.h"
#include "store/experimentreader.h"
#include "store/workspace.h"

#include <QtTest>

using namespace plumb;

class TestHistogramSeries : public QObject {
    Q_OBJECT
private slots:
    // Two buckets of one count each: the cumulative weights are 5000 and 10000.
    void bandsOfTwoBuckets()
    {
        const double b[] = { 0, 1, 1, 1, 2, 1 };
        const auto bands = distributionBands(b, 2);
        const double expected[] = { 0, 0.1336, 0.3174, 0.617, 1.0, 1.383, 1.6826, 1.8664, 2 };
        for (size_t i = 0; i < bands.size(); ++i)
            QVERIFY2(qAbs(bands[i] - expected[i]) < 1e-12, qPrintable(QString::number(i)));
    }

    // Empty buckets inside are passed over; leading empty ones start at the first edge; a
    // histogram of nothing is zeros.
    void bandsSkipEmptyBuckets()
    {
        const double b[] = { -4, -2, 0, -2, 0, 4, 0, 2, 0, 2, 4, 4 };
        const auto bands = distributionBands(b, 4);
        // bp 0 lies in bucket 1 (first with weight), interpolated from the first edge (-4).
        QCOMPARE(bands[0], -4.0);
        QVERIFY(qAbs(bands[3] - (-4 + 3085.0 * 4 / 5000)) < 1e-12);
        QCOMPARE(bands[4], 2.0); // the median: where the weight resumes, past the empty bucket
        // bp 6915 in bucket 3: from its left edge (2, the right edge of bucket 2) to 4.
        QVERIFY(qAbs(bands[5] - (2 + 1915.0 * 2 / 5000)) < 1e-12);
        QCOMPARE(bands[8], 4.0);
        const auto none = distributionBands(nullptr, 0);
        for (double v : none)
            QCOMPARE(v, 0.0);
        const double zero[] = { 1, 2, 0 }; // buckets with no counts at all: the last edge
        QCOMPARE(distributionBands(zero, 1)[8], 2.0);
    }

    void latestSegmentDropsSuperseded()
    {
        std::vector<StepHistogram> in;
        for (int s = 0; s < 5; ++s)
            in.push_back({ 0, s, 0, {} });
        for (int s = 3; s < 6; ++s)
            in.push_back({ 1, s, 0, {} }); // restarted at step 3
        const auto out = latestSegmentView(in);
        QCOMPARE(out.size(), size_t(6));
        QString shown;
        for (const auto &h : out)
            shown += QStringLiteral("%1:%2 ").arg(h.segment).arg(h.step);
        QCOMPARE(shown, QStringLiteral("0:0 0:1 0:2 1:3 1:4 1:5 "));
    }

    // Every stored histogram of the repo's legacy fixture: bands ordered and within the edges.
    void bandsOfStoredHistograms()
    {
        const QString ws = QDir::temp().filePath(QStringLiteral("plumb-tst-histogramseries.plumb"));
        QFile::remove(ws);
        const QString failure = importIntoWorkspace(
            ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/tfevents/data/legacy") });
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        Workspace w(ws, Workspace::Role::Reader);
        ExperimentReader reader(w);
        int checked = 0, empty = 0;
        for (const auto &s : reader.series()) {
            if (!s.histogram)
                continue;
            const auto hs = reader.histograms(s.runId, s.keyId);
            QCOMPARE(int64_t(hs.size()), s.points);
            for (const auto &h : hs) {
                const auto bands = distributionBands(h.buckets.data(), h.bucketCount());
                if (h.bucketCount() == 0) { // the fixture's empty histogram
                    for (double b : bands)
                        QCOMPARE(b, 0.0);
                    ++empty;
                    continue;
                }
                QCOMPARE(bands.front(), h.buckets.front());
                QCOMPARE(bands.back(), h.buckets[h.buckets.size() - 2]);
                for (size_t i = 1; i < bands.size(); ++i)
                    QVERIFY(bands[i] >= bands[i - 1]);
                ++checked;
            }
        }
        QVERIFY(checked > 0);
        QVERIFY(empty > 0);
        QFile::remove(ws);
    }
};

QTEST_GUILESS_MAIN(TestHistogramSeries)
#include "tst_histogramseries.moc"
