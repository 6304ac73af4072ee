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

QString text(const Stmt &st, int col)
{
    const std::string_view v = st.text(col);
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

void bindValue(SqliteStmt &out, int index, const Stmt &in, int col)
{
    switch (in.type(col)) {
    case SQLITE_NULL:
        out.bindNull(index);
        break;
    case SQLITE_INTEGER:
        out.bind(index, in.integer(col));
        break;
    case SQLITE_FLOAT:
        out.bind(index, in.real(col));
        break;
    case SQLITE_BLOB:
        out.bindBlob(index, in.text(col).data(), in.text(col).size());
        break;
    default:
        out.bind(index, in.text(col));
        break;
    }
}

// Copies the rows `select` gives into `insert`: the `fixed` values to its first parameters, then column i
// of the one to the next parameter of the other.
int64_t copyRows(Stmt &select, SqliteStmt &insert, std::initializer_list<int64_t> fixed)
{
    int64_t n = 0;
    const int first = int(fixed.size());
    while (select.step()) {
        int i = 0;
        for (int64_t v : fixed)
            insert.bind(++i, v);
        for (int c = 0; c < select.columnCount(); ++c)
            bindValue(insert, first + c + 1, select, c);
        insert.run();
        ++n;
    }
    select.reset();
    return n;
}

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
                    reports[i] = decodeReport(blobs[i]);
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
    {
        Workspace job(partial, Workspace::Role::Builder);
        SqliteDb &db = job.db();
        // The job's rows arrive shard by shard, so each rank's land between ranks already written: with
        // SQLite's default 2 MB of page cache, every rank's step rows cost pages read back and spilled.
        db.exec("PRAGMA cache_size = -131072"); // KiB: 128 MiB
        SqliteTransaction tx(db);
        Strings strings(db);
        CollectiveMatcher matcher;
        int64_t runId = 0, nextSource = 1;
        SqliteStmt addSource(db,
            "INSERT INTO source(id, path, name, size_bytes, mtime_ns, content_hash, format, "
            "importer_version, "
            "status, imported_at_ns, import_ms, event_count, skipped_count) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SqliteStmt addDiagnostic(db,
            "INSERT INTO diagnostic(source_id, severity, code, location, message, count) VALUES (?, ?, ?, ?, "
            "?, ?)");
        SqliteStmt addTrace(db,
            "INSERT INTO trace(id, run_id, source_id, format, name, rank, world_size, base_time_ns, "
            "start_ns, "
            "end_ns, event_count, slice_count, kernel_count, gpu_op_count, flow_count, corr_flow_count, "
            "counter_count, metadata, device_type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?)");
        SqliteStmt addDevice(
            db, "INSERT INTO device(trace_id, device_index, name, properties) VALUES (?, ?, ?, ?)");
        SqliteStmt addSummary(
            db, "INSERT INTO trace_summary(trace_id, version, mode, steps, report) VALUES (?, ?, ?, ?, ?)");
        SqliteStmt addStep(db,
            "INSERT INTO step_summary(trace_id, step, name, start_ns, end_ns, gpu_ops, gpu_start_ns, "
            "gpu_end_ns, "
            "compute_ns, comm_ns, memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns, st_compute_ns, "
            "st_exposed_comm_ns, st_exposed_memory_ns, st_input_pipeline_ns, st_synchronization_ns, "
            "st_runtime_ns, st_other_cpu_ns, st_idle_ns, launched_ops, launch_delay_sketch) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SqliteStmt addOp(db,
            "INSERT INTO op_summary(trace_id, step, name_id, kind, count, total_ns, min_ns, max_ns, sketch) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SqliteStmt addRank(db,
            "INSERT INTO job_rank(rank, status, trace_id, trace_path, shard_path, shard_trace_id, message) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)");

        for (Shard &s : shards) {
            ForeignSqliteDb in(s.path);
            Stmt traces(in,
                "SELECT t.id, coalesce(t.rank, -1), coalesce(t.world_size, -1), r.key, r.name, src.path, "
                "t.source_id "
                "FROM trace t JOIN run r ON r.id = t.run_id JOIN source src ON src.id = t.source_id "
                "WHERE EXISTS (SELECT 1 FROM trace_summary ts WHERE ts.trace_id = t.id AND ts.version = "
                    + std::to_string(kTraceSummaryVersion) + ") ORDER BY coalesce(t.rank, -1), src.path",
                "trace");
            Stmt source(in,
                "SELECT path, name, size_bytes, mtime_ns, content_hash, format, importer_version, status, "
                "imported_at_ns, import_ms, event_count, skipped_count FROM source WHERE id = ?",
                "source");
            Stmt diagnostics(in,
                "SELECT severity, code, location, message, count FROM diagnostic WHERE source_id = ?",
                "diagnostic");
            Stmt trace(in,
                "SELECT format, name, rank, world_size, base_time_ns, start_ns, end_ns, event_count, "
                "slice_count, "
                "kernel_count, gpu_op_count, flow_count, corr_flow_count, counter_count, metadata, "
                "device_type "
                "FROM trace WHERE id = ?",
                "trace");
            Stmt devices(
                in, "SELECT device_index, name, properties FROM device WHERE trace_id = ?", "device");
            // The job keeps each rank's verdict; its stored analyses stay in its shard (storedReport() reads
            // them there), as does each step's launch-delay sketch.
            Stmt summary(in, "SELECT version, mode, steps, x'' FROM trace_summary WHERE trace_id = ?",
                "trace_summary");
            Stmt steps(in,
                "SELECT step, name, start_ns, end_ns, gpu_ops, gpu_start_ns, gpu_end_ns, compute_ns, "
                "comm_ns, "
                "memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns, st_compute_ns, st_exposed_comm_ns, "
                "st_exposed_memory_ns, st_input_pipeline_ns, st_synchronization_ns, st_runtime_ns, "
                "st_other_cpu_ns, st_idle_ns, launched_ops, NULL FROM step_summary WHERE "
                "trace_id "
                "= ? ORDER BY step",
                "step_summary");
            Stmt ops(in,
                "SELECT n.str, o.kind, o.count, o.total_ns, o.min_ns, o.max_ns, o.sketch FROM op_summary o "
                "JOIN string n ON n.id = o.name_id WHERE o.trace_id = ? AND o.step = -1",
                "op_summary");
            Stmt calls(in,
                "SELECT coalesce(process_group, ''), collective, seq, step, end_ns - start_ns FROM "
                "collective_call "
                "WHERE trace_id = ? ORDER BY coalesce(process_group, ''), seq",
                "collective_call");
            while (traces.step()) {
                const int64_t shardTrace = traces.integer(0), rank = traces.integer(1),
                              world = traces.integer(2);
                const QString path = text(traces, 5);
                if (rank < 0) {
                    m.warnings
                        << QStringLiteral("%1 (in %2) says no rank: not part of the job").arg(path, s.path);
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
                        throw JobMergeError(QStringLiteral("%1 (rank %2, in %3) is of a job of %4 ranks; the "
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
                    runId = findOrAddRun(db, text(traces, 3), text(traces, 4),
                        int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000);
                // Trace ids in rank order, whatever shard each rank came from.
                const int64_t sourceId = nextSource++, traceId = rank + 1;
                source.bind(1, traces.integer(6));
                copyRows(source, addSource, { sourceId });
                diagnostics.bind(1, traces.integer(6));
                copyRows(diagnostics, addDiagnostic, { sourceId });
                trace.bind(1, shardTrace);
                copyRows(trace, addTrace, { traceId, runId, sourceId });
                devices.bind(1, shardTrace);
                copyRows(devices, addDevice, { traceId });
                summary.bind(1, shardTrace);
                copyRows(summary, addSummary, { traceId });
                steps.bind(1, shardTrace);
                copyRows(steps, addStep, { traceId });
                ops.bind(1, shardTrace);
                while (ops.step()) {
                    addOp.bind(1, traceId).bind(2, int64_t(-1)).bind(3, strings.id(text(ops, 0)));
                    for (int c = 1; c < 7; ++c)
                        bindValue(addOp, c + 3, ops, c);
                    addOp.run();
                }
                ops.reset();
                calls.bind(1, shardTrace);
                while (calls.step())
                    matcher.add(rank, text(calls, 0), text(calls, 1), calls.integer(2), calls.integer(3),
                        calls.integer(4));
                calls.reset();
                matcher.endRank();
                addRank.bind(1, rank).bind(2, QStringLiteral("merged")).bind(3, traceId).bind(4, path);
                addRank.bind(5, s.path).bind(6, shardTrace).bindNull(7).run();
                traceOfRank[rank] = traceId;
                merged.push_back({ rank, traceId, s.path, shardTrace });
            }
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
                verdicts = rankVerdicts(job, merged, compareRanks(job, runId, GpuOpMode::EveryOp));
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
    }
    if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(m.output).constData()) != 0) {
        QFile::remove(partial);
        throw JobMergeError(QStringLiteral("cannot rename %1 to %2").arg(partial, m.output).toStdString());
    }
    return m;
}

} // namespace plumb
