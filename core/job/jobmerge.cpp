// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/jobmerge.h"

#include "analysis/doctorreport.h"
#include "analysis/rankcomparison.h"
#include "analysis/tracesummary.h"
#include "ingest/importerror.h"
#include "ingest/trace/tracerecord.h"
#include "job/collectivematch.h"
#include "job/shard.h"
#include "store/foreignsqlitedb.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <thread>

namespace plumb {

namespace {

using Stmt = ForeignSqliteDb::Stmt;

struct Shard {
    QString path;
    ShardInfo info;
};

// The job's string table: each name once.
class Strings {
public:
    explicit Strings(SqliteDb &db)
        : m_insert(db, "INSERT INTO string(id, str) VALUES (?, ?)")
    {
    }
    int64_t id(const QString &s)
    {
        auto it = m_ids.find(s);
        if (it != m_ids.end())
            return *it;
        const int64_t id = int64_t(m_ids.size()) + 1;
        m_insert.bind(1, id).bind(2, s).run();
        m_ids.insert(s, id);
        return id;
    }

private:
    SqliteStmt m_insert;
    QHash<QString, int64_t> m_ids;
};

// The attached shard's merged traces (temp.merge_trace), copied by SQLite, in the job's ids: each trace's
// source and its diagnostics, the trace and its devices, its summary row (its stored analyses stay in the
// shard: storedReport() reads them there), its step rows (but their launch-delay sketches) and its ops of
// the whole trace, their names mapped to the job's strings.
void copyShard(SqliteDb &db, int64_t runId, Strings &strings, SqliteStmt &mergeName)
{
    db.exec(
        "INSERT INTO source(id, path, name, size_bytes, mtime_ns, content_hash, format, importer_version, "
        "status, imported_at_ns, import_ms, event_count, skipped_count) SELECT m.source_id, s.path, "
        "s.name, s.size_bytes, s.mtime_ns, s.content_hash, s.format, s.importer_version, s.status, "
        "s.imported_at_ns, s.import_ms, s.event_count, s.skipped_count FROM temp.merge_trace m JOIN "
        "shard.source s ON s.id = m.shard_source");
    db.exec(
        "INSERT INTO diagnostic(source_id, severity, code, location, message, count) SELECT m.source_id, "
        "d.severity, d.code, d.location, d.message, d.count FROM temp.merge_trace m JOIN shard.diagnostic "
        "d ON d.source_id = m.shard_source ORDER BY m.source_id, d.id");
    {
        SqliteStmt trace(db,
            "INSERT INTO trace(id, run_id, source_id, format, name, rank, world_size, base_time_ns, "
            "start_ns, end_ns, event_count, slice_count, kernel_count, gpu_op_count, flow_count, "
            "corr_flow_count, counter_count, metadata, device_type) SELECT m.trace_id, ?, m.source_id, "
            "t.format, t.name, "
            "t.rank, t.world_size, t.base_time_ns, t.start_ns, t.end_ns, t.event_count, t.slice_count, "
            "t.kernel_count, t.gpu_op_count, t.flow_count, t.corr_flow_count, t.counter_count, t.metadata, "
            "t.device_type FROM temp.merge_trace m JOIN shard.trace t ON t.id = m.shard_trace");
        trace.bind(1, runId).run();
    }
    db.exec("INSERT INTO device(trace_id, device_index, name, properties) SELECT m.trace_id, d.device_index, "
            "d.name, d.properties FROM temp.merge_trace m JOIN shard.device d ON d.trace_id = m.shard_trace");
    db.exec("INSERT INTO trace_summary(trace_id, version, mode, steps, report) SELECT m.trace_id, s.version, "
            "s.mode, s.steps, x'' FROM temp.merge_trace m JOIN shard.trace_summary s ON s.trace_id = "
            "m.shard_trace");
    db.exec("INSERT INTO step_summary(trace_id, step, name, start_ns, end_ns, gpu_ops, gpu_start_ns, "
            "gpu_end_ns, compute_ns, comm_ns, memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns, "
            "st_compute_ns, st_exposed_comm_ns, st_exposed_memory_ns, st_input_pipeline_ns, "
            "st_synchronization_ns, st_runtime_ns, st_other_cpu_ns, st_idle_ns, launched_ops, "
            "launch_delay_sketch) SELECT m.trace_id, s.step, s.name, s.start_ns, s.end_ns, s.gpu_ops, "
            "s.gpu_start_ns, s.gpu_end_ns, s.compute_ns, s.comm_ns, s.memory_ns, s.exposed_comm_ns, "
            "s.exposed_memory_ns, s.busy_ns, s.st_compute_ns, s.st_exposed_comm_ns, s.st_exposed_memory_ns, "
            "s.st_input_pipeline_ns, s.st_synchronization_ns, s.st_runtime_ns, s.st_other_cpu_ns, "
            "s.st_idle_ns, s.launched_ops, NULL FROM temp.merge_trace m JOIN shard.step_summary s ON "
            "s.trace_id = m.shard_trace");
    db.exec("DELETE FROM temp.merge_name");
    {
        SqliteStmt names(db,
            "SELECT DISTINCT n.id, n.str FROM temp.merge_trace m JOIN shard.op_summary o ON o.trace_id = "
            "m.shard_trace AND o.step = -1 JOIN shard.string n ON n.id = o.name_id");
        while (names.step())
            mergeName.bind(1, names.columnInt(0)).bind(2, strings.id(names.columnText(1))).run();
    }
    db.exec("INSERT INTO op_summary(trace_id, step, name_id, kind, count, total_ns, min_ns, max_ns, sketch) "
            "SELECT m.trace_id, -1, n.name_id, o.kind, o.count, o.total_ns, o.min_ns, o.max_ns, o.sketch "
            "FROM temp.merge_trace m JOIN shard.op_summary o ON o.trace_id = m.shard_trace AND o.step = -1 "
            "JOIN temp.merge_name n ON n.shard_name = o.name_id");
    db.exec("DELETE FROM temp.merge_trace");
}

// The collective calls of a shard's merged traces (shard trace id -> rank) to `matcher`, a rank at a time,
// read on a connection of their own (a thread beside the copy of the next shard's rows).
void matchShardCalls(
    const QString &path, const std::map<int64_t, int64_t> &rankOf, CollectiveMatcher &matcher)
{
    // A rank's calls at a time (the table holds each trace's rows together); those matched by their order
    // (no process group) sorted here by seq: SQLite sorting every shard's calls took a third of a merge.
    struct Call {
        int key;
        const QString *collective; // in `keys`, whose nodes stay put
        int64_t seq, step, durNs;
    };
    std::vector<Call> inOrder;
    std::map<std::pair<std::string, std::string>, std::pair<int, QString>> keys; // names -> key, collective
    std::string group, name; // the last call's names, as SQLite has them
    const std::pair<int, QString> *key = nullptr;
    int64_t rank = -1;
    const auto endRank = [&] {
        std::sort(inOrder.begin(), inOrder.end(),
            [](const Call &a, const Call &b) { return std::tie(a.key, a.seq) < std::tie(b.key, b.seq); });
        for (const Call &c : inOrder)
            matcher.add(rank, c.key, *c.collective, c.seq, c.step, c.durNs);
        matcher.endRank();
        inOrder.clear();
    };
    ForeignSqliteDb in(path);
    Stmt calls(in,
        "SELECT trace_id, coalesce(process_group, ''), collective, seq, step, end_ns - start_ns FROM "
        "collective_call",
        "collective_call");
    int64_t trace = -1;
    bool taken = false;
    while (calls.step()) {
        if (calls.integer(0) != trace) {
            trace = calls.integer(0);
            const auto r = rankOf.find(trace);
            taken = r != rankOf.end();
            if (!taken)
                continue; // a trace the job left out
            if (rank >= 0)
                endRank();
            rank = r->second;
        }
        if (!taken)
            continue;
        if (!key || calls.text(1) != group || calls.text(2) != name) {
            group = calls.text(1);
            name = calls.text(2);
            auto it = keys.find({ group, name });
            if (it == keys.end()) {
                const QString collective = QString::fromStdString(name);
                it = keys.emplace(std::pair { group, name },
                             std::pair { matcher.key(QString::fromStdString(group), collective), collective })
                         .first;
            }
            key = &it->second;
        }
        if (matcher.byOrder(key->first))
            inOrder.push_back(
                { key->first, &key->second, calls.integer(3), calls.integer(4), calls.integer(5) });
        else
            matcher.add(rank, key->first, key->second, calls.integer(3), calls.integer(4), calls.integer(5));
    }
    if (rank >= 0)
        endRank();
}

// Each merged rank's verdict with its run weighed in, as doctorReport() gives it, from its stored
// analyses: finishReport()'s verdict alone (each step's verdict and the evidence of step time and FLOPs,
// which the job does not keep, took most of a 1,000-rank merge, and a copy of the run's comparison, a row
// per rank, for every rank grows with the square of the ranks). The reports are decoded on every core, a
// batch of ranks at a time (decoding is most of what is left: a rank's report holds its every step); the rest
// runs here, in rank order.
struct RankVerdict {
    int64_t rank = -1;
    Verdict::Component component = Verdict::Component::Inconclusive;
    QString headline;
};
// A merged rank: its trace here, and where its stored analyses and events are.
struct MergedRank {
    int64_t rank = -1;
    int64_t traceId = 0;
    QString shard;
    int64_t shardTraceId = 0;
};

std::vector<RankVerdict> rankVerdicts(
    Workspace &ws, const std::vector<MergedRank> &merged, const RankComparison &ranks)
{
    std::vector<RankVerdict> out;
    out.reserve(merged.size());
    // The stored analyses stay in the shards (the job keeps the verdicts): read there, a shard at a time.
    std::unique_ptr<ForeignSqliteDb> shard;
    std::unique_ptr<Stmt> read;
    QString shardPath;
    const size_t workers = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
    constexpr size_t kBatch = 64;
    std::vector<std::pair<int64_t, int64_t>> batch; // rank, trace id
    std::vector<QByteArray> blobs;
    std::vector<std::optional<DoctorReport>> reports;
    auto flush = [&] {
        reports.assign(batch.size(), std::nullopt);
        const auto decode = [&](size_t from, size_t step) {
            for (size_t i = from; i < blobs.size(); i += step)
                if (!blobs[i].isNull())
                    reports[i] = decodeVerdictInputs(blobs[i]);
        };
        std::vector<std::future<void>> helpers;
        for (size_t w = 1; w < workers; ++w)
            helpers.push_back(std::async(std::launch::async, decode, w, workers));
        decode(0, workers);
        for (std::future<void> &f : helpers)
            f.get();
        for (size_t i = 0; i < batch.size(); ++i) {
            const auto [rank, traceId] = batch[i];
            std::optional<DoctorReport> &r = reports[i];
            Verdict v;
            if (!r) {
                v = doctorReport(ws, traceId, GpuOpMode::EveryOp, &ranks).verdict;
            } else {
                finishReport(ws, traceId, ranks, *r, true);
                v = std::move(r->verdict);
            }
            out.push_back({ rank, v.component, v.headline });
        }
        batch.clear();
        blobs.clear();
    };
    for (const MergedRank &m : merged) {
        if (m.shard != shardPath) {
            read.reset();
            shard = std::make_unique<ForeignSqliteDb>(m.shard);
            read = std::make_unique<Stmt>(*shard,
                "SELECT report FROM trace_summary WHERE trace_id = ? AND version = "
                    + std::to_string(kTraceSummaryVersion) + " AND mode = 'every'",
                "trace_summary");
            shardPath = m.shard;
        }
        read->bind(1, m.shardTraceId);
        QByteArray blob;
        if (read->step()) {
            const std::string_view b = read->text(0);
            blob = QByteArray(b.data(), qsizetype(b.size()));
        }
        read->reset();
        batch.emplace_back(m.rank, m.traceId);
        blobs.push_back(std::move(blob));
        if (batch.size() == kBatch)
            flush();
    }
    flush();
    return out;
}

} // namespace

JobMerge mergeShards(const QString &shardDir, const QString &outPath)
{
    JobMerge m;
    m.output = QFileInfo(outPath).absoluteFilePath();
    const QDir dir(shardDir);
    if (!dir.exists())
        throw JobMergeError(QStringLiteral("there is no folder %1").arg(shardDir).toStdString());
    const QFileInfoList entries
        = dir.entryInfoList({ QStringLiteral("*.plumb") }, QDir::Files | QDir::Readable, QDir::Name);
    if (entries.isEmpty())
        throw JobMergeError(QStringLiteral("%1 holds no shards (*.plumb): `plumb import JOBDIR --shard I/N "
                                           "--workspace %1/shard-I.plumb` writes them")
                                .arg(shardDir)
                                .toStdString());

    // The shards, checked to be of one job.
    std::vector<Shard> shards;
    std::set<int> seenIndexes;
    for (const QFileInfo &e : entries) {
        Shard s;
        s.path = e.absoluteFilePath();
        try {
            ForeignSqliteDb db(s.path); // one shard open at a time: a job may have thousands
            Stmt st(db, "SELECT value FROM workspace_info WHERE key = 'shard'", "workspace_info");
            std::optional<ShardInfo> info = st.step()
                ? parseShardInfo(QByteArray(st.text(0).data(), qsizetype(st.text(0).size())))
                : std::nullopt;
            if (!info) {
                m.warnings << QStringLiteral(
                    "%1 is not a shard (a workspace imported without --shard): left out")
                                  .arg(s.path);
                continue;
            }
            s.info = std::move(*info);
        } catch (const ImportError &err) {
            m.warnings
                << QStringLiteral("%1 cannot be read (%2): its ranks are missing").arg(s.path, err.message());
            continue;
        }
        if (s.info.schema != Workspace::currentSchemaVersion())
            throw JobMergeError(QStringLiteral("%1 was written by a Plumb of workspace schema %2, this one "
                                               "writes %3: import that shard again with this Plumb")
                                    .arg(s.path)
                                    .arg(s.info.schema)
                                    .arg(Workspace::currentSchemaVersion())
                                    .toStdString());
        if (!shards.empty()
            && (s.info.job != shards.front().info.job || s.info.spec.count != shards.front().info.spec.count))
            throw JobMergeError(
                QStringLiteral("%1 is a shard of another job (%2, in %3 shards); %4 is of %5, in "
                               "%6 shards: merge the shards of one job at a time")
                    .arg(s.path, QString(s.info.job).replace(u'\n', u' '))
                    .arg(s.info.spec.count)
                    .arg(shards.front().path, QString(shards.front().info.job).replace(u'\n', u' '))
                    .arg(shards.front().info.spec.count)
                    .toStdString());
        if (!seenIndexes.insert(s.info.spec.index).second) {
            m.warnings << QStringLiteral(
                "%1 is shard %2 again: left out (the first file of that shard is merged)")
                              .arg(s.path)
                              .arg(s.info.spec.index);
            continue;
        }
        shards.push_back(std::move(s));
    }
    if (shards.empty())
        throw JobMergeError(
            QStringLiteral("no shard in %1 could be read (see above)").arg(shardDir).toStdString());
    m.shards = int(shards.size());
    m.shardCount = shards.front().info.spec.count;
    for (int i = 0; i < m.shardCount; ++i)
        if (!seenIndexes.count(i))
            m.missingShards.push_back(i);

    // The job workspace, built under a temporary name beside its own.
    const QFileInfo out(m.output);
    if (!QDir().mkpath(out.absolutePath()))
        throw JobMergeError(
            QStringLiteral("cannot make the folder %1").arg(out.absolutePath()).toStdString());
    const QString partial = out.absolutePath() + QStringLiteral("/.") + out.fileName()
        + QStringLiteral(".partial-%1").arg(QCoreApplication::applicationPid());
    QFile::remove(partial);
    std::map<int64_t, int64_t> traceOfRank; // merged ranks: the job's trace id
    std::vector<MergedRank> merged; // in shard order
    std::map<int64_t, QString> failedFiles;
    try {
        Workspace job(partial, Workspace::Role::Builder);
        SqliteDb &db = job.db();
        // The job's rows arrive shard by shard, so each rank's land between ranks already written: with
        // SQLite's default 2 MB of page cache, every rank's step rows cost pages read back and spilled.
        db.exec("PRAGMA cache_size = -131072"); // KiB: 128 MiB
        // Which of the attached shard's traces and names are merged, and their ids here: SQLite copies
        // a shard's step and op rows itself (a statement each), through these.
        db.exec("CREATE TEMP TABLE merge_trace(shard_trace INTEGER PRIMARY KEY, trace_id INTEGER NOT NULL, "
                "shard_source INTEGER NOT NULL, source_id INTEGER NOT NULL)");
        db.exec("CREATE TEMP TABLE merge_name(shard_name INTEGER PRIMARY KEY, name_id INTEGER NOT NULL)");
        Strings strings(db);
        CollectiveMatcher matcher;
        int64_t runId = 0, nextSource = 1;
        SqliteStmt addRank(db,
            "INSERT INTO job_rank(rank, status, trace_id, trace_path, shard_path, shard_trace_id, message) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)");
        SqliteStmt attach(db, "ATTACH ? AS shard");
        SqliteStmt mergeTrace(db,
            "INSERT INTO temp.merge_trace(shard_trace, trace_id, shard_source, source_id) "
            "VALUES (?, ?, ?, ?)");
        SqliteStmt mergeName(db, "INSERT INTO temp.merge_name(shard_name, name_id) VALUES (?, ?)");
        std::map<int64_t, int64_t> rankOf; // the shard's merged traces: shard trace id -> rank
        // A shard's ranks into the job, in a transaction: the traces taken (a rank once, of one job), then
        // their rows copied by SQLite.
        const auto mergeShard = [&](const Shard &s) {
            attach.bind(1, std::string_view(ForeignSqliteDb::immutableUri(s.path))).run();
            SqliteTransaction tx(db);
            {
                SqliteStmt traces(db,
                    "SELECT t.id, coalesce(t.rank, -1), coalesce(t.world_size, -1), r.key, r.name, "
                    "src.path, t.source_id FROM shard.trace t JOIN shard.run r ON r.id = t.run_id JOIN "
                    "shard.source src ON src.id = t.source_id WHERE EXISTS (SELECT 1 FROM "
                    "shard.trace_summary ts WHERE ts.trace_id = t.id AND ts.version = "
                        + std::to_string(kTraceSummaryVersion) + ") ORDER BY coalesce(t.rank, -1), src.path");
                while (traces.step()) {
                    const int64_t shardTrace = traces.columnInt(0), rank = traces.columnInt(1),
                                  world = traces.columnInt(2);
                    const QString path = traces.columnText(5);
                    if (rank < 0) {
                        m.warnings << QStringLiteral("%1 (in %2) says no rank: not part of the job")
                                          .arg(path, s.path);
                        continue;
                    }
                    if (traceOfRank.count(rank)) {
                        m.warnings << QStringLiteral(
                            "rank %1 again in %2 (in %3): left out, the job keeps the first")
                                          .arg(rank)
                                          .arg(path, s.path);
                        continue;
                    }
                    if (world >= 0) {
                        if (m.worldSize >= 0 && world != m.worldSize)
                            throw JobMergeError(
                                QStringLiteral("%1 (rank %2, in %3) is of a job of %4 ranks; the "
                                               "others are of %5: shards of another job")
                                    .arg(path)
                                    .arg(rank)
                                    .arg(s.path)
                                    .arg(world)
                                    .arg(m.worldSize)
                                    .toStdString());
                        m.worldSize = world;
                    }
                    if (runId == 0)
                        runId = findOrAddRun(db, traces.columnText(3), traces.columnText(4),
                            int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000);
                    // Trace ids in rank order, whatever shard each rank came from.
                    const int64_t traceId = rank + 1;
                    mergeTrace.bind(1, shardTrace).bind(2, traceId).bind(3, traces.columnInt(6));
                    mergeTrace.bind(4, nextSource++).run();
                    addRank.bind(1, rank).bind(2, QStringLiteral("merged")).bind(3, traceId).bind(4, path);
                    addRank.bind(5, s.path).bind(6, shardTrace).bindNull(7).run();
                    traceOfRank[rank] = traceId;
                    merged.push_back({ rank, traceId, s.path, shardTrace });
                    rankOf[shardTrace] = rank;
                }
            }
            copyShard(db, runId, strings, mergeName);
            tx.commit();
            db.exec("DETACH shard");
        };
        // The collectives of the shard before, matched on a thread while this one is copied.
        std::future<void> matching;
        QString matchingPath;
        const auto matched = [&] {
            if (!matching.valid())
                return;
            try {
                matching.get();
            } catch (const ImportError &e) {
                throw JobMergeError(QStringLiteral("%1 cannot be merged (%2): import that shard again")
                                        .arg(matchingPath, e.message())
                                        .toStdString());
            }
        };
        for (const Shard &s : shards) {
            rankOf.clear();
            try {
                mergeShard(s);
            } catch (const SqlError &e) {
                matching.wait();
                throw JobMergeError(QStringLiteral("%1 cannot be merged (%2): import that shard again")
                                        .arg(s.path, e.message())
                                        .toStdString());
            }
            matched();
            matchingPath = s.path;
            matching = std::async(std::launch::async,
                [&matcher, path = s.path, ranks = rankOf] { matchShardCalls(path, ranks, matcher); });
            for (const ShardInfo::File &f : s.info.files)
                if (f.status == statusName(FileImportResult::Status::Failed)
                    || f.status == statusName(FileImportResult::Status::Cancelled)
                    || f.status == statusName(FileImportResult::Status::Unrecognised)) {
                    m.warnings << QStringLiteral("%1 (shard %2) failed to import: %3")
                                      .arg(f.path)
                                      .arg(s.info.spec.index)
                                      .arg(f.message);
                    if (f.rank >= 0 && !traceOfRank.count(f.rank) && !failedFiles.count(f.rank))
                        failedFiles[f.rank] = f.path + QStringLiteral(": ") + f.message;
                }
        }

        matched();
        SqliteTransaction tx(db);
        // Every rank the job should have: 0 .. world size - 1, else those the shards name.
        std::set<int64_t> expected;
        for (const auto &[rank, id] : traceOfRank)
            expected.insert(rank);
        for (const auto &[rank, why] : failedFiles)
            expected.insert(rank);
        for (int64_t r = 0; r < m.worldSize; ++r)
            expected.insert(r);
        QString missingWhy = QStringLiteral("no shard read has it");
        if (!m.missingShards.empty()) {
            QStringList idx;
            for (int i : m.missingShards)
                idx << QString::number(i);
            missingWhy += QStringLiteral(" (missing shards: %1 of %2)")
                              .arg(idx.join(QStringLiteral(", ")))
                              .arg(m.shardCount);
        }
        for (int64_t r : expected) {
            if (traceOfRank.count(r))
                continue;
            const auto f = failedFiles.find(r);
            if (f != failedFiles.end())
                m.failed.push_back(r);
            else
                m.missing.push_back(r);
            addRank.bind(1, r).bind(
                2, f != failedFiles.end() ? QStringLiteral("failed") : QStringLiteral("missing"));
            addRank.bindNull(3).bindNull(4).bindNull(5).bindNull(6);
            addRank.bind(7, f != failedFiles.end() ? f->second : missingWhy).run();
        }
        m.merged = int64_t(traceOfRank.size());

        SqliteStmt addCollective(db,
            "INSERT INTO job_collective(match_key, seq, collective, step, ranks, last_rank, wait_ns, "
            "max_wait_ns) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        for (const MatchedCollective &c : matcher.matched()) {
            addCollective.bind(1, c.matchKey).bind(2, c.seq).bind(3, c.collective).bind(4, c.step);
            addCollective.bind(5, c.ranks).bind(6, c.lastRank).bind(7, c.waitNs).bind(8, c.maxWaitNs).run();
        }
        tx.commit();

        // Each rank's verdict with its run weighed in (a straggler moves the others' waiting to it).
        if (runId != 0) {
            std::vector<RankVerdict> verdicts;
            {
                const SqliteReadTransaction snapshot(db);
                m.comparison = compareRanks(job, runId, GpuOpMode::EveryOp);
                verdicts = rankVerdicts(job, merged, m.comparison);
            }
            SqliteTransaction vtx(db);
            SqliteStmt setVerdict(db, "UPDATE job_rank SET verdict = ?, headline = ? WHERE rank = ?");
            for (const RankVerdict &v : verdicts)
                setVerdict.bind(1, componentName(v.component)).bind(2, v.headline).bind(3, v.rank).run();
            vtx.commit();
        }
        {
            QJsonArray missing, failed, missingShards;
            for (int64_t r : m.missing)
                missing.append(qint64(r));
            for (int64_t r : m.failed)
                failed.append(qint64(r));
            for (int i : m.missingShards)
                missingShards.append(i);
            const QJsonObject info { { QStringLiteral("job"), shards.front().info.job },
                { QStringLiteral("shards"), m.shardCount }, { QStringLiteral("shards_read"), m.shards },
                { QStringLiteral("world_size"), qint64(m.worldSize) },
                { QStringLiteral("merged"), qint64(m.merged) }, { QStringLiteral("missing"), missing },
                { QStringLiteral("failed"), failed }, { QStringLiteral("missing_shards"), missingShards },
                { QStringLiteral("warnings"), QJsonArray::fromStringList(m.warnings) } };
            SqliteStmt put(db, "INSERT OR REPLACE INTO workspace_info(key, value) VALUES ('job', ?)");
            put.bind(1, QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact))).run();
        }
        db.exec("PRAGMA journal_mode = DELETE");
    } catch (...) {
        QFile::remove(partial); // nothing is left of a merge that did not finish
        throw;
    }
    if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(m.output).constData()) != 0) {
        QFile::remove(partial);
        throw JobMergeError(QStringLiteral("cannot rename %1 to %2").arg(partial, m.output).toStdString());
    }
    return m;
}

} // namespace plumb
