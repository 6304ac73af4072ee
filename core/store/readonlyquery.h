// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>
#include <stdexcept>

namespace plumb {

class SqliteDb;

// Why a statement given to ReadOnlyQuery did not run: refused (it would write, attach a database,
// change a setting or load an extension) or not valid SQL; the message says which and quotes it.
class QueryError : public std::runtime_error {
public:
    QueryError(const QString &message, bool refused);
    [[nodiscard]] QString message() const { return QString::fromUtf8(what()); }
    [[nodiscard]] bool refused() const { return m_refused; }

private:
    bool m_refused;
};

// One SQL statement run for `plumb query` on a connection that only reads. Besides the connection's
// PRAGMA query_only (a Workspace Reader sets it), an SQLite authorizer installed for the object's
// lifetime refuses, when the statement is prepared: INSERT, UPDATE, DELETE, CREATE, DROP, ALTER and
// the other statements that write (temporary objects included), transactions and savepoints,
// ATTACH and DETACH, every PRAGMA but those that only read (table_info and the like, and settings
// read without a value), and the function load_extension(); extension loading is also switched off
// on the connection. The public views (docs/sql.md) and the tables under them may be read.
class ReadOnlyQuery {
public:
    explicit ReadOnlyQuery(SqliteDb &db);
    ~ReadOnlyQuery();
    ReadOnlyQuery(const ReadOnlyQuery &) = delete;
    ReadOnlyQuery &operator=(const ReadOnlyQuery &) = delete;

    // Prepares `sql`: one statement, a final ';' and comments allowed. Throws QueryError.
    void prepare(const QString &sql);
    // The result's column names, in order (empty for a statement without results).
    [[nodiscard]] QStringList columns() const;
    // The next row into `row`: per column a null QVariant (NULL), qint64, double, QString or
    // QByteArray (a BLOB). False when there is none left. Throws QueryError (a run-time error).
    bool next(QVariantList &row);

    struct State;

private:
    SqliteDb &m_db;
    std::unique_ptr<State> m_state;
};

} // namespace plumb
