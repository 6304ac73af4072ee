// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/sourceremoval.h"

#include "store/sqlitedb.h"
#include "text/textformat.h"

#include <QCoreApplication>

#include <string>
#include <string_view>
#include <vector>

namespace plumb {

namespace {

// Importers that write run metrics and parameters (MetricSink), which carry no source id.
bool writesRunMetrics(const QString &format)
{
    static const QStringList formats = { QStringLiteral("tfevents"), QStringLiteral("mlflow"),
        QStringLiteral("tabular"), QStringLiteral("paramsfile"), QStringLiteral("vllm-bench") };
    return formats.contains(format);
}

int64_t count(SqliteDb &db, const char *sql, int64_t id)
{
    SqliteStmt st(db, sql);
    st.bind(1, id);
    return st.step() ? st.columnInt(0) : 0;
}

// Runs that hold nothing once the source's rows are gone (the rows are still there when this is read).
constexpr const char *kEmptiedRuns = R"sql(
SELECT r.id, r.name FROM run r
WHERE (EXISTS (SELECT 1 FROM trace t WHERE t.run_id = r.id AND t.source_id = ?1)
       OR EXISTS (SELECT 1 FROM lifecycle_event l WHERE l.run_id = r.id AND l.source_id = ?1)
       OR EXISTS (SELECT 1 FROM serving_request q WHERE q.run_id = r.id AND q.source_id = ?1))
  AND NOT EXISTS (SELECT 1 FROM trace t WHERE t.run_id = r.id AND t.source_id <> ?1)
  AND NOT EXISTS (SELECT 1 FROM lifecycle_event l WHERE l.run_id = r.id AND l.source_id <> ?1)
  AND NOT EXISTS (SELECT 1 FROM serving_request q WHERE q.run_id = r.id AND q.source_id <> ?1)
  AND NOT EXISTS (SELECT 1 FROM run c WHERE c.parent_run_id = r.id)
ORDER BY r.id
)sql";

// The trace tables, children before parents; ?1 is the source id.
constexpr const char *kDeleteTraces[] = {
    "DELETE FROM slice WHERE track_id IN (SELECT k.id FROM track k JOIN trace t ON t.id = k.trace_id WHERE "
    "t.source_id = ?1)",
    "DELETE FROM counter WHERE track_id IN (SELECT k.id FROM track k JOIN trace t ON t.id = k.trace_id WHERE "
    "t.source_id = ?1)",
    "DELETE FROM slice_lod WHERE track_id IN (SELECT k.id FROM track k JOIN trace t ON t.id = k.trace_id "
    "WHERE t.source_id = ?1)",
    "DELETE FROM slice_corr_tile WHERE track_id IN (SELECT k.id FROM track k JOIN trace t ON t.id = "
    "k.trace_id WHERE t.source_id = ?1)",
    "DELETE FROM counter_lod WHERE track_id IN (SELECT k.id FROM track k JOIN trace t ON t.id = k.trace_id "
    "WHERE t.source_id = ?1)",
    "DELETE FROM trace_summary WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM step_summary WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM op_summary WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM stream_summary WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM collective_call WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM flow WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM track WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM process WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM device WHERE trace_id IN (SELECT id FROM trace WHERE source_id = ?1)",
    "DELETE FROM trace WHERE source_id = ?1",
    "DELETE FROM diagnostic WHERE source_id = ?1",
    "DELETE FROM lifecycle_event WHERE source_id = ?1",
    "DELETE FROM serving_request WHERE source_id = ?1",
    "DELETE FROM lineage_edge WHERE source_id = ?1",
    // Its nodes that no remaining edge names, and their links to runs.
    ("CREATE TEMP TABLE removed_node AS SELECT id FROM lineage_node n WHERE n.source_id = ?1 "
     "AND NOT EXISTS (SELECT 1 FROM lineage_edge e WHERE e.from_id = n.id OR e.to_id = n.id)"),
    "DELETE FROM lineage_link WHERE node_id IN (SELECT id FROM temp.removed_node)",
    "DELETE FROM lineage_node WHERE id IN (SELECT id FROM temp.removed_node)",
    "DROP TABLE temp.removed_node",
    "DELETE FROM source WHERE id = ?1",
};

QString tr(const char *text)
{
    return QCoreApplication::translate("SourceRemoval", text);
}

} // namespace

QStringList SourceRemoval::summary() const
{
    QStringList lines;
    if (traces)
        lines << tr("%1 with %2")
                     .arg(text::counted(traces, tr("trace"), tr("traces")),
                         text::counted(events, tr("event"), tr("events")));
    if (lifecycleEvents)
        lines << text::counted(lifecycleEvents, tr("lifecycle event"), tr("lifecycle events"));
    if (servingRequests)
        lines << text::counted(servingRequests, tr("serving request"), tr("serving requests"));
    if (lineageEdges)
        lines << text::counted(lineageEdges, tr("lineage edge"), tr("lineage edges"));
    if (diagnostics)
        lines << text::counted(diagnostics, tr("diagnostic"), tr("diagnostics"));
    if (!runsRemoved.isEmpty())
        lines << tr("%1 left empty: %2")
                     .arg(text::counted(runsRemoved.size(), tr("run"), tr("runs")),
                         runsRemoved.join(QStringLiteral(", ")));
    return lines;
}

SourceRemoval planSourceRemoval(SqliteDb &db, int64_t sourceId)
{
    SourceRemoval plan;
    {
        SqliteStmt st(db, "SELECT name, format, event_count FROM source WHERE id = ?1");
        st.bind(1, sourceId);
        if (!st.step())
            return plan;
        plan.sourceId = sourceId;
        plan.name = st.columnText(0);
        plan.format = st.columnText(1);
        plan.events = st.columnInt(2);
    }
    plan.traces = count(db, "SELECT count(*) FROM trace WHERE source_id = ?1", sourceId);
    plan.diagnostics = count(db, "SELECT count(*) FROM diagnostic WHERE source_id = ?1", sourceId);
    plan.lifecycleEvents = count(db, "SELECT count(*) FROM lifecycle_event WHERE source_id = ?1", sourceId);
    plan.servingRequests = count(db, "SELECT count(*) FROM serving_request WHERE source_id = ?1", sourceId);
    plan.lineageEdges = count(db, "SELECT count(*) FROM lineage_edge WHERE source_id = ?1", sourceId);
    {
        SqliteStmt st(db, kEmptiedRuns);
        st.bind(1, sourceId);
        while (st.step())
            plan.runsRemoved << st.columnText(1);
    }
    if (writesRunMetrics(plan.format))
        plan.blocker = tr("%1 is an experiment log: its metrics and parameters are stored per run, not per "
                          "file, so they cannot be told apart from those of the run's other files.")
                           .arg(plan.name);
    else if (const int64_t continued
        = count(db, "SELECT count(*) FROM source WHERE continues_source_id = ?1", sourceId))
        plan.blocker = tr("A later import of the same growing file continues %1; remove that one first.")
                           .arg(plan.name);
    return plan;
}

SourceRemoval removeSource(SqliteDb &db, int64_t sourceId)
{
    SqliteTransaction transaction(db);
    SourceRemoval plan = planSourceRemoval(db, sourceId);
    if (!plan.found() || !plan.blocker.isEmpty())
        return plan;
    std::vector<int64_t> runs;
    {
        SqliteStmt st(db, kEmptiedRuns);
        st.bind(1, sourceId);
        while (st.step())
            runs.push_back(st.columnInt(0));
    }
    for (const char *sql : kDeleteTraces) {
        SqliteStmt st(db, sql);
        if (std::string_view(sql).find("?1") != std::string_view::npos)
            st.bind(1, sourceId);
        st.run();
    }
    for (int64_t run : runs) {
        const std::string id = std::to_string(run);
        for (const char *table : { "lineage_link", "param", "metric", "histogram", "metric_series" })
            db.exec(std::string("DELETE FROM ") + table + " WHERE run_id = " + id);
        db.exec("DELETE FROM run WHERE id = " + id);
    }
    transaction.commit();
    return plan;
}

} // namespace plumb
