// SPDX-License-Identifier: GPL-3.0-or-later
// Slice nesting of a trace import (core/ingest/trace/slicetracker.h): depths as slices arrive, B/E
// pairs, unsorted and overlapping input counted, depths repaired from the workspace.
#include "ingest/diagnosticlog.h"
#include "ingest/trace/corrtiletracker.h"
#include "ingest/trace/slicelodtracker.h"
#include "ingest/trace/slicetracker.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

SliceFields slice(int64_t ts, int64_t dur, int64_t name = 1)
{
    SliceFields f;
    f.tsNs = ts;
    f.durNs = dur;
    f.nameId = name;
    return f;
}

// The trackers a SliceTracker hands its rows to, on a fresh workspace.
struct Fixture {
    explicit Fixture(const QString &path)
        : ws(path, Workspace::Role::Writer)
        , writer(ws.db(), 1)
        , lod(writer, 1)
        , corr(writer, 1)
        , slices(writer, lod, corr, tracks, diag, stats, 100)
    {
    }
    Workspace ws;
    TrackRegistry tracks { 1, 1 };
    DiagnosticLog diag;
    TraceStats stats;
    TraceWriter writer;
    SliceLodTracker lod;
    CorrTileTracker corr;
    SliceTracker slices;

    // (id, depth) of the rows handed over so far, in order.
    std::vector<std::pair<int64_t, int64_t>> rows()
    {
        std::vector<std::pair<int64_t, int64_t>> out;
        for (const auto &r : writer.batch().slices) {
            out.emplace_back(r.id, r.depth);
        }
        return out;
    }
};

using Rows = std::vector<std::pair<int64_t, int64_t>>;

} // namespace

class TestSliceTracker : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    // Sorted X slices: depth is the number of enclosing slices still open.
    void nesting()
    {
        Fixture f(m_dir.filePath(QStringLiteral("n.plumb")));
        const int64_t t = f.tracks.thread(f.tracks.process("1"), "1");
        f.slices.addSlice(t, slice(0, 100));
        f.slices.addSlice(t, slice(10, 50));
        f.slices.addSlice(t, slice(20, 10));
        f.slices.addSlice(t, slice(60, 10)); // the 10..60 one has ended
        f.slices.addSlice(t, slice(100, 5)); // a slice ending at ts does not enclose it
        QCOMPARE(f.rows(), (Rows { { 100, 0 }, { 101, 1 }, { 102, 2 }, { 103, 1 }, { 104, 0 } }));
        QVERIFY(!f.slices.isUnsorted(t));
        QVERIFY(f.diag.all().empty());
        const auto c = f.slices.counts(t);
        QCOMPARE(c.slices, int64_t(5));
        QCOMPARE(c.maxDepth, int64_t(2));
        QCOMPARE(c.maxDurNs, int64_t(100));
        QCOMPARE(f.stats.slices, int64_t(5));
        QCOMPARE(f.stats.startNs, int64_t(0));
        QCOMPARE(f.stats.endNs, int64_t(105));
        QCOMPARE(f.slices.nextSliceId(), int64_t(105));
        QCOMPARE(f.slices.counts(t + 5).slices, int64_t(0)); // a track with no slices
    }

    // B/E: the id is taken at B, the row goes at E with its duration and E's args; slices inside nest
    // below; an E with nothing open is refused; B without E closes at the trace end.
    void beginEnd()
    {
        Fixture f(m_dir.filePath(QStringLiteral("b.plumb")));
        const int64_t t = f.tracks.thread(f.tracks.process("1"), "1");
        f.slices.beginSlice(t, slice(0, 0));
        f.slices.addSlice(t, slice(5, 5));
        QVERIFY(f.slices.endSlice(t, 20, 77));
        QVERIFY(!f.slices.endSlice(t, 30));
        f.slices.beginSlice(t, slice(40, 0));
        QCOMPARE(f.rows(), (Rows { { 101, 1 }, { 100, 0 } }));
        const auto &b = f.writer.batch().slices[1];
        QCOMPARE(b.dur, int64_t(20));
        QCOMPARE(b.args, int64_t(77));
        f.slices.closeUnterminated(35); // before the open slice's start: closed at its start
        QCOMPARE(f.writer.batch().slices.size(), size_t(3));
        QCOMPARE(f.writer.batch().slices[2].ts, int64_t(40));
        QCOMPARE(f.writer.batch().slices[2].dur, int64_t(0));
        QCOMPARE(f.diag.countOf(QStringLiteral("unterminated-slice")), int64_t(1));
    }

    // Overlap without nesting: one level below, with a diagnostic that names the track kind.
    void overlap()
    {
        Fixture f(m_dir.filePath(QStringLiteral("o.plumb")));
        const int64_t p = f.tracks.process("1");
        const int64_t t = f.tracks.thread(p, "1");
        const int64_t s = f.tracks.thread(p, "s");
        f.tracks.setTrackGpuStream(s, 7);
        f.slices.addSlice(t, slice(0, 10));
        f.slices.addSlice(t, slice(5, 10));
        QCOMPARE(f.writer.batch().slices.back().depth, int64_t(1));
        QVERIFY(f.diag.has(QStringLiteral("overlapping-slices")));
        QVERIFY(!f.diag.has(QStringLiteral("overlapping-gpu-ops")));
        f.slices.addSlice(s, slice(0, 10));
        f.slices.addSlice(s, slice(5, 10));
        QVERIFY(f.diag.has(QStringLiteral("overlapping-gpu-ops")));
        QVERIFY(!f.slices.isUnsorted(t));
    }

    // Out of order: the track is marked, and repairDepths() recomputes its depths in (ts, dur desc)
    // order, in the workspace or from the rows the LOD tracker kept (summariseKept() told which tracks
    // are unsorted); a sorted track is left alone.
    void unsortedRepaired_data()
    {
        QTest::addColumn<bool>("fromKeptRows");
        QTest::newRow("workspace") << false;
        QTest::newRow("kept rows") << true;
    }
    void unsortedRepaired()
    {
        QFETCH(bool, fromKeptRows);
        Fixture f(m_dir.filePath(QStringLiteral("u%1.plumb").arg(int(fromKeptRows))));
        const int64_t p = f.tracks.process("1");
        const int64_t t = f.tracks.thread(p, "1");
        const int64_t sorted = f.tracks.thread(p, "2");
        f.slices.addSlice(t, slice(10, 5)); // depth 0 as it arrives; 1 once its parent is known
        f.slices.addSlice(t, slice(0, 100));
        f.slices.addSlice(t, slice(0, 50)); // same start, shorter: below the 100 one
        f.slices.addSlice(sorted, slice(0, 10));
        QVERIFY(f.slices.isUnsorted(t));
        QVERIFY(!f.slices.isUnsorted(sorted));
        QVERIFY(f.diag.has(QStringLiteral("unsorted-events")));
        f.writer.flush();
        if (fromKeptRows)
            f.lod.summariseKept(true, [&f](int64_t track) { return f.slices.isUnsorted(track); });
        f.writer.finish();
        QCOMPARE(f.lod.depthRepair(t) != nullptr, fromKeptRows);
        QVERIFY(!f.lod.depthRepair(sorted));
        f.slices.repairDepths(f.ws.db(), &f.lod);
        QCOMPARE(f.ws.db().queryInt("SELECT depth FROM slice WHERE id = 100"), int64_t(2));
        QCOMPARE(f.ws.db().queryInt("SELECT depth FROM slice WHERE id = 101"), int64_t(0));
        QCOMPARE(f.ws.db().queryInt("SELECT depth FROM slice WHERE id = 102"), int64_t(1));
        QCOMPARE(f.slices.counts(t).maxDepth, int64_t(2));
    }

    // What the slices hand to the correlation tiles and the LOD tracker: every slice kept, a slice out
    // of (ts, id) order starting a second ordered run (the tiles then merge the runs); a correlation
    // tile only from a track in order.
    void feedsTheOtherTrackers()
    {
        Fixture f(m_dir.filePath(QStringLiteral("f.plumb")));
        const int64_t p = f.tracks.process("1");
        const int64_t a = f.tracks.thread(p, "1");
        const int64_t b = f.tracks.thread(p, "2");
        SliceFields s = slice(0, 1);
        s.corr = 5;
        f.slices.addSlice(a, s);
        f.slices.addSlice(b, slice(10, 1));
        f.slices.addSlice(b, slice(5, 1));
        QVERIFY(f.lod.isKept(a));
        QVERIFY(f.lod.isKept(b));
        f.corr.flush();
        QCOMPARE(f.writer.batch().corrTiles.size(), size_t(1));
        QCOMPARE(f.writer.batch().corrTiles[0].track, a);
        QCOMPARE(f.writer.batch().corrTiles[0].tile.minCorr, int64_t(5));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestSliceTracker)
#include "tst_slicetracker.moc"
