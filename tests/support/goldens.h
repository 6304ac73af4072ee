// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the golden tests: a query rendered as CSV, that CSV compared with (or, with
// PLUMB_UPDATE_GOLDENS=1, written to) the expected file, and a workspace's row counts per table.
#pragma once

#include <QString>

namespace plumb {
class SqliteDb;
}

// The rows of `sql` as CSV: a header line of column names, one line per row, every line ending in
// '\n'. NULL is an empty cell; a value holding ',' or '"' is quoted, with '"' doubled.
QString csvOf(plumb::SqliteDb &db, const char *sql);

// Compares `actual` with the file at `goldenPath`, failing the current test (QFAIL/QVERIFY) when it
// is missing or differs. With PLUMB_UPDATE_GOLDENS set in the environment it rewrites the file
// instead. The QtTest macros only return from this function, not from the calling test: follow a
// call with `if (QTest::currentTestFailed()) return;` where the rest of the test must not run.
void compareGolden(const QString &actual, const QString &goldenPath);

// Row counts of every table, "name=count" joined by spaces in name order: "the workspace is exactly
// as before" in one comparable value. Opens the workspace as a reader.
QString tableCounts(const QString &workspacePath);
