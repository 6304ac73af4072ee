// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <vector>

namespace plumb {

// How `plumb query` prints a result (docs/sql.md): an aligned table for a terminal (the default), CSV
// per RFC 4180, or the JSON object plumb.query/1 (docs/json.md).
enum class QueryFormat { Table, Csv, Json };

// Prints a result as it is read: begin() with the column names, row() with each row (values as
// ReadOnlyQuery::next gives them), end(). CSV and JSON go to `out` a row at a time; the table needs
// every row for its column widths and is printed by end().
//
// Values: NULL is an empty CSV field, JSON null and an empty table cell; integers as written; reals
// in the shortest form that reads back the same (JSON null for an infinity); text as it is; a BLOB as
// base64 (the table says its size instead).
class QueryPresenter {
public:
    QueryPresenter(QueryFormat format, std::function<void(const QString &)> out);

    void begin(const QStringList &columns);
    void row(const QVariantList &values);
    void end();

private:
    QueryFormat m_format;
    std::function<void(const QString &)> m_out;
    QStringList m_columns;
    std::vector<QStringList> m_cells; // the table's
    std::vector<bool> m_numeric; // the table's: columns whose values are all numbers or NULL
    int64_t m_rows = 0;
};

// `value` as one CSV field: quoted when it holds a comma, a double quote, CR or LF (quotes doubled).
[[nodiscard]] QString csvField(const QString &value);

} // namespace plumb
