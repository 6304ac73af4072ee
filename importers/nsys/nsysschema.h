// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/foreignsqlitedb.h"

#include <QString>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>

namespace plumb::nsys {

// What an Nsight Systems export holds, discovered rather than assumed: the tables (they exist only for
// what was captured) and their columns (which differ between nsys versions), read from the file's
// schema; the labels of its ENUM_* tables. Opening a file that is SQLite but not an export throws an
// ImportError that says what the file does hold.
class NsysSchema {
public:
    explicit NsysSchema(const QString &path);

    [[nodiscard]] ForeignSqliteDb &db() { return m_db; }
    [[nodiscard]] const std::unordered_set<std::string> &tables() const { return m_tables; }
    [[nodiscard]] bool hasTable(const std::string &table) const { return m_tables.count(table) != 0; }
    // Whether the export has `table` with every one of `columns` (tables and columns come and go
    // across nsys versions and capture options).
    [[nodiscard]] bool hasColumns(const char *table, std::initializer_list<const char *> columns);
    // The label an ENUM_* table gives `id`; empty when the table or the id is not there.
    [[nodiscard]] std::string enumLabel(const char *table, int64_t id);

private:
    void checkIsNsight();

    ForeignSqliteDb m_db;
    std::unordered_set<std::string> m_tables;
};

// Whether `s` starts with `p`.
[[nodiscard]] inline bool hasPrefix(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

} // namespace plumb::nsys
