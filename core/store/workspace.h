// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/sqlitedb.h"

#include <QString>

#include <chrono>

namespace plumb {

// A Plumb workspace: one SQLite file (WAL; a rollback journal on a network file system) holding every
// imported source and what was read from it.
//
// The schema is versioned with PRAGMA user_version; migrations in schema.cpp run in order on open.
// Each Workspace object owns one connection: the import thread opens its own (Writer), views and the
// CLI open Reader connections, so a long import never blocks reading what is already committed.
struct FileSystemInfo;

class Workspace {
public:
    // Builder: a writer of a new workspace that no other connection opens until it is complete (the
    // import's scratch build): the schema is written with the rollback journal in memory and no syncs,
    // and its owner switches the file to WAL (journal_mode = WAL) and syncs it when done.
    enum class Role { Writer, Reader, Builder };

    // Opens (Writer, Builder: creates and migrates if needed) the workspace at `path`. Throws SqlError.
    Workspace(const QString &path, Role role);

    [[nodiscard]] SqliteDb &db() { return m_db; }
    [[nodiscard]] QString path() const { return m_db.path(); }
    [[nodiscard]] Role role() const { return m_role; }
    // A Reader of a workspace this process may not write (readOnlyReason()): opened read-only at the file
    // level, without locks where no -shm file can be made beside it.
    [[nodiscard]] bool readOnly() const { return m_readOnly; }
    [[nodiscard]] int schemaVersion();

    // Why this process cannot write the workspace at `path`: "no write permission on the file", "no
    // write permission on its folder /data" (where SQLite keeps its log), "its file system is mounted
    // read-only"; empty when it can (for a path that does not exist yet: when it can be created). Every
    // opener goes by it: a Writer refuses such a workspace with that reason, a Reader opens it read-only.
    [[nodiscard]] static QString readOnlyReason(const QString &path);
    // How long a writer waits for another process writing the same workspace before giving up:
    // PLUMB_WRITE_WAIT seconds where set, else 300 s.
    [[nodiscard]] static std::chrono::seconds writeWait();

    // The schema version this build writes.
    [[nodiscard]] static int currentSchemaVersion();
    // Whether opening the workspace at `path` will first upgrade it (a workspace of an older schema):
    // for saying so while it happens. False for anything else, unreadable or not a workspace included.
    [[nodiscard]] static bool needsUpgrade(const QString &path);
    // ~/.local/share/Plumb/default.plumb (QStandardPaths::AppDataLocation), folder created on demand.
    [[nodiscard]] static QString defaultPath();
    // Migrates `db` from its user_version to the current one, each step in its own transaction.
    static void migrate(SqliteDb &db);
    // The journal every writer of a workspace on `fs` uses: the write-ahead log on a local file system, a
    // rollback journal on a network one (store/filesystem.h).
    static void applyJournal(SqliteDb &db, const FileSystemInfo &fs);
    // What to tell the user, once, about a workspace at `path` on `fs`: empty on a local file system.
    [[nodiscard]] static QString fileSystemNote(const QString &path, const FileSystemInfo &fs);

private:
    SqliteDb m_db;
    Role m_role;
    bool m_readOnly = false;
};

} // namespace plumb
