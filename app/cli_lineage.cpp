// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lineage.h"

#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>
#include <map>
#include <vector>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

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

int runLineage(const Args &a)
{
    if (a.paths.size() != 1) {
        err(QStringLiteral("lineage needs one node: its id, key or name (plumb ls says how many there are)"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
            "no workspace at %1; import an ML Metadata store or OpenLineage events first, or pass "
            "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        LineageReader reader(ws);
        const std::vector<LineageNodeInfo> found = reader.find(a.paths[0]);
        if (found.empty()) {
            err(QStringLiteral("no lineage node is %1 (by id, key or name)").arg(a.paths[0]));
            return 1;
        }
        if (found.size() > 1) {
            QStringList names;
            for (size_t i = 0; i < found.size() && i < 10; ++i)
                names << QStringLiteral("#%1 %2").arg(found[i].id).arg(found[i].name);
            err(QStringLiteral("%1 names %2 lineage nodes (%3%4); give an id or a key")
                    .arg(a.paths[0])
                    .arg(found.size())
                    .arg(names.join(QStringLiteral(", ")),
                        found.size() > 10 ? QStringLiteral(", ...") : QString()));
            return 1;
        }
        const LineageGraph g = reader.neighbourhood(found[0].id, a.lineageDirection, a.lineageDepth);
        if (a.json) {
            QJsonArray nodes, edges;
            for (size_t i = 0; i < g.nodes.size(); ++i) {
                QJsonObject o = lineageNodeJson(g.nodes[i]);
                o[QStringLiteral("depth")] = g.depth[i];
                nodes.append(o);
            }
            for (const LineageEdgeInfo &e : g.edges)
                edges.append(QJsonObject { { QStringLiteral("from"), qint64(e.from) },
                    { QStringLiteral("to"), qint64(e.to) }, { QStringLiteral("kind"), e.kind },
                    { QStringLiteral("properties"),
                        QJsonDocument::fromJson(e.properties.toUtf8()).object() } });
            static const char *const directions[] = { "up", "down", "both" };
            out(QString::fromUtf8(QJsonDocument(
                QJsonObject { { QStringLiteral("focus"), qint64(found[0].id) },
                    { QStringLiteral("direction"), QLatin1String(directions[int(a.lineageDirection)]) },
                    { QStringLiteral("depth"), a.lineageDepth }, { QStringLiteral("truncated"), g.truncated },
                    { QStringLiteral("nodes"), nodes }, { QStringLiteral("edges"), edges } })
                                      .toJson(QJsonDocument::Indented)));
            return 0;
        }
        // A tree: each node under the one it was reached from, "<-" made from, "->" made into.
        const LineageNodeInfo &focus = g.nodes[0];
        out(lineageNodeLine(focus) + QLatin1Char('\n'));
        if (!focus.contexts.isEmpty())
            out(QStringLiteral("  in: %1\n").arg(focus.contexts.join(QStringLiteral(", "))));
        if (!focus.runIds.isEmpty()) {
            QStringList runs;
            for (int64_t r : focus.runIds)
                runs << QString::number(r);
            out(QStringLiteral("  linked to run %1\n").arg(runs.join(QStringLiteral(", "))));
        }
        std::map<int64_t, std::vector<size_t>> children;
        for (size_t i = 1; i < g.nodes.size(); ++i)
            children[g.reachedFrom[i]].push_back(i);
        std::function<void(int64_t, int)> print = [&](int64_t id, int indent) {
            for (size_t child : children[id]) {
                out(QString(indent * 2, QLatin1Char(' '))
                    + (g.upstream[child] ? QStringLiteral("<- ") : QStringLiteral("-> "))
                    + lineageNodeLine(g.nodes[child]) + QLatin1Char('\n'));
                print(g.nodes[child].id, indent + 1);
            }
        };
        print(focus.id, 1);
        if (g.nodes.size() == 1)
            out(QStringLiteral("  (no %1 within %2 edges)\n")
                    .arg(a.lineageDirection == LineageDirection::Up ? QStringLiteral("inputs")
                            : a.lineageDirection == LineageDirection::Down
                            ? QStringLiteral("outputs")
                            : QStringLiteral("inputs or outputs"))
                    .arg(a.lineageDepth));
        if (g.truncated)
            out(QStringLiteral("  (stopped at %1 nodes: use a smaller --depth)\n").arg(g.nodes.size()));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
