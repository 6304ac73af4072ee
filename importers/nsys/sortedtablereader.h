// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/foreignsqlitedb.h"

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
// records through the VDBE). A larger table is sorted the same way a budget's worth of rows at a
// time, each sorted run written to an unlinked temporary file, and the runs merged as next() reads
// them: memory stays bounded whatever the export's size, and load() does the sorting, so it can run
// ahead on a loader thread. (SQLite's ORDER BY remains for tables too wide or too many keys for that,
// or a budget too small for a run.)
// NULL sorts first ascending and last descending, as in SQLite; values of a column are compared
// as the integers integer() returns.
//
// The reader owns its connection, so load() may run on another thread while other readers are
// consumed (one thread at a time per reader).
class SortedTableReader {
public:
    struct Column {
        std::string sql; // a select-list entry (a quoted column name)
        bool text = false; // read with text()
        bool real = false; // read with real(); else integer()
    };

    // Prepares the statement (a bad layout fails here, before anything is read). `ascending` and
    // `descending` are indexes into `columns`; `descending` may be -1. `estimatedRows` sizes the
    // in-memory decision; `onRows` is called every few thousand rows of the in-memory scan (it may
    // throw to abandon the load). `where`, when given, is an SQL condition that selects the rows read
    // (a rowid range: see NsysReader::openCursors()).
    SortedTableReader(std::unique_ptr<ForeignSqliteDb> db, const std::string &table,
        std::vector<Column> columns, std::vector<int> ascending, int descending, int64_t estimatedRows,
        size_t memoryBudget, std::function<void()> onRows = {}, const std::string &where = {});
    ~SortedTableReader();

    // Reads and sorts the table (or runs the ORDER BY up to its first row); next() calls it when
    // nobody did. Throws ImportError when the table cannot be read.
    void load();
    // Moves to the next row; false after the last.
    [[nodiscard]] bool next();
    // Inline: the merge reads every value of every row through them.
    [[nodiscard]] bool isNull(int col) const
    {
        return m_mode != Mode::OrderBy ? (m_rowNulls >> col) & 1 : stmtIsNull(col);
    }
    [[nodiscard]] int64_t integer(int col) const
    {
        return m_mode != Mode::OrderBy ? ((m_rowNulls >> col) & 1 ? 0 : m_row[col]) : stmtInteger(col);
    }
    [[nodiscard]] double real(int col) const; // a Column::real column; not a sort key
    [[nodiscard]] std::string_view text(int col) const;
    [[nodiscard]] bool inMemory() const { return m_mode == Mode::InMemory; }
    [[nodiscard]] bool sortedInRuns() const { return m_mode == Mode::Runs; }
    [[nodiscard]] size_t runCount() const { return m_runs.size(); }
    // How many of the chunks sorted in memory were already in order within their groups (see
    // orderByGroups()).
    [[nodiscard]] size_t groupOrderedChunks() const { return m_groupOrderedChunks; }

    // Bytes one row of `columns` columns takes when sorted in memory (for the budget).
    [[nodiscard]] static size_t bytesPerRow(size_t columns);

private:
    enum class Mode { InMemory, Runs, OrderBy };
    struct Run;
    struct SortKey;

    [[nodiscard]] bool stmtIsNull(int col) const;
    [[nodiscard]] int64_t stmtInteger(int col) const;
    [[nodiscard]] SortKey keyOf(const int64_t *row, uint32_t nulls, uint32_t position) const;

    bool readChunk(size_t maxRows); // true when the table may have more rows
    void sortChunk();
    bool orderByGroups(const std::vector<SortKey> &keys);
    void spillChunk();
    void clearChunk();
    [[nodiscard]] bool runBefore(size_t a, size_t b) const;
    bool nextFromRuns();
    void release();

    std::vector<Column> m_columns;
    std::vector<int> m_ascending;
    int m_descending = -1;
    std::function<void()> m_onRows;
    std::unique_ptr<ForeignSqliteDb> m_db; // released once the rows are in memory or read
    std::unique_ptr<ForeignSqliteDb::Stmt> m_stmt; // on m_db
    Mode m_mode = Mode::OrderBy;
    size_t m_chunkRows = 0; // Runs: rows sorted in memory at a time
    size_t m_groupOrderedChunks = 0;
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
    const std::string *m_rowText = &m_text; // the text of m_row's text columns

    // Runs: the sorted runs in storage order, a min-heap of the runs that have a current row, and the
    // run whose row next() returned last (advanced on the following call).
    std::vector<std::unique_ptr<Run>> m_runs;
    std::vector<size_t> m_heap;
    size_t m_lastRun = SIZE_MAX;
};

} // namespace plumb
