// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/lineagepresent.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <functional>
#include <map>
#include <vector>

namespace plumb {

namespace {

QJsonObject lineageNodeJson(const LineageNodeInfo &n)
{
    QJsonObject o { { QStringLiteral("id"), qint64(n.id) }, { QStringLiteral("kind"), n.kind },
        { QStringLiteral("type"), n.type }, { QStringLiteral("key"), n.key },
        { QStringLiteral("name"), n.name }, { QStringLiteral("uri"), n.uri },
        { QStringLiteral("state"), n.state },
        { QStringLiteral("contexts"), QJsonArray::fromStringList(n.contexts) } };
    o[QStringLiteral("start_ns")] = n.startNs ? QJsonValue(qint64(n.startNs)) : QJsonValue();
    o[QStringLiteral("end_ns")] = n.endNs ? QJsonValue(qint64(n.endNs)) : QJsonValue();
    o[QStringLiteral("properties")] = QJsonDocument::fromJson(n.properties.toUtf8()).object();
    QJsonArray runs;
    for (int64_t r : n.runIds)
        runs.append(qint64(r));
    o[QStringLiteral("runs")] = runs;
    return o;
}

// "artifact Model  trainer/model  LIVE  s3://.../model" for a tree line.
QString lineageNodeLine(const LineageNodeInfo &n)
{
    QString line
        = QStringLiteral("%1 %2  %3").arg(n.kind, n.type.isEmpty() ? QStringLiteral("-") : n.type, n.name);
    if (!n.state.isEmpty())
        line += QStringLiteral("  [%1]").arg(n.state);
    if (!n.uri.isEmpty() && n.uri != n.name)
        line += QStringLiteral("  %1").arg(n.uri);
    return line + QStringLiteral("  (#%1)").arg(n.id);
}

} // namespace

LineageLookup readLineage(Workspace &workspace, const QString &node, LineageDirection direction, int depth)
{
    LineageLookup out;
    out.presentation.direction = direction;
    out.presentation.maxDepth = depth;
    LineageReader reader(workspace);
    const std::vector<LineageNodeInfo> found = reader.find(node);
    if (found.empty()) {
        out.error = QStringLiteral("no lineage node is %1 (by id, key or name)").arg(node);
        return out;
    }
    if (found.size() > 1) {
        QStringList names;
        for (size_t i = 0; i < found.size() && i < 10; ++i)
            names << QStringLiteral("#%1 %2").arg(found[i].id).arg(found[i].name);
        out.error = QStringLiteral("%1 names %2 lineage nodes (%3%4); give an id or a key")
                        .arg(node)
                        .arg(found.size())
                        .arg(names.join(QStringLiteral(", ")),
                            found.size() > 10 ? QStringLiteral(", ...") : QString());
        return out;
    }
    out.presentation.graph = reader.neighbourhood(found[0].id, direction, depth);
    return out;
}

QJsonObject lineageJson(const LineagePresentation &p)
{
    static const char *const directions[] = { "up", "down", "both" };
    const LineageGraph &g = p.graph;
    QJsonArray nodes, edges;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        QJsonObject o = lineageNodeJson(g.nodes[i]);
        o[QStringLiteral("depth")] = i < g.depth.size() ? g.depth[i] : 0;
        nodes.append(o);
    }
    for (const LineageEdgeInfo &e : g.edges)
        edges.append(QJsonObject { { QStringLiteral("from"), qint64(e.from) },
            { QStringLiteral("to"), qint64(e.to) }, { QStringLiteral("kind"), e.kind },
            { QStringLiteral("properties"), QJsonDocument::fromJson(e.properties.toUtf8()).object() } });
    return QJsonObject { { QStringLiteral("schema"), QStringLiteral("plumb.lineage/1") },
        { QStringLiteral("focus"), g.nodes.empty() ? QJsonValue() : QJsonValue(qint64(g.nodes[0].id)) },
        { QStringLiteral("direction"), QLatin1String(directions[int(p.direction)]) },
        { QStringLiteral("max_depth"), p.maxDepth }, { QStringLiteral("truncated"), g.truncated },
        { QStringLiteral("nodes"), nodes }, { QStringLiteral("edges"), edges } };
}

QString lineageText(const LineagePresentation &p)
{
    const LineageGraph &g = p.graph;
    if (g.nodes.empty())
        return {};
    QString out;
    // A tree: each node under the one it was reached from, "<-" made from, "->" made into.
    const LineageNodeInfo &focus = g.nodes[0];
    out += lineageNodeLine(focus) + QLatin1Char('\n');
    if (!focus.contexts.isEmpty())
        out += QStringLiteral("  in: %1\n").arg(focus.contexts.join(QStringLiteral(", ")));
    if (!focus.runIds.isEmpty()) {
        QStringList runs;
        for (int64_t r : focus.runIds)
            runs << QString::number(r);
        out += QStringLiteral("  linked to run %1\n").arg(runs.join(QStringLiteral(", ")));
    }
    std::map<int64_t, std::vector<size_t>> children;
    for (size_t i = 1; i < g.nodes.size(); ++i)
        children[g.reachedFrom[i]].push_back(i);
    std::function<void(int64_t, int)> print = [&](int64_t id, int indent) {
        for (size_t child : children[id]) {
            out += QString(indent * 2, QLatin1Char(' '))
                + (g.upstream[child] ? QStringLiteral("<- ") : QStringLiteral("-> "))
                + lineageNodeLine(g.nodes[child]) + QLatin1Char('\n');
            print(g.nodes[child].id, indent + 1);
        }
    };
    print(focus.id, 1);
    if (g.nodes.size() == 1)
        out += QStringLiteral("  (no %1 within %2 edges)\n")
                   .arg(p.direction == LineageDirection::Up        ? QStringLiteral("inputs")
                           : p.direction == LineageDirection::Down ? QStringLiteral("outputs")
                                                                   : QStringLiteral("inputs or outputs"))
                   .arg(p.maxDepth);
    if (g.truncated)
        out += QStringLiteral("  (stopped at %1 nodes: use a smaller --depth)\n").arg(g.nodes.size());
    return out;
}

} // namespace plumb
