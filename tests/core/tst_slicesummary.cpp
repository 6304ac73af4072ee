// SPDX-License-Identifier: GPL-3.0-or-later
// Level-of-detail summaries of slice tracks: what is stored equals what a brute-force pass over the
// raw slices says (buckets, tiles, carry-out, edge buckets), and a timeline window drawn from the
// summaries shows every visible slice exactly and covers the rest with folded boxes.

#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/slicesummary.h"
#include "timeline/timelinedata.h"
#include "timeline/timescale.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <map>
#include <random>
#include <set>

using namespace plumb;

namespace {

struct Raw {
    int64_t ts, dur;
    int depth;
    int64_t nameId;
};

std::vector<Raw> rawSlices(Workspace &ws, int64_t trackId)
{
    std::vector<Raw> out;
    SqliteStmt st(ws.db(), "SELECT ts, dur, depth, name_id FROM slice WHERE track_id = ? ORDER BY ts, id");
    st.bind(1, trackId);
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnInt(1), int(st.columnInt(2)), st.columnInt(3) });
    return out;
}

// A Kineto-style trace: per thread, top-level slices of random length with random nested children
// down to depth 5, bursts and long idle gaps, instants, and one slice spanning many tiles.
QByteArray generatedTrace(int threads, int topLevel, unsigned seed)
{
    std::mt19937 rng(seed);
    QByteArray json = "{\"traceEvents\": [\n";
    bool first = true;
    auto put = [&](int tid, const char *name, double tsUs, double durUs) {
        json += first ? "" : ",\n";
        first = false;
        json += QStringLiteral("{\"ph\":\"X\",\"name\":\"%1\",\"pid\":1,\"tid\":%2,\"ts\":%3,\"dur\":%4}")
                    .arg(QLatin1String(name))
                    .arg(tid)
                    .arg(tsUs, 0, 'f', 3)
                    .arg(durUs, 0, 'f', 3)
                    .toUtf8();
    };
    static const char *names[]
        = { "aten::mm", "aten::add", "cudaLaunchKernel", "aten::copy_", "Optimizer.step" };
    std::function<void(int, int, double, double)> children
        = [&](int tid, int depth, double start, double end) {
              if (depth > 5 || end - start < 0.01)
                  return;
              std::uniform_int_distribution<int> count(0, 6);
              const int n = count(rng);
              double t = start;
              for (int i = 0; i < n && t < end; ++i) {
                  std::uniform_real_distribution<double> gap(0, (end - t) / 4), len(0, (end - t) / 2);
                  const double s = t + gap(rng), d = len(rng);
                  if (s + d > end)
                      break;
                  put(tid, names[(depth + i) % 5], s, d);
                  children(tid, depth + 1, s, s + d);
                  t = s + d;
              }
          };
    for (int tid = 1; tid <= threads; ++tid) {
        double t = 0;
        put(tid, "ProfilerStep#1", 0, topLevel * 10.0); // spans everything: carried through every tile
        for (int i = 0; i < topLevel; ++i) {
            std::uniform_real_distribution<double> gap(0, i % 500 == 0 ? 50 : 2), len(0.001, 8);
            const double s = t + gap(rng), d = len(rng);
            put(tid, names[i % 5], s, d);
            children(tid, 2, s, s + d);
            if (i % 7 == 0)
                put(tid, "mark", s + d, 0); // an instant
            t = s + d;
        }
    }
    json += "\n]}\n";
    return json;
}

} // namespace

class TestSliceSummary : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_ws;
    QList<TimelineTrack> m_tracks;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const QString path = m_tmp.filePath(QStringLiteral("gen.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(generatedTrace(3, 6000, 7));
        f.close();
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        m_ws = m_tmp.filePath(QStringLiteral("w.plumb"));
        ImportRunner runner(registry, m_ws);
        QCOMPARE(int(runner.run({ path }).at(0).status), int(FileImportResult::Status::Imported));
        Workspace ws(m_ws, Workspace::Role::Reader);
        m_tracks = timelineTracks(ws, 1);
        QCOMPARE(m_tracks.size(), 3);
        for (const auto &t : m_tracks) {
            QVERIFY2(t.sliceCount > 10000, qPrintable(QString::number(t.sliceCount)));
            QVERIFY(t.lodLowest >= 0);
            QVERIFY(t.lodHighest > t.lodLowest + 4);
        }
    }

    void tileRoundTrip()
    {
        SummaryLevels levels { 3, 9, -1000 };
        SummaryTile tile;
        tile.level = 5;
        tile.tile = -2;
        tile.hasBuckets = true;
        tile.sliceCount = 9;
        tile.carryOut = { { 0, -5000000, 9000000, 4 }, { 2, levels.tileStartNs(5, -2) + 3, 70000, 12 } };
        const int64_t b0 = -2 * kTileBuckets;
        tile.buckets = { { b0, 0, 2, levels.bucketStartNs(5, b0), levels.bucketStartNs(5, b0) + 40,
                             levels.bucketStartNs(5, b0) + 7, 33, 3 },
            { b0 + 1023, 0, 1, levels.bucketStartNs(5, b0 + 1023), levels.bucketStartNs(5, b0 + 1023) + 1,
                levels.bucketStartNs(5, b0 + 1023), 1, 8 },
            { b0 + 4, 3, 6, levels.bucketStartNs(5, b0 + 4) + 31, levels.bucketStartNs(5, b0 + 4) + 900,
                levels.bucketStartNs(5, b0 + 4) + 31, 0, 1 } };
        const auto blob = encodeSummaryTile(tile, levels);
        const SummaryTile back = decodeSummaryTile(5, -2, levels, blob.data(), blob.size());
        QCOMPARE(back.hasBuckets, true);
        QCOMPARE(back.sliceCount, Q_INT64_C(9));
        QVERIFY(back.carryOut == tile.carryOut);
        QVERIFY(back.buckets == tile.buckets);
        // A truncated tile is an error, not a crash.
        QVERIFY_THROWS_EXCEPTION(
            std::exception, decodeSummaryTile(5, -2, levels, blob.data(), blob.size() - 3));
    }

    // Times from a crafted file may span the whole int64 range: the summaries are built without
    // overflowing (checked by the sanitizer build), levels stay within what tileStartNs() can shift.
    void extremeTimesDoNotOverflow()
    {
        constexpr int64_t kCount = 3000;
        const int64_t first = INT64_MIN + 1, last = INT64_MAX - 1;
        const SummaryLevels levels = sliceSummaryLevels(first, last, kCount);
        QVERIFY(levels.lowest <= levels.highest);
        QVERIFY(levels.highest + kTileShift <= 62);
        int tiles = 0;
        SliceSummaryBuilder builder(levels, [&](int, int64_t, const std::vector<unsigned char> &data) {
            QVERIFY(!data.empty());
            ++tiles;
        });
        const uint64_t step = UINT64_MAX / kCount;
        for (int64_t i = 0; i < kCount; ++i)
            builder.add(i + 1 == kCount ? last : int64_t(uint64_t(first) + uint64_t(i) * step), 1, 0, 1);
        builder.finish();
        QVERIFY(tiles > 0);
    }

    // Every stored tile equals the brute-force aggregate of the raw slices, and every tile in which a
    // slice starts has a row.
    void summariesEqualBruteForce()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        for (const auto &t : m_tracks) {
            const auto raw = rawSlices(ws, t.id);
            const SummaryLevels levels = summaryLevels(ws.db(), t.id);
            QCOMPARE(levels.lowest, t.lodLowest);
            QCOMPARE(levels.originNs, raw.front().ts);
            int bucketTiles = 0, rawTiles = 0;
            for (int level = levels.lowest; level <= levels.highest; ++level) {
                std::map<int64_t, SummaryTile> expected;
                std::vector<const Raw *> last; // by depth
                auto closeTile = [&](SummaryTile &tile) {
                    const int64_t end = levels.tileStartNs(level, tile.tile + 1);
                    for (const Raw *r : last)
                        if (r && r->ts + r->dur > end)
                            tile.carryOut.push_back({ r->depth, r->ts, r->dur, r->nameId });
                };
                int64_t current = INT64_MIN;
                for (const Raw &r : raw) {
                    const int64_t bucket = (r.ts - levels.originNs) >> level, tileIdx = bucket >> kTileShift;
                    if (tileIdx != current && current != INT64_MIN)
                        closeTile(expected[current]);
                    current = tileIdx;
                    SummaryTile &tile = expected[tileIdx];
                    tile.tile = tileIdx;
                    ++tile.sliceCount;
                    auto it = std::find_if(tile.buckets.begin(), tile.buckets.end(),
                        [&](const SliceSummary &s) { return s.bucket == bucket && s.depth == r.depth; });
                    if (it == tile.buckets.end()) {
                        tile.buckets.push_back(
                            { bucket, r.depth, 1, r.ts, r.ts + r.dur, r.ts, r.dur, r.nameId });
                    } else {
                        ++it->count;
                        it->minStartNs = std::min(it->minStartNs, r.ts);
                        it->maxEndNs = std::max(it->maxEndNs, r.ts + r.dur);
                        it->lastTsNs = r.ts;
                        it->lastDurNs = r.dur;
                        it->lastNameId = r.nameId;
                    }
                    if (size_t(r.depth) >= last.size())
                        last.resize(size_t(r.depth) + 1, nullptr);
                    last[size_t(r.depth)] = &r;
                }
                closeTile(expected[current]);

                const auto stored = summaryTiles(ws.db(), t.id, levels, level, INT64_MIN / 4, INT64_MAX / 4);
                QCOMPARE(stored.size(), expected.size());
                for (const SummaryTile &s : stored) {
                    SummaryTile &e = expected.at(s.tile);
                    QCOMPARE(s.sliceCount, e.sliceCount);
                    QVERIFY2(s.carryOut == e.carryOut,
                        qPrintable(QStringLiteral("level %1 tile %2").arg(level).arg(s.tile)));
                    QCOMPARE(s.hasBuckets, int64_t(e.buckets.size()) * 2 <= e.sliceCount);
                    if (!s.hasBuckets) {
                        ++rawTiles;
                        continue;
                    }
                    ++bucketTiles;
                    std::sort(
                        e.buckets.begin(), e.buckets.end(), [](const SliceSummary &x, const SliceSummary &y) {
                            return std::tie(x.depth, x.bucket) < std::tie(y.depth, y.bucket);
                        });
                    QVERIFY2(s.buckets == e.buckets,
                        qPrintable(QStringLiteral("level %1 tile %2").arg(level).arg(s.tile)));
                }
            }
            QVERIFY(bucketTiles > 0);
            QVERIFY(rawTiles > 0); // the lowest levels are not worth storing
        }
    }

    // A window drawn from the summaries shows every slice at least the minimum width long exactly,
    // covers every narrower slice with a folded box at its depth, and stays proportional to the
    // pixels. Windows are random, including ones starting mid-slice and at tile edges.
    void drawListMatchesRawSlices()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        std::mt19937 rng(11);
        for (const auto &t : m_tracks) {
            const auto raw = rawSlices(ws, t.id);
            const int64_t extent = raw.back().ts + raw.back().dur - raw.front().ts;
            for (int trial = 0; trial < 40; ++trial) {
                const double widthPx = 1920;
                const int64_t span
                    = std::max<int64_t>(1000, int64_t(double(extent) / std::pow(2.0, trial % 14)));
                std::uniform_int_distribution<int64_t> startDist(raw.front().ts - span / 4, raw.back().ts);
                int64_t from = startDist(rng);
                if (trial % 5 == 0) // a tile edge of the level the window uses
                    from = SummaryLevels { t.lodLowest, t.lodHighest, t.lodOriginNs }.tileStartNs(
                        std::clamp(lodLevelFor(int64_t(double(span) / widthPx * kMinVisiblePx)), t.lodLowest,
                            t.lodHighest),
                        3);
                const int64_t to = from + span;
                const int64_t minWidth
                    = std::max<int64_t>(1, int64_t(double(span) / widthPx * kMinVisiblePx));
                const auto drawn = drawSlices(ws, t, from, to, minWidth);
                const QString where = QStringLiteral("track %1 window [%2, %3) min %4")
                                          .arg(t.id)
                                          .arg(from)
                                          .arg(to)
                                          .arg(minWidth);

                std::map<int, std::vector<const DrawSlice *>> byDepth;
                std::set<std::tuple<int64_t, int64_t, int>> wide;
                for (const DrawSlice &d : drawn) {
                    byDepth[d.depth].push_back(&d);
                    if (d.count == 1 && d.endNs - d.startNs >= minWidth)
                        wide.insert({ d.startNs, d.endNs, d.depth });
                }
                std::set<std::tuple<int64_t, int64_t, int>> expectedWide;
                for (const Raw &r : raw) {
                    const int64_t end = r.ts + r.dur;
                    if (r.ts >= to || end < from || (end == from && r.dur > 0))
                        continue;
                    if (r.dur >= minWidth) {
                        expectedWide.insert({ r.ts, end, r.depth });
                        continue;
                    }
                    // A narrow slice lies inside a box drawn at its depth.
                    const auto &ds = byDepth[r.depth];
                    const bool covered = std::any_of(ds.begin(), ds.end(),
                        [&](const DrawSlice *d) { return d->startNs <= r.ts && end <= d->endNs; });
                    QVERIFY2(covered,
                        qPrintable(where
                            + QStringLiteral(": slice at %1 depth %2 not drawn").arg(r.ts).arg(r.depth)));
                }
                if (wide != expectedWide) {
                    for (const auto &w : wide)
                        if (!expectedWide.count(w))
                            qWarning() << "extra" << std::get<0>(w) << std::get<1>(w) << std::get<2>(w);
                    for (const auto &w : expectedWide)
                        if (!wide.count(w))
                            qWarning() << "missing" << std::get<0>(w) << std::get<1>(w) << std::get<2>(w);
                }
                QVERIFY2(wide == expectedWide,
                    qPrintable(where
                        + QStringLiteral(": %1 wide drawn, %2 expected")
                              .arg(wide.size())
                              .arg(expectedWide.size())));
                for (const auto &[depth, ds] : byDepth)
                    QVERIFY2(ds.size() <= size_t(widthPx) + 2, qPrintable(where));
            }
        }
    }

    // Workspaces written before summaries existed get them when opened by this build.
    void olderWorkspaceIsSummarisedOnUpgrade()
    {
        const QString copy = m_tmp.filePath(QStringLiteral("old.plumb"));
        QVERIFY(QFile::copy(m_ws, copy));
        {
            SqliteDb db(copy, SqliteDb::OpenMode::ReadWrite);
            // The public views (schema 12 to 14) name tables dropped below: they go first, as they came last.
            std::vector<std::string> views;
            {
                SqliteStmt st(db, "SELECT name FROM sqlite_master WHERE type = 'view'");
                while (st.step())
                    views.push_back(st.columnText(0).toStdString());
            }
            for (const std::string &v : views)
                db.exec("DROP VIEW \"" + v + "\"");
            db.exec(
                "DROP TABLE slice_lod; DROP TABLE counter_lod; ALTER TABLE track DROP COLUMN lod_origin_ns; "
                "DROP TABLE param; DROP TABLE metric; DROP TABLE histogram; DROP TABLE metric_series; "
                "ALTER TABLE run DROP COLUMN path; ALTER TABLE run DROP COLUMN parent_run_id; "
                "ALTER TABLE run DROP COLUMN group_name; ALTER TABLE run DROP COLUMN status; "
                "ALTER TABLE run DROP COLUMN start_ns; ALTER TABLE run DROP COLUMN end_ns; "
                "ALTER TABLE run DROP COLUMN metadata; ALTER TABLE source DROP COLUMN resume_offset; "
                "ALTER TABLE source DROP COLUMN edge_hash; ALTER TABLE source DROP COLUMN "
                "continues_source_id; "
                "DROP TABLE lineage_node; DROP TABLE lineage_edge; DROP TABLE lineage_link; DROP TABLE "
                "lifecycle_event; "
                "DROP TABLE serving_request; DROP TABLE serving_label; DROP TABLE slice_corr_tile; "
                "ALTER TABLE trace DROP COLUMN device_type; DROP TABLE device_category; "
                "DROP TABLE trace_summary; DROP TABLE step_summary; DROP TABLE op_summary; "
                "DROP TABLE stream_summary; DROP TABLE collective_call; DROP TABLE job_rank; "
                "DROP TABLE job_collective; "
                "CREATE INDEX slice_corr ON slice(corr) WHERE corr IS NOT NULL; "
                "PRAGMA user_version = 3;");
        }
        Workspace ws(copy, Workspace::Role::Reader);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        const auto tracks = timelineTracks(ws, 1);
        for (int i = 0; i < tracks.size(); ++i) {
            QCOMPARE(tracks[i].lodLowest, m_tracks[i].lodLowest);
            QCOMPARE(tracks[i].lodHighest, m_tracks[i].lodHighest);
        }
    }
};

QTEST_GUILESS_MAIN(TestSliceSummary)
#include "tst_slicesummary.moc"
