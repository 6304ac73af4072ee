// SPDX-License-Identifier: GPL-3.0-or-later
// The level-of-detail summaries made as slices pass (core/ingest/trace/slicelodtracker.h): the tiles
// built from the kept rows are the ones the workspace gives; tracks not kept are summarised from the
// workspace, short tracks not at all.
#include "ingest/trace/slicelodtracker.h"
#include "ingest/trace/tracewriter.h"
#include "ingest/trace/trackregistry.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/slicesummary.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

using namespace plumb;

namespace {

// (level, tile, data) of a track's tiles, in order.
std::vector<std::tuple<int64_t, int64_t, std::string>> tiles(SqliteDb &db, int64_t track)
{
    SqliteStmt st(db, "SELECT level, tile, data FROM slice_lod WHERE track_id = ? ORDER BY level, tile");
    st.bind(1, track);
    std::vector<std::tuple<int64_t, int64_t, std::string>> out;
    while (st.step()) {
        out.emplace_back(st.columnInt(0), st.columnInt(1), std::string(st.columnBlob(2)));
    }
    return out;
}

} // namespace

class TestSliceLodTracker : public QObject {
    Q_OBJECT

private slots:
    // Tiled from the kept rows in order and in a few ordered runs (merged); a track in more than
    // KeptSlices::kMaxRuns runs is left to be tiled from the workspace, for good.
    void keptUntilTooManyRuns()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("k.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        SliceLodTracker lod(writer, 10);
        QVERIFY(lod.isKept(10));
        lod.add(10, true, KeptSlice { 0, 5, 0, 1 });
        lod.add(11, true, KeptSlice { 0, 5, 0, 1 });
        QVERIFY(lod.keptBytes() > 0);
        lod.add(10, false, KeptSlice { 1, 5, 0, 1 });
        QVERIFY(lod.isKept(10));
        constexpr int64_t kNo = KeptSlice::kAbsent;
        // Each slice before the one ahead: a run of its own.
        for (int64_t run = 2; run <= int64_t(KeptSlices::kMaxRuns); ++run) {
            lod.add(10, false, KeptSlice { -run, 5, 0, 1, kNo, kNo, kNo, kNo, run });
        }
        QVERIFY(lod.isKept(10)); // kMaxRuns runs
        lod.add(10, false, KeptSlice { -1000, 5, 0, 1, kNo, kNo, kNo, kNo, 1000 });
        QVERIFY(!lod.isKept(10));
        lod.add(10, true, KeptSlice { 200, 5, 0, 1, kNo, kNo, kNo, kNo, 1001 });
        QVERIFY(!lod.isKept(10));
        QVERIFY(lod.isKept(11));
        QVERIFY(lod.keptBytes() > 0);
    }

    // Every column read back as it was added, absent ones too, whatever the values' signs and jumps;
    // the rows stay for takeKept() when summariseKept() is told so.
    void keptRowsReadBack()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("r.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        SliceLodTracker lod(writer, 5);
        constexpr int64_t kNo = KeptSlice::kAbsent;
        const std::vector<KeptSlice> rows {
            { -40, 10, 0, 3, 7, 1000, kNo, 12, 9 },
            { -40, 0, 1, -2, kNo, kNo, 5, kNo, 10 },
            { 5, -3, 0, 0, 7, 999, 4, 2, 3 },
            { INT64_MAX / 2, INT64_MAX / 4, 63, INT64_MAX, INT64_MIN + 1, INT64_MAX, INT64_MIN + 1, 0,
                1 << 30 },
            { INT64_MAX / 2 + 1, 1, 2, 4, 0, -5, 0, INT64_MAX, 1 << 30 | 1 },
        };
        for (const KeptSlice &r : rows) {
            lod.add(6, true, r);
        }
        lod.add(7, true, rows[0]);
        lod.add(7, false, rows[1]);
        writer.flush();
        lod.summariseKept(true);
        writer.finish();
        const std::unique_ptr<KeptSlices> kept = lod.takeKept();
        QVERIFY(kept);
        QVERIFY(kept->isKept(6) && kept->isOrdered(6));
        QVERIFY(kept->isKept(7) && !kept->isOrdered(7));
        QCOMPARE(kept->count(7), int64_t(2));
        QVERIFY(kept->isKept(5)); // no slice: none missing
        QCOMPARE(kept->count(6), int64_t(rows.size()));
        KeptSlices::Cursor cursor = kept->rows(6);
        KeptSlice r;
        for (const KeptSlice &want : rows) {
            QVERIFY(cursor.next(r));
            QCOMPARE(
                std::vector<int64_t>({ r.ts, r.dur, r.depth, r.name, r.cat, r.corr, r.ext, r.args, r.id }),
                std::vector<int64_t>({ want.ts, want.dur, std::max<int64_t>(0, want.depth), want.name,
                    want.cat, want.corr, want.ext, want.args, want.id }));
        }
        QVERIFY(!cursor.next(r));
        KeptSlices::Cursor none = kept->rows(5);
        QVERIFY(!none.next(r));
    }

    // Rows that came in ordered runs (Kineto writes CUPTI's activity buffer by buffer) read back
    // in (ts, id) order, every column whole across the runs' and the chunks' boundaries; a track of
    // more than kMaxRuns runs is not merged.
    void rowsInOrderMergesRuns()
    {
        std::mt19937_64 random(7);
        for (const size_t runs : { size_t(1), size_t(3), KeptSlices::kMaxRuns, KeptSlices::kMaxRuns + 1 }) {
            KeptSlices kept(1, size_t(1) << 30);
            std::vector<KeptSlice> all;
            int64_t id = 0;
            for (size_t k = 0; k < runs; ++k) {
                std::vector<KeptSlice> run(k == 0 ? 20000 : 2 + random() % 3000);
                for (KeptSlice &r : run) {
                    // Few distinct starts, so that runs tie on ts and the id decides.
                    r.ts = int64_t(random() % 5000) * 1000 - 1000000;
                    r.dur = int64_t(random() % 100000);
                    r.depth = int64_t(random() % 4);
                    r.name = int64_t(random() % 50);
                    const auto maybe = [&random](int64_t v) { return random() % 3 ? v : KeptSlice::kAbsent; };
                    r.cat = maybe(int64_t(random() % 9));
                    r.corr = maybe(int64_t(random() % 1000000));
                    r.ext = maybe(int64_t(random() % 70000));
                    r.args = maybe(int64_t(random()));
                    r.id = id += 1 + int64_t(random() % 3) * 1000; // unique; later runs' ids are larger
                }
                run.front().ts = -1000001; // before the run ahead's last row: a new run
                std::sort(run.begin(), run.end(), [](const KeptSlice &a, const KeptSlice &b) {
                    return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
                });
                for (const KeptSlice &r : run) {
                    kept.add(1, runs == 1, r);
                }
                all.insert(all.end(), run.begin(), run.end());
            }
            QCOMPARE(kept.isOrdered(1), runs == 1);
            if (runs > KeptSlices::kMaxRuns) {
                QVERIFY(!kept.canOrder(1));
                continue;
            }
            QVERIFY(kept.canOrder(1));
            std::sort(all.begin(), all.end(), [](const KeptSlice &a, const KeptSlice &b) {
                return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
            });
            KeptSlices::OrderedCursor cursor = kept.rowsInOrder(1);
            KeptSlice r;
            for (const KeptSlice &want : all) {
                QVERIFY(cursor.next(r));
                QCOMPARE(std::vector<int64_t>(
                             { r.ts, r.dur, r.depth, r.name, r.cat, r.corr, r.ext, r.args, r.id }),
                    std::vector<int64_t>({ want.ts, want.dur, want.depth, want.name, want.cat, want.corr,
                        want.ext, want.args, want.id }));
            }
            QVERIFY(!cursor.next(r));
        }
    }

    // The same slices on tracks 1, 2 and 4: 1 in order, 4 in two ordered runs (tiled from the merged
    // runs), 2 in more than KeptSlices::kMaxRuns runs (tiled from the workspace); track 3 too short:
    // the same tiles on 1, 2 and 4, the origins recorded, none for 3.
    void tilesMatchTheWorkspaces()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("t.plumb")), Workspace::Role::Writer);
        const int64_t n = kMinSummarisedSlices + 500;
        static_assert(n % 4 == 0);
        TrackRegistry tracks(1, 1);
        const int64_t p = tracks.process("1");
        for (const char *tid : { "1", "2", "3", "4" }) {
            (void)tracks.thread(p, tid);
        }
        const auto count = [n](int64_t track) { return track == 3 ? kMinSummarisedSlices - 1 : n; };
        {
            TraceWriter writer(ws.db(), 1);
            SliceLodTracker lod(writer, 1);
            int64_t id = 1;
            for (int64_t track = 1; track <= 4; ++track) {
                for (int64_t k = 0; k < count(track); ++k) {
                    // The order written: track 2's in blocks of 4, the last block first; track 4's
                    // second half first.
                    const int64_t i = track == 2 ? (n / 4 - 1 - k / 4) * 4 + k % 4
                        : track == 4             ? (k + n / 2) % n
                                                 : k;
                    const int64_t ts = 1000 + i * 37;
                    const int64_t depth = i % 3;
                    writer.batch().slices.push_back({ track, ts, id, 20 - depth * 5, depth, 1 + i % 7,
                        kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue });
                    lod.add(track, track == 1 || track == 3,
                        KeptSlice { ts, 20 - depth * 5, depth, 1 + i % 7, kNoValue, kNoValue, kNoValue,
                            kNoValue, id });
                    ++id;
                    writer.pushIfFull();
                }
            }
            QVERIFY(lod.isKept(1));
            QVERIFY(!lod.isKept(2));
            QVERIFY(lod.isKept(4));
            writer.flush();
            lod.summariseKept();
            writer.finish();
            QVERIFY(!tiles(ws.db(), 1).empty());
            QVERIFY(tiles(ws.db(), 2).empty());
            QCOMPARE(tiles(ws.db(), 4), tiles(ws.db(), 1));
            tracks.writeRows(ws.db(), 1, [](int64_t) { return TrackRegistry::SliceCounts {}; });
            lod.finishInWorkspace(ws.db(), tracks.trackCount(), count);
        }
        const auto kept = tiles(ws.db(), 1);
        QVERIFY(!kept.empty());
        QCOMPARE(tiles(ws.db(), 2), kept);
        QCOMPARE(tiles(ws.db(), 4), kept);
        QVERIFY(tiles(ws.db(), 3).empty());
        for (const int64_t track : { 1, 2, 4 })
            QCOMPARE(ws.db().queryInt("SELECT lod_origin_ns FROM track WHERE id = " + std::to_string(track)),
                int64_t(1000));
    }

    // Six kept tracks of different sizes, summarised by two threads (summariseKept() shares them
    // out), and their twins dropped at the last slice (summarised from the workspace): the same
    // tiles on each pair, and no kept memory left.
    void severalKeptTracksMatchTheWorkspaces()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("t.plumb")), Workspace::Role::Writer);
        constexpr int64_t kPairs = 6;
        TrackRegistry tracks(1, 1);
        const int64_t p = tracks.process("1");
        for (int64_t t = 1; t <= 2 * kPairs; ++t) {
            (void)tracks.thread(p, std::to_string(t));
        }
        auto count = [](int64_t track) { return kMinSummarisedSlices + ((track - 1) % kPairs) * 3000; };
        {
            TraceWriter writer(ws.db(), 1);
            SliceLodTracker lod(writer, 1);
            int64_t id = 1;
            for (int64_t track = 1; track <= 2 * kPairs; ++track) {
                const int64_t k = (track - 1) % kPairs; // the pair
                for (int64_t i = 0; i < count(track); ++i) {
                    const int64_t ts = 500 * k + i * (11 + k);
                    const int64_t depth = (i + k) % 4;
                    const int64_t dur = 9 + k - depth * 2;
                    writer.batch().slices.push_back({ track, ts, id++, dur, depth, 1 + (i * (k + 1)) % 13,
                        kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue, kNoValue });
                    lod.add(track, track <= kPairs || i + 1 < count(track),
                        KeptSlice { ts, dur, depth, 1 + (i * (k + 1)) % 13 });
                    writer.pushIfFull();
                }
            }
            writer.flush();
            lod.summariseKept();
            QCOMPARE(lod.keptBytes(), size_t(0));
            writer.finish();
            tracks.writeRows(ws.db(), 1, [](int64_t) { return TrackRegistry::SliceCounts {}; });
            lod.finishInWorkspace(ws.db(), tracks.trackCount(), count);
        }
        for (int64_t track = 1; track <= kPairs; ++track) {
            const auto kept = tiles(ws.db(), track);
            QVERIFY(!kept.empty());
            QCOMPARE(kept, tiles(ws.db(), track + kPairs));
        }
    }
};

QTEST_GUILESS_MAIN(TestSliceLodTracker)
#include "tst_slicelodtracker.moc"
