// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/sqlitedb.h"
#include "store/lockholder.h"
#include "store/sqlitestate.h"

#include <QFileInfo>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>

namespace plumb {

namespace {

// A write that failed for want of room (ENOSPC; EFBIG past a file size limit, which SQLite reports
// as an I/O error on write): the statement it happened in says nothing useful to the user, the cause does.
QString noRoom(int code)
{
    if ((code & 0xff) == SQLITE_FULL)
        return QStringLiteral("the disk is full (SQLite: %1)").arg(QString::fromUtf8(sqlite3_errstr(code)));
    for (const int write :
        { SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, SQLITE_IOERR_TRUNCATE, SQLITE_IOERR_SHMSIZE })
        if (code == write)
            return QStringLiteral(
                "a write failed: the disk may be full or a file size limit reached (SQLite: %1)")
                .arg(QString::fromUtf8(sqlite3_errstr(code)));
    return {};
}

} // namespace

SqlError::SqlError(const QString &what, int code)
    : std::runtime_error((noRoom(code).isEmpty() ? what : noRoom(code)).toStdString())
    , m_code(code)
{
}

// Locked past the wait (SqliteDb::setBusyWait): say by whom, which is what the user can act on.
static QString withLockHolder(sqlite3 *db, int rc, const QString &sqlite)
{
    if (!db || (rc & 0xff) != SQLITE_BUSY)
        return sqlite;
    const char *file = sqlite3_db_filename(db, "main");
    const QString path = file ? QString::fromUtf8(file) : QString();
    const QString holder = path.isEmpty() ? QString() : writeLockHolder(path);
    return QStringLiteral("%1 is being written by %2, which kept it locked for longer than this waits (%3)")
        .arg(path.isEmpty() ? QStringLiteral("the database") : path,
            holder.isEmpty() ? QStringLiteral("another program") : holder, sqlite);
}

static QString describe(sqlite3 *db, std::string_view context)
{
    return withLockHolder(db, db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM,
        QStringLiteral("SQLite: %1 (in: %2)")
            .arg(QString::fromUtf8(db ? sqlite3_errmsg(db) : "out of memory"),
                QString::fromUtf8(context.data(), qsizetype(std::min<size_t>(context.size(), 200)))));
}

struct SqliteDb::BusyWait {
    std::chrono::milliseconds limit;
    WaitFn onWait;
    std::chrono::steady_clock::time_point since; // of this wait (SQLite counts the calls from 0 for each)
    std::chrono::steady_clock::time_point told; // when onWait was last called

    static int handler(void *self, int count)
    {
        auto &w = *static_cast<BusyWait *>(self);
        const auto now = std::chrono::steady_clock::now();
        if (count == 0)
            w.since = w.told = now;
        const auto waited = now - w.since;
        if (waited >= w.limit)
            return 0;
        if (w.onWait && now - w.told >= std::chrono::seconds(1)) {
            w.told = now;
            if (!w.onWait(std::chrono::duration<double>(waited).count()))
                return 0;
        }
        // Short sleeps first (a commit takes milliseconds), then 50 ms: a waiting import costs nothing.
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(1 + count, 50)));
        return 1;
    }
};

SqliteDb::SqliteDb() = default;

SqliteDb::SqliteDb(const QString &path, OpenMode mode)
    : m_path(path)
{
    // Before SQLite's first use: no global memory statistics, whose mutex every allocation takes.
    static std::once_flag configured;
    std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case OpenMode::ReadOnly:
    case OpenMode::ReadOnlyImmutable:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case OpenMode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case OpenMode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    // URIs on: `ATTACH` may name a file:...?immutable=1 (ForeignSqliteDb::immutableUri()). A path of
    // ours that begins with "file:" stays a path.
    flags |= SQLITE_OPEN_URI;
    const QByteArray utf8 = mode == OpenMode::ReadOnlyImmutable
        ? "file:" + QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/") + "?immutable=1"
        : (path.startsWith(QLatin1String("file:")) ? QStringLiteral("./") + path : path).toUtf8();
    const int rc = sqlite3_open_v2(utf8.constData(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const QString msg
            = QStringLiteral("cannot open %1: %2")
                  .arg(path, QString::fromUtf8(m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc)));
        sqlite3_close(m_db);
        m_db = nullptr;
        throw SqlError(msg, rc);
    }
    sqlite3_extended_result_codes(m_db, 1);
    setBusyWait(std::chrono::seconds(10));
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
}

SqliteDb::~SqliteDb()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

void SqliteDb::setBusyWait(std::chrono::milliseconds limit, WaitFn onWait)
{
    if (!m_busy)
        m_busy = std::make_unique<BusyWait>();
    m_busy->limit = limit;
    m_busy->onWait = std::move(onWait);
    if (m_db)
        sqlite3_busy_handler(m_db, &BusyWait::handler, m_busy.get());
}

SqliteDb::SqliteDb(SqliteDb &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
    , m_busy(std::move(other.m_busy))
{
}

SqliteDb &SqliteDb::operator=(SqliteDb &&other) noexcept
{
    if (this != &other) {
        if (m_db)
            sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
        m_busy = std::move(other.m_busy);
    }
    return *this;
}

void SqliteDb::exec(std::string_view sql)
{
    const std::string copy(sql);
    char *err = nullptr;
    const int rc = sqlite3_exec(m_db, copy.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        const QString msg = withLockHolder(m_db, rc,
            QStringLiteral("SQLite: %1 (in: %2)")
                .arg(QString::fromUtf8(err ? err : sqlite3_errstr(rc)),
                    QString::fromUtf8(copy.c_str()).left(200)));
        sqlite3_free(err);
        throw SqlError(msg, rc);
    }
}

int64_t SqliteDb::queryInt(std::string_view sql, int64_t fallback)
{
    SqliteStmt stmt(*this, sql);
    if (stmt.step() && !stmt.columnIsNull(0))
        return stmt.columnInt(0);
    return fallback;
}

SqliteStmt::SqliteStmt(SqliteDb &db, std::string_view sql)
    : m_db(db.handle())
{
    const int rc
        = sqlite3_prepare_v3(m_db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        throw SqlError(describe(m_db, sql), rc);
}

SqliteStmt::~SqliteStmt()
{
    sqlite3_finalize(m_stmt);
}

SqliteStmt::SqliteStmt(SqliteStmt &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(other.m_db)
{
}

SqliteStmt &SqliteStmt::operator=(SqliteStmt &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

SqliteStmt &SqliteStmt::bind(int index, int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

SqliteStmt &SqliteStmt::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

SqliteStmt &SqliteStmt::bind(int index, std::string_view utf8)
{
    sqlite3_bind_text(m_stmt, index, utf8.data(), int(utf8.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStmt &SqliteStmt::bind(int index, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStmt &SqliteStmt::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

bool SqliteStmt::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    const QString msg = describe(m_db, sqlite3_sql(m_stmt));
    sqlite3_reset(m_stmt);
    throw SqlError(msg, rc);
}

void SqliteStmt::run()
{
    while (step()) { }
    reset();
}

void SqliteStmt::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

void SqliteStmt::resetKeepBindings()
{
    sqlite3_reset(m_stmt);
}

int64_t SqliteStmt::columnInt(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}

QString SqliteStmt::columnText(int col) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return QString::fromUtf8(text, sqlite3_column_bytes(m_stmt, col));
}

std::string_view SqliteStmt::columnView(int col) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return text ? std::string_view(text, size_t(sqlite3_column_bytes(m_stmt, col))) : std::string_view();
}

double SqliteStmt::columnDouble(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}

std::string_view SqliteStmt::columnBlob(int col) const
{
    const auto *data = static_cast<const char *>(sqlite3_column_blob(m_stmt, col));
    return data ? std::string_view(data, size_t(sqlite3_column_bytes(m_stmt, col))) : std::string_view();
}

SqliteStmt &SqliteStmt::bindBlob(int index, const void *data, size_t size)
{
    sqlite3_bind_blob64(m_stmt, index, data, sqlite3_uint64(size), SQLITE_TRANSIENT);
    return *this;
}

bool SqliteStmt::columnIsNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

int SqliteStmt::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}

QString SqliteStmt::columnName(int col) const
{
    return QString::fromUtf8(sqlite3_column_name(m_stmt, col));
}

bool inWriteTransaction(const SqliteDb &db)
{
    return sqlite3_txn_state(db.handle(), nullptr) == SQLITE_TXN_WRITE;
}

SqliteTransaction::SqliteTransaction(SqliteDb &db)
    : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction()
{
    if (!m_done) {
        try {
            m_db.exec("ROLLBACK");
        } catch (const SqlError &) {
            // The transaction may already be gone (SQLite rolls back itself on some errors).
        }
    }
}

void SqliteTransaction::commit()
{
    m_db.exec("COMMIT");
    m_done = true;
}

SqliteReadTransaction::SqliteReadTransaction(SqliteDb &db)
    : m_db(db)
{
    if (sqlite3_get_autocommit(m_db.handle()) != 0) {
        m_db.exec("BEGIN");
        m_began = true;
    }
}

SqliteReadTransaction::~SqliteReadTransaction()
{
    if (!m_began)
        return;
    try {
        m_db.exec("COMMIT");
    } catch (const SqlError &) {
        // Nothing was written: a read transaction that cannot commit has nothing to lose.
    }
}

void SqliteDb::interrupt() const
{
    if (m_db)
        sqlite3_interrupt(m_db);
}

} // namespace plumb
