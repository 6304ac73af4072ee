// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/lineagesink.h"

#include "store/sqlitedb.h"

namespace plumb {

QString lineageKindName(LineageNode::Kind k)
{
    switch (k) {
    case LineageNode::Kind::Artifact:
        return QStringLiteral("artifact");
    case LineageNode::Kind::Execution:
        return QStringLiteral("execution");
    case LineageNode::Kind::Context:
        return QStringLiteral("context");
    }
    return {};
}

LineageSink::LineageSink(SqliteDb &db, int64_t sourceId)
    : m_sourceId(sourceId)
    , m_upsertNode(std::make_unique<SqliteStmt>(db,
          "INSERT INTO lineage_node(source_id, kind, type, key, name, uri, state, start_ns, end_ns, "
          "properties) "
          "VALUES (?1, ?2, ?3, ?4, CASE WHEN ?5 <> '' THEN ?5 ELSE ?4 END, ?6, ?7, ?8, ?9, json(?10)) "
          "ON CONFLICT(key) DO UPDATE SET "
          "type = coalesce(excluded.type, type), name = CASE WHEN ?5 <> '' THEN ?5 ELSE name END, "
          "uri = coalesce(excluded.uri, uri), "
          "state = CASE WHEN state IN ('COMPLETE', 'FAIL', 'ABORT', 'FAILED', 'CANCELED', 'CACHED') "
          "AND excluded.state IN ('NEW', 'START', 'RUNNING') THEN state ELSE coalesce(excluded.state, state) "
          "END, "
          "start_ns = CASE WHEN start_ns IS NULL OR excluded.start_ns < start_ns THEN "
          "coalesce(excluded.start_ns, start_ns) "
          "ELSE start_ns END, "
          "end_ns = CASE WHEN end_ns IS NULL OR excluded.end_ns > end_ns THEN coalesce(excluded.end_ns, "
          "end_ns) "
          "ELSE end_ns END, "
          "properties = CASE WHEN excluded.properties IS NULL THEN properties "
          "WHEN properties IS NULL THEN excluded.properties ELSE json_patch(properties, excluded.properties) "
          "END"))
    // The id read back by key, not with RETURNING: SQLite gathers a RETURNING statement's rows in a
    // temporary b-tree, opened and freed at every execution (a fifth of an ML Metadata import's time).
    , m_nodeId(std::make_unique<SqliteStmt>(db, "SELECT id FROM lineage_node WHERE key = ?1"))
    , m_upsertEdge(std::make_unique<SqliteStmt>(db,
          "INSERT INTO lineage_edge(from_id, to_id, kind, properties, source_id) VALUES (?1, ?2, ?3, "
          "json(?4), ?5) "
          "ON CONFLICT(from_id, to_id, kind) DO UPDATE SET properties = CASE WHEN excluded.properties IS "
          "NULL "
          "THEN properties WHEN properties IS NULL THEN excluded.properties "
          "ELSE json_patch(properties, excluded.properties) END"))
{
}

LineageSink::~LineageSink() = default;

int64_t LineageSink::node(const LineageNode &n)
{
    SqliteStmt &st = *m_upsertNode;
    auto text = [&](int i, const QString &v) {
        if (v.isEmpty())
            st.bindNull(i);
        else
            st.bind(i, v);
    };
    st.bind(1, m_sourceId).bind(2, lineageKindName(n.kind));
    text(3, n.type);
    st.bind(4, n.key).bind(5, n.name); // empty: the key for a new node, the old name for a known one
    text(6, n.uri);
    text(7, n.state);
    if (n.startNs != 0)
        st.bind(8, n.startNs);
    else
        st.bindNull(8);
    if (n.endNs != 0)
        st.bind(9, n.endNs);
    else
        st.bindNull(9);
    if (n.properties.isEmpty())
        st.bindNull(10);
    else
        st.bind(10, std::string_view(n.properties.constData(), size_t(n.properties.size())));
    st.run();
    SqliteStmt &idOf = *m_nodeId;
    idOf.bind(1, n.key);
    idOf.step();
    const int64_t id = idOf.columnInt(0);
    idOf.reset();
    ++m_nodes;
    return id;
}

void LineageSink::edge(int64_t from, int64_t to, const QString &kind, const QByteArray &properties)
{
    SqliteStmt &st = *m_upsertEdge;
    st.bind(1, from).bind(2, to).bind(3, kind);
    if (properties.isEmpty())
        st.bindNull(4);
    else
        st.bind(4, std::string_view(properties.constData(), size_t(properties.size())));
    st.bind(5, m_sourceId).run();
    ++m_edges;
}

} // namespace plumb
