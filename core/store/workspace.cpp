// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/workspace.h"

#include "store/filesystem.h"

#include "store/schema.h"
#include "timeline/countersummary.h"
#include "timeline/slicesummary.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <sqlite3.h>

#include <cerrno>

#include <unistd.h>

namespace plumb {

namespace {

constexpr int kPageSize = 16384;

void applyConnectionSettings(SqliteDb &db, Workspace::Role role)
{
    db.exec("PRAGMA foreign_keys = OFF");
    if (role == Workspace::Role::Builder) {
        // Nobody else can open the file yet: its schema and first import need neither the write-ahead
        // log (each migration's commit copied into the file at the switch away from it) nor syncs:
        // 12 ms instead of 49 to create one before an import.
        db.exec("PRAGMA journal_mode = MEMORY");
        db.exec("PRAGMA synchronous = OFF");
    }
    if (role == Workspace::Role::Writer) {
        // One writer at a time: another process's import holds the lock for a file's whole transaction.
        db.setBusyWait(Workspace::writeWait());
        Workspace::applyJournal(db, fileSystemOf(db.path()));
    }
    if (role != Workspace::Role::Reader) {
        // Index builds after a bulk load sort with helper threads.
        db.exec("PRAGMA threads = 2");
        // Multi-row INSERTs keep a statement journal (to undo a half-done statement); with 16 KiB
        // pages it outgrew SQLite's in-memory limit and spilled to a temp file: ~220k write calls
        // per million events. In memory it costs a few pages per statement: 12% faster imports.
        db.exec("PRAGMA temp_store = MEMORY");
    } else {
        db.exec("PRAGMA query_only = ON");
    }
}

} // namespace

void Workspace::applyJournal(SqliteDb &db, const FileSystemInfo &fs)
{
    if (fs.network) {
        // The write-ahead log needs shared memory every connection maps and locks that work, which a
        // network file system does not give reliably: a rollback journal, synced in full.
        try {
            db.exec("PRAGMA journal_mode = DELETE");
        } catch (const SqlError &) {
            // Another connection holds the log open: it stays in WAL until the last one closes.
        }
        db.exec("PRAGMA synchronous = FULL");
        return;
    }
    db.exec("PRAGMA journal_mode = WAL");
    // NORMAL is durable across application crashes in WAL mode; only a power loss can lose the last
    // commits, never corrupt the file.
    db.exec("PRAGMA synchronous = NORMAL");
}

QString Workspace::fileSystemNote(const QString &path, const FileSystemInfo &fs)
{
    if (!fs.network)
        return {};
    return QStringLiteral("%1 is on a network file system (%2): written with a rollback journal instead of "
                          "SQLite's write-ahead log, one writer at a time; readers wait while it writes")
        .arg(path, fs.name);
}

QString Workspace::readOnlyReason(const QString &path)
{
    const QFileInfo info(path);
    const auto denied = [](const QString &what) {
        return errno == EROFS ? QStringLiteral("its file system is mounted read-only")
                              : QStringLiteral("no write permission on %1").arg(what);
    };
    if (info.exists() && ::access(QFile::encodeName(info.absoluteFilePath()).constData(), W_OK) != 0)
        return denied(QStringLiteral("the file"));
    // SQLite makes its log (-wal, -shm; a -journal on a network file system) beside the file: the folder
    // must be writable unless the log's files are there already and writable. A workspace to create: the
    // nearest folder that exists.
    QDir dir = info.absoluteDir();
    while (!dir.exists() && !dir.isRoot())
        dir.setPath(QFileInfo(dir.absolutePath()).absolutePath());
    if (::access(QFile::encodeName(dir.absolutePath()).constData(), W_OK) == 0)
        return {};
    const int folderErrno = errno;
    if (info.exists()) {
        const QByteArray wal = QFile::encodeName(info.absoluteFilePath() + QStringLiteral("-wal"));
        const QByteArray shm = QFile::encodeName(info.absoluteFilePath() + QStringLiteral("-shm"));
        if (::access(wal.constData(), W_OK) == 0 && ::access(shm.constData(), W_OK) == 0)
            return {};
    }
    errno = folderErrno;
    return denied(QStringLiteral("its folder %1").arg(QDir::toNativeSeparators(dir.absolutePath())));
}

std::chrono::seconds Workspace::writeWait()
{
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("PLUMB_WRITE_WAIT", &ok);
    return std::chrono::seconds(ok && seconds >= 0 ? seconds : 300);
}

Workspace::Workspace(const QString &path, Role role)
    : m_role(role)
{
    if (role != Role::Reader) {
        if (const QString why = readOnlyReason(path); !why.isEmpty())
            throw SqlError(
                QStringLiteral("%1 is read-only (%2): it can be opened for reading, but nothing can be "
                               "imported into it or changed")
                    .arg(path, why),
                SQLITE_READONLY);
        const QFileInfo info(path);
        if (!info.absoluteDir().exists())
            QDir().mkpath(info.absolutePath());
        const bool isNew = !QFileInfo::exists(path) || QFileInfo(path).size() == 0;
        m_db = SqliteDb(path, SqliteDb::OpenMode::ReadWriteCreate);
        // Larger pages: fewer b-tree levels and write calls for tables of millions of rows.
        if (isNew)
            m_db.exec("PRAGMA page_size = " + std::to_string(kPageSize));
    } else {
        if (!QFileInfo::exists(path))
            throw SqlError(QStringLiteral("workspace %1 does not exist").arg(path), SQLITE_CANTOPEN);
        // Readers open read-write at the file level so that WAL recovery works, and set query_only. A
        // workspace this process may not write opens read-only: SQLite reads its log when the -wal and -shm
        // files exist or can be made; otherwise (a folder it may not write, no log beside the file) the
        // file is whole by itself and opens immutable.
        m_readOnly = !readOnlyReason(path).isEmpty();
        const QString log = path + QStringLiteral("-wal");
        const bool logCanExist = QFileInfo::exists(log) && QFileInfo::exists(path + QStringLiteral("-shm"));
        const bool folderWritable
            = ::access(QFile::encodeName(QFileInfo(path).absolutePath()).constData(), W_OK) == 0;
        m_db = SqliteDb(path,
            !m_readOnly                         ? SqliteDb::OpenMode::ReadWrite
                : logCanExist || folderWritable ? SqliteDb::OpenMode::ReadOnly
                                                : SqliteDb::OpenMode::ReadOnlyImmutable);
    }
    // Another program's SQLite file given as the workspace (an Nsight export, say) is refused before any
    // setting is made on it: journal_mode = WAL alone rewrites its header.
    const int version = schemaVersion();
    if (version == 0
        && m_db.queryInt("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") > 0)
        throw SqlError(
            QStringLiteral("%1 is an SQLite file but not a Plumb workspace").arg(path), SQLITE_NOTADB);
    applyConnectionSettings(m_db, role);
    if (version > currentSchemaVersion())
        throw SqlError(
            QStringLiteral("%1 was written by a newer Plumb (schema %2, this build reads up to %3)")
                .arg(path)
                .arg(version)
                .arg(currentSchemaVersion()),
            SQLITE_MISMATCH);
    if (role != Role::Reader) {
        migrate(m_db);
    } else if (version > 0 && version < currentSchemaVersion()) {
        // A workspace from an older build: readers query today's schema, so upgrade it first
        // through a short-lived writer connection.
        if (m_readOnly)
            throw SqlError(
                QStringLiteral("%1 was written by an older Plumb (schema %2; this build reads %3) and is "
                               "read-only (%4): it cannot be upgraded where it is; copy it to a folder "
                               "you can write and open the copy")
                    .arg(path)
                    .arg(version)
                    .arg(currentSchemaVersion())
                    .arg(readOnlyReason(path)),
                SQLITE_READONLY);
        Workspace upgrade(path, Role::Writer);
    }
}

int Workspace::schemaVersion()
{
    return int(m_db.queryInt("PRAGMA user_version"));
}

int Workspace::currentSchemaVersion()
{
    return int(schemaMigrations().size());
}

bool Workspace::needsUpgrade(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return false;
    try {
        SqliteDb db(path, SqliteDb::OpenMode::ReadOnly);
        const int64_t version = db.queryInt("PRAGMA user_version");
        return version > 0 && version < currentSchemaVersion();
    } catch (const SqlError &) {
        return false;
    }
}

QString Workspace::defaultPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share");
    return dir + QStringLiteral("/Plumb/default.plumb");
}

// The schema version that added slice_lod: workspaces from before get their summaries built.
static constexpr int kSliceSummariesVersion = 4;
static constexpr int kCounterSummariesVersion = 5;

void Workspace::migrate(SqliteDb &db)
{
    const auto &migrations = schemaMigrations();
    int version = int(db.queryInt("PRAGMA user_version"));
    if (version == 0 && db.queryInt("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") > 0)
        throw SqlError(
            QStringLiteral("%1 is an SQLite file but not a Plumb workspace").arg(db.path()), SQLITE_NOTADB);
    const int from = version;
    for (; version < int(migrations.size()); ++version) {
        SqliteTransaction tx(db);
        db.exec(migrations[size_t(version)]);
        if (version + 1 == kSliceSummariesVersion && from > 0)
            buildMissingSliceSummaries(db);
        if (version + 1 == kCounterSummariesVersion && from > 0)
            buildMissingCounterSummaries(db);
        db.exec("PRAGMA user_version = " + std::to_string(version + 1));
        tx.commit();
    }
}

} // namespace plumb
