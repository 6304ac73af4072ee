// SPDX-License-Identifier: GPL-3.0-or-later
// The process and track registry of a trace import (core/ingest/trace/trackregistry.h): labels to
// ids, companion tracks, and the rows written at the end.
#include "ingest/trace/trackregistry.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestTrackRegistry : public QObject {
    Q_OBJECT

private slots:
    void ids()
    {
        TrackRegistry r(10, 100);
        const int64_t p = r.process("1234");
        QCOMPARE(p, int64_t(10));
        QCOMPARE(r.process("GPU 0"), int64_t(11));
        QCOMPARE(r.process("1234"), p);
        const int64_t t = r.thread(p, "7");
        QCOMPARE(t, int64_t(100));
        QCOMPARE(r.thread(p, "7"), t);
        QCOMPARE(r.thread(11, "7"), int64_t(101)); // same tid label, other process
        const int64_t api = r.companionTrack(t, TrackKind::CudaApi);
        QCOMPARE(api, int64_t(102));
        QCOMPARE(r.companionTrack(t, TrackKind::CudaApi), api);
        QCOMPARE(r.companionTrack(t, TrackKind::OnCpu), int64_t(103));
        QCOMPARE(r.counterTrack(p, "mem"), int64_t(104));
        QCOMPARE(r.counterTrack(p, "mem"), int64_t(104));
        QCOMPARE(r.globalTrack("mem"), int64_t(105));
        QCOMPARE(r.trackCount(), int64_t(6));
        QCOMPARE(r.trackKind(api), TrackKind::CudaApi);
        r.setTrackGpuStream(t, 7);
        QCOMPARE(r.trackKind(t), TrackKind::GpuStream);
        QCOMPARE(r.location(t, 55), QStringLiteral("pid 1234 tid 7, ts 55 ns"));
        QCOMPARE(r.location(105, 1), QStringLiteral("pid  tid , ts 1 ns"));
    }

    // The rows: a numeric label is the pid/tid, a name-like one is not (and makes the process
    // 'other'); companions inherit process and tid; slice counts come from the callback.
    void rows()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.plumb")), Workspace::Role::Writer);
        TrackRegistry r(1, 1);
        const int64_t p = r.process("42");
        const int64_t named = r.process("host:x");
        r.setProcessName(p, "python");
        r.setProcessKind(named, ProcessKind::Gpu, 3);
        r.setProcessSortIndex(named, 2);
        const int64_t t = r.thread(p, "9");
        r.setTrackName(t, "main");
        const int64_t api = r.companionTrack(t, TrackKind::CudaApi);
        const int64_t s = r.thread(named, "stream 7");
        r.setTrackGpuStream(s, 7);
        r.writeRows(ws.db(), 5, [&](int64_t track) {
            return TrackRegistry::SliceCounts { track * 10, track, track * 100 };
        });
        SqliteDb &db = ws.db();
        QCOMPARE(db.queryInt("SELECT count(*) FROM process WHERE trace_id = 5"), int64_t(2));
        QCOMPARE(db.queryInt("SELECT pid FROM process WHERE id = 1"), int64_t(42));
        QCOMPARE(
            db.queryInt("SELECT count(*) FROM process WHERE id = 1 AND name = 'python' AND kind = 'cpu'"),
            int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM process WHERE id = 2 AND pid IS NULL AND kind = 'gpu' AND "
                             "device_index = 3 AND sort_index = 2"),
            int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM track WHERE trace_id = 5"), int64_t(3));
        QCOMPARE(db.queryInt("SELECT count(*) FROM track WHERE id = 1 AND tid = 9 AND name = 'main' AND "
                             "kind = 'thread' AND slice_count = 10 AND max_depth = 1 AND max_dur_ns = 100"),
            int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM track WHERE id = 2 AND tid = 9 AND process_id = 1 AND "
                             "kind = 'cuda_api' AND name IS NULL"),
            int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM track WHERE id = 3 AND tid IS NULL AND stream = 7 AND "
                             "kind = 'gpu_stream' AND label = 'stream 7'"),
            int64_t(1));
        QCOMPARE(api, int64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestTrackRegistry)
#include "tst_trackregistry.moc"
