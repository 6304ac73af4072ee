// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/sortedtablereader.h"

#include "ingest/importerror.h"

#include <QDir>
#include <QTemporaryFile>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <utility>

namespace plumb {

namespace {

constexpr size_t kMaxInMemoryColumns = 32; // NULL bits per row in one uint32_t
constexpr size_t kMaxSortKeys = 4;
constexpr int64_t kRowsPerCallback = 4096;
constexpr size_t kMinRunRows = 4096; // a smaller budget leaves the sorting to SQLite
constexpr qint64 kRunBufferBytes = 1 << 20; // read buffer per run while merging

} // namespace

// One row's sort key: the ascending values, then the descending one as ~value (which reverses the order:
// NULL, INT64_MIN, becomes the largest and so sorts last), the unused slots 0, and the storage position that
// breaks ties: a fixed-width comparison of plain integers, which std::sort inlines.
struct SortedTableReader::SortKey {
    int64_t k[kMaxSortKeys];
    uint32_t row;

    friend bool operator<(const SortKey &a, const SortKey &b)
    {
        for (size_t i = 0; i < kMaxSortKeys; ++i)
            if (a.k[i] != b.k[i])
                return a.k[i] < b.k[i];
        return a.row < b.row;
    }
};

size_t SortedTableReader::bytesPerRow(size_t columns)
{
    // values + NULL bits + order, plus the key array that lives while sorting
    return columns * sizeof(int64_t) + sizeof(uint32_t) * 2 + sizeof(SortKey);
}

SortedTableReader::SortedTableReader(std::unique_ptr<ForeignSqliteDb> db, const std::string &table,
    std::vector<Column> columns, std::vector<int> ascending, int descending, int64_t estimatedRows,
    size_t memoryBudget, std::function<void()> onRows, const std::string &where)
    : m_columns(std::move(columns))
    , m_ascending(std::move(ascending))
    , m_descending(descending)
    , m_onRows(std::move(onRows))
    , m_db(std::move(db))
    , m_estimatedRows(std::max<int64_t>(estimatedRows, 0))
    , m_width(m_columns.size())
{
    const size_t keys = m_ascending.size() + (m_descending >= 0 ? 1 : 0);
    const bool sortable = m_width <= kMaxInMemoryColumns && keys <= kMaxSortKeys && estimatedRows >= 0;
    const size_t fit = std::min<size_t>(memoryBudget / bytesPerRow(m_width), UINT32_MAX - 1);
    if (sortable && size_t(estimatedRows) <= fit) {
        m_mode = Mode::InMemory;
    } else if (sortable && keys > 0 && fit >= kMinRunRows) {
        m_mode = Mode::Runs;
        m_chunkRows = fit;
    }
    std::string sql = "SELECT ";
    for (size_t c = 0; c < m_columns.size(); ++c)
        sql += (c ? ", " : "") + m_columns[c].sql;
    sql += " FROM " + quoteIdentifier(table);
    if (!where.empty())
        sql += " WHERE " + where;
    if (m_mode == Mode::OrderBy && keys > 0) {
        sql += " ORDER BY ";
        for (size_t i = 0; i < m_ascending.size(); ++i)
            sql += (i ? ", " : "") + m_columns[size_t(m_ascending[i])].sql;
        if (m_descending >= 0)
            sql += (m_ascending.empty() ? "" : ", ") + m_columns[size_t(m_descending)].sql + " DESC";
    }
    m_stmt = std::make_unique<ForeignSqliteDb::Stmt>(*m_db, sql, table);
}

// A sorted run in its temporary file (unlinked once open: nothing is left behind, even by a crash),
// read back through a buffer; its current row decoded as the in-memory rows are laid out.
struct SortedTableReader::Run {
    QTemporaryFile file;
    int64_t rowsLeft = 0;
    std::string buf;
    size_t pos = 0;
    std::vector<int64_t> values;
    uint32_t nulls = 0;
    std::string text;

    // Makes `n` bytes available at buf[pos]; false at the end of the file.
    bool need(size_t n)
    {
        if (buf.size() - pos >= n)
            return true;
        buf.erase(0, pos);
        pos = 0;
        const size_t have = buf.size();
        const size_t want = std::max<size_t>(n - have, size_t(kRunBufferBytes));
        buf.resize(have + want);
        const qint64 got = file.read(buf.data() + have, qint64(want));
        buf.resize(have + size_t(std::max<qint64>(got, 0)));
        return buf.size() >= n;
    }
    template <typename T> T take()
    {
        T v;
        std::memcpy(&v, buf.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    }
    // Decodes the next row; false when the run is done.
    bool advance(const std::vector<SortedTableReader::Column> &columns)
    {
        if (rowsLeft <= 0)
            return false;
        --rowsLeft;
        text.clear();
        const auto require = [this](size_t n) {
            if (!need(n))
                throw ImportError(QStringLiteral("the temporary file %1 of a sorted run was cut short")
                                      .arg(file.fileName()));
        };
        require(sizeof(uint32_t));
        nulls = take<uint32_t>();
        for (size_t c = 0; c < columns.size(); ++c) {
            if (!columns[c].text) {
                require(sizeof(int64_t));
                values[c] = take<int64_t>();
                continue;
            }
            require(sizeof(uint32_t));
            const auto len = take<uint32_t>();
            require(len);
            values[c] = int64_t(text.size());
            text.append(reinterpret_cast<const char *>(&len), sizeof len);
            text.append(buf.data() + pos, len);
            pos += len;
        }
        return true;
    }
};

SortedTableReader::~SortedTableReader() = default;

bool SortedTableReader::readChunk(size_t maxRows)
{
    // Grown by doubling, the arrays would be copied and their pages faulted in about three times.
    const size_t expected = std::min<size_t>(size_t(m_estimatedRows), maxRows);
    m_values.reserve(expected * m_width);
    m_nulls.reserve(expected);
    size_t rows = 0;
    while (rows < maxRows && m_stmt->step()) {
        uint32_t nulls = 0;
        for (size_t c = 0; c < m_width; ++c) {
            const int col = int(c);
            if (m_columns[c].real) {
                const double v = m_stmt->real(col);
                if (v == 0 && m_stmt->isNull(col))
                    nulls |= uint32_t(1) << c;
                m_values.push_back(std::bit_cast<int64_t>(v));
            } else if (!m_columns[c].text) {
                // NULL reads as 0: only a 0 needs the type looked up (half the calls per value).
                const int64_t v = m_stmt->integer(col);
                if (v == 0 && m_stmt->isNull(col))
                    nulls |= uint32_t(1) << c;
                m_values.push_back(v);
            } else if (m_stmt->isNull(col)) {
                nulls |= uint32_t(1) << c;
                m_values.push_back(0);
            } else {
                const std::string_view s = m_stmt->text(col);
                const auto len = uint32_t(s.size());
                m_values.push_back(int64_t(m_text.size()));
                m_text.append(reinterpret_cast<const char *>(&len), sizeof len);
                m_text.append(s);
            }
        }
        m_nulls.push_back(nulls);
        if (++rows % size_t(kRowsPerCallback) == 0 && m_onRows)
            m_onRows();
    }
    return rows == maxRows;
}

// One row's sort key (see SortKey); `position` breaks ties (the row's place in storage order).
SortedTableReader::SortKey SortedTableReader::keyOf(
    const int64_t *row, uint32_t nulls, uint32_t position) const
{
    auto value = [&](int c) { return (nulls >> c) & 1 ? INT64_MIN : row[c]; };
    SortKey k {};
    const size_t nAsc = m_ascending.size();
    for (size_t i = 0; i < nAsc; ++i)
        k.k[i] = value(m_ascending[i]);
    if (m_descending >= 0)
        k.k[nAsc] = ~value(m_descending);
    k.row = position;
    return k;
}

void SortedTableReader::sortChunk()
{
    std::vector<SortKey> keys(m_nulls.size());
    for (size_t r = 0; r < keys.size(); ++r)
        keys[r] = keyOf(m_values.data() + r * m_width, m_nulls[r], uint32_t(r));
    m_next = 0;
    if (orderByGroups(keys)) {
        ++m_groupOrderedChunks;
        return;
    }
    std::sort(keys.begin(), keys.end());
    m_order.resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        m_order[i] = keys[i].row;
}

// nsys exports each table in time order, so the rows of one group (the sort keys before the start:
// the thread, the device and stream) are already in key order, only the groups interleaved. Then the
// order is the groups in key order, each group's rows in storage order: one pass instead of a sort
// (which took about 5% of a 1M-row Nsight import's CPU time). False, with nothing done, when a group's
// rows are out of order or the groups are many.
bool SortedTableReader::orderByGroups(const std::vector<SortKey> &keys)
{
    constexpr size_t kMaxGroups = 64;
    if (m_ascending.empty())
        return false;
    const size_t prefix = m_ascending.size() - 1; // the group keys, before the start
    auto sameGroup = [prefix](const SortKey &a, const SortKey &b) {
        for (size_t i = 0; i < prefix; ++i)
            if (a.k[i] != b.k[i])
                return false;
        return true;
    };
    std::vector<uint32_t> first, last, count; // per group: its first and last row so far, its rows
    std::vector<uint8_t> groupOf(keys.size());
    size_t g = 0;
    for (uint32_t r = 0; r < keys.size(); ++r) {
        if (first.empty() || !sameGroup(keys[r], keys[first[g]])) {
            g = 0;
            while (g < first.size() && !sameGroup(keys[r], keys[first[g]]))
                ++g;
            if (g == first.size()) {
                if (g == kMaxGroups)
                    return false;
                first.push_back(r);
                last.push_back(r);
                count.push_back(0);
            }
        }
        if (count[g] && keys[r] < keys[last[g]]) // the storage position breaks ties: equal keys are in order
            return false;
        last[g] = r;
        ++count[g];
        groupOf[r] = uint8_t(g);
    }
    std::vector<uint32_t> groups(first.size());
    std::iota(groups.begin(), groups.end(), 0);
    std::sort(groups.begin(), groups.end(),
        [&](uint32_t a, uint32_t b) { return keys[first[a]] < keys[first[b]]; });
    std::vector<uint32_t> at(first.size()); // where each group's next row goes
    uint32_t offset = 0;
    for (const uint32_t group : groups) {
        at[group] = offset;
        offset += count[group];
    }
    m_order.resize(keys.size());
    for (uint32_t r = 0; r < keys.size(); ++r)
        m_order[at[groupOf[r]]++] = r;
    return true;
}

// Writes the sorted chunk as a run: per row the NULL bits, then each column's 8 bytes, or a text
// column's length and bytes.
void SortedTableReader::spillChunk()
{
    auto run = std::make_unique<Run>();
    run->file.setFileTemplate(QDir::tempPath() + QStringLiteral("/plumb-sort-XXXXXX"));
    if (!run->file.open())
        throw ImportError(
            QStringLiteral("cannot create a temporary file in %1 to sort a table larger than memory "
                           "(%2)")
                .arg(QDir::tempPath(), run->file.errorString()));
    run->file.setAutoRemove(false);
    QFile::remove(run->file.fileName()); // stays readable through the open handle
    std::string out;
    out.reserve(size_t(kRunBufferBytes) + 4096);
    auto flush = [&] {
        if (run->file.write(out.data(), qint64(out.size())) != qint64(out.size()))
            throw ImportError(
                QStringLiteral("cannot write a temporary file in %1 to sort a table larger than "
                               "memory (%2)")
                    .arg(QDir::tempPath(), run->file.errorString()));
        out.clear();
    };
    for (const uint32_t r : m_order) {
        const int64_t *row = m_values.data() + size_t(r) * m_width;
        out.append(reinterpret_cast<const char *>(&m_nulls[r]), sizeof(uint32_t));
        for (size_t c = 0; c < m_width; ++c) {
            if (!m_columns[c].text) {
                out.append(reinterpret_cast<const char *>(&row[c]), sizeof(int64_t));
            } else if ((m_nulls[r] >> c) & 1) {
                const uint32_t none = 0;
                out.append(reinterpret_cast<const char *>(&none), sizeof none);
            } else {
                uint32_t len = 0;
                std::memcpy(&len, m_text.data() + row[c], sizeof len);
                out.append(m_text.data() + row[c], sizeof len + len);
            }
        }
        if (out.size() >= size_t(kRunBufferBytes))
            flush();
    }
    flush();
    run->file.seek(0);
    run->rowsLeft = int64_t(m_order.size());
    run->values.resize(m_width);
    m_runs.push_back(std::move(run));
}

void SortedTableReader::clearChunk()
{
    // Swapped, not cleared: the next tables get the memory.
    std::vector<int64_t>().swap(m_values);
    std::vector<uint32_t>().swap(m_nulls);
    std::vector<uint32_t>().swap(m_order);
    std::string().swap(m_text);
}

void SortedTableReader::release()
{
    m_stmt.reset();
    m_db.reset();
}

void SortedTableReader::load()
{
    if (m_loaded)
        return;
    m_loaded = true;
    if (m_mode == Mode::OrderBy) {
        if (!(m_pendingRow = m_stmt->step()))
            release();
        return;
    }
    if (m_mode == Mode::InMemory) {
        readChunk(SIZE_MAX);
        release(); // the rows are here: the connection's page cache can go
        sortChunk();
        return;
    }
    bool more = readChunk(m_chunkRows);
    if (!more) { // it fitted after all (the row count was an estimate)
        release();
        sortChunk();
        m_mode = Mode::InMemory;
        return;
    }
    while (true) {
        sortChunk();
        spillChunk();
        clearChunk();
        if (!more)
            break;
        more = readChunk(m_chunkRows);
        if (m_nulls.empty())
            break;
    }
    release();
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i]->advance(m_columns))
            m_heap.push_back(i);
    const auto after = [this](size_t a, size_t b) { return runBefore(b, a); };
    std::make_heap(m_heap.begin(), m_heap.end(), after);
}

// The merge order: the sort keys as in sortChunk(), ties in storage order (runs are in storage order).
bool SortedTableReader::runBefore(size_t a, size_t b) const
{
    const Run &x = *m_runs[a], &y = *m_runs[b];
    return keyOf(x.values.data(), x.nulls, uint32_t(a)) < keyOf(y.values.data(), y.nulls, uint32_t(b));
}

bool SortedTableReader::nextFromRuns()
{
    const auto after = [this](size_t a, size_t b) { return runBefore(b, a); };
    if (m_lastRun != SIZE_MAX && m_runs[m_lastRun]->advance(m_columns)) {
        m_heap.push_back(m_lastRun);
        std::push_heap(m_heap.begin(), m_heap.end(), after);
    }
    m_lastRun = SIZE_MAX;
    if (m_heap.empty()) {
        m_row = nullptr;
        m_runs.clear(); // closes (and so deletes) the files
        return false;
    }
    std::pop_heap(m_heap.begin(), m_heap.end(), after);
    m_lastRun = m_heap.back();
    m_heap.pop_back();
    const Run &r = *m_runs[m_lastRun];
    m_row = r.values.data();
    m_rowNulls = r.nulls;
    m_rowText = &r.text;
    return true;
}

bool SortedTableReader::next()
{
    load();
    if (m_mode == Mode::OrderBy) {
        if (std::exchange(m_pendingRow, false))
            return true;
        if (m_stmt && m_stmt->step())
            return true;
        release(); // frees the sorter
        return false;
    }
    if (m_mode == Mode::Runs)
        return nextFromRuns();
    if (m_next >= m_order.size()) {
        m_row = nullptr;
        clearChunk();
        return false;
    }
    const uint32_t r = m_order[m_next++];
    m_row = m_values.data() + size_t(r) * m_width;
    m_rowNulls = m_nulls[r];
    return true;
}

bool SortedTableReader::stmtIsNull(int col) const
{
    return m_stmt->isNull(col);
}

int64_t SortedTableReader::stmtInteger(int col) const
{
    return m_stmt->integer(col);
}

double SortedTableReader::real(int col) const
{
    if (m_mode == Mode::OrderBy)
        return m_stmt->real(col);
    return (m_rowNulls >> col) & 1 ? 0.0 : std::bit_cast<double>(m_row[col]);
}

std::string_view SortedTableReader::text(int col) const
{
    if (m_mode == Mode::OrderBy)
        return m_stmt->text(col);
    if ((m_rowNulls >> col) & 1)
        return {};
    const char *p = m_rowText->data() + m_row[col];
    uint32_t len = 0;
    std::memcpy(&len, p, sizeof len);
    return std::string_view(p + sizeof len, len);
}

} // namespace plumb
