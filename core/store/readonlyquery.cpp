// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/readonlyquery.h"

#include "store/sqlitedb.h"

#include <sqlite3.h>

#include <array>
#include <string>

namespace plumb {

QueryError::QueryError(const QString &message, bool refused)
    : std::runtime_error(message.toStdString())
    , m_refused(refused)
{
}

struct ReadOnlyQuery::State {
    sqlite3_stmt *stmt = nullptr;
    std::string sql; // the statement, for messages
    QString refusal; // what the authorizer refused, when it did
};

namespace {

// PRAGMAs that only read, whatever their argument (an object name).
constexpr std::array kReadingPragmas = { "table_info", "table_xinfo", "table_list", "index_list",
    "index_info", "index_xinfo", "foreign_key_list", "foreign_key_check", "database_list", "collation_list",
    "function_list", "module_list", "pragma_list", "compile_options", "page_count", "freelist_count",
    "data_version", "integrity_check", "quick_check" };
// Settings that may be read (no value given) but not changed.
constexpr std::array kReadableSettings = { "user_version", "schema_version", "application_id", "page_size",
    "encoding", "journal_mode", "auto_vacuum", "query_only", "cache_size", "synchronous", "foreign_keys",
    "busy_timeout", "temp_store", "max_page_count", "mmap_size" };

template <size_t N> bool among(const std::array<const char *, N> &names, const char *name)
{
    for (const char *n : names)
        if (sqlite3_stricmp(n, name) == 0)
            return true;
    return false;
}

QString text(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

int authorize(void *context, int action, const char *a, const char *b, const char *, const char *)
{
    auto *state = static_cast<ReadOnlyQuery::State *>(context);
    auto refuse = [&](const QString &what) {
        if (state->refusal.isEmpty())
            state->refusal = what;
        return SQLITE_DENY;
    };
    // Reading a pragma as a table (SELECT * FROM pragma_table_info('kernels')) asks for an UPDATE of
    // a column of sqlite_master: ignored, not refused, since the schema table cannot be written
    // without PRAGMA writable_schema, which is refused.
    if (action == SQLITE_UPDATE && a && sqlite3_stricmp(a, "sqlite_master") == 0)
        return SQLITE_IGNORE;
    // DROP and ANALYZE first write the schema table.
    if ((action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE) && a
        && (sqlite3_stricmp(a, "sqlite_master") == 0 || sqlite3_stricmp(a, "sqlite_temp_master") == 0
            || sqlite3_strnicmp(a, "sqlite_stat", 11) == 0))
        return refuse(QStringLiteral("the statement changes the schema"));
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        // a: NULL, b: the function's name.
        if (b && sqlite3_stricmp(b, "load_extension") == 0)
            return refuse(QStringLiteral("load_extension() loads code into Plumb"));
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        // a: the pragma, b: its value or argument (NULL when none).
        if (a && among(kReadingPragmas, a))
            return SQLITE_OK;
        if (a && !b && among(kReadableSettings, a))
            return SQLITE_OK;
        return refuse(b && a && among(kReadableSettings, a)
                ? QStringLiteral("PRAGMA %1 = %2 changes a setting").arg(text(a), text(b))
                : QStringLiteral("PRAGMA %1 may change the workspace or the connection").arg(text(a)));
    case SQLITE_ATTACH:
        return refuse(QStringLiteral("ATTACH opens another database"));
    case SQLITE_DETACH:
        return refuse(QStringLiteral("DETACH changes the connection"));
    case SQLITE_INSERT:
        return refuse(QStringLiteral("INSERT into %1 writes").arg(text(a)));
    case SQLITE_UPDATE:
        return refuse(QStringLiteral("UPDATE of %1 writes").arg(text(a)));
    case SQLITE_DELETE:
        return refuse(QStringLiteral("DELETE from %1 writes").arg(text(a)));
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return refuse(QStringLiteral("transactions and savepoints are not needed to read"));
    default:
        // CREATE, DROP, ALTER, REINDEX, ANALYZE and virtual tables, temporary or not.
        return refuse(QStringLiteral("the statement changes the schema"));
    }
}

} // namespace

ReadOnlyQuery::ReadOnlyQuery(SqliteDb &db)
    : m_db(db)
    , m_state(std::make_unique<State>())
{
    sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_set_authorizer(db.handle(), authorize, m_state.get());
}

ReadOnlyQuery::~ReadOnlyQuery()
{
    sqlite3_finalize(m_state->stmt);
    sqlite3_set_authorizer(m_db.handle(), nullptr, nullptr);
}

void ReadOnlyQuery::prepare(const QString &sql)
{
    sqlite3_finalize(m_state->stmt);
    m_state->stmt = nullptr;
    m_state->refusal.clear();
    const QByteArray utf8 = sql.toUtf8();
    const char *tail = nullptr;
    sqlite3_stmt *stmt = nullptr;
    const int rc = sqlite3_prepare_v2(m_db.handle(), utf8.constData(), int(utf8.size()), &stmt, &tail);
    const size_t used = rc == SQLITE_OK && tail ? size_t(tail - utf8.constData()) : size_t(utf8.size());
    m_state->sql = QByteArray(utf8.constData(), qsizetype(used)).trimmed().toStdString();
    const QString quoted = QStringLiteral("\"%1\"").arg(QString::fromStdString(m_state->sql));
    if (rc != SQLITE_OK) {
        sqlite3_finalize(stmt);
        if (rc == SQLITE_AUTH || !m_state->refusal.isEmpty())
            throw QueryError(
                QStringLiteral("refused %1: plumb query only reads (%2)")
                    .arg(quoted,
                        m_state->refusal.isEmpty() ? QStringLiteral("not authorized") : m_state->refusal),
                true);
        throw QueryError(
            QStringLiteral("bad statement %1: %2").arg(quoted, text(sqlite3_errmsg(m_db.handle()))), false);
    }
    if (!stmt)
        throw QueryError(QStringLiteral("no statement to run in \"%1\"").arg(sql), false);
    m_state->stmt = stmt;
    // Anything after the first statement but comments and white space is a second statement.
    sqlite3_stmt *second = nullptr;
    const char *rest = tail;
    if (rest && *rest) {
        const int rc2 = sqlite3_prepare_v2(m_db.handle(), rest, -1, &second, nullptr);
        sqlite3_finalize(second);
        if (rc2 != SQLITE_OK || second)
            throw QueryError(QStringLiteral("one statement at a time: %1 is followed by \"%2\"")
                                 .arg(quoted, QString::fromUtf8(rest).trimmed()),
                false);
    }
}

QStringList ReadOnlyQuery::columns() const
{
    QStringList names;
    if (!m_state->stmt)
        return names;
    const int n = sqlite3_column_count(m_state->stmt);
    for (int i = 0; i < n; ++i)
        names << text(sqlite3_column_name(m_state->stmt, i));
    return names;
}

bool ReadOnlyQuery::next(QVariantList &row)
{
    row.clear();
    if (!m_state->stmt)
        return false;
    const int rc = sqlite3_step(m_state->stmt);
    if (rc == SQLITE_DONE)
        return false;
    if (rc != SQLITE_ROW) {
        const bool refused = rc == SQLITE_AUTH || rc == SQLITE_READONLY;
        throw QueryError(QStringLiteral("%1 \"%2\": %3")
                             .arg(refused ? QStringLiteral("refused") : QStringLiteral("statement failed"),
                                 QString::fromStdString(m_state->sql),
                                 refused ? QStringLiteral("plumb query only reads (%1)")
                                               .arg(text(sqlite3_errmsg(m_db.handle())))
                                         : text(sqlite3_errmsg(m_db.handle()))),
            refused);
    }
    sqlite3_stmt *st = m_state->stmt;
    const int n = sqlite3_column_count(st);
    row.reserve(n);
    for (int i = 0; i < n; ++i) {
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER:
            row << QVariant(qint64(sqlite3_column_int64(st, i)));
            break;
        case SQLITE_FLOAT:
            row << QVariant(sqlite3_column_double(st, i));
            break;
        case SQLITE_TEXT: {
            const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(st, i));
            row << QVariant(QString::fromUtf8(p, sqlite3_column_bytes(st, i)));
            break;
        }
        case SQLITE_BLOB: {
            const auto *p = static_cast<const char *>(sqlite3_column_blob(st, i));
            row << QVariant(QByteArray(p, sqlite3_column_bytes(st, i)));
            break;
        }
        default:
            row << QVariant();
        }
    }
    return true;
}

} // namespace plumb
