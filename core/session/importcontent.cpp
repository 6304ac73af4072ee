// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/importcontent.h"

#include "store/sqlidlist.h"
#include "store/sqlitedb.h"

#include <algorithm>
#include <string>

namespace plumb {

namespace {

// Appends the distinct run ids of `table` rows of the sources, in source order, and returns the rows.
int64_t runsOf(SqliteDb &db, const char *table, const QList<int64_t> &sources, QList<int64_t> &runs)
{
    int64_t rows = 0;
    for (int64_t source : sources) {
        SqliteStmt q(db,
            (std::string("SELECT run_id, count(*) FROM ") + table
                + " WHERE source_id = ? GROUP BY run_id "
                  "ORDER BY run_id")
                .c_str());
        q.bind(1, source);
        while (q.step()) {
            if (!runs.contains(q.columnInt(0))) {
                runs << q.columnInt(0);
            }
            rows += q.columnInt(1);
        }
    }
    return rows;
}

} // namespace

ImportContent ImportContent::read(SqliteDb &db, const std::vector<FileImportResult> &results,
    const QHash<int64_t, int64_t> &metricPointsBefore)
{
    using S = FileImportResult::Status;
    // New sources first, then those already present: the first trace is the one a drop is about.
    QList<int64_t> sources;
    for (const S wanted : { S::Imported, S::AlreadyImported }) {
        for (const FileImportResult &r : results) {
            if (r.status == wanted && !sources.contains(r.sourceId)) {
                sources << r.sourceId;
            }
        }
    }
    ImportContent c;
    if (!sources.isEmpty()) {
        for (int64_t source : sources) {
            SqliteStmt q(db, "SELECT id, run_id FROM trace WHERE source_id = ? ORDER BY id");
            q.bind(1, source);
            while (q.step()) {
                c.traces << Trace { q.columnInt(0), q.columnInt(1) };
            }
        }
        // As LineageReader::defaultFocus() ranks them: model-like artifacts, then nodes that are no
        // context, newest first.
        SqliteStmt nodes(db,
            ("SELECT id FROM lineage_node WHERE source_id IN (" + sqlIdList(sources)
                + ") ORDER BY (kind = 'artifact' AND (type LIKE '%model%' OR name LIKE '%model%' OR uri "
                  "LIKE '%model%')) DESC, kind <> 'context' DESC, id DESC")
                .c_str());
        while (nodes.step()) {
            c.lineageNodes << nodes.columnInt(0);
        }
        c.servingRequests = runsOf(db, "serving_request", sources, c.servingRuns);
        c.lifecycleEvents = runsOf(db, "lifecycle_event", sources, c.lifecycleRuns);
    }
    const QHash<int64_t, int64_t> after = metricPoints(db);
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        if (it.value() > metricPointsBefore.value(it.key(), 0)) {
            c.metricRuns << it.key();
        }
    }
    std::sort(c.metricRuns.begin(), c.metricRuns.end());
    return c;
}

QHash<int64_t, int64_t> ImportContent::metricPoints(SqliteDb &db)
{
    QHash<int64_t, int64_t> points;
    SqliteStmt q(db, "SELECT run_id, sum(points) FROM metric_series WHERE kind = 'scalar' GROUP BY run_id");
    while (q.step()) {
        points.insert(q.columnInt(0), q.columnInt(1));
    }
    return points;
}

} // namespace plumb
