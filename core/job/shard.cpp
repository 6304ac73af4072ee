// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/shard.h"

#include "ingest/importerregistry.h"
#include "ingest/trace/tracerecord.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace plumb {

std::optional<ShardSpec> parseShard(const QString &text, QString *error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,9})/([0-9]{1,9})$"));
    const auto m = form.match(text.trimmed());
    if (!m.hasMatch()) {
        *error = QStringLiteral("--shard %1: expected I/N (this task's index from 0, and the number of "
                                "tasks), or auto with --shards N")
                     .arg(text);
        return std::nullopt;
    }
    const ShardSpec s { m.captured(1).toInt(), m.captured(2).toInt() };
    if (s.count < 1 || s.index >= s.count) {
        *error = QStringLiteral("--shard %1: the index must be below the number of tasks (0 to %2)")
                     .arg(text)
                     .arg(std::max(0, s.count - 1));
        return std::nullopt;
    }
    return s;
}

std::optional<ShardSpec> shardFromEnvironment(int count, QString *error, const QProcessEnvironment &env)
{
    if (count < 1) {
        *error = QStringLiteral("--shard auto needs --shards N (the number of tasks)");
        return std::nullopt;
    }
    for (const char *name : { "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX" }) {
        const QString value = env.value(QLatin1String(name));
        if (value.isEmpty())
            continue;
        QString why;
        if (std::optional<ShardSpec> s = parseShard(value + QLatin1Char('/') + QString::number(count), &why))
            return s;
        *error = QStringLiteral("--shard auto: %1=%2 is not a task index below --shards %3")
                     .arg(QLatin1String(name), value)
                     .arg(count);
        return std::nullopt;
    }
    *error = QStringLiteral("--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm array task) nor "
                            "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; pass --shard I/N");
    return std::nullopt;
}

int64_t peekRank(const QString &path)
{
    // Kineto writes distributedInfo before traceEvents: its first few KiB.
    constexpr int kHead = 256 * 1024;
    QByteArray head(kHead, Qt::Uninitialized);
    int n = 0;
    if (gzFile f = gzopen(QFile::encodeName(path).constData(), "rb")) {
        n = std::max(0, gzread(f, head.data(), unsigned(kHead)));
        gzclose(f);
    }
    head.truncate(n);
    static const QRegularExpression distributed(
        QStringLiteral("\"distributedInfo\"\\s*:\\s*\\{[^}]*?\"rank\"\\s*:\\s*([0-9]+)"));
    const auto m = distributed.match(QString::fromLatin1(head));
    if (m.hasMatch())
        return m.captured(1).toLongLong();
    return rankFromFileName(QFileInfo(path).fileName());
}

std::vector<RankFile> jobFiles(const QStringList &paths, const QStringList &hiddenFolders)
{
    std::vector<RankFile> files;
    for (const QString &p : ImportRunner::expand(paths, hiddenFolders))
        files.push_back({ p, peekRank(p) });
    std::stable_sort(files.begin(), files.end(), [](const RankFile &a, const RankFile &b) {
        const bool ra = a.rank >= 0, rb = b.rank >= 0;
        if (ra != rb)
            return ra;
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return a.path < b.path;
    });
    return files;
}

std::vector<RankFile> shardFiles(const std::vector<RankFile> &files, ShardSpec spec)
{
    std::vector<RankFile> out;
    for (size_t i = size_t(spec.index); i < files.size(); i += size_t(spec.count))
        out.push_back(files[i]);
    return out;
}

QByteArray shardInfoJson(const ShardInfo &info)
{
    QJsonArray files;
    for (const ShardInfo::File &f : info.files)
        files.append(
            QJsonObject { { QStringLiteral("path"), f.path }, { QStringLiteral("rank"), qint64(f.rank) },
                { QStringLiteral("status"), f.status }, { QStringLiteral("message"), f.message } });
    return QJsonDocument(
        QJsonObject { { QStringLiteral("index"), info.spec.index },
            { QStringLiteral("count"), info.spec.count }, { QStringLiteral("schema"), info.schema },
            { QStringLiteral("job"), info.job }, { QStringLiteral("files"), files } })
        .toJson(QJsonDocument::Compact);
}

std::optional<ShardInfo> parseShardInfo(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (!o.contains(QLatin1String("index")) || !o.contains(QLatin1String("count")))
        return std::nullopt;
    ShardInfo info;
    info.spec = { o.value(QLatin1String("index")).toInt(-1), o.value(QLatin1String("count")).toInt(0) };
    if (info.spec.count < 1 || info.spec.index < 0 || info.spec.index >= info.spec.count)
        return std::nullopt;
    info.schema = o.value(QLatin1String("schema")).toInt();
    info.job = o.value(QLatin1String("job")).toString();
    for (const auto &v : o.value(QLatin1String("files")).toArray()) {
        const QJsonObject f = v.toObject();
        info.files.push_back(
            { f.value(QLatin1String("path")).toString(), f.value(QLatin1String("rank")).toInteger(-1),
                f.value(QLatin1String("status")).toString(), f.value(QLatin1String("message")).toString() });
    }
    return info;
}

namespace {

QString localTempBase()
{
    for (const char *name : { "SLURM_TMPDIR", "TMPDIR" }) {
        QString dir = qEnvironmentVariable(name);
        if (!dir.isEmpty() && QFileInfo(dir).isDir() && QFileInfo(dir).isWritable())
            return dir;
    }
    return QDir::tempPath();
}

// Copies `from` to `to` and flushes it to stable storage (the rename that follows must not publish a
// file whose bytes are still in flight).
void copySynced(const QString &from, const QString &to)
{
    QFile in(from), out(to);
    if (!in.open(QIODevice::ReadOnly))
        throw std::runtime_error(
            QStringLiteral("cannot read %1: %2").arg(from, in.errorString()).toStdString());
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw std::runtime_error(
            QStringLiteral("cannot write %1: %2").arg(to, out.errorString()).toStdString());
    QByteArray buffer(4 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 n = in.read(buffer.data(), buffer.size());
        if (n < 0)
            throw std::runtime_error(
                QStringLiteral("cannot read %1: %2").arg(from, in.errorString()).toStdString());
        if (n == 0)
            break;
        if (out.write(buffer.constData(), n) != n) {
            const QString why = out.errorString();
            out.close();
            QFile::remove(to);
            throw std::runtime_error(QStringLiteral("cannot write %1: %2").arg(to, why).toStdString());
        }
    }
    if (!out.flush() || ::fsync(out.handle()) != 0) {
        out.close();
        QFile::remove(to);
        throw std::runtime_error(QStringLiteral("cannot write %1: flushing it failed").arg(to).toStdString());
    }
}

} // namespace

ShardImport importShard(const ImporterRegistry &registry, const QStringList &jobPaths, ShardSpec spec,
    const QString &workspacePath, const ImportOptions &options, const ImportRunner::ProgressFn &progress)
{
    ShardImport out;
    out.files = shardFiles(jobFiles(jobPaths, registry.hiddenFolders()), spec);

    QTemporaryDir local(localTempBase() + QStringLiteral("/plumb-shard-XXXXXX"));
    if (!local.isValid())
        throw std::runtime_error(QStringLiteral("cannot make a temporary folder in %1: %2")
                                     .arg(localTempBase(), local.errorString())
                                     .toStdString());
    const QString localPath = local.filePath(QStringLiteral("shard.plumb"));
    QStringList paths;
    for (const RankFile &f : out.files)
        paths << f.path;
    ImportRunner runner(registry, localPath);
    runner.setOptions(options);
    if (progress)
        runner.setProgressCallback(progress);
    if (!paths.isEmpty())
        out.results = runner.run(paths);

    ShardInfo info;
    info.spec = spec;
    info.schema = Workspace::currentSchemaVersion();
    QStringList job;
    for (const QString &p : jobPaths)
        job << QFileInfo(p).absoluteFilePath();
    info.job = job.join(QLatin1Char('\n'));
    for (const RankFile &f : out.files) {
        ShardInfo::File file { QFileInfo(f.path).absoluteFilePath(), f.rank, {}, {} };
        const auto r = std::find_if(out.results.begin(), out.results.end(),
            [&](const FileImportResult &x) { return QFileInfo(x.path).absoluteFilePath() == file.path; });
        if (r != out.results.end()) {
            file.status = statusName(r->status);
            file.message = r->message;
        }
        info.files.push_back(file);
    }
    {
        Workspace ws(localPath, Workspace::Role::Writer); // creates it when no file was given
        SqliteStmt put(ws.db(), "INSERT OR REPLACE INTO workspace_info(key, value) VALUES ('shard', ?)");
        put.bind(1, QString::fromUtf8(shardInfoJson(info))).run();
        // One self-contained file: the log checkpointed into it, and no WAL for readers to look for.
        ws.db().exec("PRAGMA journal_mode = DELETE");
    }

    const QFileInfo target(workspacePath);
    if (!QDir().mkpath(target.absolutePath()))
        throw std::runtime_error(
            QStringLiteral("cannot make the folder %1").arg(target.absolutePath()).toStdString());
    const QString partial = target.absolutePath() + QStringLiteral("/.") + target.fileName()
        + QStringLiteral(".partial-%1").arg(QCoreApplication::applicationPid());
    copySynced(localPath, partial);
    if (std::rename(
            QFile::encodeName(partial).constData(), QFile::encodeName(target.absoluteFilePath()).constData())
        != 0) {
        QFile::remove(partial);
        throw std::runtime_error(
            QStringLiteral("cannot rename %1 to %2").arg(partial, target.absoluteFilePath()).toStdString());
    }
    return out;
}

} // namespace plumb
