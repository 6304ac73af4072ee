// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace plumb {

// An SQLite error with the statement or operation that failed.
class SqlError : public std::runtime_error {
public:
    SqlError(const QString &what, int code);
    [[nodiscard]] int code() const { return m_code; }
    [[nodiscard]] QString message() const { return QString::fromUtf8(what()); }

private:
    int m_code;
};

// Owns one sqlite3 connection. Not thread-safe: one thread uses a connection at a time.
class SqliteDb {
public:
    // ReadOnlyImmutable: read-only, and nothing changes the file while it is open (a workspace in a folder
    // this process may not write, with no log beside it): SQLite takes no lock and needs no -shm file.
    enum class OpenMode { ReadWrite, ReadWriteCreate, ReadOnly, ReadOnlyImmutable };

    SqliteDb();
    SqliteDb(const QString &path, OpenMode mode);
    ~SqliteDb();
    SqliteDb(SqliteDb &&other) noexcept;
    SqliteDb &operator=(SqliteDb &&other) noexcept;
    SqliteDb(const SqliteDb &) = delete;
    SqliteDb &operator=(const SqliteDb &) = delete;

    [[nodiscard]] bool isOpen() const { return m_db != nullptr; }
    [[nodiscard]] sqlite3 *handle() const { return m_db; }
    // Makes the statement running on this connection, from any thread, fail with SQLITE_INTERRUPT
    // (and so throw SqlError); nothing when none is running.
    void interrupt() const;
    [[nodiscard]] QString path() const { return m_path; }

    // How long a statement waits for a lock another connection holds (SQLITE_BUSY: another process
    // writing the workspace) before it fails, and what it tells meanwhile: `onWait` is called about once a
    // second with the seconds waited so far; returning false stops waiting (a cancel). The default is
    // 10 s, silent.
    using WaitFn = std::function<bool(double waitedSeconds)>;
    void setBusyWait(std::chrono::milliseconds limit, WaitFn onWait = {});

    // Runs one or more statements without results. Throws SqlError.
    void exec(std::string_view sql);
    // First column of the first row as int64, or `fallback` when there is no row or it is NULL.
    [[nodiscard]] int64_t queryInt(std::string_view sql, int64_t fallback = 0);

    struct BusyWait;

private:
    sqlite3 *m_db = nullptr;
    QString m_path;
    std::unique_ptr<BusyWait> m_busy; // the busy handler's state, at a fixed address across moves
};

// A prepared statement. Bind indexes are 1-based as in SQLite; column indexes 0-based.
class SqliteStmt {
public:
    SqliteStmt() = default;
    SqliteStmt(SqliteDb &db, std::string_view sql);
    ~SqliteStmt();
    SqliteStmt(SqliteStmt &&other) noexcept;
    SqliteStmt &operator=(SqliteStmt &&other) noexcept;
    SqliteStmt(const SqliteStmt &) = delete;
    SqliteStmt &operator=(const SqliteStmt &) = delete;

    SqliteStmt &bind(int index, int64_t value);
    SqliteStmt &bind(int index, int value) { return bind(index, int64_t(value)); }
    SqliteStmt &bind(int index, double value);
    SqliteStmt &bind(int index, std::string_view utf8);
    SqliteStmt &bind(int index, const QString &value);
    SqliteStmt &bindNull(int index);
    SqliteStmt &bindBlob(int index, const void *data, size_t size);

    // Steps once: true when a row is available, false when done. Throws SqlError.
    bool step();
    // Steps to completion (for statements without results) and resets.
    void run();
    void reset();
    // Reset for the next step when every parameter is bound again anyway (hot insert loops).
    void resetKeepBindings();

    [[nodiscard]] int64_t columnInt(int col) const;
    [[nodiscard]] double columnDouble(int col) const;
    [[nodiscard]] QString columnText(int col) const;
    [[nodiscard]] std::string_view columnView(int col) const;
    [[nodiscard]] bool columnIsNull(int col) const;
    // Bytes of a BLOB column, valid until the next step() or reset.
    [[nodiscard]] std::string_view columnBlob(int col) const;
    [[nodiscard]] int columnCount() const;
    [[nodiscard]] QString columnName(int col) const;

private:
    sqlite3_stmt *m_stmt = nullptr;
    sqlite3 *m_db = nullptr;
};

// RAII transaction: BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() ran.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteDb &db);
    ~SqliteTransaction();
    void commit();

private:
    SqliteDb &m_db;
    bool m_done = false;
};

// RAII read transaction: BEGIN (deferred) on construction, so that the statements run until its end
// share one read lock and one snapshot instead of taking and checking the file lock each (each
// statement outside a transaction is a transaction of its own); COMMIT on destruction. Does nothing
// on a connection already in a transaction (a writer's own, or an outer read transaction).
class SqliteReadTransaction {
public:
    explicit SqliteReadTransaction(SqliteDb &db);
    ~SqliteReadTransaction();
    SqliteReadTransaction(const SqliteReadTransaction &) = delete;
    SqliteReadTransaction &operator=(const SqliteReadTransaction &) = delete;

private:
    SqliteDb &m_db;
    bool m_began = false;
};

} // namespace plumb
