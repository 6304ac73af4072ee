#include "importrunner.h"

#include "importcontext.h"
#include "importer.h"
#include "importerregistry.h"
#include "importerror.h"
#include "lineagelinks.h"
#include "sqlitedb.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <optional>

namespace plumb {

namespace {
constexpr int64_t kSniffBytes = 64 * 1024;
constexpr qint64 kProgressIntervalMs = 100;
} // namespace

QString statusName(FileImportResult::Status s)
{
    using S = FileImportResult::Status;
    switch (s) {
    case S::Imported: return QStringLiteral("imported");
    case S::AlreadyImported: return QStringLiteral("already imported");
    case S::Unrecognised: return QStringLiteral("not recognised");
    case S::Failed: return QStringLiteral("failed");
    case S::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

ImportRunner::ImportRunner(const ImporterRegistry &registry, const QString &workspacePath)
    : m_registry(registry)
    , m_workspacePath(workspacePath)
{
}

void ImportRunner::setFileOptions(const QString &path, const ImportOptions &options)
{
    m_fileOptions.insert(QFileInfo(path).absoluteFilePath(), options);
}

// Files under `dir`, hidden entries skipped except folders named in `hiddenFolders`. Symbolic links
// are followed; a folder reached twice (a link loop) is walked once.
static void walk(const QString &dir, const QStringList &hiddenFolders, QSet<QString> &visited, QStringList &out)
{
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    if (visited.contains(canonical))
        return;
    visited.insert(canonical);
    const auto entries = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
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
    SqliteStmt st(db, "SELECT id, resume_offset, content_hash, edge_hash FROM source WHERE path = ? AND format = ? "
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

std::vector<FileImportResult> ImportRunner::run(const QStringList &paths)
{
    using Status = FileImportResult::Status;
    Workspace ws(m_workspacePath, Workspace::Role::Writer);
    SqliteDb &db = ws.db();

    const QStringList files = expand(paths, m_registry.hiddenFolders());
    QSet<QString> companions; // read with a file before them: no source of their own
    std::vector<FileImportResult> results;
    int64_t totalBytes = 0, doneBytes = 0;
    std::vector<int64_t> fileBytes; // sizes on disk, for progress over all files
    for (const QString &f : files) {
        fileBytes.push_back(QFileInfo(f).size());
        totalBytes += fileBytes.back();
    }

    QElapsedTimer sinceProgress;
    sinceProgress.start();
    auto report = [&](const QString &stage, int index, double fraction, bool force) {
        if (!m_progress || (!force && sinceProgress.elapsed() < kProgressIntervalMs))
            return;
        sinceProgress.restart();
        ImportProgress p;
        p.stage = stage;
        p.fileIndex = index;
        p.fileCount = int(files.size());
        p.fraction = fraction;
        const double current = index < files.size() ? double(fileBytes[size_t(index)]) : 0;
        p.overall = totalBytes > 0 ? (double(doneBytes) + fraction * current) / double(totalBytes) : 1.0;
        m_progress(p);
    };

    for (int i = 0; i < files.size(); ++i) {
        const QString &path = files[i];
        if (companions.contains(path)) {
            doneBytes += fileBytes[size_t(i)];
            continue;
        }
        FileImportResult r;
        r.path = path;
        QElapsedTimer timer;
        timer.start();
        const QFileInfo info(path);
        const QString name = info.fileName();

        if (m_cancel.load()) {
            r.status = Status::Cancelled;
            r.message = QStringLiteral("not started: the import was cancelled");
            results.push_back(r);
            continue;
        }
        report(QStringLiteral("Reading %1").arg(name), i, 0, true);

        const QByteArray head = info.isReadable() ? InputFile::peek(path, kSniffBytes) : QByteArray();
        const Importer *importer = info.isReadable() ? m_registry.find(head, name) : nullptr;
        if (!info.isReadable()) {
            r.status = Status::Failed;
            r.message = QStringLiteral("cannot read %1 (check the file's permissions)").arg(path);
        } else if (!importer) {
            r.status = Status::Unrecognised;
            r.message = head.isEmpty() ? QStringLiteral("empty file: nothing to import")
                                       : QStringLiteral("no importer recognises this file's content");
        }
        if (!importer) {
            doneBytes += info.size();
            results.push_back(r);
            continue;
        }
        r.format = importer->id();
        const QStringList companionsOfFile = importer->companionFiles(info.absoluteFilePath());
        int64_t sourceBytes = info.size(); // with the companions: the source's size
        for (const QString &c : companionsOfFile) {
            companions.insert(c);
            sourceBytes += QFileInfo(c).size();
        }
        // The identity of a source: its file's content hash, or with companions a hash over the
        // file's and theirs, so that a companion that changed (a metric appended) imports again.
        const auto sourceHash = [&](const QString &fileHash) {
            if (importer->locationMatters())
                return QString::fromLatin1(QCryptographicHash::hash(
                    (fileHash + QLatin1Char('\n') + info.absoluteFilePath()).toUtf8(), QCryptographicHash::Sha256)
                                               .toHex());
            return companionsOfFile.isEmpty() ? fileHash : combinedHash(path, fileHash, companionsOfFile);
        };

        try {
            // A log that grew since its last import continues from where that one stopped.
            std::optional<Continuation> continuation;
            if (importer->resumable() && companionsOfFile.isEmpty())
                continuation = findContinuation(db, info.absoluteFilePath(), *importer, info.size());
            const auto nothingNew = [&](int64_t since) {
                r.status = Status::AlreadyImported;
                r.sourceId = since;
                r.message = QStringLiteral("nothing appended since source %1 was imported").arg(since);
                doneBytes += info.size();
                r.seconds = double(timer.elapsed()) / 1000.0;
                results.push_back(r);
            };
            if (continuation && continuation->offset == info.size()) {
                nothingNew(continuation->sourceId);
                continue;
            }
            // Same size as an existing source: hash first, so that a re-import costs one read.
            bool sameSizeExists = false;
            {
                SqliteStmt sameSize(db, "SELECT count(*) FROM source WHERE size_bytes = ?");
                sameSize.bind(1, sourceBytes);
                sameSizeExists = sameSize.step() && sameSize.columnInt(0) > 0;
            }
            if (sameSizeExists && !continuation) {
                report(QStringLiteral("Checking %1").arg(name), i, 0, true);
                if (auto existing = findSource(db, sourceHash(InputFile::hashFile(path)), sourceBytes)) {
                    r.status = Status::AlreadyImported;
                    r.sourceId = *existing;
                    r.message = QStringLiteral("already in the workspace (source %1): nothing to do").arg(*existing);
                    doneBytes += info.size();
                    r.seconds = double(timer.elapsed()) / 1000.0;
                    results.push_back(r);
                    continue;
                }
            }

            SqliteTransaction tx(db);
            const int64_t sourceId = db.queryInt("SELECT max(id) FROM source", 0) + 1;
            InputFile input(path);
            input.open(continuation ? continuation->offset : 0);
            ImportContext ctx(db, input, sourceId, importer->id(), &m_cancel,
                              [&](int64_t done, int64_t total) {
                                  report(QStringLiteral("Reading %1").arg(name), i,
                                         total > 0 ? double(done) / double(total) : 0, false);
                              });
            ctx.setOptions(m_fileOptions.value(info.absoluteFilePath(), m_options));
            importer->read(ctx);
            ctx.checkpoint();
            report(QStringLiteral("Writing %1 to the workspace").arg(name), i, 1.0, true);
            ctx.finish();
            input.finishHash();
            // A continuation's identity: the source it continues and the bytes appended to it.
            const QString hash = continuation
                ? QString::fromLatin1(QCryptographicHash::hash(
                      (continuation->hash + QLatin1Char('+') + input.contentHash()).toLatin1(),
                      QCryptographicHash::Sha256).toHex())
                : sourceHash(input.contentHash());
            if (continuation && ctx.resumeOffset == continuation->offset && ctx.recordsRead == 0) {
                nothingNew(continuation->sourceId); // only part of a record was appended: next time
                continue; // the transaction rolls back
            }
            if (auto existing = findSource(db, hash, sourceBytes)) {
                // Raced with an identical file in the same batch; keep the first.
                r.status = Status::AlreadyImported;
                r.sourceId = *existing;
                r.message = QStringLiteral("already in the workspace (source %1): nothing to do").arg(*existing);
            } else {
                DiagnosticLog &diag = ctx.diagnostics();
                SqliteStmt src(db, "INSERT INTO source(id, path, name, size_bytes, mtime_ns, content_hash, format, "
                                   "importer_version, status, imported_at_ns, import_ms, event_count, "
                                   "skipped_count, resume_offset, edge_hash, continues_source_id) "
                                   "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
                src.bind(1, sourceId).bind(2, info.absoluteFilePath()).bind(3, name).bind(4, sourceBytes);
                src.bind(5, int64_t(info.lastModified().toMSecsSinceEpoch()) * 1000000).bind(6, hash);
                src.bind(7, importer->id()).bind(8, importer->version());
                src.bind(9, diag.count(Severity::Error) > 0 ? QStringLiteral("partial") : QStringLiteral("ok"));
                src.bind(10, int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000).bind(11, int64_t(timer.elapsed()));
                src.bind(12, ctx.recordsRead).bind(13, diag.skippedRecords());
                if (ctx.resumeOffset >= 0 && importer->resumable() && !input.isGzip()) {
                    src.bind(14, ctx.resumeOffset).bind(15, InputFile::edgeHash(path, ctx.resumeOffset));
                } else {
                    src.bindNull(14).bindNull(15);
                }
                if (continuation)
                    src.bind(16, continuation->sourceId);
                else
                    src.bindNull(16);
                src.run();
                SqliteStmt d(db, "INSERT INTO diagnostic(source_id, severity, code, location, message, count) "
                                 "VALUES (?,?,?,?,?,?)");
                for (const auto &item : diag.all()) {
                    d.bind(1, sourceId).bind(2, severityName(item.severity)).bind(3, item.code);
                    d.bind(4, item.location).bind(5, item.message).bind(6, item.count).run();
                }
                tx.commit();
                r.status = Status::Imported;
                r.sourceId = sourceId;
                r.records = ctx.recordsRead;
                r.skipped = diag.skippedRecords();
                r.warnings = diag.count(Severity::Warning);
                const QLocale english(QLocale::English);
                r.message = QStringLiteral("%1 records").arg(english.toString(qlonglong(ctx.recordsRead)));
                if (continuation)
                    r.message += QStringLiteral(" appended since source %1 (read from byte %2)")
                                     .arg(continuation->sourceId)
                                     .arg(english.toString(qlonglong(continuation->offset)));
                if (r.skipped)
                    r.message += QStringLiteral(", %1 skipped").arg(english.toString(qlonglong(r.skipped)));
                if (r.warnings)
                    r.message += QStringLiteral(", %1 kinds of problem noted (see diagnostics)").arg(r.warnings);
            }
        } catch (const ImportCancelled &) {
            r.status = Status::Cancelled;
            r.message = QStringLiteral("cancelled: nothing from this file was kept");
        } catch (const ImportError &e) {
            r.status = Status::Failed;
            r.message = e.message();
            r.location = e.location();
        } catch (const SqlError &e) {
            r.status = Status::Failed;
            r.message = QStringLiteral("the workspace could not be written (%1); nothing from this file was kept")
                            .arg(e.message());
        } catch (const std::bad_alloc &) {
            r.status = Status::Failed;
            r.message = QStringLiteral("out of memory; nothing from this file was kept");
        }
        doneBytes += info.size();
        r.seconds = double(timer.elapsed()) / 1000.0;
        results.push_back(r);
    }
    report(QStringLiteral("Done"), int(files.size()), 1.0, true);
    // Lineage nodes and runs that name each other, linked again when this batch imported something.
    const bool importedAny = std::any_of(results.begin(), results.end(),
        [](const FileImportResult &r) { return r.status == Status::Imported; });
    if (importedAny && db.queryInt("SELECT EXISTS (SELECT 1 FROM lineage_node)")) {
        SqliteTransaction tx(db);
        linkLineageToRuns(db);
        tx.commit();
    }
    return results;
}

} // namespace plumb
