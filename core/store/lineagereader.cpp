// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/lineagereader.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/textformat.h"

#include <deque>
#include <set>
#include <tuple>
#include <unordered_map>

namespace plumb {

namespace {

constexpr const char *kNodeColumns = "id, kind, type, key, name, uri, state, start_ns, end_ns, properties";

LineageNodeInfo nodeFrom(SqliteStmt &st)
{
    LineageNodeInfo n;
    n.id = st.columnInt(0);
    n.kind = st.columnText(1);
    n.type = st.columnText(2);
    n.key = st.columnText(3);
    n.name = st.columnText(4);
    n.uri = st.columnText(5);
    n.state = st.columnText(6);
    n.startNs = st.columnIsNull(7) ? 0 : st.columnInt(7);
    n.endNs = st.columnIsNull(8) ? 0 : st.columnInt(8);
    n.properties = st.columnText(9);
    return n;
}

} // namespace

LineageReader::LineageReader(Workspace &workspace)
    : m_ws(workspace)
{
}

LineageReader::~LineageReader() = default;

QString LineageReader::Counts::summary() const
{
    return QStringLiteral("%1, %2, %3, %4, %5")
        .arg(text::counted(artifacts, QStringLiteral("artifact"), QStringLiteral("artifacts")),
            text::counted(executions, QStringLiteral("execution"), QStringLiteral("executions")),
            text::counted(contexts, QStringLiteral("context"), QStringLiteral("contexts")),
            text::counted(edges, QStringLiteral("edge"), QStringLiteral("edges")),
            text::counted(links, QStringLiteral("link to a run"), QStringLiteral("links to runs")));
}

LineageReader::Counts LineageReader::counts()
{
    SqliteDb &db = m_ws.db();
    Counts c;
    c.artifacts = db.queryInt("SELECT count(*) FROM lineage_node WHERE kind = 'artifact'");
    c.executions = db.queryInt("SELECT count(*) FROM lineage_node WHERE kind = 'execution'");
    c.contexts = db.queryInt("SELECT count(*) FROM lineage_node WHERE kind = 'context'");
    c.edges = db.queryInt("SELECT count(*) FROM lineage_edge");
    c.links = db.queryInt("SELECT count(*) FROM lineage_link");
    return c;
}

int64_t LineageReader::defaultFocus()
{
    // LIKE ignores ASCII case.
    return m_ws.db().queryInt(
        "SELECT coalesce((SELECT id FROM lineage_node WHERE kind = 'artifact' AND "
        "(type LIKE '%model%' OR name LIKE '%model%' OR uri LIKE '%model%') ORDER BY id DESC LIMIT 1), "
        "(SELECT id FROM lineage_node WHERE kind <> 'context' ORDER BY id DESC LIMIT 1), "
        "(SELECT max(id) FROM lineage_node), 0)");
}

LineageNodeInfo LineageReader::node(int64_t id)
{
    SqliteDb &db = m_ws.db();
    if (!m_node) {
        m_node = std::make_unique<SqliteStmt>(
            db, std::string("SELECT ") + kNodeColumns + " FROM lineage_node WHERE id = ?");
        m_contexts = std::make_unique<SqliteStmt>(db,
            "SELECT c.name, c.type FROM lineage_edge e JOIN lineage_node c ON c.id = e.from_id "
            "WHERE e.to_id = ? AND e.kind = 'contains' ORDER BY c.id");
        m_runs = std::make_unique<SqliteStmt>(
            db, "SELECT run_id FROM lineage_link WHERE node_id = ? ORDER BY run_id");
    }
    m_node->bind(1, id);
    const bool found = m_node->step();
    LineageNodeInfo n = found ? nodeFrom(*m_node) : LineageNodeInfo {};
    m_node->reset();
    if (!found)
        return n;
    m_contexts->bind(1, id);
    while (m_contexts->step()) {
        n.contexts << m_contexts->columnText(0);
        const QString type = m_contexts->columnText(1);
        if (n.job.isEmpty() && n.kind == QLatin1String("execution")
            && (type == QLatin1String("job") || type == QLatin1String("node")))
            n.job = m_contexts->columnText(0);
    }
    m_contexts->reset();
    m_runs->bind(1, id);
    while (m_runs->step())
        n.runIds << m_runs->columnInt(0);
    m_runs->reset();
    return n;
}

std::vector<LineageNodeInfo> LineageReader::find(const QString &what)
{
    SqliteDb &db = m_ws.db();
    std::vector<int64_t> ids;
    auto collect = [&](const char *where, const QString &value) {
        SqliteStmt st(db, std::string("SELECT id FROM lineage_node WHERE ") + where + " ORDER BY id");
        st.bind(1, value);
        while (st.step())
            ids.push_back(st.columnInt(0));
        return !ids.empty();
    };
    bool isNumber = false;
    const qint64 id = what.toLongLong(&isNumber);
    if (!(isNumber && collect("id = ?", QString::number(id))) && !collect("key = ?", what)
        && !collect("name = ?", what))
        collect("instr(lower(name), lower(?)) > 0", what);
    std::vector<LineageNodeInfo> out;
    out.reserve(ids.size());
    for (int64_t n : ids)
        out.push_back(node(n));
    return out;
}

LineageGraph LineageReader::neighbourhood(int64_t id, LineageDirection direction, int depth, int maxNodes)
{
    SqliteDb &db = m_ws.db();
    LineageGraph g;
    const LineageNodeInfo focus = node(id);
    if (focus.id == 0)
        return g;
    SqliteStmt up(db,
        "SELECT from_id, kind, properties FROM lineage_edge WHERE to_id = ? AND kind IN ('input', 'output')");
    SqliteStmt down(db,
        "SELECT to_id, kind, properties FROM lineage_edge WHERE from_id = ? AND kind IN ('input', 'output')");
    std::unordered_map<int64_t, size_t> index; // node id -> position in g.nodes
    std::deque<size_t> queue;
    auto add = [&](LineageNodeInfo n, int d, int64_t from, bool upstream) {
        index.emplace(n.id, g.nodes.size());
        queue.push_back(g.nodes.size());
        g.nodes.push_back(std::move(n));
        g.depth.push_back(d);
        g.reachedFrom.push_back(from);
        g.upstream.push_back(upstream);
    };
    add(focus, 0, 0, false);
    std::set<std::tuple<int64_t, int64_t, QString>> seenEdges;
    auto walk = [&](SqliteStmt &st, int64_t current, int d, bool upstream) {
        st.bind(1, current);
        std::vector<std::pair<int64_t, LineageEdgeInfo>> found;
        while (st.step()) {
            const int64_t other = st.columnInt(0);
            LineageEdgeInfo e { upstream ? other : current, upstream ? current : other, st.columnText(1),
                st.columnText(2) };
            found.emplace_back(other, std::move(e));
        }
        st.reset();
        for (auto &[other, e] : found) {
            if (!index.count(other)) {
                if (d + 1 > depth)
                    continue;
                if (int(g.nodes.size()) >= maxNodes) {
                    g.truncated = true;
                    continue;
                }
                add(node(other), d + 1, current, upstream);
            }
            if (seenEdges.emplace(e.from, e.to, e.kind).second)
                g.edges.push_back(std::move(e));
        }
    };
    while (!queue.empty()) {
        const size_t at = queue.front();
        queue.pop_front();
        const int64_t current = g.nodes[at].id;
        const int d = g.depth[at];
        if (d >= depth)
            continue;
        // Both directions from the focus; beyond it, each node keeps going the way it was reached
        // (the inputs of a model's inputs, not the other models made from them).
        const bool goUp = direction == LineageDirection::Up
            || (direction == LineageDirection::Both && (at == 0 || g.upstream[at]));
        const bool goDown = direction == LineageDirection::Down
            || (direction == LineageDirection::Both && (at == 0 || !g.upstream[at]));
        if (goUp)
            walk(up, current, d, true);
        if (goDown)
            walk(down, current, d, false);
    }
    // The edges between nodes shown that the walk did not take (from nodes at the depth limit, or
    // between the two sides of the focus), so that the drawing does not omit them.
    for (const LineageNodeInfo &n : g.nodes) {
        down.bind(1, n.id);
        while (down.step()) {
            const int64_t to = down.columnInt(0);
            LineageEdgeInfo e { n.id, to, down.columnText(1), down.columnText(2) };
            if (index.count(to) && seenEdges.emplace(e.from, e.to, e.kind).second)
                g.edges.push_back(std::move(e));
        }
        down.reset();
    }
    return g;
}

bool isFailedState(const QString &state)
{
    const QString s = state.toUpper();
    return s.contains(QLatin1String("FAIL")) || s.contains(QLatin1String("ABORT"))
        || s.contains(QLatin1String("CANCEL"));
}

LineageGraph collapseRepeatedRuns(const LineageGraph &g)
{
    const size_t n = g.nodes.size();
    std::unordered_map<int64_t, size_t> index;
    for (size_t i = 0; i < n; ++i)
        index.emplace(g.nodes[i].id, i);
    // Group keys: executions by job; artifacts by type and the group of the run that made them (or,
    // for inputs nothing here made, the group of a run that read them). Empty: a group of its own.
    std::vector<QString> key(n);
    for (size_t i = 1; i < n; ++i) // 0 is the focus
        if (g.nodes[i].kind == QLatin1String("execution") && !g.nodes[i].job.isEmpty())
            key[i] = QStringLiteral("job\n") + g.nodes[i].job;
    std::vector<QString> madeBy(n), readBy(n);
    for (const LineageEdgeInfo &e : g.edges) {
        const auto from = index.find(e.from), to = index.find(e.to);
        if (from == index.end() || to == index.end())
            continue;
        if (!key[from->second].isEmpty() && g.nodes[to->second].kind == QLatin1String("artifact")
            && madeBy[to->second].isEmpty())
            madeBy[to->second] = key[from->second];
        if (!key[to->second].isEmpty() && g.nodes[from->second].kind == QLatin1String("artifact")
            && readBy[from->second].isEmpty())
            readBy[from->second] = key[to->second];
    }
    for (size_t i = 1; i < n; ++i) {
        if (g.nodes[i].kind != QLatin1String("artifact"))
            continue;
        if (!madeBy[i].isEmpty())
            key[i] = QStringLiteral("made\n%1\n%2").arg(g.nodes[i].type, madeBy[i]);
        else if (!readBy[i].isEmpty())
            key[i] = QStringLiteral("read\n%1\n%2").arg(g.nodes[i].type, readBy[i]);
    }
    // Groups in order of first member (so the focus stays first).
    std::vector<size_t> groupOf(n);
    std::vector<std::vector<size_t>> groups;
    std::unordered_map<QString, size_t> byKey;
    for (size_t i = 0; i < n; ++i) {
        if (key[i].isEmpty()) {
            groupOf[i] = groups.size();
            groups.push_back({ i });
            continue;
        }
        auto [it, added] = byKey.try_emplace(key[i], groups.size());
        if (added)
            groups.emplace_back();
        groupOf[i] = it->second;
        groups[it->second].push_back(i);
    }

    LineageGraph out;
    out.truncated = g.truncated;
    for (const auto &members : groups) {
        const size_t first = members.front();
        LineageNodeInfo node = g.nodes[first];
        int depth = g.depth[first];
        for (size_t m : members) {
            node.members << g.nodes[m].id;
            node.failedMembers += isFailedState(g.nodes[m].state) ? 1 : 0;
            depth = std::min(depth, g.depth[m]);
        }
        if (members.size() > 1) {
            const QString count = QString::number(members.size());
            if (node.kind == QLatin1String("execution"))
                node.name = QStringLiteral("%1 × %2 runs").arg(node.job, count);
            else
                node.name = QStringLiteral("%1 × %2").arg(node.type, count);
            if (node.failedMembers > 0)
                node.state = QStringLiteral("%1 of %2 failed").arg(node.failedMembers).arg(members.size());
        }
        out.nodes.push_back(std::move(node));
        out.depth.push_back(depth);
        out.reachedFrom.push_back(0);
        out.upstream.push_back(g.upstream[first]);
    }
    // Reached-from and edges, redirected to the groups' first members.
    for (size_t k = 0; k < groups.size(); ++k) {
        const size_t first = groups[k].front();
        const auto from = index.find(g.reachedFrom[first]);
        out.reachedFrom[k] = from == index.end() ? 0 : out.nodes[groupOf[from->second]].id;
    }
    std::set<std::tuple<int64_t, int64_t, QString>> seen;
    for (const LineageEdgeInfo &e : g.edges) {
        const auto from = index.find(e.from), to = index.find(e.to);
        if (from == index.end() || to == index.end())
            continue;
        const int64_t a = out.nodes[groupOf[from->second]].id, b = out.nodes[groupOf[to->second]].id;
        if (a != b && seen.emplace(a, b, e.kind).second)
            out.edges.push_back(LineageEdgeInfo { a, b, e.kind, e.properties });
    }
    return out;
}

} // namespace plumb
