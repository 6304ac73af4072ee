// SPDX-License-Identifier: GPL-3.0-or-later
// The correlation-id tiles of a trace's slices (core/ingest/trace/corrtiletracker.h): one per
// kCorrTileSlices slices with a corr while they come in order, from the workspace otherwise.
#include "ingest/trace/corrtiletracker.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestCorrTileTracker : public QObject {
    Q_OBJECT

private slots:
    void inOrder()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("i.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        CorrTileTracker corr(writer, 1);
        const int64_t n = 2 * CorrTileTracker::kCorrTileSlices + 10;
        for (int64_t i = 0; i < n; ++i) {
            corr.add(1, true, 100 + i, (i * 7919) % 5000);
        }
        const auto &tiles = writer.batch().corrTiles;
        QCOMPARE(tiles.size(), size_t(2));
        QCOMPARE(tiles[0].tile.count, CorrTileTracker::kCorrTileSlices);
        QCOMPARE(tiles[0].tile.firstTs, int64_t(100));
        QCOMPARE(tiles[0].tile.lastTs, 100 + CorrTileTracker::kCorrTileSlices - 1);
        QCOMPARE(tiles[1].tile.firstTs, 100 + CorrTileTracker::kCorrTileSlices);
        int64_t minCorr = INT64_MAX, maxCorr = INT64_MIN;
        for (int64_t i = 0; i < CorrTileTracker::kCorrTileSlices; ++i) {
            minCorr = std::min(minCorr, (i * 7919) % 5000);
            maxCorr = std::max(maxCorr, (i * 7919) % 5000);
        }
        QCOMPARE(tiles[0].tile.minCorr, minCorr);
        QCOMPARE(tiles[0].tile.maxCorr, maxCorr);
        corr.flush();
        QCOMPARE(tiles.size(), size_t(3));
        QCOMPARE(tiles[2].tile.count, int64_t(10));
        QCOMPARE(tiles[2].tile.lastTs, 100 + n - 1);
        corr.flush(); // nothing partly filled is left
        QCOMPARE(tiles.size(), size_t(3));
    }

    // A track whose slices came out of order gets its tiles from the workspace, in (ts, id) order;
    // tiles made before it went out of order are replaced.
    void fromWorkspace()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("w.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        CorrTileTracker corr(writer, 1);
        const int64_t n = CorrTileTracker::kCorrTileSlices + 1;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t ts = i == n - 1 ? -5 : i; // the last one is the earliest
            writer.batch().slices.push_back({ 1, ts, i + 1, 1, 0, 1, kNoValue, 1000 + i, kNoValue, kNoValue,
                kNoValue, kNoValue, kNoValue });
            corr.add(1, i != n - 1, ts, 1000 + i);
        }
        corr.flush();
        QCOMPARE(writer.batch().corrTiles.size(), size_t(1)); // the one made in order
        writer.flush();
        writer.finish();
        corr.tileFromWorkspace(ws.db());
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM slice_corr_tile WHERE track_id = 1"), int64_t(2));
        QCOMPARE(ws.db().queryInt("SELECT min(first_ts) FROM slice_corr_tile"), int64_t(-5));
        QCOMPARE(ws.db().queryInt("SELECT max_corr FROM slice_corr_tile WHERE first_ts = -5"), 1000 + n - 1);
        QCOMPARE(ws.db().queryInt("SELECT min_corr FROM slice_corr_tile WHERE first_ts = -5"), int64_t(1000));
    }
};

QTEST_GUILESS_MAIN(TestCorrTileTracker)
#include "tst_corrtiletracker.moc"
