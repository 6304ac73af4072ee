// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's read side: track order with companion tracks, and window queries that fold runs of
// slices narrower than the minimum width.

#include "importhelpers.h"
#include "store/workspace.h"
#include "timeline/timelinedata.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestTimelineData : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_ws;
    QList<TimelineTrack> m_tracks;

    const TimelineTrack &track(const QString &name) const
    {
        for (const auto &t : m_tracks)
            if (t.name == name)
                return t;
        qFatal("no track %s", qPrintable(name));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        // One thread: a 100 µs parent holding 1000 slices of 10 ns every 20 ns, then a 50 µs slice.
        QByteArray json
            = "{\"traceEvents\": [\n"
              "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}},\n"
              "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"tid\":0,\"args\":{\"labels\":\"GPU "
              "0\"}},\n"
              "{\"ph\":\"X\",\"name\":\"parent\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100}";
        for (int i = 0; i < 1000; ++i)
            json += QStringLiteral(
                ",\n{\"ph\":\"X\",\"name\":\"tiny\",\"pid\":1,\"tid\":1,\"ts\":%1,\"dur\":0.010}")
                        .arg(1.0 + i * 0.02, 0, 'f', 3)
                        .toUtf8();
        json
            += ",\n{\"ph\":\"X\",\"name\":\"big\",\"pid\":1,\"tid\":1,\"ts\":200,\"dur\":50}"
               ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
               "\"ts\":210,\"dur\":5,\"args\":{\"correlation\":1}}"
               ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":220,\"dur\":10,"
               "\"args\":{\"correlation\":1,\"stream\":7}}"
               ",\n{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"step\",\"pid\":0,\"tid\":7,"
               "\"ts\":215,"
               "\"dur\":30}"
               ",\n{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":0,\"args\":{\"allocated\":1}}"
               ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":5}\n]}\n";
        m_ws = importTestJson(m_tmp.path(), QStringLiteral("t.json"), json);
        QVERIFY(!m_ws.isEmpty());
        Workspace ws(m_ws, Workspace::Role::Reader);
        m_tracks = timelineTracks(ws, 1);
    }

    void trackOrder()
    {
        QStringList names;
        for (const auto &t : m_tracks)
            names << t.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("main"), QStringLiteral("CUDA API"),
                QStringLiteral("Memory allocated"), QStringLiteral("Stream 7"), QStringLiteral("Annotations"),
                QStringLiteral("Global instants") }));
        QCOMPARE(track(QStringLiteral("CUDA API")).parentTrackId, track(QStringLiteral("main")).id);
        QCOMPARE(track(QStringLiteral("Annotations")).parentTrackId, track(QStringLiteral("Stream 7")).id);
        QCOMPARE(track(QStringLiteral("Stream 7")).processName, QStringLiteral("GPU 0"));
        QCOMPARE(track(QStringLiteral("main")).maxDurNs, Q_INT64_C(100000));
    }

    // Companion tracks made after every thread and stream (as importers make them, on first use) still
    // come right after their own thread or stream, whatever order the sort moves rows in.
    void companionsFollowTheirBase()
    {
        QByteArray json = "{\"traceEvents\": [\n"
                          "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"tid\":0,\"args\":{"
                          "\"labels\":\"GPU 0\"}}";
        for (int tid : { 1, 2, 3 })
            json += QStringLiteral(
                ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%1,\"args\":{\"name\":\"t%1\"}}"
                ",\n{\"ph\":\"X\",\"name\":\"work\",\"pid\":1,\"tid\":%1,\"ts\":%1,\"dur\":1}")
                        .arg(tid)
                        .toUtf8();
        for (int stream : { 7, 8, 9 })
            json += QStringLiteral(
                ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":%1,\"ts\":%1,"
                "\"dur\":1,\"args\":{\"stream\":%1}}")
                        .arg(stream)
                        .toUtf8();
        for (int i : { 3, 2, 1 })
            json += QStringLiteral(
                ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
                "\"tid\":%1,\"ts\":%2,\"dur\":1}"
                ",\n{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"step\",\"pid\":0,"
                "\"tid\":%3,\"ts\":%3,\"dur\":1}")
                        .arg(i)
                        .arg(20 + i)
                        .arg(6 + i)
                        .toUtf8();
        json += "\n]}\n";
        QTemporaryDir dir;
        const QString wsPath = importTestJson(dir.path(), QStringLiteral("companions.json"), json);
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        const QList<TimelineTrack> tracks = timelineTracks(ws, 1);
        QStringList names;
        for (const auto &t : tracks)
            names << t.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("t1"), QStringLiteral("CUDA API"), QStringLiteral("t2"),
                QStringLiteral("CUDA API"), QStringLiteral("t3"), QStringLiteral("CUDA API"),
                QStringLiteral("Stream 7"), QStringLiteral("Annotations"), QStringLiteral("Stream 8"),
                QStringLiteral("Annotations"), QStringLiteral("Stream 9"), QStringLiteral("Annotations") }));
        for (qsizetype i = 1; i < tracks.size(); i += 2)
            QCOMPARE(tracks[i].parentTrackId, tracks[i - 1].id);
    }

    void foldsNarrowRuns()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto slices = drawSlices(ws, track(QStringLiteral("main")), 0, 300000, 1000);
        QCOMPARE(slices.size(), size_t(3));
        int64_t folded = 0;
        for (const auto &s : slices) {
            if (s.count > 1) {
                folded = s.count;
                QCOMPARE(s.depth, 1);
                QCOMPARE(s.startNs, Q_INT64_C(1000));
                QCOMPARE(s.endNs, Q_INT64_C(1000) + 999 * 20 + 10);
            }
        }
        QCOMPARE(folded, Q_INT64_C(1000));
        // Zoomed in enough, every slice is its own entry.
        QCOMPARE(drawSlices(ws, track(QStringLiteral("main")), 0, 300000, 1).size(), size_t(1002));
    }

    // A slice that starts before the window and reaches into it is drawn; one that ended is not.
    void windowFindsEnclosingSlices()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto slices = drawSlices(ws, track(QStringLiteral("main")), 50000, 60000, 1000);
        QCOMPARE(slices.size(), size_t(1));
        QCOMPARE(slices[0].startNs, Q_INT64_C(0));
        QCOMPARE(slices[0].endNs, Q_INT64_C(100000));
        QCOMPARE(drawSlices(ws, track(QStringLiteral("main")), 150000, 160000, 1000).size(), size_t(0));
    }

    // Two ranks of one job: tracks by rank, shifted so that they line up on absolute time; the extent
    // covers both; a counter reduces to min/max/last per bucket.
    void runTracksAlignRanks()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString job = dir.filePath(QStringLiteral("job"));
        QVERIFY(QDir().mkpath(job));
        for (int rank : { 1, 0 }) {
            // Rank 1 started 5 ms later on the wall clock; both record their first op at ts 100 µs.
            const QByteArray json = QStringLiteral(
                "{\"distributedInfo\": {\"rank\": %1, \"world_size\": 2}, \"baseTimeNanoseconds\": %2,\n"
                "\"traceEvents\": [\n"
                "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":10},\n"
                "{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":100,\"args\":{\"bytes\":5}},\n"
                "{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":101,\"args\":{\"bytes\":9}},\n"
                "{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":102,\"args\":{\"bytes\":2}},\n"
                "{\"ph\":\"C\",\"name\":\"Memory\",\"pid\":1,\"ts\":200,\"args\":{\"bytes\":7}}\n"
                "]}\n")
                                        .arg(rank)
                                        .arg(Q_INT64_C(1700000000000000000) + rank * 5000000)
                                        .toUtf8();
            QVERIFY(writeTestFile(QStringLiteral("%1/rank-%2.json").arg(job).arg(rank), json));
        }
        const QString wsPath = dir.filePath(QStringLiteral("run.plumb"));
        const QString failed = importIntoWorkspace(wsPath, { job });
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(DISTINCT run_id) FROM trace"), Q_INT64_C(1));
        const auto tracks = timelineTracksOfRun(ws, ws.db().queryInt("SELECT run_id FROM trace LIMIT 1"));
        QCOMPARE(tracks.size(), 4);
        QCOMPARE(tracks[0].rank, Q_INT64_C(0));
        QCOMPARE(tracks[0].offsetNs, Q_INT64_C(0));
        QCOMPARE(tracks[3].rank, Q_INT64_C(1));
        QCOMPARE(tracks[3].offsetNs, Q_INT64_C(5000000));
        const auto rank1Op = drawSlices(ws, tracks[2], 0, 10000000, 1);
        QCOMPARE(rank1Op.size(), size_t(1));
        QCOMPARE(
            rank1Op[0].startNs - drawSlices(ws, tracks[0], 0, 10000000, 1).at(0).startNs, Q_INT64_C(5000000));
        const TimeRange extent = timelineExtent(ws, tracks);
        QCOMPARE(extent.endNs - extent.startNs, Q_INT64_C(5000000) + 100000);

        // Counter of rank 0: 100..102 µs fall in one 10 µs bucket, 200 µs in another.
        const TimelineTrack &memory = tracks[1];
        QCOMPARE(memory.kind, QStringLiteral("counter"));
        const int64_t t0 = extent.startNs;
        const auto buckets = drawCounter(ws, memory, t0, t0 + 200000, 10000);
        QCOMPARE(buckets.size(), size_t(2));
        QCOMPARE(buckets[0].count, Q_INT64_C(3));
        QCOMPARE(buckets[0].min, 2.0);
        QCOMPARE(buckets[0].max, 9.0);
        QCOMPARE(buckets[0].last, 2.0);
        QCOMPARE(buckets[1].last, 7.0);
        // A window after the last sample still shows the value it holds.
        const auto held = drawCounter(ws, memory, t0 + 50000, t0 + 60000, 1000);
        QCOMPARE(held.size(), size_t(1));
        QCOMPARE(held[0].last, 2.0);
        QCOMPARE(counterRange(ws, memory), std::make_pair(2.0, 9.0));
    }
};

QTEST_GUILESS_MAIN(TestTimelineData)
#include "tst_timelinedata.moc"
