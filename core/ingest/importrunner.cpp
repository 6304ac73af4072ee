// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/importrunner.h"

#include "analysis/tracesummary.h"

#include "ingest/importcontext.h"
#include "ingest/importer.h"
#include "ingest/importerregistry.h"
#include "ingest/importerror.h"
#include "ingest/lineagelinks.h"
#include "ingest/loadjournal.h"
#include "ingest/tracemerge.h"
#include "ingest/tracesink.h"
#include "store/filesystem.h"
#include "store/lockholder.h"
#include "store/schema.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"
#include "util/allocatortuning.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

namespace plumb {

namespace {
constexpr int64_t kSniffBytes = 64 * 1024;
constexpr qint64 kProgressIntervalMs = 100;
} // namespace

QString statusName(FileImportResult::Status s)
{
    using S = FileImportResult::Status;
    switch (s) {
    case S::Imported:
        return QStringLiteral("imported");
    case S::AlreadyImported:
        return QStringLiteral("already imported");
    case S::Unrecognised:
        return QStringLiteral("not recognised");
    case S::Failed:
        return QStringLiteral("failed");
    case S::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

ImportRunner::ImportRunner(const ImporterRegistry &registry, const QString &workspacePath)
    : m_registry(registry)
    , m_workspacePath(workspacePath)
    , m_writeWait(Workspace::writeWait())
{
}

void ImportRunner::setFileOptions(const QString &path, const ImportOptions &options)
{
    m_fileOptions.insert(QFileInfo(path).absoluteFilePath(), options);
}

// Files under `dir`, hidden entries skipped except folders named in `hiddenFolders`. Symbolic links
// are followed; a folder reached twice (a link loop) is walked once.
static void walk(
    const QString &dir, const QStringList &hiddenFolders, QSet<QString> &visited, QStringList &out)
{
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    if (visited.contains(canonical))
        return;
    visited.insert(canonical);
    const auto entries
        = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
    for (const QFileInfo &e : entries) {
        const bool hidden = e.fileName().startsWith(QLatin1Char('.'));
        if (e.isDir()) {
            if (!hidden || hiddenFolders.contains(e.fileName()))
                walk(e.absoluteFilePath(), hiddenFolders, visited, out);
        } else if (!hidden) {
            out << e.absoluteFilePath();
        }
    }
}

QStringList ImportRunner::expand(const QStringList &paths, const QStringList &hiddenFolders)
{
    QStringList files;
    for (const QString &p : paths) {
        const QFileInfo info(p);
        if (info.isDir()) {
            QStringList found;
            QSet<QString> visited;
            walk(info.absoluteFilePath(), hiddenFolders, visited, found);
            std::sort(found.begin(), found.end());
            files += found;
        } else {
            files << info.absoluteFilePath();
        }
    }
    return files;
}

// A file's content hash combined with its companions' (their names relative to it, and hashes).
static QString combinedHash(const QString &path, const QString &fileHash, const QStringList &companions)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(fileHash.toUtf8());
    const QDir base = QFileInfo(path).absoluteDir();
    for (const QString &c : companions) {
        h.addData(QByteArrayView("\n", 1));
        h.addData(base.relativeFilePath(c).toUtf8());
        h.addData(QByteArrayView(" ", 1));
        h.addData(InputFile::hashFile(c).toUtf8());
    }
    return QString::fromLatin1(h.result().toHex());
}

// The latest import of `path` by this importer that a grown file can continue (see
// Importer::resumable()): its resume offset is within the file and the bytes around it are those
// it read (a file replaced under the same name starts over as a new source).
struct Continuation {
    int64_t sourceId = 0;
    int64_t offset = 0;
    QString hash;
};

static std::optional<Continuation> findContinuation(
    SqliteDb &db, const QString &path, const Importer &importer, int64_t fileSize)
{
    SqliteStmt st(db,
        "SELECT id, resume_offset, content_hash, edge_hash FROM source WHERE path = ? AND format = ? "
        "AND importer_version = ? ORDER BY id DESC LIMIT 1");
    st.bind(1, path).bind(2, importer.id()).bind(3, importer.version());
    if (!st.step() || st.columnIsNull(1))
        return std::nullopt;
    const int64_t offset = st.columnInt(1);
    if (offset > fileSize || InputFile::edgeHash(path, offset) != st.columnText(3))
        return std::nullopt;
    return Continuation { st.columnInt(0), offset, st.columnText(2) };
}

static std::optional<int64_t> findSource(SqliteDb &db, const QString &hash, int64_t size)
{
    SqliteStmt st(db, "SELECT id FROM source WHERE content_hash = ? AND size_bytes = ?");
    st.bind(1, hash).bind(2, size);
    if (st.step())
        return st.columnInt(0);
    return std::nullopt;
}

// Progress over all files of a run(), by bytes; throttled, on the thread that called run().
class ImportRunner::Progress {
public:
    Progress(const ProgressFn &fn, std::vector<int64_t> bytes)
        : m_fn(fn)
        , m_bytes(std::move(bytes))
    {
        for (int64_t b : m_bytes)
            m_total += b;
        m_since.start();
    }
    // `fraction` of file `index` read, on top of the files done.
    void report(const QString &stage, int index, double fraction, bool force)
    {
        const double current = index < int(m_bytes.size()) ? double(m_bytes[size_t(index)]) : 0;
        reportBytes(stage, index, fraction, int64_t(fraction * current), force);
    }
    // `extra` bytes read of files not done yet (parallel reads), on top of the files done.
    void reportBytes(const QString &stage, int index, double fraction, int64_t extra, bool force)
    {
        if (!m_fn || (!force && m_since.elapsed() < kProgressIntervalMs))
            return;
        m_since.restart();
        ImportProgress p;
        p.stage = stage;
        p.fileIndex = index;
        p.fileCount = int(m_bytes.size());
        p.fraction = fraction;
        p.overall = m_total > 0 ? std::min(1.0, double(m_done + extra) / double(m_total)) : 1.0;
        m_fn(p);
    }
    void fileDone(int index) { m_done += m_bytes[size_t(index)]; }

private:
    const ProgressFn &m_fn;
    std::vector<int64_t> m_bytes;
    int64_t m_total = 0;
    int64_t m_done = 0;
    QElapsedTimer m_since;
};

// What the first pass over the files learned of one.
struct ImportRunner::Planned {
    QFileInfo info;
    const Importer *importer = nullptr;
    QStringList companions; // read with this file (Importer::companionFiles)
    bool isCompanion = false; // read with another file: no source of its own
    bool emptyHead = false;
    int64_t sourceBytes = 0; // with the companions

    // The identity of a source: its file's content hash, or with companions a hash over the
    // file's and theirs, so that a companion that changed (a metric appended) imports again.
    [[nodiscard]] QString sourceHash(const QString &fileHash) const
    {
        if (importer->locationMatters())
            return QString::fromLatin1(QCryptographicHash::hash(
                (fileHash + QLatin1Char('\n') + info.absoluteFilePath()).toUtf8(), QCryptographicHash::Sha256)
                                           .toHex());
        return companions.isEmpty() ? fileHash : combinedHash(info.absoluteFilePath(), fileHash, companions);
    }
};

std::vector<ImportRunner::Planned> ImportRunner::plan(const QStringList &files) const
{
    std::vector<Planned> planned(size_t(files.size()));
    QSet<QString> companions;
    for (int i = 0; i < files.size(); ++i) {
        Planned &p = planned[size_t(i)];
        p.info = QFileInfo(files[i]);
        p.isCompanion = companions.contains(files[i]);
        if (p.isCompanion || !p.info.isReadable())
            continue;
        const QByteArray head = InputFile::peek(files[i], kSniffBytes);
        p.emptyHead = head.isEmpty();
        p.importer = m_registry.find(head, p.info.fileName());
        if (!p.importer)
            continue;
        p.companions = p.importer->companionFiles(p.info.absoluteFilePath());
        p.sourceBytes = p.info.size();
        for (const QString &c : p.companions) {
            companions.insert(c);
            p.sourceBytes += QFileInfo(c).size();
        }
    }
    // A file no importer recognises that a later file claims (an MLflow run's inputs/<id>/meta.yaml
    // sorts before the run's own meta.yaml) is that file's companion too, not "not recognised".
    for (int i = 0; i < files.size(); ++i) {
        Planned &p = planned[size_t(i)];
        if (!p.isCompanion && !p.importer && companions.contains(files[i]))
            p.isCompanion = true;
    }
    return planned;
}

// An earlier source with the same bytes, checked by hash only when one has the same size (so that a
// new file costs no extra read).
static std::optional<int64_t> alreadyImported(
    SqliteDb &db, const ImportRunner::Planned &p, const std::function<QString(const QString &)> &sourceHash)
{
    SqliteStmt sameSize(db, "SELECT count(*) FROM source WHERE size_bytes = ?");
    sameSize.bind(1, p.sourceBytes);
    if (!sameSize.step() || sameSize.columnInt(0) == 0)
        return std::nullopt;
    return findSource(db, sourceHash(InputFile::hashFile(p.info.absoluteFilePath())), p.sourceBytes);
}

static void setAlreadyImported(FileImportResult &r, int64_t sourceId)
{
    r.status = FileImportResult::Status::AlreadyImported;
    r.sourceId = sourceId;
    r.message = QStringLiteral("already in the workspace (source %1): nothing to do").arg(sourceId);
}

// The source row and diagnostics of a file read into the workspace, and the result that says so.
struct ImportRunner::ReadFile {
    int64_t records = 0;
    int64_t resumeOffset = -1; // stored when the format is resumable and the input not gzip
    QString resumeEdgeHash;
    std::optional<Continuation> continuation;
    DiagnosticLog diagnostics;
    int64_t importMs = 0;
};

void ImportRunner::insertSource(SqliteDb &db, int64_t sourceId, const Planned &p, const QString &hash,
    const ReadFile &read, FileImportResult &r)
{
    const DiagnosticLog &diag = read.diagnostics;
    SqliteStmt src(db,
        "INSERT INTO source(id, path, name, size_bytes, mtime_ns, content_hash, format, "
        "importer_version, status, imported_at_ns, import_ms, event_count, "
        "skipped_count, resume_offset, edge_hash, continues_source_id) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    src.bind(1, sourceId)
        .bind(2, p.info.absoluteFilePath())
        .bind(3, p.info.fileName())
        .bind(4, p.sourceBytes);
    src.bind(5, int64_t(p.info.lastModified().toMSecsSinceEpoch()) * 1000000).bind(6, hash);
    src.bind(7, p.importer->id()).bind(8, p.importer->version());
    src.bind(9, diag.count(Severity::Error) > 0 ? QStringLiteral("partial") : QStringLiteral("ok"));
    src.bind(10, int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000).bind(11, read.importMs);
    src.bind(12, read.records).bind(13, diag.skippedRecords());
    if (read.resumeOffset >= 0)
        src.bind(14, read.resumeOffset).bind(15, read.resumeEdgeHash);
    else
        src.bindNull(14).bindNull(15);
    if (read.continuation)
        src.bind(16, read.continuation->sourceId);
    else
        src.bindNull(16);
    src.run();
    // Lineage nodes and runs are linked once the batch is in (runIn), in a transaction of their own:
    // until then the workspace says the links may be out of date, in this file's transaction, so that
    // an import killed between the two leaves the linking to the next import, even one of nothing new.
    if (db.queryInt("SELECT EXISTS (SELECT 1 FROM lineage_node)"))
        db.exec("INSERT OR REPLACE INTO workspace_info(key, value) VALUES ('lineage_links', 'stale')");
    SqliteStmt d(db,
        "INSERT INTO diagnostic(source_id, severity, code, location, message, count) "
        "VALUES (?,?,?,?,?,?)");
    for (const auto &item : diag.all()) {
        d.bind(1, sourceId).bind(2, severityName(item.severity)).bind(3, item.code);
        d.bind(4, item.location).bind(5, item.message).bind(6, item.count).run();
    }

    r.status = FileImportResult::Status::Imported;
    r.sourceId = sourceId;
    r.records = read.records;
    r.skipped = diag.skippedRecords();
    r.warnings = diag.count(Severity::Warning);
    const QLocale english(QLocale::English);
    r.message = QStringLiteral("%1 records").arg(english.toString(qlonglong(read.records)));
    if (read.continuation)
        r.message += QStringLiteral(" appended since source %1 (read from byte %2)")
                         .arg(read.continuation->sourceId)
                         .arg(english.toString(qlonglong(read.continuation->offset)));
    if (r.skipped)
        r.message += QStringLiteral(", %1 skipped").arg(english.toString(qlonglong(r.skipped)));
    if (r.warnings)
        r.message += QStringLiteral(", %1 noted (see diagnostics)")
                         .arg(text::counted(r.warnings, QStringLiteral("kind of problem"),
                             QStringLiteral("kinds of problem")));
}

// Runs `body`, turning what an import throws into the file's result: nothing of it is kept.
// A cancel while waiting for another writer (ImportRunner::waitForOtherWriters) ends that wait with
// SQLITE_BUSY: it is a cancel, not a failure.
template <typename Body> static void guarded(FileImportResult &r, const std::atomic_bool &cancel, Body &&body)
{
    using Status = FileImportResult::Status;
    try {
        body();
    } catch (const ImportCancelled &) {
        r.status = Status::Cancelled;
        r.message = QStringLiteral("cancelled: nothing from this file was kept");
    } catch (const ImportError &e) {
        r.status = Status::Failed;
        r.message = e.message();
        r.location = e.location();
    } catch (const SqlError &e) {
        const bool busy = (e.code() & 0xff) == SQLITE_BUSY;
        r.status = busy && cancel.load() ? Status::Cancelled : Status::Failed;
        r.message = r.status == Status::Cancelled
            ? QStringLiteral("cancelled while waiting for another writer: nothing from this file was kept")
            : busy
            ? QStringLiteral("%1; nothing from this file was kept: import it again when that is done, or "
                             "wait longer (plumb import --wait SECONDS)")
                  .arg(e.message())
            : QStringLiteral("the workspace could not be written (%1); nothing from this file was kept")
                  .arg(e.message());
    } catch (const std::bad_alloc &) {
        r.status = Status::Failed;
        r.message = QStringLiteral("out of memory; nothing from this file was kept");
    }
}

namespace {

// A file no importer recognises whose name says what it is: the step that turns it into a file Plumb
// reads. (Profilers' own binary reports are the files people drop first.)
QString unrecognisedMessage(const QString &fileName)
{
    const QString lower = fileName.toLower();
    if (lower.endsWith(QLatin1String(".nsys-rep")) || lower.endsWith(QLatin1String(".qdrep")))
        return QStringLiteral("an Nsight Systems report, in NVIDIA's own format: export it with "
                              "`nsys export --type sqlite %1` and import the .sqlite it writes")
            .arg(fileName);
    if (lower.endsWith(QLatin1String(".qdstrm")))
        return QStringLiteral(
            "an Nsight Systems capture that was never turned into a report: convert it with "
            "nsys's QdstrmImporter to a .nsys-rep, then `nsys export --type sqlite` that, and "
            "import the .sqlite");
    if (lower.endsWith(QLatin1String(".ncu-rep")))
        return QStringLiteral("an Nsight Compute report (per-kernel metrics, not a timeline): Plumb reads "
                              "timelines; profile the program with Nsight Systems, torch.profiler or Plumb's "
                              "CUPTI collector instead");
    if (lower.endsWith(QLatin1String(".nvvp")) || lower.endsWith(QLatin1String(".nvprof")))
        return QStringLiteral(
            "an nvprof profile, which Plumb does not read: profile the program with Nsight "
            "Systems (`nsys profile`, then `nsys export --type sqlite`) or Plumb's CUPTI collector");
    return QStringLiteral("no importer recognises this file's content");
}

} // namespace

// A trace just imported and its slices as the import wrote them, from which its summaries are written.
struct ImportRunner::KeptTrace {
    int64_t traceId = -1;
    std::unique_ptr<KeptSlices> slices;
};

FileImportResult ImportRunner::importOne(
    SqliteDb &db, int index, const Planned &p, Progress &progress, KeptTrace &kept)
{
    using Status = FileImportResult::Status;
    FileImportResult r;
    r.path = p.info.absoluteFilePath();
    QElapsedTimer timer;
    timer.start();
    const QString name = p.info.fileName();
    const Importer *importer = p.importer;
    if (m_cancel.load()) {
        r.status = Status::Cancelled;
        r.message = QStringLiteral("not started: the import was cancelled");
        return r;
    }
    progress.report(QStringLiteral("Reading %1").arg(name), index, 0, true);
    if (!p.info.isReadable()) {
        r.status = Status::Failed;
        r.message = QStringLiteral("cannot read %1 (check the file's permissions)").arg(r.path);
        return r;
    }
    if (!importer) {
        r.status = Status::Unrecognised;
        r.message = p.emptyHead ? QStringLiteral("empty file: nothing to import") : unrecognisedMessage(name);
        return r;
    }
    r.format = importer->id();
    const auto sourceHash = [&](const QString &fileHash) { return p.sourceHash(fileHash); };

    guarded(r, m_cancel, [&] {
        // A log that grew since its last import continues from where that one stopped.
        std::optional<Continuation> continuation;
        if (importer->resumable() && p.companions.isEmpty())
            continuation = findContinuation(db, r.path, *importer, p.info.size());
        const auto nothingNew = [&](int64_t since) {
            r.status = Status::AlreadyImported;
            r.sourceId = since;
            r.message = QStringLiteral("nothing appended since source %1 was imported").arg(since);
        };
        if (continuation && continuation->offset == p.info.size())
            return nothingNew(continuation->sourceId);
        if (!continuation) {
            if (p.sourceBytes > 0)
                progress.report(QStringLiteral("Checking %1").arg(name), index, 0, true);
            if (auto existing = alreadyImported(db, p, sourceHash))
                return setAlreadyImported(r, *existing);
        }

        SqliteTransaction tx(db);
        const int64_t sourceId = db.queryInt("SELECT max(id) FROM source", 0) + 1;
        InputFile input(r.path);
        input.open(continuation ? continuation->offset : 0);
        ImportContext ctx(db, input, sourceId, importer->id(), &m_cancel, [&](int64_t done, int64_t total) {
            progress.report(QStringLiteral("Reading %1").arg(name), index,
                total > 0 ? double(done) / double(total) : 0, false);
        });
        ctx.setOptions(m_fileOptions.value(r.path, m_options));
        importer->read(ctx);
        ctx.checkpoint();
        progress.report(QStringLiteral("Writing %1 to the workspace").arg(name), index, 1.0, true);
        ctx.finish();
        if (m_cancel.load()) // pressed while the rest was written: still nothing of this file lands
            throw ImportCancelled();
        input.finishHash();
        // A continuation's identity: the source it continues and the bytes appended to it.
        const QString hash = continuation ? QString::fromLatin1(QCryptographicHash::hash(
                                 (continuation->hash + QLatin1Char('+') + input.contentHash()).toLatin1(),
                                 QCryptographicHash::Sha256)
                                                                    .toHex())
                                          : sourceHash(input.contentHash());
        if (continuation && ctx.resumeOffset == continuation->offset && ctx.recordsRead == 0)
            return nothingNew(continuation->sourceId); // only part of a record was appended: next time
        if (auto existing = findSource(db, hash, p.sourceBytes))
            return setAlreadyImported(r, *existing); // raced with an identical file in the same batch
        ReadFile read;
        read.records = ctx.recordsRead;
        if (ctx.resumeOffset >= 0 && importer->resumable() && !input.isGzip()) {
            read.resumeOffset = ctx.resumeOffset;
            read.resumeEdgeHash = InputFile::edgeHash(r.path, ctx.resumeOffset);
        }
        read.continuation = continuation;
        read.diagnostics = ctx.diagnostics();
        read.importMs = timer.elapsed();
        insertSource(db, sourceId, p, hash, read, r);
        tx.commit();
        if (ctx.hasTraceSink()) {
            kept.traceId = ctx.traceSink().traceId();
            kept.slices = ctx.traceSink().takeKeptSlices();
        }
    });
    r.seconds = double(timer.elapsed()) / 1000.0;
    return r;
}

int ImportRunner::jobs() const
{
    return m_jobs > 0 ? m_jobs : std::max(1, QThread::idealThreadCount() / 2);
}

// One file of a parallel import, read into a scratch workspace of its own on a worker thread.
struct ImportRunner::ParallelFile {
    int index = 0;
    QString scratchPath;
    std::atomic<int64_t> bytesRead { 0 };
    bool done = false; // under the batch's mutex
    FileImportResult result; // Failed/Cancelled when reading failed; else Imported is yet to be merged
    QString hash;
    ReadFile read;
};

// Scratch folders of parallel imports whose process is gone (killed before it could remove them).
static void removeStaleScratch(const QDir &dir)
{
    static const QRegularExpression name(QStringLiteral("^\\.plumb-import-([0-9]+)-"));
    for (const QFileInfo &f :
        dir.entryInfoList({ QStringLiteral(".plumb-import-*") }, QDir::Dirs | QDir::Hidden)) {
        const auto m = name.match(f.fileName());
        if (!m.hasMatch())
            continue;
        const auto pid = pid_t(m.captured(1).toLongLong());
        if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
            QDir(f.absoluteFilePath()).removeRecursively();
    }
}

void ImportRunner::importParallel(SqliteDb &db, const std::vector<Planned> &planned,
    const std::vector<int> &indexes, Progress &progress,
    std::vector<std::optional<FileImportResult>> &results)
{
    // Scratch workspaces beside the workspace (same file system: they are as large as what they hold),
    // in a folder named after this process, so that one left by a killed import is found and removed.
    const QDir beside = QFileInfo(m_workspacePath).absoluteDir();
    QTemporaryDir scratchDir(
        beside.filePath(QStringLiteral(".plumb-import-%1-XXXXXX").arg(QCoreApplication::applicationPid())));
    if (!scratchDir.isValid())
        throw SqlError(QStringLiteral("cannot create a scratch folder beside %1 (%2)")
                           .arg(m_workspacePath, scratchDir.errorString()),
            0);
    StringPool pool(db);
    std::vector<std::unique_ptr<ParallelFile>> files;
    for (int i : indexes) {
        auto f = std::make_unique<ParallelFile>();
        f->index = i;
        f->scratchPath = scratchDir.filePath(QStringLiteral("%1.plumb").arg(i));
        f->result.path = planned[size_t(i)].info.absoluteFilePath();
        f->result.format = planned[size_t(i)].importer->id();
        files.push_back(std::move(f));
    }
    std::mutex mutex;
    std::condition_variable doneChanged;
    std::atomic<size_t> next { 0 };
    const auto work = [&] {
        for (size_t k = next++; k < files.size(); k = next++) {
            ParallelFile &f = *files[k];
            const Planned &p = planned[size_t(f.index)];
            QElapsedTimer timer;
            timer.start();
            f.result.status = FileImportResult::Status::Imported;
            if (m_cancel.load()) {
                f.result.status = FileImportResult::Status::Cancelled;
                f.result.message = QStringLiteral("not started: the import was cancelled");
            } else {
                guarded(f.result, m_cancel, [&] {
                    Workspace scratch(f.scratchPath, Workspace::Role::Writer);
                    scratch.db().exec("PRAGMA journal_mode = OFF");
                    scratch.db().exec("PRAGMA synchronous = OFF");
                    // Only copied from: no index but the tables' own keys to maintain.
                    scratch.db().exec(dropSecondaryIndexesSql());
                    SqliteTransaction tx(scratch.db());
                    InputFile input(f.result.path);
                    input.open(0);
                    ImportContext ctx(scratch.db(), input, 1, p.importer->id(), &m_cancel,
                        [&](int64_t done, int64_t) { f.bytesRead.store(done); });
                    ctx.setParallelTrace(&pool);
                    ctx.setOptions(m_fileOptions.value(f.result.path, m_options));
                    p.importer->read(ctx);
                    ctx.checkpoint();
                    ctx.finish();
                    input.finishHash();
                    tx.commit();
                    f.hash = p.sourceHash(input.contentHash());
                    f.read.records = ctx.recordsRead;
                    f.read.diagnostics = ctx.diagnostics();
                });
            }
            f.read.importMs = timer.elapsed();
            std::lock_guard lock(mutex);
            f.done = true;
            doneChanged.notify_all();
        }
    };
    std::vector<std::thread> workers;
    for (int w = 0; w < std::min(jobs(), int(files.size())); ++w)
        workers.emplace_back(work);

    // Copied in file order as each is read, so ids and source numbers come out as a sequential import's.
    for (auto &fp : files) {
        ParallelFile &f = *fp;
        const Planned &p = planned[size_t(f.index)];
        const QString name = p.info.fileName();
        {
            std::unique_lock lock(mutex);
            while (!f.done) {
                doneChanged.wait_for(lock, std::chrono::milliseconds(kProgressIntervalMs));
                int64_t reading = 0;
                for (const auto &o : files)
                    if (!o->done)
                        reading += o->bytesRead.load();
                progress.reportBytes(QStringLiteral("Reading %1 files in parallel").arg(files.size()),
                    f.index, 0, reading, false);
            }
        }
        FileImportResult r = f.result;
        if (r.status == FileImportResult::Status::Imported && m_cancel.load()) {
            r.status = FileImportResult::Status::Cancelled;
            r.message = QStringLiteral("cancelled: nothing from this file was kept");
        }
        if (r.status == FileImportResult::Status::Imported) {
            progress.report(QStringLiteral("Writing %1 to the workspace").arg(name), f.index, 1.0, true);
            guarded(r, m_cancel, [&] {
                SqliteStmt attach(db, "ATTACH DATABASE ? AS scratch");
                attach.bind(1, f.scratchPath).run();
                struct Detach {
                    SqliteDb &db;
                    ~Detach()
                    {
                        try {
                            db.exec("DETACH DATABASE scratch");
                        } catch (const SqlError &) {
                        }
                    }
                } detach { db };
                SqliteTransaction tx(db);
                if (auto existing = findSource(db, f.hash, p.sourceBytes))
                    return setAlreadyImported(r, *existing); // an identical file earlier in the batch
                const int64_t sourceId = db.queryInt("SELECT max(id) FROM main.source", 0) + 1;
                mergeScratchTrace(db, sourceId);
                insertSource(db, sourceId, p, f.hash, f.read, r);
                tx.commit();
            });
        }
        QFile::remove(f.scratchPath);
        r.seconds = double(f.read.importMs) / 1000.0;
        results[size_t(f.index)] = r;
        progress.fileDone(f.index);
    }
    for (auto &w : workers)
        w.join();
    db.exec(secondaryIndexesSql());
}

std::vector<FileImportResult> ImportRunner::run(const QStringList &paths)
{
    const QFileInfo target(m_workspacePath);
    if (!target.absoluteDir().exists())
        QDir().mkpath(target.absolutePath());
    removeStaleScratch(target.absoluteDir()); // what a killed import left
    if (target.exists()) {
        Workspace ws(m_workspacePath, Workspace::Role::Writer);
        const FirstLoadJournal journal(ws);
        waitForOtherWriters(ws);
        return runIn(ws, paths);
    }

    // A workspace that does not exist yet is built in a scratch folder beside it, with the rollback
    // journal in memory (each file's transaction still rolls back alone) and no syncs, and then linked
    // into place whole. Nobody can be reading it meanwhile, so this keeps the promise that a reader
    // never waits on an import's lock, and skips the write-ahead log, which must otherwise be copied
    // into the file at every commit: 0.86-0.88x the time of building it in place. A killed import leaves
    // only the scratch folder, which the next import removes.
    QTemporaryDir scratch(target.absoluteDir().filePath(
        QStringLiteral(".plumb-import-%1-XXXXXX").arg(QCoreApplication::applicationPid())));
    if (scratch.isValid()) {
        const QString built = scratch.filePath(QStringLiteral("workspace.plumb"));
        std::vector<FileImportResult> results;
        {
            Workspace ws(built, Workspace::Role::Builder);
            const EarlyWriteback writeback(built);
            results = runIn(ws, paths);
            // What every writer of the workspace uses: WAL, or a rollback journal on a network file system.
            Workspace::applyJournal(ws.db(), fileSystemOf(target.absoluteFilePath()));
        }
        // link() never replaces a workspace another process created meanwhile; rename() serves file
        // systems without hard links.
        const QByteArray from = QFile::encodeName(built), to = QFile::encodeName(target.absoluteFilePath());
        if (syncPath(built, false)
            && (::link(from.constData(), to.constData()) == 0
                || (errno != EEXIST && !QFileInfo::exists(target.absoluteFilePath())
                    && ::rename(from.constData(), to.constData()) == 0))) {
            syncPath(target.absolutePath(), true);
            return results;
        }
    }
    // No scratch folder, or the workspace appeared meanwhile: the files are imported into it in place.
    Workspace ws(m_workspacePath, Workspace::Role::Writer);
    waitForOtherWriters(ws);
    return runIn(ws, paths);
}

void ImportRunner::waitForOtherWriters(Workspace &ws)
{
    ws.db().setBusyWait(m_writeWait, [this](double waited) {
        if (m_wait) {
            const QString holder = writeLockHolder(m_workspacePath);
            m_wait(QStringLiteral("waiting for %1 to finish writing %2 (%3 s of at most %4)")
                       .arg(holder.isEmpty() ? QStringLiteral("another program") : holder,
                           QFileInfo(m_workspacePath).fileName())
                       .arg(std::lround(waited))
                       .arg(m_writeWait.count()),
                waited);
        }
        return !m_cancel.load();
    });
}

std::vector<FileImportResult> ImportRunner::runIn(Workspace &ws, const QStringList &paths)
{
    SqliteDb &db = ws.db();
    const QStringList files = expand(paths, m_registry.hiddenFolders());
    const std::vector<Planned> planned = plan(files);
    std::vector<int64_t> fileBytes;
    fileBytes.reserve(planned.size());
    for (const Planned &p : planned)
        fileBytes.push_back(p.info.size());
    Progress progress(m_progress, fileBytes);
    std::vector<std::optional<FileImportResult>> results(planned.size());

    // Traces first, several at a time when there are cores for it (each import keeps two busy: the
    // reader and the SQLite writer); the other files after them, one by one, in order.
    std::vector<int> parallel;
    for (int i = 0; i < int(planned.size()); ++i) {
        const Planned &p = planned[size_t(i)];
        if (p.importer && !p.isCompanion && p.importer->writesOneTrace())
            parallel.push_back(i);
    }
    if (jobs() > 1 && parallel.size() > 1) {
        std::vector<int> toRead;
        for (int i : parallel) {
            FileImportResult r;
            r.path = planned[size_t(i)].info.absoluteFilePath();
            r.format = planned[size_t(i)].importer->id();
            guarded(r, m_cancel, [&] {
                const auto hash = [&](const QString &h) { return planned[size_t(i)].sourceHash(h); };
                if (auto existing = alreadyImported(db, planned[size_t(i)], hash)) {
                    setAlreadyImported(r, *existing);
                    results[size_t(i)] = r;
                    progress.fileDone(i);
                }
            });
            if (!results[size_t(i)])
                toRead.push_back(i);
        }
        if (toRead.size() > 1)
            importParallel(db, planned, toRead, progress, results);
    }
    for (int i = 0; i < int(planned.size()); ++i) {
        if (results[size_t(i)])
            continue;
        KeptTrace kept;
        if (!planned[size_t(i)].isCompanion)
            results[size_t(i)] = importOne(db, i, planned[size_t(i)], progress, kept);
        progress.fileDone(i);
        // The trace's summaries from the slices its import kept, at once (which frees them): written
        // like those below, in a transaction of their own.
        if (kept.slices && !m_cancel.load())
            try {
                progress.report(QStringLiteral("Summarising traces"), int(files.size()), 1.0, true);
                releaseFreeMemory(); // what the file's parsing freed
                writeTraceSummary(ws, kept.traceId, std::move(kept.slices));
            } catch (const std::exception &e) {
                qWarning("plumb: trace summaries not written: %s", e.what());
            }
    }
    progress.report(QStringLiteral("Done"), int(files.size()), 1.0, true);

    std::vector<FileImportResult> out;
    for (auto &r : results)
        if (r)
            out.push_back(std::move(*r));
    // Lineage nodes and runs that name each other, linked again when a file imported into a workspace
    // holding lineage said the links may be out of date (this batch's, or one killed before its links).
    if (db.queryInt("SELECT EXISTS (SELECT 1 FROM workspace_info WHERE key = 'lineage_links')")) {
        SqliteTransaction tx(db);
        linkLineageToRuns(db);
        db.exec("DELETE FROM workspace_info WHERE key = 'lineage_links'");
        tx.commit();
    }
    // The per-step summaries of the traces imported (and of any without them: imported before they
    // existed, or by an import killed after its file's commit), each in a transaction of its own: a
    // failure here leaves every import in place, and the doctor reads the events of a trace without.
    try {
        if (traceSummariesMissing(ws)) {
            progress.report(QStringLiteral("Summarising traces"), int(files.size()), 1.0, true);
            releaseFreeMemory(); // what the files' parsing freed, so that the two phases' peaks do not add up
            writeMissingTraceSummaries(ws, [this] { return m_cancel.load(); });
        }
    } catch (const std::exception &e) {
        qWarning("plumb: trace summaries not written: %s", e.what());
    }
    return out;
}

} // namespace plumb
