// SPDX-License-Identifier: GPL-3.0-or-later
// The sharded import and the job merge (issue 36): the shard arithmetic, and a generated 32-rank job
// (rankjobgen: rank 5 the straggler, rank 9 input-bound) imported in 4 shards and merged equals the
// same job imported in one process, rank for rank; a corrupt rank, duplicate ranks, a missing shard
// and shards of another job.

#include "analysis/doctorreport.h"
#include "analysis/tracesummary.h"
#include "builtinimporters.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "job/collectivematch.h"
#include "job/jobmerge.h"
#include "job/jobview.h"
#include "job/shard.h"
#include "rankjobgen.h"
#include "store/workspace.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

// The job's folder, generated once per test function that needs it.
QString writeJob(const QString &dir, int ranks = 32)
{
    bench::RankJobOptions o;
    o.ranks = ranks;
    std::string error;
    if (!bench::writeRankJob(dir.toStdString(), o, &error))
        qWarning("%s", error.c_str());
    return dir;
}

std::vector<FileImportResult> importShards(
    const QString &job, const QString &shardDir, int count, const std::vector<int> &only = {})
{
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    std::vector<FileImportResult> all;
    for (int i = 0; i < count; ++i) {
        if (!only.empty() && std::find(only.begin(), only.end(), i) == only.end())
            continue;
        const ShardImport s = importShard(
            registry, { job }, ShardSpec { i, count }, shardDir + QStringLiteral("/shard-%1.plumb").arg(i));
        all.insert(all.end(), s.results.begin(), s.results.end());
    }
    return all;
}

std::map<int64_t, int64_t> traceOfRank(Workspace &ws)
{
    std::map<int64_t, int64_t> out;
    SqliteStmt st(ws.db(), "SELECT rank, id FROM trace WHERE rank IS NOT NULL");
    while (st.step())
        out[st.columnInt(0)] = st.columnInt(1);
    return out;
}

} // namespace

class TestJobMerge : public QObject {
    Q_OBJECT

private slots:
    // Calls matched by process group and seq, else by collective and order; the last to arrive is the
    // shortest kernel (ties to the lower rank), the others' wait their mean minus it.
    void collectiveMatching()
    {
        const QString pg = QStringLiteral("0 (default_pg)"), ar = QStringLiteral("allreduce"),
                      ag = QStringLiteral("allgather");
        CollectiveMatcher m;
        // rank, seq, step, duration, a rank at a time: rank 2 arrives last in seq 0, ranks 0 and 1 tie in
        // seq 1.
        const int64_t calls[][4] = { { 0, 0, 0, 900 }, { 0, 1, 1, 50 }, { 1, 0, 0, 700 }, { 1, 1, 1, 50 },
            { 2, 0, 0, 100 }, { 2, 1, 1, 350 } };
        int64_t rank = -1;
        for (const auto &c : calls) {
            if (rank >= 0 && c[0] != rank)
                m.endRank();
            rank = c[0];
            m.add(c[0], pg, ar, c[1], c[2], c[3]);
            // Without a process group: matched by order among each rank's allgathers, whatever the seq.
            m.add(c[0], QString(), ag, 100 + c[0], c[2], c[3] + 10);
        }
        m.endRank();
        const std::vector<MatchedCollective> out = m.matched();
        QCOMPARE(out.size(), size_t(4));
        QCOMPARE(out[0].matchKey, pg);
        QCOMPARE(out[0].seq, int64_t(0));
        QCOMPARE(out[0].lastRank, int64_t(2));
        QCOMPARE(out[0].ranks, int64_t(3));
        QCOMPARE(out[0].waitNs, int64_t((900 + 700) / 2 - 100));
        QCOMPARE(out[0].maxWaitNs, int64_t(800));
        QCOMPARE(out[1].seq, int64_t(1));
        QCOMPARE(out[1].lastRank, int64_t(0));
        QCOMPARE(out[1].step, int64_t(1));
        QCOMPARE(out[1].waitNs, int64_t((50 + 350) / 2 - 50));
        QCOMPARE(out[2].matchKey, QStringLiteral("op:allgather"));
        QCOMPARE(out[2].collective, ag);
        QCOMPARE(out[2].seq, int64_t(0));
        QCOMPARE(out[2].ranks, int64_t(3));
        QCOMPARE(out[2].lastRank, int64_t(2));
        QCOMPARE(out[3].seq, int64_t(1));
        QCOMPARE(out[3].lastRank, int64_t(0));
    }

    void shardArithmetic()
    {
        QString error;
        QCOMPARE(parseShard(QStringLiteral("3/8"))->index, 3);
        QCOMPARE(parseShard(QStringLiteral("0/1"), &error)->count, 1);
        for (const char *bad : { "8/8", "1/0", "-1/4", "a/4", "3", "3/4/5", "" }) {
            QVERIFY2(!parseShard(QString::fromLatin1(bad), &error), bad);
            QVERIFY(error.contains(QLatin1String("--shard")));
        }
        QProcessEnvironment env;
        QVERIFY(!shardFromEnvironment(4, &error, env));
        QVERIFY(error.contains(QLatin1String("SLURM_ARRAY_TASK_ID")));
        env.insert(QStringLiteral("JOB_COMPLETION_INDEX"), QStringLiteral("2"));
        QCOMPARE(shardFromEnvironment(4, &error, env)->index, 2);
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("1")); // Slurm's wins
        QCOMPARE(shardFromEnvironment(4, &error, env)->index, 1);
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("4"));
        QVERIFY(!shardFromEnvironment(4, &error, env));
        QVERIFY(error.contains(QLatin1String("SLURM_ARRAY_TASK_ID=4")));
        QVERIFY(!shardFromEnvironment(0, &error, env));

        // Rank order: the rank inside the trace beats its name; files without one come last, by name.
        QTemporaryDir tmp;
        const QString d = tmp.path();
        QVERIFY(writeTestFile(d + QStringLiteral("/b.json"),
            "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 10, \"world_size\": 12}, "
            "\"traceEvents\": []}"));
        QVERIFY(writeTestFile(d + QStringLiteral("/rank-2.json"), "{\"traceEvents\": []}"));
        QVERIFY(writeTestFile(d + QStringLiteral("/rank_7_named_3.json"),
            "{\"distributedInfo\": {\"rank\": 3}, \"traceEvents\": []}"));
        QVERIFY(writeTestFile(d + QStringLiteral("/a-notes.txt"), "notes"));
        QVERIFY(writeTestFile(d + QStringLiteral("/z.json"), "{\"traceEvents\": []}"));
        const std::vector<RankFile> files = jobFiles({ d });
        QCOMPARE(files.size(), size_t(5));
        QStringList order;
        for (const RankFile &f : files)
            order << QStringLiteral("%1:%2").arg(QFileInfo(f.path).fileName()).arg(f.rank);
        QCOMPARE(order.join(u' '),
            QStringLiteral("rank-2.json:2 rank_7_named_3.json:3 b.json:10 a-notes.txt:-1 z.json:-1"));
        const std::vector<RankFile> second = shardFiles(files, { 1, 2 });
        QCOMPARE(second.size(), size_t(2));
        QCOMPARE(second[0].rank, int64_t(3));
        QCOMPARE(second[1].rank, int64_t(-1));
        QCOMPARE(shardFiles(files, { 0, 2 }).size() + second.size(), files.size());
    }

    // Four shards merged give every rank the figures and verdict of the one-process import.
    void shardedEqualsOneProcess()
    {
        QTemporaryDir tmp;
        const QString job = writeJob(tmp.filePath(QStringLiteral("job")));
        const QString single = tmp.filePath(QStringLiteral("single.plumb"));
        const QString problems = importIntoWorkspace(single, { job });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        const QString shards = tmp.filePath(QStringLiteral("shards"));
        for (const FileImportResult &r : importShards(job, shards, 4))
            QCOMPARE(r.status, FileImportResult::Status::Imported);
        const QString jobPath = tmp.filePath(QStringLiteral("job.plumb"));
        const JobMerge m = mergeShards(shards, jobPath);
        QVERIFY(m.complete());
        QCOMPARE(m.merged, int64_t(32));
        QCOMPARE(m.shards, 4);
        QCOMPARE(m.worldSize, int64_t(32));
        QVERIFY2(m.warnings.isEmpty(), qPrintable(m.warnings.join(u'\n')));
        QVERIFY(!QFileInfo::exists(jobPath + QStringLiteral("-wal"))); // one self-contained file

        Workspace one(single, Workspace::Role::Reader), merged(jobPath, Workspace::Role::Reader);
        const auto oneTraces = traceOfRank(one), mergedTraces = traceOfRank(merged);
        QCOMPARE(mergedTraces.size(), size_t(32));
        const JobView a = jobView(one), b = jobView(merged);
        QVERIFY(!a.merged);
        QVERIFY(b.merged);
        QCOMPARE(a.ranks.size(), b.ranks.size());
        QCOMPARE(b.comparison.straggler >= 0 ? b.comparison.ranks[size_t(b.comparison.straggler)].rank : -1,
            int64_t(5));
        QCOMPARE(b.straggler, int64_t(5)); // the collectives waited for it too
        QCOMPARE(a.straggler, b.straggler);
        QCOMPARE(a.stragglerWaitNs, b.stragglerWaitNs);
        QCOMPARE(a.verdict, b.verdict);
        QVERIFY2(b.verdict.contains(QLatin1String("straggler: rank 5")), qPrintable(b.verdict));
        QCOMPARE(a.stepNames.size(), size_t(8));
        for (size_t i = 0; i < a.ranks.size(); ++i) {
            const JobRank &x = a.ranks[i], &y = b.ranks[i];
            QCOMPARE(x.rank, y.rank);
            QCOMPARE(x.stepNs, y.stepNs);
            QCOMPARE(x.exposedCommNs, y.exposedCommNs);
            QCOMPARE(x.inputNs, y.inputNs);
            QCOMPARE(x.lastArrivals, y.lastArrivals);
            QCOMPARE(x.verdict, y.verdict);
            QCOMPARE(x.headline, y.headline);
            QCOMPARE(a.stepTime[i], b.stepTime[i]);
            // The whole report, its run weighed in, byte for byte, but for the streams' track ids (rows
            // of the workspace that holds the events: the shard's).
            DoctorReport ra = doctorReport(one, oneTraces.at(x.rank), GpuOpMode::EveryOp);
            DoctorReport rb = doctorReport(merged, mergedTraces.at(x.rank), GpuOpMode::EveryOp);
            for (DoctorReport *r : { &ra, &rb }) {
                for (StreamIdle &s : r->idle)
                    s.streamTrackId = s.stream;
                for (StreamQueue &q : r->launch.queues)
                    q.streamTrackId = 0;
            }
            QVERIFY2(encodeReport(ra) == encodeReport(rb), qPrintable(QString::number(x.rank)));
            QCOMPARE(ra.verdict.evidence, rb.verdict.evidence);
        }
        // Without the maps (plumb merge, plumb doctor --job): the same figures, summed by SQLite.
        for (Workspace *w : { &one, &merged }) {
            const JobView full = jobView(*w), totals = jobView(*w, 0, false);
            QVERIFY(totals.stepTime.empty());
            QCOMPARE(totals.stepNames, full.stepNames);
            QCOMPARE(totals.verdict, full.verdict);
            QCOMPARE(totals.straggler, full.straggler);
            for (size_t i = 0; i < full.ranks.size(); ++i) {
                QCOMPARE(totals.ranks[i].steps, full.ranks[i].steps);
                QCOMPARE(totals.ranks[i].stepNs, full.ranks[i].stepNs);
                QCOMPARE(totals.ranks[i].minStepNs, full.ranks[i].minStepNs);
                QCOMPARE(totals.ranks[i].maxStepNs, full.ranks[i].maxStepNs);
                QCOMPARE(totals.ranks[i].exposedCommNs, full.ranks[i].exposedCommNs);
                QCOMPARE(totals.ranks[i].inputNs, full.ranks[i].inputNs);
            }
        }
        QCOMPARE(b.ranks[9].verdict, QStringLiteral("input pipeline"));
        QCOMPARE(b.ranks[5].verdict, QStringLiteral("GPU compute"));
        // Where each rank's events are: its shard, read-only.
        QVERIFY(b.ranks[6].shardPath.endsWith(QLatin1String("shard-2.plumb")));
        Workspace shard(b.ranks[6].shardPath, Workspace::Role::Reader);
        SqliteStmt st(shard.db(), "SELECT rank, slice_count > 0 FROM trace WHERE id = ?");
        st.bind(1, b.ranks[6].shardTraceId);
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(6));
        QCOMPARE(st.columnInt(1), int64_t(1));
    }

    // A corrupt rank fails alone; a duplicate rank is left out with a warning; a shard not there makes
    // its ranks missing until it is redone and the merge runs again; another job's shard is refused.
    void failuresAndRerun()
    {
        QTemporaryDir tmp;
        const QString job = writeJob(tmp.filePath(QStringLiteral("job")), 8);
        // Rank 6's file: gzip whose stream is broken (a rank the import cannot read at all).
        QVERIFY(QFile::remove(job + QStringLiteral("/rank-6.json")));
        QVERIFY(writeTestFile(job + QStringLiteral("/rank-6.json.gz"),
            QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + QByteArray(300, '\x5a')));
        QFile::copy(job + QStringLiteral("/rank-3.json"), job + QStringLiteral("/rank-3-again.json"));
        // The copy differs by a byte, so that it is not the same file imported twice.
        QFile again(job + QStringLiteral("/rank-3-again.json"));
        QVERIFY(again.open(QIODevice::Append));
        again.write("\n");
        again.close();
        const QString shards = tmp.filePath(QStringLiteral("shards"));
        importShards(job, shards, 3, { 0, 2 }); // shard 1 not run yet
        const QString jobPath = tmp.filePath(QStringLiteral("job.plumb"));
        JobMerge m = mergeShards(shards, jobPath);
        QCOMPARE(m.missingShards, std::vector<int> { 1 });
        QVERIFY(!m.complete());
        // 9 files in rank order: 0 1 2 3 3' 4 5 6 7; shard 1 has places 1, 4, 7: ranks 1, 3', 6.
        QCOMPARE(m.missing, (std::vector<int64_t> { 1, 6 }));
        QVERIFY(m.failed.empty());

        importShards(job, shards, 3, { 1 });
        m = mergeShards(shards, jobPath);
        QCOMPARE(m.merged, int64_t(7));
        QCOMPARE(m.failed, std::vector<int64_t> { 6 });
        QVERIFY(m.missing.empty());
        QVERIFY(m.missingShards.empty());
        const QString warnings = m.warnings.join(u'\n');
        QVERIFY2(
            warnings.contains(QLatin1String("rank-6.json.gz")) && warnings.contains(QLatin1String("failed")),
            qPrintable(warnings));
        QVERIFY2(warnings.contains(QLatin1String("rank 3 again")), qPrintable(warnings));
        {
            Workspace ws(jobPath, Workspace::Role::Reader);
            SqliteStmt st(ws.db(), "SELECT status, message FROM job_rank WHERE rank = 6");
            QVERIFY(st.step());
            QCOMPARE(st.columnText(0), QStringLiteral("failed"));
            QVERIFY(st.columnText(1).contains(QLatin1String("rank-6.json.gz")));
            const JobView v = jobView(ws);
            QCOMPARE(v.ranks.size(), size_t(8));
            QCOMPARE(v.mergedRanks(), int64_t(7));
            QVERIFY2(v.verdict.contains(QLatin1String("1 of 8 ranks are missing")), qPrintable(v.verdict));
        }

        // A shard of another job in the folder: refused, and the job workspace stays as it was.
        const QString other = writeJob(tmp.filePath(QStringLiteral("other")), 4);
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        importShard(registry, { other }, { 0, 3 }, shards + QStringLiteral("/other-0.plumb"));
        const QByteArray before = [&] {
            QFile f(jobPath);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        try {
            (void)mergeShards(shards, jobPath);
            QFAIL("a shard of another job was merged");
        } catch (const JobMergeError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("another job")), e.what());
        }
        QFile after(jobPath);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
        QVERIFY(QDir(tmp.path())
                    .entryList({ QStringLiteral(".job.plumb.partial*") }, QDir::Hidden | QDir::Files)
                    .isEmpty());

        // A damaged shard (its pages past the first quarter zeroed): left out with its ranks missing, or the
        // merge refused naming it; never another error, never a half-written job left behind.
        QVERIFY(QFile::remove(shards + QStringLiteral("/other-0.plumb")));
        const QString damaged = shards + QStringLiteral("/shard-2.plumb");
        {
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::ReadWrite));
            const qint64 size = f.size();
            QVERIFY(f.seek(size / 4));
            QVERIFY(f.write(QByteArray(int(size - size / 4), '\0')) == size - size / 4);
        }
        try {
            const JobMerge d = mergeShards(shards, jobPath);
            QVERIFY(!d.complete());
            QVERIFY2(d.warnings.join(u'\n').contains(QLatin1String("shard-2.plumb")),
                qPrintable(d.warnings.join(u'\n')));
        } catch (const JobMergeError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("shard-2.plumb")), e.what());
        }
        QVERIFY(QDir(tmp.path())
                    .entryList({ QStringLiteral(".job.plumb.partial*") }, QDir::Hidden | QDir::Files)
                    .isEmpty());

        // An empty folder, and not a folder.
        QVERIFY_THROWS_EXCEPTION(
            JobMergeError, (void)mergeShards(tmp.filePath(QStringLiteral("job")), jobPath));
        QVERIFY_THROWS_EXCEPTION(
            JobMergeError, (void)mergeShards(tmp.filePath(QStringLiteral("none")), jobPath));
    }
};

QTEST_GUILESS_MAIN(TestJobMerge)
#include "tst_jobmerge.moc"
