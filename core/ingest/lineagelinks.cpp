// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/lineagelinks.h"

#include "store/sqlitedb.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QString>

namespace plumb {

namespace {

// A folder path without a file:// scheme or a trailing slash.
QString normalisedPath(QString p)
{
    if (p.startsWith(QLatin1String("file://")))
        p = p.mid(7);
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    return p;
}

} // namespace

int64_t linkLineageToRuns(SqliteDb &db)
{
    db.exec("DELETE FROM lineage_link WHERE origin <> 'user'");
    if (db.queryInt("SELECT count(*) FROM lineage_node") == 0)
        return 0;
    static const QRegularExpression hex32(QStringLiteral("(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])"));

    QHash<QString, QList<int64_t>> byMlflowId, byName, byPath,
        byAncestor; // byAncestor: every folder above a run's
    {
        SqliteStmt runs(db, "SELECT id, key, name, coalesce(path, '') FROM run");
        while (runs.step()) {
            const int64_t id = runs.columnInt(0);
            const QString key = runs.columnText(1);
            if (key.startsWith(QLatin1String("mlflow:"))) {
                const QString tail = key.section(QRegularExpression(QStringLiteral("[/#]")), -1);
                if (hex32.match(tail).hasMatch() && tail.size() == 32)
                    byMlflowId[tail] << id;
            }
            const QString name = runs.columnText(2);
            if (name.size() >= 4)
                byName[name] << id;
            const QString path = normalisedPath(runs.columnText(3));
            if (path.size() > 1) {
                byPath[path] << id;
                for (qsizetype slash = path.lastIndexOf(QLatin1Char('/')); slash > 0;
                     slash = path.lastIndexOf(QLatin1Char('/'), slash - 1))
                    byAncestor[path.left(slash)] << id;
            }
        }
    }
    SqliteStmt link(db, "INSERT OR IGNORE INTO lineage_link(node_id, run_id, origin) VALUES (?, ?, ?)");
    auto add = [&](int64_t node, const QList<int64_t> &runs, const char *origin) {
        for (int64_t run : runs)
            link.bind(1, node).bind(2, run).bind(3, std::string_view(origin)).run();
    };
    SqliteStmt nodes(
        db, "SELECT id, name, coalesce(uri, ''), coalesce(properties, ''), key FROM lineage_node");
    while (nodes.step()) {
        const int64_t id = nodes.columnInt(0);
        if (!byMlflowId.isEmpty()) {
            QSet<QString> seen;
            for (const QString &text : { nodes.columnText(3), nodes.columnText(2) })
                for (auto it = hex32.globalMatch(text); it.hasNext();) {
                    const QString token = it.next().captured();
                    if (!seen.contains(token) && byMlflowId.contains(token)) {
                        seen.insert(token);
                        add(id, byMlflowId.value(token), "mlflow-run-id");
                    }
                }
        }
        if (const QString uri = normalisedPath(nodes.columnText(2)); uri.size() > 1) {
            add(id, byPath.value(uri), "uri");
            add(id, byAncestor.value(uri), "uri"); // runs inside the artifact's folder
            for (qsizetype slash = uri.lastIndexOf(QLatin1Char('/')); slash > 0;
                 slash = uri.lastIndexOf(QLatin1Char('/'), slash - 1))
                add(id, byPath.value(uri.left(slash)), "uri"); // the artifact inside a run's folder
        }
        const QString name = nodes.columnText(1);
        if (byName.contains(name)) {
            add(id, byName.value(name), "name");
        } else if (nodes.columnText(4).startsWith(QLatin1String("openlineage:job/"))) {
            // An OpenLineage job is named "<namespace>/<job>", a namespace that may hold slashes
            // itself ("airflow://host"): its longest tail after a slash that is a run's name.
            for (qsizetype slash = name.indexOf(QLatin1Char('/')); slash >= 0;
                 slash = name.indexOf(QLatin1Char('/'), slash + 1))
                if (const auto it = byName.constFind(name.mid(slash + 1)); it != byName.cend()) {
                    add(id, *it, "job-name");
                    break;
                }
        }
    }
    return db.queryInt("SELECT count(*) FROM lineage_link WHERE origin <> 'user'");
}

bool linkNodeToRun(SqliteDb &db, int64_t nodeId, int64_t runId)
{
    SqliteStmt exists(db,
        "SELECT (SELECT count(*) FROM lineage_node WHERE id = ?1) > 0 AND (SELECT count(*) FROM run WHERE id "
        "= ?2) > 0");
    exists.bind(1, nodeId).bind(2, runId);
    if (!exists.step() || exists.columnInt(0) == 0) {
        return false;
    }
    SqliteStmt link(db, "INSERT OR REPLACE INTO lineage_link(node_id, run_id, origin) VALUES (?, ?, 'user')");
    link.bind(1, nodeId).bind(2, runId).run();
    return true;
}

} // namespace plumb
