// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/foreignsqlitedb.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importerror.h"

#include <QFile>
#include <QFileInfo>
#include <QUrl>

#include <sqlite3.h>

namespace plumb {

namespace {

// What statements on a foreign file may do: read tables, call functions, run the pragmas below.
int authorize(void *, int action, const char *arg1, const char *, const char *, const char *)
{
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        for (const char *allowed : { "table_info", "query_only", "cell_size_check", "cache_size" })
            if (arg1 && sqlite3_stricmp(arg1, allowed) == 0)
                return SQLITE_OK;
        return SQLITE_DENY;
    default: // ATTACH, DETACH, writes, schema changes, transactions, recursive queries
        return SQLITE_DENY;
    }
}

constexpr int kMaxValueBytes = 256 * 1024 * 1024;

std::string quoteString(std::string_view text)
{
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out.push_back('\'');
        out.push_back(c);
    }
    out.push_back('\'');
    return out;
}

} // namespace

QStringList writeAheadLogOf(const QString &path)
{
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (wal.exists() && wal.size() > 0)
        return { wal.absoluteFilePath() };
    return {};
}

QString storeOfWriteAheadLog(const QString &path)
{
    if (!path.endsWith(QLatin1String("-wal")))
        return {};
    const QString store = path.chopped(4);
    return QFileInfo::exists(store) ? QFileInfo(store).absoluteFilePath() : QString();
}

void noteWriteAheadLog(const ForeignSqliteDb &db, DiagnosticLog &diagnostics)
{
    if (db.walBytes() > 0)
        diagnostics.report(Severity::Info, QStringLiteral("write-ahead-log"), {},
            QStringLiteral("%1 is in WAL mode and was read with its write-ahead log (%2 bytes of "
                           "commits not yet in the file); neither was changed.")
                .arg(db.fileName())
                .arg(db.walBytes()));
}

std::string quoteIdentifier(std::string_view name)
{
    std::string out = "\"";
    for (const char c : name) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

QByteArray ForeignSqliteDb::immutableUri(const QString &path)
{
    return "file:" + QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/")
        + "?mode=ro&immutable=1";
}

ForeignSqliteDb::ForeignSqliteDb(const QString &path)
    : m_fileName(QFileInfo(path).fileName())
{
    // immutable=1: SQLite takes no locks and never looks for a journal or WAL beside the file, so
    // an export on a read-only share or one another tool holds open reads the same.
    const QString file = QFileInfo(path).absoluteFilePath();
    QByteArray uri = immutableUri(file);
    const QFileInfo wal(file + QStringLiteral("-wal"));
    if (wal.exists() && wal.size() > 0) {
        // The log is read from a copy: replaying it needs a -shm index beside the file, which a
        // read-only open of the original would have to create (or could not, on a read-only share).
        m_copy = std::make_unique<QTemporaryDir>();
        const QString copy = m_copy->filePath(QStringLiteral("store.sqlite"));
        if (!m_copy->isValid() || !QFile::copy(file, copy)
            || !QFile::copy(wal.absoluteFilePath(), copy + QStringLiteral("-wal")))
            throw ImportError(
                QStringLiteral("%1 has a write-ahead log (%2-wal) that could not be copied to a "
                               "temporary folder to be read with it; nothing was imported")
                    .arg(m_fileName, m_fileName));
        m_walBytes = wal.size();
        // Our copy: SQLite may write its -shm and fold the log in on close.
        uri = "file:" + QUrl::toPercentEncoding(copy, "/") + "?mode=rw";
    }
    const int rc = sqlite3_open_v2(uri.constData(), &m_db,
        (m_copy ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
        nullptr);
    if (rc != SQLITE_OK) {
        const QString why = QString::fromUtf8(m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
        sqlite3_close(m_db);
        m_db = nullptr;
        throw ImportError(
            QStringLiteral("%1 cannot be opened as an SQLite database: %2").arg(m_fileName, why));
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(m_db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    // The ORDER BY sorts stay in memory up to the cache size and spill to temporary files beyond it,
    // so memory stays bounded whatever the export's size.
    sqlite3_exec(m_db, "PRAGMA query_only = 1; PRAGMA cell_size_check = 1; PRAGMA cache_size = -32768",
        nullptr, nullptr, nullptr);
    sqlite3_set_authorizer(m_db, &authorize, nullptr);
}

ForeignSqliteDb::~ForeignSqliteDb()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

void ForeignSqliteDb::fail(std::string_view table, std::string_view what) const
{
    const QString err = QString::fromUtf8(what.data(), qsizetype(what.size()));
    if (table.empty())
        throw ImportError(
            QStringLiteral("%1 cannot be read as an SQLite database (%2): the file is damaged or "
                           "truncated; nothing was imported")
                .arg(m_fileName, err));
    const QString t = QString::fromUtf8(table.data(), qsizetype(table.size()));
    throw ImportError(QStringLiteral("%1 is damaged: reading table %2 failed (%3); nothing from it was kept")
                          .arg(m_fileName, t, err),
        QStringLiteral("table %1").arg(t));
}

std::vector<std::string> ForeignSqliteDb::tables()
{
    std::vector<std::string> out;
    Stmt st(*this, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", {});
    while (st.step())
        out.emplace_back(st.text(0));
    return out;
}

std::vector<std::string> ForeignSqliteDb::columns(std::string_view table)
{
    return tableInfo(table, false);
}

std::vector<std::string> ForeignSqliteDb::notNullColumns(std::string_view table)
{
    return tableInfo(table, true);
}

std::vector<std::string> ForeignSqliteDb::tableInfo(std::string_view table, bool onlyNotNull)
{
    std::vector<std::string> out;
    {
        Stmt isTable(*this,
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = " + quoteString(table), table);
        if (!isTable.step())
            return out;
    }
    // cid, name, type, notnull, dflt_value, pk
    Stmt st(*this, "PRAGMA table_info(" + quoteIdentifier(table) + ")", table);
    while (st.step())
        if (!onlyNotNull || st.integer(3) != 0)
            out.emplace_back(st.text(1));
    return out;
}

ForeignSqliteDb::Stmt::Stmt(ForeignSqliteDb &db, const std::string &sql, std::string_view table)
    : m_db(db)
    , m_table(table)
{
    if (sqlite3_prepare_v2(db.m_db, sql.c_str(), int(sql.size()), &m_stmt, nullptr) != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(db.m_db);
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        db.fail(m_table, why);
    }
}

ForeignSqliteDb::Stmt::~Stmt()
{
    sqlite3_finalize(m_stmt);
}

bool ForeignSqliteDb::Stmt::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_db.fail(m_table, sqlite3_errmsg(m_db.m_db));
}

void ForeignSqliteDb::Stmt::reset()
{
    sqlite3_reset(m_stmt);
}

void ForeignSqliteDb::Stmt::bind(int index, int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

bool ForeignSqliteDb::Stmt::isNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

int64_t ForeignSqliteDb::Stmt::integer(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}

double ForeignSqliteDb::Stmt::real(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}

std::string_view ForeignSqliteDb::Stmt::text(int col) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(m_stmt, col))) : std::string_view();
}

int ForeignSqliteDb::Stmt::type(int col) const
{
    return sqlite3_column_type(m_stmt, col);
}

int ForeignSqliteDb::Stmt::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}

std::string_view ForeignSqliteDb::Stmt::columnName(int col) const
{
    const char *n = sqlite3_column_name(m_stmt, col);
    return n ? std::string_view(n) : std::string_view();
}

} // namespace plumb
