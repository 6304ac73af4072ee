// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

namespace plumb {

class SqliteDb;

// What removing one source (an imported file) from a workspace takes with it: everything that file's
// import wrote, so that the workspace is as if it had never been imported, apart from interned
// strings and argument sets (`string`, `args`) that nothing refers to any more and the slice and
// counter id allocators in workspace_info, which stay ahead so that a removed id is never reused.
//
// Attributed to a source: its row, its diagnostics, its traces with all their processes, devices,
// tracks, slices, flows, counters and level-of-detail tiles, its lifecycle events, its serving
// requests, the lineage edges it wrote and the lineage nodes it wrote that no remaining edge uses;
// then the runs left with no trace, lifecycle event or serving request of another source (with the
// parameters and metrics they hold: a lifecycle log records the job's configuration as parameters).
// Experiment-log formats store metrics and parameters per run, not per file, so their sources cannot
// be removed one by one (`blocker` says so), and neither can a source that a later, continued import
// of the same growing file builds on.
struct SourceRemoval {
    int64_t sourceId = -1;
    QString name; // the file name, as the Sources table shows it
    QString format; // importer id
    int64_t traces = 0;
    int64_t events = 0; // the source's event_count
    int64_t diagnostics = 0;
    int64_t lifecycleEvents = 0;
    int64_t servingRequests = 0;
    int64_t lineageEdges = 0;
    QStringList runsRemoved; // names of the runs that hold nothing else
    QString blocker; // why it cannot be removed; empty when it can
    [[nodiscard]] bool found() const { return sourceId >= 0; }
    // One sentence per kind of data that goes, for a confirmation ("2 traces (1,234 events)").
    [[nodiscard]] QStringList summary() const;
};

// Reads what removing `sourceId` would take; found() is false when there is no such source.
[[nodiscard]] SourceRemoval planSourceRemoval(SqliteDb &db, int64_t sourceId);

// Removes the source and everything it wrote in one transaction (on any error nothing changes).
// Throws SqlError; returns the plan it carried out, whose blocker is set (and nothing removed) when
// the source cannot be removed.
SourceRemoval removeSource(SqliteDb &db, int64_t sourceId);

} // namespace plumb
