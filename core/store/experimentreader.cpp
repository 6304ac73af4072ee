// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/experimentreader.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <cstring>
#include <limits>

namespace plumb {

namespace {

// "AND <column> IN (1,2,3)" for a run filter (ids are integers: nothing to quote), "" for all runs.
std::string runFilter(const char *column, const QList<int64_t> &runIds)
{
    if (runIds.isEmpty())
        return {};
    std::string sql = std::string(" AND ") + column + " IN (";
    for (qsizetype i = 0; i < runIds.size(); ++i) {
        if (i)
            sql += ',';
        sql += std::to_string(runIds[i]);
    }
    return sql + ')';
}

} // namespace

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

std::vector<RunParam> ExperimentReader::params(const QList<int64_t> &runIds)
{
    std::vector<RunParam> out;
    SqliteStmt st(m_ws.db(),
        "SELECT run_id, key, value, kind FROM param WHERE 1" + runFilter("run_id", runIds)
            + " ORDER BY run_id, key");
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnText(1), st.columnText(2), st.columnText(3) });
    return out;
}

std::vector<SeriesSummary> ExperimentReader::series(const QList<int64_t> &runIds)
{
    std::vector<SeriesSummary> out;
    // The last segment's last value: max(segment) picks its row in SQLite's bare-column aggregate.
    SqliteStmt st(m_ws.db(),
        "WITH last AS (SELECT run_id, key_id, kind, max(segment) AS segment, last_step, last_wall_ns, "
        "last_value "
        "  FROM metric_series WHERE 1"
            + runFilter("run_id", runIds)
            + " GROUP BY run_id, key_id, kind) "
              "SELECT m.run_id, m.key_id, s.str, m.kind = 'histogram', count(*), sum(m.points), "
              "  (SELECT first_step FROM metric_series f WHERE f.run_id = m.run_id AND f.key_id = m.key_id "
              "     AND f.kind = m.kind AND f.segment = 0), "
              "  l.last_step, min(m.first_wall_ns), l.last_wall_ns, min(m.min_value), max(m.max_value), "
              "l.last_value "
              "FROM metric_series m JOIN string s ON s.id = m.key_id "
              "JOIN last l ON l.run_id = m.run_id AND l.key_id = m.key_id AND l.kind = m.kind "
              "WHERE 1"
            + runFilter("m.run_id", runIds)
            + " "
              "GROUP BY m.run_id, m.key_id, m.kind ORDER BY m.run_id, m.kind DESC, s.str");
    while (st.step()) {
        SeriesSummary s;
        s.runId = st.columnInt(0);
        s.keyId = st.columnInt(1);
        s.key = st.columnText(2);
        s.histogram = st.columnInt(3) != 0;
        s.segments = st.columnInt(4);
        s.points = st.columnInt(5);
        s.firstStep = st.columnInt(6);
        s.lastStep = st.columnInt(7);
        s.firstWallNs = st.columnInt(8);
        s.lastWallNs = st.columnInt(9);
        s.hasValues = !st.columnIsNull(10);
        s.minValue = s.hasValues ? st.columnDouble(10) : 0;
        s.maxValue = s.hasValues ? st.columnDouble(11) : 0;
        s.lastValue = st.columnIsNull(12) ? std::numeric_limits<double>::quiet_NaN() : st.columnDouble(12);
        out.push_back(s);
    }
    return out;
}

std::vector<ScalarPoint> ExperimentReader::scalarPoints(int64_t runId, int64_t keyId)
{
    std::vector<ScalarPoint> out;
    SqliteStmt st(m_ws.db(),
        "SELECT segment, step, wall_time_ns, value FROM metric WHERE run_id = ?1 AND key_id = ?2 "
        "ORDER BY segment, step, dup");
    st.bind(1, runId).bind(2, keyId);
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnInt(1), st.columnInt(2),
            st.columnIsNull(3) ? std::numeric_limits<double>::quiet_NaN() : st.columnDouble(3) });
    return out;
}

std::vector<StepHistogram> ExperimentReader::histograms(int64_t runId, int64_t keyId)
{
    std::vector<StepHistogram> out;
    SqliteStmt st(m_ws.db(),
        "SELECT segment, step, wall_time_ns, bucket_count, buckets FROM histogram "
        "WHERE run_id = ?1 AND key_id = ?2 ORDER BY segment, step, dup");
    st.bind(1, runId).bind(2, keyId);
    while (st.step()) {
        StepHistogram h { st.columnInt(0), st.columnInt(1), st.columnInt(2), {} };
        const std::string_view blob = st.columnBlob(4);
        const size_t k = size_t(st.columnInt(3));
        if (k > 0 && blob.size() == k * 3 * sizeof(double)) { // the importers write nothing else
            h.buckets.resize(k * 3);
            std::memcpy(h.buckets.data(), blob.data(), blob.size());
        }
        out.push_back(std::move(h));
    }
    return out;
}

} // namespace plumb
