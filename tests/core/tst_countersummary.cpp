// SPDX-License-Identifier: GPL-3.0-or-later
// Level-of-detail summaries of counter tracks: a counter drawn from the summaries gives, for every
// bucket it returns, exactly the count, min, max, first and last of the samples that bucket spans,
// covers every sample of the window, and holds the value of the sample before it.

#include "importhelpers.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"
#include "timeline/countersummary.h"
#include "timeline/timelinedata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace plumb;

class TestCounterSummary : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_ws;
    TimelineTrack m_track;
    std::vector<std::pair<int64_t, double>> m_samples; // (ts, value) in time order

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        // 30,000 samples of a memory counter: a random walk with spikes, bursts and long pauses.
        std::mt19937 rng(5);
        QByteArray json = "{\"traceEvents\": [\n"
                          "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1}";
        double t = 10.0, v = 1000.0;
        for (int i = 0; i < 30000; ++i) {
            std::uniform_real_distribution<double> gap(0.001, i % 3000 == 0 ? 5000.0 : 3.0), step(-40, 40);
            t += gap(rng);
            v = std::max(0.0, v + step(rng));
            const double value = i % 997 == 0 ? v * 50 : v; // spikes
            json += QStringLiteral(
                ",\n{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":%1,\"args\":{\"bytes\":%2}}")
                        .arg(t, 0, 'f', 3)
                        .arg(value, 0, 'f', 1)
                        .toUtf8();
        }
        json += "\n]}\n";
        m_ws = importTestJson(m_tmp.path(), QStringLiteral("counters.json"), json);
        QVERIFY(!m_ws.isEmpty());
        Workspace ws(m_ws, Workspace::Role::Reader);
        for (const auto &t : timelineTracks(ws, 1))
            if (t.kind == QLatin1String("counter"))
                m_track = t;
        QVERIFY(m_track.id > 0);
        QVERIFY(m_track.lodLowest >= 0);
        QVERIFY(m_track.lodHighest > m_track.lodLowest + 4);
        SqliteStmt st(ws.db(), "SELECT ts, value FROM counter WHERE track_id = ? ORDER BY ts, id");
        st.bind(1, m_track.id);
        while (st.step())
            m_samples.emplace_back(st.columnInt(0), st.columnDouble(1));
        QCOMPARE(m_samples.size(), size_t(30000));
        for (size_t i = 1; i < m_samples.size(); ++i)
            QVERIFY(m_samples[i].first > m_samples[i - 1].first); // distinct times keep the check exact
        // Some tiles are stored as buckets, the finest ones are read raw.
        QVERIFY(ws.db().queryInt("SELECT count(*) FROM counter_lod WHERE substr(data, 1, 1) = x'01'") > 0);
        QVERIFY(ws.db().queryInt("SELECT count(*) FROM counter_lod WHERE substr(data, 1, 1) = x'00'") > 0);
    }

    void matchesTheSamples()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        std::mt19937 rng(9);
        const int64_t first = m_samples.front().first, last = m_samples.back().first;
        for (int trial = 0; trial < 60; ++trial) {
            const int64_t span = std::max<int64_t>(1000, (last - first) >> (trial % 16));
            std::uniform_int_distribution<int64_t> startDist(first - span / 8, last);
            const int64_t from = startDist(rng), to = from + span;
            const int64_t bucketNs = std::max<int64_t>(1, span / 1600);
            const auto buckets = drawCounter(ws, m_track, from, to, bucketNs);
            const QString where = QStringLiteral("window [%1, %2) bucket %3").arg(from).arg(to).arg(bucketNs);

            auto inRange = [&](int64_t a, int64_t b) {
                CounterBucket e { a, b, 1e300, -1e300, 0, 0, 0 };
                for (const auto &[ts, v] : m_samples)
                    if (ts >= a && ts <= b) {
                        if (!e.count)
                            e.first = v;
                        e.min = std::min(e.min, v);
                        e.max = std::max(e.max, v);
                        e.last = v;
                        ++e.count;
                    }
                return e;
            };
            // The value held into the window: the last sample before it.
            const auto before
                = std::find_if(m_samples.rbegin(), m_samples.rend(), [&](auto &s) { return s.first < from; });
            size_t i = 0;
            if (before != m_samples.rend()) {
                QVERIFY2(!buckets.empty(), qPrintable(where));
                const auto firstInWindow = std::find_if(
                    m_samples.begin(), m_samples.end(), [&](auto &s) { return s.first >= from; });
                // Held sample first (or a straddling bucket that starts before the window).
                if (buckets[0].count == 1 && buckets[0].startNs == before->first) {
                    QCOMPARE(buckets[0].last, before->second);
                    i = 1;
                } else {
                    QVERIFY2(buckets[0].startNs < from, qPrintable(where));
                }
                Q_UNUSED(firstInWindow);
            }
            int64_t covered = 0;
            for (; i < buckets.size(); ++i) {
                const CounterBucket &b = buckets[i];
                const CounterBucket e = inRange(b.startNs, b.endNs);
                QVERIFY2(b.count == e.count && b.min == e.min && b.max == e.max && b.last == e.last,
                    qPrintable(where
                        + QStringLiteral(": bucket %1..%2 has %3 samples, max %4 (expected %5, %6)")
                              .arg(b.startNs)
                              .arg(b.endNs)
                              .arg(b.count)
                              .arg(b.max)
                              .arg(e.count)
                              .arg(e.max)));
                if (i > 0)
                    QVERIFY(b.startNs > buckets[i - 1].endNs);
                covered += b.count;
            }
            // Every sample of the window is in a bucket; a frame stays proportional to the pixels.
            const auto inWindow = std::count_if(
                m_samples.begin(), m_samples.end(), [&](auto &s) { return s.first >= from && s.first < to; });
            QVERIFY2(covered >= inWindow,
                qPrintable(where + QStringLiteral(": %1 of %2").arg(covered).arg(inWindow)));
            QVERIFY2(buckets.size() <= size_t(span / bucketNs) + 3, qPrintable(where));
        }
    }

    // The value a counter row is labelled with: memory counters in bytes, others as numbers.
    void valueText()
    {
        QLocale::setDefault(QLocale(QLocale::English));
        QCOMPARE(text::counterValue(QStringLiteral("Memory allocated, device 0"), 5.0 * 1048576),
            QStringLiteral("5.0 MiB"));
        QCOMPARE(text::counterValue(QStringLiteral("Memory allocated, CUDA host"), 512),
            QStringLiteral("512 bytes"));
        QCOMPARE(
            text::counterValue(QStringLiteral("Memory allocated, CPU"), -2048), QStringLiteral("-2.0 KiB"));
        QCOMPARE(text::counterValue(QStringLiteral("SM Active [Throughput %]"), 5242880),
            QStringLiteral("5.243E+06"));
        QCOMPARE(
            text::counterValue(QStringLiteral("Memory allocated, device 0"), 1e30), QStringLiteral("1E+30"));
    }
};

QTEST_GUILESS_MAIN(TestCounterSummary)
#include "tst_countersummary.moc"
