#include "experimentreader.h"

#include "sqlitedb.h"
#include "workspace.h"

namespace plumb {

ExperimentReader::ExperimentReader(Workspace &workspace)
    : m_ws(workspace)
{
}

QList<ExperimentRunInfo> ExperimentReader::runs()
{
    QList<ExperimentRunInfo> out;
    SqliteStmt st(m_ws.db(),
        "WITH s AS (SELECT run_id, "
        "  count(DISTINCT CASE WHEN kind = 'scalar' THEN key_id END) AS scalar_tags, "
        "  sum(CASE WHEN kind = 'scalar' THEN points ELSE 0 END) AS scalar_points, "
        "  count(DISTINCT CASE WHEN kind = 'histogram' THEN key_id END) AS histogram_tags, "
        "  sum(CASE WHEN kind = 'histogram' THEN points ELSE 0 END) AS histograms, "
        "  max(segment) AS restarts "
        "  FROM metric_series GROUP BY run_id), "
        "p AS (SELECT run_id, count(*) AS params FROM param GROUP BY run_id) "
        "SELECT r.id, r.name, coalesce(r.path, ''), coalesce(r.status, ''), coalesce(r.group_name, ''), "
        "coalesce(r.parent_run_id, -1), coalesce(r.start_ns, 0), coalesce(r.end_ns, 0), "
        "coalesce(s.scalar_tags, 0), coalesce(s.scalar_points, 0), coalesce(s.histogram_tags, 0), "
        "coalesce(s.histograms, 0), coalesce(p.params, 0), coalesce(s.restarts, 0) "
        "FROM run r LEFT JOIN s ON s.run_id = r.id LEFT JOIN p ON p.run_id = r.id "
        "WHERE s.run_id IS NOT NULL OR p.run_id IS NOT NULL ORDER BY r.id");
    while (st.step()) {
        ExperimentRunInfo r;
        r.id = st.columnInt(0);
        r.name = st.columnText(1);
        r.path = st.columnText(2);
        r.status = st.columnText(3);
        r.groupName = st.columnText(4);
        r.parentRunId = st.columnInt(5);
        r.startNs = st.columnInt(6);
        r.endNs = st.columnInt(7);
        r.scalarTags = st.columnInt(8);
        r.scalarPoints = st.columnInt(9);
        r.histogramTags = st.columnInt(10);
        r.histograms = st.columnInt(11);
        r.params = st.columnInt(12);
        r.restarts = st.columnInt(13);
        out << r;
    }
    return out;
}

} // namespace plumb
