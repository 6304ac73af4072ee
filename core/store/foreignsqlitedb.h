// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace plumb {

class DiagnosticLog;

// A foreign SQLite file (an Nsight Systems export, an MLflow or ML Metadata store), opened so that it can
// never be changed: read-only, immutable (no locks, no journal, no WAL lookups), extension loading off,
// defensive mode on, untrusted schema. Errors come back as ImportError naming the file and, where one is
// involved, the table.
//
// A crafted file can do nothing but be read: an authorizer lets statements only read (no ATTACH, no
// writes, no recursive queries, a few named pragmas), no database can be attached, one value is at
// most 256 MiB, the page cache is bounded, and the names of views are never read as tables (a view
// named like an Nsight table and defined as an endless recursive query cannot hang an import).
//
// A store in WAL mode that its service still has open keeps its latest commits in `<file>-wal`,
// which an immutable open would not see. Then the file and its log are copied into a temporary
// folder and the copy is opened instead (SQLite reads the log there; the user's files are never
// written, not even their -shm index): walBytes() says how much of the log was read.
class ForeignSqliteDb {
public:
    // Throws ImportError when the file cannot be opened as SQLite.
    explicit ForeignSqliteDb(const QString &path);
    // The URI that opens the file at `path` read-only and immutable (no locks, no journal looked for), as
    // this class opens a file without a write-ahead log; for `ATTACH ? AS name` on a connection that
    // takes URIs (SqliteDb's do).
    [[nodiscard]] static QByteArray immutableUri(const QString &path);
    ~ForeignSqliteDb();
    ForeignSqliteDb(const ForeignSqliteDb &) = delete;
    ForeignSqliteDb &operator=(const ForeignSqliteDb &) = delete;

    // A prepared statement over this connection; steps throw ImportError mentioning `table`.
    class Stmt {
    public:
        Stmt(ForeignSqliteDb &db, const std::string &sql, std::string_view table);
        ~Stmt();
        Stmt(const Stmt &) = delete;
        Stmt &operator=(const Stmt &) = delete;

        bool step();
        void reset();
        void bind(int index, int64_t value);
        [[nodiscard]] bool isNull(int col) const;
        [[nodiscard]] int64_t integer(int col) const;
        [[nodiscard]] double real(int col) const;
        [[nodiscard]] std::string_view text(int col) const;
        [[nodiscard]] int type(int col) const;
        [[nodiscard]] int columnCount() const;
        [[nodiscard]] std::string_view columnName(int col) const;

    private:
        ForeignSqliteDb &m_db;
        sqlite3_stmt *m_stmt = nullptr;
        std::string m_table;
    };

    // Table names from sqlite_master. Throws ImportError when the file is not a readable database.
    [[nodiscard]] std::vector<std::string> tables();
    // Column names of `table` (PRAGMA table_info), empty when there is no such table (a view of that
    // name is none).
    [[nodiscard]] std::vector<std::string> columns(std::string_view table);
    // The columns of `table` declared NOT NULL (empty when there is no such table).
    [[nodiscard]] std::vector<std::string> notNullColumns(std::string_view table);

    [[nodiscard]] QString fileName() const { return m_fileName; }
    // Bytes of `<file>-wal` read with the file (0: none beside it).
    [[nodiscard]] int64_t walBytes() const { return m_walBytes; }
    [[noreturn]] void fail(std::string_view table, std::string_view what) const;

private:
    [[nodiscard]] std::vector<std::string> tableInfo(std::string_view table, bool onlyNotNull);

    sqlite3 *m_db = nullptr;
    QString m_fileName;
    int64_t m_walBytes = 0;
    std::unique_ptr<QTemporaryDir> m_copy; // the file and its log, when it has one
};

// For importers of stores that may be in WAL mode: `<path>-wal` when it is there and not empty, as a
// companion file (Importer::companionFiles: its bytes are part of the source's identity, so commits
// that reached only the log import again), and the store a `-wal` file belongs to
// (Importer::companionOwner, for live mode).
[[nodiscard]] QStringList writeAheadLogOf(const QString &path);
[[nodiscard]] QString storeOfWriteAheadLog(const QString &path);
// An info diagnostic when `db` was read with its write-ahead log.
void noteWriteAheadLog(const ForeignSqliteDb &db, DiagnosticLog &diagnostics);

// "name" with embedded quotes doubled: a safe SQL identifier.
[[nodiscard]] std::string quoteIdentifier(std::string_view name);

} // namespace plumb
