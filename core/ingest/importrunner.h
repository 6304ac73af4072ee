// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importoptions.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace plumb {

class ImporterRegistry;
class SqliteDb;
class Workspace;

struct ImportProgress {
    QString stage; // "Reading hta_nccl_data.json.gz", "Writing indexes"...
    int fileIndex = 0; // 0-based
    int fileCount = 0;
    double fraction = 0; // of the current file, 0..1
    double overall = 0; // of all files by bytes, 0..1
};

struct FileImportResult {
    enum class Status { Imported, AlreadyImported, Unrecognised, Failed, Cancelled };
    QString path;
    Status status = Status::Failed;
    QString format; // importer id
    QString message; // what happened, for the user
    QString location; // for Failed: where in the file
    int64_t sourceId = 0; // Imported / AlreadyImported
    int64_t records = 0;
    int64_t skipped = 0;
    int64_t warnings = 0; // diagnostics of severity warning or error
    double seconds = 0;
};

[[nodiscard]] QString statusName(FileImportResult::Status s);

// Imports files and folders into one workspace, each file in its own transaction.
//
// Folders are walked recursively (hidden entries skipped, names sorted) and each file goes to the
// importer whose sniff() claims it (and the importer's companionFiles() of it are read with it, never
// on their own); files nobody claims are reported as Unrecognised, never silently
// dropped. A file whose bytes were imported before (same size and content fingerprint) is a no-op; a
// file of a resumable() format that grew since its last import is read from where that import
// stopped (live mode's "only new bytes are read"), as a new source continuing the earlier one. A failure or a
// cancel rolls that file's transaction back; files committed before stay.
//
// A workspace that does not exist yet is built beside its path and linked into place when the batch is
// done (see run()); one that exists is imported into in place, through its write-ahead log.
//
// run() blocks: call it on a worker thread. cancel() and the progress callback are thread-safe
// (the callback is invoked on the thread that called run()).
//
// Traces (Importer::writesOneTrace(): the ranks of a multi-rank job, say) are read in parallel, up to
// jobs() at a time, each into a scratch workspace of its own beside the workspace (string ids shared
// through a StringPool), and copied into the workspace in file order as each is done, so that the
// result equals a sequential import's; the other files are imported after them, one by one.
class ImportRunner {
public:
    using ProgressFn = std::function<void(const ImportProgress &)>;

    ImportRunner(const ImporterRegistry &registry, const QString &workspacePath);

    void setProgressCallback(ProgressFn fn) { m_progress = std::move(fn); }
    // While another process writes the workspace (one writer at a time): what to say ("waiting for process
    // 1234 (plumb import big.json) to finish writing ws.plumb (3 s of at most 300)", the writer named by
    // writeLockHolder()) and the seconds waited so far, about once a second, on run()'s thread. A file still
    // locked out after writeWait() fails with a message naming the writer; cancel() stops the wait.
    using WaitFn = std::function<void(const QString &waiting, double waitedSeconds)>;
    void setWaitCallback(WaitFn fn) { m_wait = std::move(fn); }
    void setWriteWait(std::chrono::seconds limit) { m_writeWait = limit; }
    [[nodiscard]] std::chrono::seconds writeWait() const { return m_writeWait; }
    void cancel() { m_cancel.store(true); }
    [[nodiscard]] bool cancelled() const { return m_cancel.load(); }

    // What the user told the import (command-line flags, a dialog), for every file of run(); and
    // for one file, by path, instead of those (the import dialog's column roles of that file).
    void setOptions(const ImportOptions &options) { m_options = options; }
    void setFileOptions(const QString &path, const ImportOptions &options);
    // Files read at the same time: 0 (default) = half the cores, as each import keeps two busy.
    void setJobs(int jobs) { m_jobs = jobs; }
    [[nodiscard]] int jobs() const;

    // Throws SqlError when the workspace itself cannot be opened.
    std::vector<FileImportResult> run(const QStringList &paths);

    // Files under `paths` in import order (folders walked, hidden entries skipped except folders
    // named in `hiddenFolders`, which some format keeps data in).
    [[nodiscard]] static QStringList expand(const QStringList &paths, const QStringList &hiddenFolders = {});

    // Implementation details (importrunner.cpp).
    struct Planned;
    struct ReadFile;
    struct ParallelFile;
    class Progress;
    struct KeptTrace;

private:
    [[nodiscard]] std::vector<Planned> plan(const QStringList &files) const;
    std::vector<FileImportResult> runIn(Workspace &ws, const QStringList &paths);
    // `kept`: the trace the file wrote, if any, with its slices as written (TraceSink::takeKeptSlices()).
    FileImportResult importOne(
        SqliteDb &db, int index, const Planned &p, Progress &progress, KeptTrace &kept);
    void importParallel(SqliteDb &db, const std::vector<Planned> &planned, const std::vector<int> &indexes,
        Progress &progress, std::vector<std::optional<FileImportResult>> &results);
    static void insertSource(SqliteDb &db, int64_t sourceId, const Planned &p, const QString &hash,
        const ReadFile &read, FileImportResult &r);

    const ImporterRegistry &m_registry;
    QString m_workspacePath;
    void waitForOtherWriters(Workspace &ws);

    ProgressFn m_progress;
    WaitFn m_wait;
    std::chrono::seconds m_writeWait;
    std::atomic_bool m_cancel { false };
    ImportOptions m_options;
    int m_jobs = 0;
    QHash<QString, ImportOptions> m_fileOptions; // by absolute path
};

} // namespace plumb
