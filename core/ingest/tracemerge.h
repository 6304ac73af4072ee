// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace plumb {

class SqliteDb;

// The tables a trace import writes, as the copy of a scratch workspace into the main one sees them:
// for each, the id spaces its columns refer to. A column not named here is copied as it is (values,
// and string ids, which parallel imports share through a StringPool). tst_tracemerge checks that
// every *_id column of these tables is named, so a schema change cannot leave one unshifted.
struct MergedColumn {
    const char *table;
    const char *column;
    // "trace", "process", "track", "flow", "args", "slice", "counter", "run", "source": shifted or set;
    // "string" (shared ids) and "value" (an id from the file, not a row's): copied as they are.
    const char *space;
};
[[nodiscard]] const std::vector<MergedColumn> &mergedColumns();
[[nodiscard]] QStringList mergedTables();

// Copies the trace that a scratch workspace attached to `db` as `scratch` holds (what one file's
// import wrote into an empty workspace) into `db`'s main schema, as source `sourceId`: its ids are
// shifted past those in use, its run is the multi-rank job's run when the main workspace has it
// (unless that run already has the trace's rank: another job), and strings new to the workspace
// are added. Runs inside the caller's transaction. Returns the number of traces copied (0 or 1).
int64_t mergeScratchTrace(SqliteDb &db, int64_t sourceId);

} // namespace plumb
