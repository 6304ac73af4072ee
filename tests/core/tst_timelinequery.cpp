// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's questions about slices: what is under the mouse, what links to it, name search,
// range aggregates (checked against SQL written independently here), step markers and idle gaps.

#include "builtinimporters.h"
#include "goldens.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/workspace.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinequery.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <climits>
#include <optional>
#include <tuple>

using namespace plumb;

namespace {

constexpr int64_t kUs = 1000;

// A PyTorch-profiler-like trace, laid out as Kineto writes it (CPU ops, then runtime calls, then
// GPU ops, flows and metadata). Times in µs:
//   main:     ProfilerStep#1 [0,100) > aten::linear [10,50) > aten::addmm [15,45); mark (instant) 55;
//             aten::relu [60,70); ProfilerStep#2 [100,200) > aten::linear [110,150) > aten::addmm
//             [115,145); ProfilerStep#3 [200,300) > aten::linear [210,230), tie_op [250,251)
//   CUDA API: cudaLaunchKernel [20,25) corr 7, [62,65) corr 8, [140,142) corr 9
//   autograd: evaluate_function [120,150) > AccumulateGrad [130,135); tie_op [250,251)
//   stream 7: gemm [30,50) corr 7, relu_kernel [70,75) corr 8, gemm [150,160) corr 9
//   flows:    fwdbwd 110 main -> 120 autograd; ac2g 7 (launch -> gemm, stored as corr only)
//   global instant "snapshot" at 5.
const char kTrace[] = R"({"traceEvents": [
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":40},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":15,"dur":30},
{"ph":"i","s":"t","cat":"cpu_instant_event","name":"mark","pid":1,"tid":1,"ts":55},
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":60,"dur":10},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":110,"dur":40},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":115,"dur":30},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":200,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":210,"dur":20},
{"ph":"X","cat":"cpu_op","name":"tie_op","pid":1,"tid":1,"ts":250,"dur":1},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function","pid":1,"tid":2,"ts":120,"dur":30},
{"ph":"X","cat":"cpu_op","name":"AccumulateGrad","pid":1,"tid":2,"ts":130,"dur":5},
{"ph":"X","cat":"cpu_op","name":"tie_op","pid":1,"tid":2,"ts":250,"dur":1},
{"ph":"s","id":1,"pid":1,"tid":1,"ts":110,"cat":"fwdbwd","name":"fwdbwd"},
{"ph":"f","id":1,"pid":1,"tid":2,"ts":120,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"cbid":211,"correlation":7}},
{"ph":"s","id":7,"pid":1,"tid":1,"ts":20,"cat":"ac2g","name":"ac2g"},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":62,"dur":3,"args":{"cbid":211,"correlation":8}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":140,"dur":2,"args":{"cbid":211,"correlation":9}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":30,"dur":20,"args":{"device":0,"stream":7,"correlation":7}},
{"ph":"f","id":7,"pid":0,"tid":7,"ts":30,"cat":"ac2g","name":"ac2g","bp":"e"},
{"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":70,"dur":5,"args":{"device":0,"stream":7,"correlation":8}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":150,"dur":10,"args":{"device":0,"stream":7,"correlation":9}},
{"ph":"i","s":"g","name":"snapshot","pid":1,"tid":1,"ts":5},
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"autograd"}},
{"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}}
]}
)";

QString sharedTraces()
{
    return QStringLiteral(PLUMB_SHARED_DATA "/traces");
}

bool importFile(const QString &path, const QString &workspace)
{
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    ImportRunner runner(registry, workspace);
    return runner.run({ path }).at(0).status == FileImportResult::Status::Imported;
}

struct Totals {
    int64_t count = 0, totalNs = 0, selfNs = 0, maxNs = 0;
    friend bool operator==(const Totals &, const Totals &) = default;
};

QMap<QString, Totals> totalsOf(const std::vector<RangeAggregateRow> &rows)
{
    QMap<QString, Totals> out;
    for (const auto &r : rows)
        out.insert(r.name, Totals { r.count, r.totalNs, r.selfNs, r.maxNs });
    return out;
}

// The same aggregate in SQL: a slice counts when it overlaps [from, to) (an instant when it lies in
// it); clipped to the range; self = clipped minus the clipped time of the slices one level deeper
// on its track that lie within it.
QMap<QString, Totals> sqlTotals(Workspace &ws, int64_t from, int64_t to)
{
    SqliteStmt st(ws.db(), R"sql(
        WITH sel AS (
            SELECT s.track_id, s.ts, s.dur, s.depth, s.name_id,
                   min(s.ts + s.dur, ?2) - max(s.ts, ?1) AS clipped
            FROM slice s JOIN track k ON k.id = s.track_id
            WHERE k.kind != 'counter'
              AND ((s.dur > 0 AND s.ts < ?2 AND s.ts + s.dur > ?1) OR (s.dur = 0 AND s.ts >= ?1 AND s.ts < ?2)))
        SELECT n.str, count(*), sum(clipped),
               sum(clipped - coalesce((
                   SELECT sum(max(0, min(c.ts + c.dur, ?2) - max(c.ts, ?1))) FROM slice c
                   WHERE c.track_id = sel.track_id AND c.ts >= sel.ts AND c.ts <= sel.ts + sel.dur
                     AND c.depth = sel.depth + 1 AND c.ts + c.dur <= sel.ts + sel.dur), 0)),
               max(clipped)
        FROM sel JOIN string n ON n.id = sel.name_id GROUP BY n.str)sql");
    st.bind(1, from).bind(2, to);
    QMap<QString, Totals> out;
    while (st.step())
        out.insert(
            st.columnText(0), Totals { st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnInt(4) });
    return out;
}

QString differences(const QMap<QString, Totals> &got, const QMap<QString, Totals> &expected)
{
    QStringList out;
    auto str = [](const Totals &t) {
        return QStringLiteral("count %1 total %2 self %3 max %4")
            .arg(t.count)
            .arg(t.totalNs)
            .arg(t.selfNs)
            .arg(t.maxNs);
    };
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        if (!got.contains(it.key()))
            out << QStringLiteral("%1 missing (expected %2)").arg(it.key(), str(it.value()));
        else if (!(got.value(it.key()) == it.value()))
            out << QStringLiteral("%1: %2, expected %3")
                       .arg(it.key(), str(got.value(it.key())), str(it.value()));
    }
    for (auto it = got.begin(); it != got.end(); ++it)
        if (!expected.contains(it.key()))
            out << QStringLiteral("%1 unexpected").arg(it.key());
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestTimelineQuery : public QObject {
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

    QString nameAt(Workspace &ws, const QString &trackName, int64_t tNs, int depth = -1, int64_t tolNs = 0)
    {
        const auto s = sliceAt(ws, track(trackName), tNs, depth, tolNs);
        return s ? s->name : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const QString path = m_tmp.filePath(QStringLiteral("t.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kTrace);
        f.close();
        m_ws = m_tmp.filePath(QStringLiteral("w.plumb"));
        QVERIFY(importFile(path, m_ws));
        Workspace ws(m_ws, Workspace::Role::Reader);
        m_tracks = timelineTracks(ws, 1);
        QStringList names;
        for (const auto &t : m_tracks)
            names << t.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("main"), QStringLiteral("CUDA API"), QStringLiteral("autograd"),
                QStringLiteral("Stream 7"), QStringLiteral("Global instants") }));
    }

    void sliceAtEdges()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const QString main = QStringLiteral("main");
        QCOMPARE(nameAt(ws, main, 0), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(nameAt(ws, main, 10 * kUs), QStringLiteral("aten::linear"));
        QCOMPARE(nameAt(ws, main, 15 * kUs), QStringLiteral("aten::addmm"));
        QCOMPARE(nameAt(ws, main, 45 * kUs - 1), QStringLiteral("aten::addmm"));
        QCOMPARE(nameAt(ws, main, 45 * kUs), QStringLiteral("aten::linear")); // ends are exclusive
        QCOMPARE(nameAt(ws, main, 50 * kUs), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(nameAt(ws, main, 57 * kUs), QStringLiteral("ProfilerStep#1")); // a gap at depth 1
        QCOMPARE(nameAt(ws, main, 100 * kUs - 1), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(nameAt(ws, main, 100 * kUs), QStringLiteral("ProfilerStep#2"));
        QCOMPARE(nameAt(ws, main, 300 * kUs - 1), QStringLiteral("ProfilerStep#3"));
        QCOMPARE(nameAt(ws, main, 300 * kUs), QString());
        QCOMPARE(nameAt(ws, main, -1), QString());
        // Depth limits.
        QCOMPARE(nameAt(ws, main, 20 * kUs, 1), QStringLiteral("aten::linear"));
        QCOMPARE(nameAt(ws, main, 20 * kUs, 0), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(nameAt(ws, main, 20 * kUs, 5), QStringLiteral("aten::addmm"));
        // Instants match within the tolerance, and over the slice they sit in.
        QCOMPARE(nameAt(ws, main, 55 * kUs), QStringLiteral("mark"));
        QCOMPARE(nameAt(ws, main, 55 * kUs + 500, -1, 1000), QStringLiteral("mark"));
        QCOMPARE(nameAt(ws, main, 55 * kUs - 500, -1, 1000), QStringLiteral("mark"));
        QCOMPARE(nameAt(ws, main, 55 * kUs + 500, -1, 100), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(nameAt(ws, main, 55 * kUs, 0), QStringLiteral("ProfilerStep#1"));
        QCOMPARE(
            nameAt(ws, QStringLiteral("Global instants"), 5 * kUs + 10, -1, 20), QStringLiteral("snapshot"));
        QCOMPARE(nameAt(ws, QStringLiteral("Global instants"), 5 * kUs + 30, -1, 20), QString());

        const auto s = sliceAt(ws, track(main), 20 * kUs, -1);
        QVERIFY(s);
        QCOMPARE(s->startNs, 15 * kUs);
        QCOMPARE(s->durNs, 30 * kUs);
        QCOMPARE(s->depth, 2);
        QCOMPARE(s->category, QStringLiteral("cpu_op"));
        QCOMPARE(s->corr, Q_INT64_C(-1));
        const auto again = sliceByKey(ws, track(main), s->key);
        QVERIFY(again);
        QCOMPARE(again->name, s->name);
        QCOMPARE(again->key, s->key);
        QVERIFY(!sliceByKey(ws, track(main), SliceKey { s->key.trackId, s->key.tsNs + 1, s->key.id }));
    }

    void argsCarryPromotedIds()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto launch = sliceAt(ws, track(QStringLiteral("CUDA API")), 22 * kUs, -1);
        QVERIFY(launch);
        QCOMPARE(launch->name, QStringLiteral("cudaLaunchKernel"));
        QCOMPARE(launch->category, QStringLiteral("cuda_runtime"));
        QCOMPARE(launch->corr, Q_INT64_C(7));
        QCOMPARE(launch->argsJson, QStringLiteral("{\"cbid\":211,\"correlation\":7}"));
        QCOMPARE(sliceAt(ws, track(QStringLiteral("main")), 20 * kUs, -1)->argsJson, QString());
    }

    void launchLinksBothWays()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto launch = sliceAt(ws, track(QStringLiteral("CUDA API")), 22 * kUs, -1);
        QVERIFY(launch);
        const auto links = sliceLinks(ws, m_tracks, *launch);
        QCOMPARE(links.size(), size_t(1)); // the ac2g flow is the same link: not listed twice
        QCOMPARE(int(links[0].kind), int(SliceLink::Kind::Launches));
        QCOMPARE(links[0].relation, QStringLiteral("launches"));
        QCOMPARE(links[0].slice.name, QStringLiteral("gemm"));
        QCOMPARE(links[0].slice.startNs, 30 * kUs);
        QCOMPARE(links[0].slice.key.trackId, track(QStringLiteral("Stream 7")).id);

        const auto kernel = sliceAt(ws, track(QStringLiteral("Stream 7")), 155 * kUs, -1);
        QVERIFY(kernel);
        const auto back = sliceLinks(ws, m_tracks, *kernel);
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(int(back[0].kind), int(SliceLink::Kind::LaunchedBy));
        QCOMPARE(back[0].relation, QStringLiteral("launched by"));
        QCOMPARE(back[0].slice.startNs, 140 * kUs);
        QCOMPARE(back[0].slice.corr, Q_INT64_C(9));
    }

    // Launch links through slice_corr_tile on a trace of several tiles per track, with corrs out of
    // order (threads racing to a stream), one corr on three kernels (a graph launch) and kernels whose
    // launch was not captured: every slice gets exactly the links a scan of the slice table finds,
    // and the tiles the import writes are those the schema migration builds from the same slices,
    // also when the file's events are shuffled (tiles made as they arrive would each span a track).
    void launchLinksAcrossManyTiles_data()
    {
        QTest::addColumn<bool>("shuffled");
        QTest::newRow("in-order") << false;
        QTest::newRow("shuffled") << true;
    }
    void launchLinksAcrossManyTiles()
    {
        QFETCH(bool, shuffled);
        constexpr int kLaunches = 5000;
        QByteArrayList events;
        QRandomGenerator rng(7);
        std::vector<int> corrOfLaunch(kLaunches);
        for (int i = 0; i < kLaunches; ++i)
            corrOfLaunch[size_t(i)] = 100 + i;
        for (int i = 1; i < kLaunches; i += 37)
            std::swap(corrOfLaunch[size_t(i - 1)], corrOfLaunch[size_t(i)]);
        for (int i = 0; i < kLaunches; ++i) {
            const int corr = corrOfLaunch[size_t(i)];
            events << QStringLiteral(
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
                "\"tid\":1,\"ts\":%1,\"dur\":2,\"args\":{\"correlation\":%2}}")
                          .arg(10 * i)
                          .arg(corr)
                          .toUtf8();
            const int kernels = i % 500 == 3 ? 3 : 1;
            for (int k = 0; k < kernels; ++k)
                events << QStringLiteral(
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":%1,\"ts\":%2,"
                    "\"dur\":1,\"args\":{\"device\":0,\"stream\":%1,\"correlation\":%3}}")
                              .arg(7 + corr % 2)
                              .arg(10 * i + 4 + 2 * k + int(rng.bounded(2)))
                              .arg(corr)
                              .toUtf8();
        }
        events << "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"orphan\",\"pid\":0,\"tid\":7,\"ts\":60000,"
                  "\"dur\":1,"
                  "\"args\":{\"device\":0,\"stream\":7,\"correlation\":99999}}";
        if (shuffled)
            std::shuffle(events.begin(), events.end(), rng);
        const QString path = m_tmp.filePath(QStringLiteral("tiles-%1.json").arg(shuffled));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\":[\n" + events.join(",\n") + "\n]}\n");
        f.close();
        const QString wsPath = m_tmp.filePath(QStringLiteral("tiles-%1.plumb").arg(shuffled));
        QVERIFY(importFile(path, wsPath));

        Workspace ws(wsPath, Workspace::Role::Reader);
        const QList<TimelineTrack> tracks = timelineTracks(ws, 1);
        const int64_t tiles = ws.db().queryInt("SELECT count(*) FROM slice_corr_tile");
        QCOMPARE(tiles, Q_INT64_C(11)); // 5000 launches: 5 tiles; 2500-2521 ops on each stream: 3 each
        QCOMPARE(csvOf(ws.db(), "SELECT * FROM slice_corr_tile ORDER BY 1, 2, 3, 4, 5"),
            csvOf(ws.db(),
                "SELECT track_id, min(ts) AS first_ts, max(ts) AS last_ts, min(corr) AS min_corr, "
                "max(corr) AS max_corr FROM (SELECT track_id, ts, "
                "corr, (row_number() OVER (PARTITION BY track_id ORDER BY ts, id) - 1) / 1024 AS tile "
                "FROM slice WHERE corr IS NOT NULL) GROUP BY track_id, tile ORDER BY 1, 2, 3, 4, 5"));

        SqliteStmt all(ws.db(),
            "SELECT s.track_id, s.ts, s.corr, k.kind FROM slice s JOIN track k ON k.id = s.track_id "
            "WHERE s.corr IS NOT NULL ORDER BY s.corr, s.ts, s.track_id");
        QMap<int64_t, QStringList> byCorr;
        struct Probe {
            int64_t track, ts, corr;
            bool gpu;
        };
        std::vector<Probe> probes;
        while (all.step()) {
            const bool gpu = all.columnText(3) == QLatin1String("gpu_stream");
            probes.push_back({ all.columnInt(0), all.columnInt(1), all.columnInt(2), gpu });
            byCorr[all.columnInt(2)]
                << QStringLiteral("%1:%2:%3").arg(gpu).arg(all.columnInt(0)).arg(all.columnInt(1));
        }
        QCOMPARE(int(probes.size()), kLaunches * 2 + 2 * (kLaunches / 500) + 1);
        int checked = 0;
        for (size_t i = 0; i < probes.size(); i += 7) {
            const Probe &p = probes[i];
            const TimelineTrack *t = nullptr;
            for (const auto &c : tracks)
                if (c.id == p.track)
                    t = &c;
            QVERIFY(t);
            const auto slice = sliceAt(ws, *t, p.ts, -1);
            QVERIFY(slice && slice->corr == p.corr);
            QStringList got, expected;
            for (const SliceLink &l : sliceLinks(ws, tracks, *slice))
                if (l.kind == SliceLink::Kind::Launches || l.kind == SliceLink::Kind::LaunchedBy)
                    got << QStringLiteral("%1:%2:%3")
                               .arg(!p.gpu)
                               .arg(l.slice.key.trackId)
                               .arg(l.slice.key.tsNs);
            for (const QString &other : byCorr.value(p.corr))
                if (other.startsWith(QString::number(int(!p.gpu)) + QLatin1Char(':')))
                    expected << other;
            got.sort();
            expected.sort();
            QCOMPARE(got, expected);
            ++checked;
        }
        QVERIFY(checked > 1000);
    }

    void flowLinksBindToTheDeepestSlice()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto linear = sliceAt(ws, track(QStringLiteral("main")), 110 * kUs, -1);
        QVERIFY(linear);
        QCOMPARE(linear->name, QStringLiteral("aten::linear"));
        const auto out = sliceLinks(ws, m_tracks, *linear);
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(int(out[0].kind), int(SliceLink::Kind::FlowTo));
        QCOMPARE(out[0].relation, QStringLiteral("flow to (fwdbwd)"));
        QCOMPARE(out[0].slice.name, QStringLiteral("autograd::engine::evaluate_function"));

        const auto in = sliceLinks(ws, m_tracks, out[0].slice);
        QCOMPARE(in.size(), size_t(1));
        QCOMPARE(int(in[0].kind), int(SliceLink::Kind::FlowFrom));
        QCOMPARE(in[0].relation, QStringLiteral("flow from (fwdbwd)"));
        QCOMPARE(in[0].slice.key, linear->key);

        // The step encloses the flow's start too, but the deeper aten::linear holds it.
        const auto step = sliceAt(ws, track(QStringLiteral("main")), 110 * kUs, 0);
        QVERIFY(step);
        QVERIFY(sliceLinks(ws, m_tracks, *step).empty());
        const auto addmm = sliceAt(ws, track(QStringLiteral("main")), 120 * kUs, -1);
        QCOMPARE(addmm->name, QStringLiteral("aten::addmm"));
        QVERIFY(sliceLinks(ws, m_tracks, *addmm).empty());
    }

    void searchOrder()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const NameMatcher linear = matchNames(ws, QStringLiteral("LINEAR"), false);
        QVERIFY(linear.errorMessage.isEmpty());
        QCOMPARE(countMatches(ws, m_tracks, linear), Q_INT64_C(3));
        QList<int64_t> forward;
        for (auto hit = findNext(ws, m_tracks, linear, -1); hit;
             hit = findNext(ws, m_tracks, linear, hit->startNs))
            forward << hit->startNs;
        QCOMPARE(forward, QList<int64_t>({ 10 * kUs, 110 * kUs, 210 * kUs }));
        QList<int64_t> backward;
        for (auto hit = findPrevious(ws, m_tracks, linear, Q_INT64_C(1) << 40); hit;
             hit = findPrevious(ws, m_tracks, linear, hit->startNs))
            backward << hit->startNs;
        QCOMPARE(backward, QList<int64_t>({ 210 * kUs, 110 * kUs, 10 * kUs }));
        const auto first = findNext(ws, m_tracks, linear, -1);
        QCOMPARE(first->depth, 1);
        QCOMPARE(first->durNs, 40 * kUs);
        QCOMPARE(first->key.trackId, track(QStringLiteral("main")).id);

        // A substring: "aten" after the first linear is the addmm inside it.
        const NameMatcher aten = matchNames(ws, QStringLiteral("aten"), false);
        QCOMPARE(findNext(ws, m_tracks, aten, 10 * kUs)->startNs, 15 * kUs);
        QCOMPARE(countMatches(ws, m_tracks, aten), Q_INT64_C(6));
        // Far hits: the windows widen until they reach them.
        QCOMPARE(findNext(ws, m_tracks, matchNames(ws, QStringLiteral("relu_kernel"), false),
                     -(Q_INT64_C(1) << 40))
                     ->startNs,
            70 * kUs);

        // Ties in time go to the earlier track.
        const NameMatcher tie = matchNames(ws, QStringLiteral("tie_op"), false);
        QCOMPARE(countMatches(ws, m_tracks, tie), Q_INT64_C(2));
        QCOMPARE(findNext(ws, m_tracks, tie, 0)->key.trackId, track(QStringLiteral("main")).id);
        QCOMPARE(findPrevious(ws, m_tracks, tie, 1000 * kUs)->key.trackId, track(QStringLiteral("main")).id);
        QList<TimelineTrack> reversed(m_tracks.rbegin(), m_tracks.rend());
        QCOMPARE(findNext(ws, reversed, tie, 0)->key.trackId, track(QStringLiteral("autograd")).id);
        QVERIFY(!findNext(ws, m_tracks, tie, 250 * kUs));

        // Regular expressions, case-insensitive; an invalid one matches nothing and says why.
        const NameMatcher re = matchNames(ws, QStringLiteral("^ATEN::(linear|relu)$"), true);
        QVERIFY(re.errorMessage.isEmpty());
        QCOMPARE(countMatches(ws, m_tracks, re), Q_INT64_C(4));
        const NameMatcher bad = matchNames(ws, QStringLiteral("aten::(linear"), true);
        QVERIFY(!bad.errorMessage.isEmpty());
        QVERIFY(bad.nameIds.empty());
        QCOMPARE(countMatches(ws, m_tracks, bad), Q_INT64_C(0));
        QVERIFY(!findNext(ws, m_tracks, bad, -1));
        // Substrings are literal: no wildcards.
        QCOMPARE(countMatches(ws, m_tracks, matchNames(ws, QStringLiteral("aten%"), false)), Q_INT64_C(0));
        QCOMPARE(countMatches(ws, m_tracks, matchNames(ws, QStringLiteral("tie_"), false)), Q_INT64_C(2));
        QVERIFY(matchNames(ws, QString(), false).nameIds.empty());
        QVERIFY(linear.matches(ws.db().queryInt("SELECT id FROM string WHERE str = 'aten::linear'")));
    }

    void rangeAggregateMatchesSql_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::newRow("everything") << -(Q_INT64_C(1) << 50) << (Q_INT64_C(1) << 50);
        QTest::newRow("inside linear and addmm") << qint64(12 * kUs) << qint64(40 * kUs);
        QTest::newRow("across the step boundary") << qint64(95 * kUs) << qint64(115 * kUs + 500);
        QTest::newRow("the instant only") << qint64(55 * kUs) << qint64(55 * kUs + 1);
        QTest::newRow("first step") << qint64(0) << qint64(100 * kUs);
        QTest::newRow("backward and a kernel") << qint64(125 * kUs) << qint64(152 * kUs);
        QTest::newRow("in a gap of depth 1") << qint64(51 * kUs) << qint64(54 * kUs);
        QTest::newRow("after everything") << qint64(400 * kUs) << qint64(500 * kUs);
    }
    void rangeAggregateMatchesSql()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto rows = rangeAggregate(ws, m_tracks, from, to);
        const QString diff = differences(totalsOf(rows), sqlTotals(ws, from, to));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void rangeAggregateByHand()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto t = totalsOf(rangeAggregate(ws, m_tracks, 12 * kUs, 40 * kUs));
        QCOMPARE(t.value(QStringLiteral("ProfilerStep#1")), (Totals { 1, 28 * kUs, 0, 28 * kUs }));
        QCOMPARE(t.value(QStringLiteral("aten::linear")), (Totals { 1, 28 * kUs, 3 * kUs, 28 * kUs }));
        QCOMPARE(t.value(QStringLiteral("aten::addmm")), (Totals { 1, 25 * kUs, 25 * kUs, 25 * kUs }));
        QCOMPARE(t.value(QStringLiteral("cudaLaunchKernel")), (Totals { 1, 5 * kUs, 5 * kUs, 5 * kUs }));
        QCOMPARE(t.value(QStringLiteral("gemm")), (Totals { 1, 10 * kUs, 10 * kUs, 10 * kUs }));
        QCOMPARE(t.size(), 5);
        const auto rows = rangeAggregate(ws, m_tracks, 0, 1000 * kUs);
        QCOMPARE(
            rows.front().name, QStringLiteral("ProfilerStep#1")); // the largest total first (ties by name)
        for (const auto &r : rows)
            if (r.name == QLatin1String("aten::linear"))
                QCOMPARE(r.meanNs(), double(100 * kUs) / 3);
        QVERIFY(rangeAggregate(ws, m_tracks, 10 * kUs, 10 * kUs).empty());
    }

    void stepMarkersOfProfilerSteps()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto steps = stepMarkers(ws, m_tracks);
        QCOMPARE(steps.size(), size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(steps[size_t(i)].number, int64_t(i + 1));
            QCOMPARE(steps[size_t(i)].name, QStringLiteral("ProfilerStep#%1").arg(i + 1));
            QCOMPARE(steps[size_t(i)].startNs, int64_t(i) * 100 * kUs);
            QCOMPARE(steps[size_t(i)].endNs, int64_t(i + 1) * 100 * kUs);
            QCOMPARE(steps[size_t(i)].trackId, track(QStringLiteral("main")).id);
        }
        QVERIFY(stepMarkers(ws, {}).empty());
    }

    // Without ProfilerStep#N: NVTX-like annotations on a CPU thread named like a step. An op of
    // another category and the GPU copy of an annotation are not steps.
    void stepMarkersOfAnnotations()
    {
        const QByteArray json = R"({"traceEvents": [
{"ph":"X","cat":"user_annotation","name":"train_step_3","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","name":"step 9","pid":1,"tid":1,"ts":10,"dur":10},
{"ph":"X","cat":"user_annotation","name":"train_step_4","pid":1,"tid":1,"ts":100,"dur":80},
{"ph":"X","cat":"user_annotation","name":"## forward ##","pid":1,"tid":1,"ts":110,"dur":20},
{"ph":"X","cat":"gpu_user_annotation","name":"train_step_3","pid":0,"tid":7,"ts":5,"dur":90}
]})";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nvtx.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        const QString wsPath = dir.filePath(QStringLiteral("nvtx.plumb"));
        QVERIFY(importFile(path, wsPath));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const auto steps = stepMarkers(ws, timelineTracks(ws, 1));
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[0].number, Q_INT64_C(3));
        QCOMPARE(steps[0].name, QStringLiteral("train_step_3"));
        QCOMPARE(steps[0].startNs, Q_INT64_C(0));
        QCOMPARE(steps[0].endNs, 100 * kUs);
        QCOMPARE(steps[1].number, Q_INT64_C(4));
        QCOMPARE(steps[1].startNs, 100 * kUs);
    }

    void idleGapsOfAStream()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const auto slices = drawSlices(ws, track(QStringLiteral("Stream 7")), 0, 300 * kUs, 1);
        QCOMPARE(slices.size(), size_t(3));
        auto gaps = idleGaps(slices, 30 * kUs, 160 * kUs, 10 * kUs);
        QCOMPARE(gaps.size(), size_t(2));
        QCOMPARE(gaps[0].startNs, 50 * kUs);
        QCOMPARE(gaps[0].endNs, 70 * kUs);
        QCOMPARE(gaps[1].startNs, 75 * kUs);
        QCOMPARE(gaps[1].endNs, 150 * kUs);
        QCOMPARE(idleGaps(slices, 30 * kUs, 160 * kUs, 30 * kUs).size(), size_t(1));
        // Clipped to the window.
        gaps = idleGaps(slices, 60 * kUs, 100 * kUs, 10 * kUs);
        QCOMPARE(gaps.size(), size_t(2));
        QCOMPARE(gaps[0].startNs, 60 * kUs);
        QCOMPARE(gaps[0].endNs, 70 * kUs);
        QCOMPARE(gaps[1].startNs, 75 * kUs);
        QCOMPARE(gaps[1].endNs, 100 * kUs);
    }

    void idleGapsPure()
    {
        // Overlapping ops (drawn one level below) and folded runs are work too.
        const std::vector<DrawSlice> s
            = { { 0, 10, 0, 1, 1 }, { 40, 50, 0, 1, 1 }, { 100, 200, 0, 1, 7 }, { 45, 80, 1, 1, 1 } };
        auto gaps = idleGaps(s, 0, 200, 5);
        QCOMPARE(gaps.size(), size_t(2));
        QCOMPARE(gaps[0].startNs, Q_INT64_C(10));
        QCOMPARE(gaps[0].endNs, Q_INT64_C(40));
        QCOMPARE(gaps[1].startNs, Q_INT64_C(80));
        QCOMPARE(gaps[1].endNs, Q_INT64_C(100));
        QCOMPARE(idleGaps(s, 0, 200, 21).size(), size_t(1));
        QCOMPARE(idleGaps(s, 0, 200, 31).size(), size_t(0));
        QCOMPARE(idleGaps({}, 0, 100, 10).size(), size_t(1));
        QCOMPARE(idleGaps(s, 50, 50, 0).size(), size_t(0));
        gaps = idleGaps(s, 0, 200, 0);
        QCOMPARE(gaps.size(), size_t(2));
    }

    void namesOfIds()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const int64_t id = ws.db().queryInt("SELECT id FROM string WHERE str = 'gemm'");
        const auto names = namesOf(ws, { id, id, 1 << 30 });
        QCOMPARE(names.size(), 1);
        QCOMPARE(names.value(id), QStringLiteral("gemm"));
    }

    // A Python stack: one root slice spans the whole thread, so looking back from a time inside it
    // would read every slice before; the walk takes the LOD tile's carry-out instead. Checked against
    // SQL at random times and for ranges near the end.
    void deepStackAgainstSql()
    {
        QByteArray json
            = "{\"traceEvents\": [\n"
              "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"root\",\"pid\":1,\"tid\":1,\"ts\":0,"
              "\"dur\":60000}";
        for (int i = 0; i < 5000; ++i) {
            json += QStringLiteral(
                ",\n{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"child%1\",\"pid\":1,"
                "\"tid\":1,\"ts\":%2,\"dur\":6}")
                        .arg(i % 7)
                        .arg(1 + 10 * i)
                        .toUtf8();
            json
                += QStringLiteral(",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"leaf\",\"pid\":1,\"tid\":1,"
                                  "\"ts\":%1,\"dur\":2.5}")
                       .arg(2 + 10 * i)
                       .toUtf8();
            if (i % 7 == 0)
                json += QStringLiteral(
                    ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"tick\",\"pid\":1,\"tid\":1,\"ts\":%1}")
                            .arg(8 + 10 * i)
                            .toUtf8();
        }
        json += "\n]}\n";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deep.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        const QString wsPath = dir.filePath(QStringLiteral("deep.plumb"));
        QVERIFY(importFile(path, wsPath));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const QList<TimelineTrack> tracks = timelineTracks(ws, 1);
        QCOMPARE(tracks.size(), 1);
        const TimelineTrack &t = tracks.front();
        QVERIFY(ws.db().queryInt("SELECT count(*) FROM slice_lod") > 0);

        SqliteStmt deepest(ws.db(),
            "SELECT ts, depth, dur FROM slice WHERE track_id = ?1 AND ts <= ?2 "
            "AND (ts + dur > ?2 OR (dur = 0 AND ts = ?2)) AND depth <= ?3 "
            "ORDER BY depth DESC, dur = 0 DESC LIMIT 1");
        QRandomGenerator rng(5);
        for (int i = 0; i < 400; ++i) {
            const int64_t time = i < 10
                ? 50000 * kUs - 1000 * i
                : int64_t(rng.bounded(61000)) * kUs / 1000 * 1000 + int64_t(rng.bounded(3)) * 500;
            const int depth = i % 4 == 1 ? int(rng.bounded(3)) : -1;
            deepest.bind(1, t.id).bind(2, time).bind(3, depth < 0 ? INT_MAX : depth);
            const auto s = sliceAt(ws, t, time, depth);
            if (deepest.step()) {
                QVERIFY2(s, qPrintable(QStringLiteral("at %1: nothing").arg(time)));
                QCOMPARE(std::make_tuple(s->key.tsNs, int64_t(s->depth), s->durNs),
                    std::make_tuple(deepest.columnInt(0), deepest.columnInt(1), deepest.columnInt(2)));
                QCOMPARE(sliceByKey(ws, t, s->key)->name, s->name);
            } else {
                QVERIFY2(!s, qPrintable(QStringLiteral("at %1: %2").arg(time).arg(s ? s->name : QString())));
            }
            deepest.reset();
        }
        // Near the end, within a tolerance: the tick instant.
        const auto tick = sliceAt(ws, t, (8 + 10 * 4998) * kUs + 300, -1, 500);
        QVERIFY(tick);
        QCOMPARE(tick->name, QStringLiteral("tick"));
        QCOMPARE(tick->startNs, (8 + 10 * 4998) * kUs);

        for (int i = 0; i < 12; ++i) {
            const int64_t from = 45000 * kUs + int64_t(rng.bounded(15000)) * kUs + int64_t(rng.bounded(1000));
            const int64_t to = from + 1 + int64_t(rng.bounded(i < 6 ? 30 : 3000)) * kUs;
            const QString diff
                = differences(totalsOf(rangeAggregate(ws, tracks, from, to)), sqlTotals(ws, from, to));
            QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("[%1, %2):\n%3").arg(from).arg(to).arg(diff)));
        }
    }

    // Real PyTorch profiler traces: step markers against the ProfilerStep slices SQL finds, and the
    // aggregate of the whole trace and of a range cutting through it against SQL.
    void realTrace_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("steps");
        QTest::newRow("hta_trace_diff_control")
            << QStringLiteral("kineto/hta_trace_diff_control.json.gz") << 6;
        // ProfilerStep#6 sits 14 levels deep under Python frames; its GPU annotation copy is not a marker.
        QTest::newRow("tracelens_h100_qwen") << QStringLiteral("kineto/tracelens_h100_qwen.json.gz") << 1;
        // XPlane: two devices' "Steps" lines both hold step 0.
        QTest::newRow("tf_gpu_multi_worker") << QStringLiteral("xplane/tf_gpu_multi_worker.xplane.pb") << 1;
    }
    void realTrace()
    {
        QFETCH(QString, file);
        QFETCH(int, steps);
        const QString path = sharedTraces() + QLatin1Char('/') + file;
        if (!QFile::exists(path))
            QSKIP(qPrintable(
                QStringLiteral("%1 is absent (the shared data sits beside the checkout)").arg(path)));
        QTemporaryDir dir;
        const QString wsPath = dir.filePath(QStringLiteral("real.plumb"));
        QVERIFY(importFile(path, wsPath));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const QList<TimelineTrack> tracks = timelineTracks(ws, 1);

        const auto markers = stepMarkers(ws, tracks);
        QCOMPARE(int(markers.size()), steps);
        if (file.endsWith(QLatin1String(".json.gz"))) {
            QCOMPARE(int64_t(markers.size()),
                ws.db().queryInt(
                    "SELECT count(DISTINCT n.str) FROM slice s JOIN string n ON n.id = s.name_id "
                    "JOIN track k ON k.id = s.track_id JOIN process p ON p.id = k.process_id "
                    "WHERE n.str LIKE 'ProfilerStep#%' AND k.kind = 'thread' AND p.kind = 'cpu'"));
            for (size_t i = 0; i < markers.size(); ++i) {
                QVERIFY(markers[i].name.startsWith(QLatin1String("ProfilerStep#")));
                QVERIFY(markers[i].endNs > markers[i].startNs);
                if (i)
                    QVERIFY(markers[i].startNs >= markers[i - 1].endNs);
            }
        }

        const int64_t start = ws.db().queryInt("SELECT min(ts) FROM slice");
        const int64_t end = ws.db().queryInt("SELECT max(ts + dur) FROM slice");
        std::vector<std::pair<int64_t, int64_t>> ranges = { { start, end + 1 } };
        QRandomGenerator rng(7);
        for (int i = 0; i < 6; ++i) {
            const int64_t from = start + int64_t(rng.bounded(double(end - start)));
            ranges.emplace_back(from, from + 1 + int64_t(rng.bounded(double(end - start) / (i + 1))));
        }
        for (const auto &[from, to] : ranges) {
            const auto rows = rangeAggregate(ws, tracks, from, to);
            const QString diff = differences(totalsOf(rows), sqlTotals(ws, from, to));
            QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("[%1, %2):\n%3").arg(from).arg(to).arg(diff)));
        }
    }

    // sliceAt and search on a real trace against the plain SQL reading of their contracts, at random
    // times and exactly at slice starts and ends.
    void realTraceAgainstSql_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("hta_trace_diff_control") << QStringLiteral("kineto/hta_trace_diff_control.json.gz");
        QTest::newRow("hta_ns_resolution_rank0")
            << QStringLiteral("kineto/hta_ns_resolution_rank0.pt.trace.json.gz");
    }
    void realTraceAgainstSql()
    {
        QFETCH(QString, file);
        const QString path = sharedTraces() + QLatin1Char('/') + file;
        if (!QFile::exists(path))
            QSKIP(qPrintable(
                QStringLiteral("%1 is absent (the shared data sits beside the checkout)").arg(path)));
        QTemporaryDir dir;
        const QString wsPath = dir.filePath(QStringLiteral("real.plumb"));
        QVERIFY(importFile(path, wsPath));
        Workspace ws(wsPath, Workspace::Role::Reader);
        const QList<TimelineTrack> tracks = timelineTracks(ws, 1);
        QRandomGenerator rng(11);

        SqliteStmt deepest(ws.db(),
            "SELECT ts, depth, dur FROM slice WHERE track_id = ?1 AND ts <= ?2 "
            "AND (ts + dur > ?2 OR (dur = 0 AND ts = ?2)) AND depth <= ?3 "
            "ORDER BY depth DESC, dur = 0 DESC LIMIT 1");
        SqliteStmt sample(
            ws.db(), "SELECT ts, dur FROM slice WHERE track_id = ?1 ORDER BY ts LIMIT 1 OFFSET ?2");
        int checked = 0;
        for (const TimelineTrack &t : tracks) {
            if (t.sliceCount == 0)
                continue;
            for (int i = 0; i < 150; ++i) {
                sample.bind(1, t.id).bind(2, int64_t(rng.bounded(int(t.sliceCount))));
                QVERIFY(sample.step());
                const int64_t ts = sample.columnInt(0), dur = sample.columnInt(1);
                sample.reset();
                const int64_t times[]
                    = { ts, ts + dur, ts + dur - 1, ts + int64_t(rng.bounded(double(dur + 1))) };
                for (const int64_t time : times) {
                    const int depth = rng.bounded(3) == 0 ? int(rng.bounded(t.maxDepth + 1)) : -1;
                    deepest.bind(1, t.id).bind(2, time).bind(3, depth < 0 ? INT_MAX : depth);
                    const auto s = sliceAt(ws, t, time, depth);
                    if (deepest.step()) {
                        QVERIFY2(
                            s, qPrintable(QStringLiteral("track %1 at %2: nothing").arg(t.id).arg(time)));
                        QCOMPARE(std::make_tuple(s->key.tsNs, int64_t(s->depth), s->durNs),
                            std::make_tuple(
                                deepest.columnInt(0), deepest.columnInt(1), deepest.columnInt(2)));
                    } else {
                        QVERIFY2(!s,
                            qPrintable(QStringLiteral("track %1 at %2: %3")
                                           .arg(t.id)
                                           .arg(time)
                                           .arg(s ? s->name : QString())));
                    }
                    deepest.reset();
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 1000);

        QString trackIds;
        for (const TimelineTrack &t : tracks)
            trackIds += (trackIds.isEmpty() ? QString() : QStringLiteral(",")) + QString::number(t.id);
        const int64_t start = ws.db().queryInt("SELECT min(ts) FROM slice");
        const int64_t end = ws.db().queryInt("SELECT max(ts) FROM slice");
        for (const QString &pattern : { QStringLiteral("aten::mm"), QStringLiteral("nccl"),
                 QStringLiteral("ProfilerStep"), QStringLiteral("Memcpy") }) {
            const NameMatcher m = matchNames(ws, pattern, false);
            QString ids;
            for (const int64_t id : m.nameIds)
                ids += (ids.isEmpty() ? QString() : QStringLiteral(",")) + QString::number(id);
            const QString where = QStringLiteral("track_id IN (%1) AND name_id IN (%2)").arg(trackIds, ids);
            QCOMPARE(countMatches(ws, tracks, m),
                ws.db().queryInt(
                    QStringLiteral("SELECT count(*) FROM slice WHERE %1").arg(where).toStdString()));
            SqliteStmt next(ws.db(),
                QStringLiteral("SELECT min(ts) FROM slice WHERE %1 AND ts > ?1").arg(where).toStdString());
            SqliteStmt prev(ws.db(),
                QStringLiteral("SELECT max(ts) FROM slice WHERE %1 AND ts < ?1").arg(where).toStdString());
            for (int i = 0; i < 50; ++i) {
                const int64_t t = start - 1000 + int64_t(rng.bounded(double(end - start + 2000)));
                next.bind(1, t);
                prev.bind(1, t);
                QVERIFY(next.step() && prev.step());
                const auto n = findNext(ws, tracks, m, t);
                const auto p = findPrevious(ws, tracks, m, t);
                QCOMPARE(n ? std::optional<int64_t>(n->startNs) : std::nullopt,
                    next.columnIsNull(0) ? std::nullopt : std::optional<int64_t>(next.columnInt(0)));
                QCOMPARE(p ? std::optional<int64_t>(p->startNs) : std::nullopt,
                    prev.columnIsNull(0) ? std::nullopt : std::optional<int64_t>(prev.columnInt(0)));
                next.reset();
                prev.reset();
            }
        }

        // Every stored flow shows as a link at both of its ends.
        SqliteStmt flows(ws.db(),
            "SELECT src_track, src_ts, dst_track, dst_ts FROM flow "
            "WHERE src_track IS NOT NULL AND dst_track IS NOT NULL ORDER BY id LIMIT 300");
        auto trackOf = [&](int64_t id) -> const TimelineTrack & {
            for (const auto &t : tracks)
                if (t.id == id)
                    return t;
            qFatal("no track %lld", (long long)id);
        };
        int flowsChecked = 0;
        while (flows.step()) {
            const auto src = sliceAt(ws, trackOf(flows.columnInt(0)), flows.columnInt(1), -1);
            const auto dst = sliceAt(ws, trackOf(flows.columnInt(2)), flows.columnInt(3), -1);
            if (!src || !dst)
                continue; // an end outside any slice binds to nothing
            auto has = [](const std::vector<SliceLink> &links, const SliceKey &key, SliceLink::Kind kind) {
                return std::any_of(links.begin(), links.end(),
                    [&](const SliceLink &l) { return l.slice.key == key && l.kind == kind; });
            };
            QVERIFY(has(sliceLinks(ws, tracks, *src), dst->key, SliceLink::Kind::FlowTo)
                || has(sliceLinks(ws, tracks, *src), dst->key, SliceLink::Kind::Launches));
            QVERIFY(has(sliceLinks(ws, tracks, *dst), src->key, SliceLink::Kind::FlowFrom)
                || has(sliceLinks(ws, tracks, *dst), src->key, SliceLink::Kind::LaunchedBy));
            ++flowsChecked;
        }
        const int64_t paired = ws.db().queryInt(
            "SELECT count(*) FROM flow WHERE src_track IS NOT NULL AND dst_track IS NOT NULL");
        QVERIFY(flowsChecked >= std::min<int64_t>(paired, 300) / 2);
        // Kernels are launched by the runtime call with their correlation id.
        SqliteStmt kernel(ws.db(),
            "SELECT s.track_id, s.ts FROM slice s JOIN track k ON k.id = s.track_id "
            "WHERE k.kind = 'gpu_stream' AND s.corr IS NOT NULL ORDER BY s.ts LIMIT 50");
        while (kernel.step()) {
            const auto k = sliceAt(ws, trackOf(kernel.columnInt(0)), kernel.columnInt(1), -1);
            QVERIFY(k);
            const auto links = sliceLinks(ws, tracks, *k);
            QCOMPARE(links.size(), size_t(1));
            QCOMPARE(int(links[0].kind), int(SliceLink::Kind::LaunchedBy));
            QCOMPARE(links[0].slice.corr, k->corr);
        }
    }
};

QTEST_GUILESS_MAIN(TestTimelineQuery)
#include "tst_timelinequery.moc"
