// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"
#include "nsys/nsystables.h"
#include "nsys/sortedtablereader.h"

#include <array>
#include <climits>
#include <memory>
#include <tuple>

namespace plumb::nsys {

// One event table (or one rowid range of it) being merged: its rows in (group1, group2, start) order
// from a SortedTableReader, read through the logical fields of its TableSpec. A field the table lacks,
// a NULL, or (see defaultIsNone) a default standing for none reads as absent.
struct NsysCursor {
    const TableSpec *spec = nullptr;
    std::unique_ptr<SortedTableReader> st;
    std::array<int, FieldCount> col {}; // field -> selected column, -1 when the table has none
    // Fields whose default value (0, 0.0, '') stands for "none": optional columns of an export that
    // declared every column NOT NULL (see NsysReader::openCursors()).
    std::array<bool, FieldCount> defaultIsNone {};
    // Merge key of the current row: as each table is sorted, end descending (an enclosing range
    // first), then tables in the reader's cursor order (a table's parts in rowid order).
    int64_t group1 = 0, group2 = 0, start = 0, end = 0;

    bool operator<(const NsysCursor &o) const
    {
        return std::tie(group1, group2, start, o.end) < std::tie(o.group1, o.group2, o.start, end);
    }
    [[nodiscard]] bool has(F f) const { return col[f] >= 0; }
    [[nodiscard]] int64_t get(F f, int64_t fallback = kNoValue) const
    {
        return isNull(f) ? fallback : st->integer(col[f]);
    }
    [[nodiscard]] bool isNull(F f) const
    {
        const int i = col[f];
        return i < 0 || st->isNull(i) || (defaultIsNone[f] && isDefault(f));
    }
    [[nodiscard]] bool isDefault(F f) const
    {
        const int i = col[f];
        switch (f) {
        case Text:
        case JsonText:
            return st->text(i).empty();
        case PayloadDouble:
        case PayloadFloat:
            return st->real(i) == 0;
        default:
            return st->integer(i) == 0;
        }
    }
    // Reads the current row's merge key.
    void loadKey()
    {
        // NULL sorts first in SQLite, as INT64_MIN does here.
        auto key = [this](F f) {
            const int i = f == FieldCount ? -1 : col[f];
            return i < 0 || st->isNull(i) ? INT64_MIN : st->integer(i);
        };
        group1 = key(spec->group1);
        group2 = key(spec->group2);
        start = key(Start);
        end = key(End);
    }
};

} // namespace plumb::nsys
