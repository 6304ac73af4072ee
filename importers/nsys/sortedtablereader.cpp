#include "sortedtablereader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace plumb {

namespace {

constexpr size_t kMaxInMemoryColumns = 32; // NULL bits per row in one uint32_t
constexpr size_t kMaxSortKeys = 4;
constexpr int64_t kRowsPerCallback = 4096;

// One row's sort key: the ascending values, the descending one negated in order (see less()), and
// the storage position that breaks ties.
struct SortKey {
    int64_t k[kMaxSortKeys];
    uint32_t row;
};

} // namespace

size_t SortedTableReader::bytesPerRow(size_t columns)
{
    // values + NULL bits + order, plus the key array that lives while sorting
    return columns * sizeof(int64_t) + sizeof(uint32_t) * 2 + sizeof(SortKey);
}

SortedTableReader::SortedTableReader(std::unique_ptr<ForeignSqliteDb> db, const std::string &table,
                                     std::vector<Column> columns, std::vector<int> ascending, int descending,
                                     int64_t estimatedRows, size_t memoryBudget, std::function<void()> onRows,
                                     const std::string &where)
    : m_columns(std::move(columns))
    , m_ascending(std::move(ascending))
    , m_descending(descending)
    , m_onRows(std::move(onRows))
    , m_db(std::move(db))
    , m_estimatedRows(std::max<int64_t>(estimatedRows, 0))
    , m_width(m_columns.size())
{
    const size_t keys = m_ascending.size() + (m_descending >= 0 ? 1 : 0);
    m_inMemory = m_width <= kMaxInMemoryColumns && keys <= kMaxSortKeys && estimatedRows >= 0
        && estimatedRows < int64_t(UINT32_MAX)
        && size_t(estimatedRows) <= memoryBudget / bytesPerRow(m_width);
    std::string sql = "SELECT ";
    for (size_t c = 0; c < m_columns.size(); ++c)
        sql += (c ? ", " : "") + m_columns[c].sql;
    sql += " FROM " + quoteIdentifier(table);
    if (!where.empty())
        sql += " WHERE " + where;
    if (!m_inMemory && keys > 0) {
        sql += " ORDER BY ";
        for (size_t i = 0; i < m_ascending.size(); ++i)
            sql += (i ? ", " : "") + m_columns[size_t(m_ascending[i])].sql;
        if (m_descending >= 0)
            sql += (m_ascending.empty() ? "" : ", ") + m_columns[size_t(m_descending)].sql + " DESC";
    }
    m_stmt = std::make_unique<ForeignSqliteDb::Stmt>(*m_db, sql, table);
}

void SortedTableReader::readAll()
{
    // Grown by doubling, the arrays would be copied and their pages faulted in about three times.
    m_values.reserve(size_t(m_estimatedRows) * m_width);
    m_nulls.reserve(size_t(m_estimatedRows));
    int64_t rows = 0;
    while (m_stmt->step()) {
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
        if (++rows % kRowsPerCallback == 0 && m_onRows)
            m_onRows();
    }
    release(); // the rows are here: the connection's page cache can go

    std::vector<SortKey> keys(static_cast<size_t>(rows));
    const size_t nAsc = m_ascending.size();
    for (size_t r = 0; r < keys.size(); ++r) {
        const int64_t *row = m_values.data() + r * m_width;
        auto value = [&](int c) { return (m_nulls[r] >> c) & 1 ? INT64_MIN : row[c]; };
        SortKey &k = keys[r];
        for (size_t i = 0; i < nAsc; ++i)
            k.k[i] = value(m_ascending[i]);
        // DESC with NULLs last: NULL (INT64_MIN) is the smallest value, so it sorts last descending.
        if (m_descending >= 0)
            k.k[nAsc] = value(m_descending);
        k.row = uint32_t(r);
    }
    const bool desc = m_descending >= 0;
    std::sort(keys.begin(), keys.end(), [nAsc, desc](const SortKey &a, const SortKey &b) {
        for (size_t i = 0; i < nAsc; ++i)
            if (a.k[i] != b.k[i])
                return a.k[i] < b.k[i];
        if (desc && a.k[nAsc] != b.k[nAsc])
            return a.k[nAsc] > b.k[nAsc];
        return a.row < b.row;
    });
    m_order.resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        m_order[i] = keys[i].row;
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
    if (m_inMemory)
        readAll();
    else if (!(m_pendingRow = m_stmt->step()))
        release();
}

bool SortedTableReader::next()
{
    load();
    if (!m_inMemory) {
        if (std::exchange(m_pendingRow, false))
            return true;
        if (m_stmt && m_stmt->step())
            return true;
        release(); // frees the sorter
        return false;
    }
    if (m_next >= m_order.size()) {
        m_row = nullptr;
        // Done: the next tables get the memory.
        std::vector<int64_t>().swap(m_values);
        std::vector<uint32_t>().swap(m_nulls);
        std::vector<uint32_t>().swap(m_order);
        std::string().swap(m_text);
        return false;
    }
    const uint32_t r = m_order[m_next++];
    m_row = m_values.data() + size_t(r) * m_width;
    m_rowNulls = m_nulls[r];
    return true;
}

bool SortedTableReader::isNull(int col) const
{
    return m_inMemory ? (m_rowNulls >> col) & 1 : m_stmt->isNull(col);
}

int64_t SortedTableReader::integer(int col) const
{
    return m_inMemory ? ((m_rowNulls >> col) & 1 ? 0 : m_row[col]) : m_stmt->integer(col);
}

double SortedTableReader::real(int col) const
{
    if (!m_inMemory)
        return m_stmt->real(col);
    return (m_rowNulls >> col) & 1 ? 0.0 : std::bit_cast<double>(m_row[col]);
}

std::string_view SortedTableReader::text(int col) const
{
    if (!m_inMemory)
        return m_stmt->text(col);
    if ((m_rowNulls >> col) & 1)
        return {};
    const char *p = m_text.data() + m_row[col];
    uint32_t len = 0;
    std::memcpy(&len, p, sizeof len);
    return std::string_view(p + sizeof len, len);
}

} // namespace plumb
