#pragma once

#include "foreignsqlitedb.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plumb {

// The rows of one foreign table, columns as selected, in the order of
// `ORDER BY ascending..., descending DESC` with ties in storage (rowid) order, as SQLite's sorter
// returns them.
//
// A table whose selected columns fit `memoryBudget` is read in one storage-order scan and sorted in
// memory (a key array and std::sort: about 3x cheaper than SQLite's sorter, which compares whole
// records through the VDBE and spills to temporary files past the cache size). A larger table is
// read through SQLite's ORDER BY instead, so memory stays bounded whatever the export's size.
// NULL sorts first ascending and last descending, as in SQLite; values of a column are compared
// as the integers integer() returns.
//
// The reader owns its connection, so load() may run on another thread while other readers are
// consumed (one thread at a time per reader).
class SortedTableReader {
public:
    struct Column {
        std::string sql;   // a select-list entry (a quoted column name)
        bool text = false; // read with text()
        bool real = false; // read with real(); else integer()
    };

    // Prepares the statement (a bad layout fails here, before anything is read). `ascending` and
    // `descending` are indexes into `columns`; `descending` may be -1. `estimatedRows` sizes the
    // in-memory decision; `onRows` is called every few thousand rows of the in-memory scan (it may
    // throw to abandon the load). `where`, when given, is an SQL condition that selects the rows read
    // (a rowid range: see NsysReader::openCursors()).
    SortedTableReader(std::unique_ptr<ForeignSqliteDb> db, const std::string &table, std::vector<Column> columns,
                      std::vector<int> ascending, int descending, int64_t estimatedRows, size_t memoryBudget,
                      std::function<void()> onRows = {}, const std::string &where = {});

    // Reads and sorts the table (or runs the ORDER BY up to its first row); next() calls it when
    // nobody did. Throws ImportError when the table cannot be read.
    void load();
    // Moves to the next row; false after the last.
    [[nodiscard]] bool next();
    [[nodiscard]] bool isNull(int col) const;
    [[nodiscard]] int64_t integer(int col) const;
    [[nodiscard]] double real(int col) const; // a Column::real column; not a sort key
    [[nodiscard]] std::string_view text(int col) const;
    [[nodiscard]] bool inMemory() const { return m_inMemory; }

    // Bytes one row of `columns` columns takes when sorted in memory (for the budget).
    [[nodiscard]] static size_t bytesPerRow(size_t columns);

private:
    void readAll();
    void release();

    std::vector<Column> m_columns;
    std::vector<int> m_ascending;
    int m_descending = -1;
    std::function<void()> m_onRows;
    std::unique_ptr<ForeignSqliteDb> m_db;       // released once the rows are in memory or read
    std::unique_ptr<ForeignSqliteDb::Stmt> m_stmt; // on m_db
    bool m_inMemory = false;
    bool m_loaded = false;
    bool m_pendingRow = false; // ORDER BY: load() stepped to the first row, next() has not returned it

    // In memory: row-major values (text columns hold an offset into m_text), NULL bits per row, and
    // the sorted row order.
    int64_t m_estimatedRows = 0;
    size_t m_width = 0;
    std::vector<int64_t> m_values;
    std::vector<uint32_t> m_nulls;
    std::string m_text; // per text value: 4-byte length, then the bytes
    std::vector<uint32_t> m_order;
    size_t m_next = 0; // index into m_order of the row next() moves to
    const int64_t *m_row = nullptr;
    uint32_t m_rowNulls = 0;
};

} // namespace plumb
