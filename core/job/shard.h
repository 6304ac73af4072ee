// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"
#include "ingest/importrunner.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace plumb {

class ImporterRegistry;

// One task's part of a job too large for one machine (docs/cluster.md): `plumb import JOBDIR --shard I/N`
// imports the job's files whose place in rank order, modulo N, is I.
struct ShardSpec {
    int index = 0;
    int count = 1;
};

// "I/N" with 0 <= I < N. Nothing, with *error set, for anything else.
[[nodiscard]] std::optional<ShardSpec> parseShard(const QString &text, QString *error = nullptr);
// `--shard auto --shards N`: I from SLURM_ARRAY_TASK_ID (a Slurm array task), else JOB_COMPLETION_INDEX
// (a Kubernetes Indexed Job); nothing, with *error set, when neither is set or I is not below N.
[[nodiscard]] std::optional<ShardSpec> shardFromEnvironment(
    int count, QString *error, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

// A file of the job and the rank it holds: the `distributedInfo` rank a Kineto trace writes near its
// start (read from its first 256 KiB, inflated when gzip), else the rank its name gives, else -1.
struct RankFile {
    QString path;
    int64_t rank = -1;
};
[[nodiscard]] int64_t peekRank(const QString &path);
// The job's files (folders walked as an import walks them) in shard order: by rank, files of the same
// rank by path, then the files without a rank by path. Every task of the job computes the same order.
[[nodiscard]] std::vector<RankFile> jobFiles(const QStringList &paths, const QStringList &hiddenFolders = {});
// The files of shard `spec`: those whose place in `files` is spec.index modulo spec.count.
[[nodiscard]] std::vector<RankFile> shardFiles(const std::vector<RankFile> &files, ShardSpec spec);

// What a shard workspace records of itself (workspace_info keys shard.*), read by the merge.
struct ShardInfo {
    ShardSpec spec;
    int schema = 0; // Workspace::currentSchemaVersion() of the Plumb that wrote it
    QString job; // the job's paths, absolute, joined by '\n'
    struct File {
        QString path;
        int64_t rank = -1;
        QString status; // statusName() of its import
        QString message;
    };
    std::vector<File> files; // every file given to the shard, imported or not
};
// The workspace_info row that holds it: key 'shard', a JSON object (docs/cluster.md).
[[nodiscard]] QByteArray shardInfoJson(const ShardInfo &info);
[[nodiscard]] std::optional<ShardInfo> parseShardInfo(const QByteArray &json);

// Imports the shard's files into a new workspace in node-local temporary space ($SLURM_TMPDIR, else
// $TMPDIR, else the system's), records its ShardInfo, switches it to a rollback journal (one
// self-contained file), then copies it beside `workspacePath` under a temporary name and renames it into
// place: a half-written shard never appears under its final name (a move across file systems is a copy,
// and SQLite's locking is not safe on NFS or Lustre). An existing file at `workspacePath` (a task run
// again) is replaced. Throws SqlError (the workspace) or std::runtime_error (the copy) on failure.
struct ShardImport {
    std::vector<RankFile> files;
    std::vector<FileImportResult> results;
};
ShardImport importShard(const ImporterRegistry &registry, const QStringList &jobPaths, ShardSpec spec,
    const QString &workspacePath, const ImportOptions &options = {},
    const ImportRunner::ProgressFn &progress = {});

} // namespace plumb
