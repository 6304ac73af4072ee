// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/runselection.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

namespace plumb {

namespace {

QString candidateList(const std::vector<const RunChoice *> &list)
{
    QStringList names;
    for (const RunChoice *r : list)
        names << QStringLiteral("%1 %2").arg(r->id).arg(r->name);
    return names.join(QStringLiteral(", "));
}

} // namespace

RunSelection selectRuns(
    const std::vector<RunChoice> &candidates, const QStringList &specs, const QString &unknown)
{
    RunSelection out;
    for (const QString &spec : specs) {
        bool isNumber = false;
        const int64_t id = spec.toLongLong(&isNumber);
        const RunChoice *byId = nullptr;
        if (isNumber)
            for (const RunChoice &r : candidates)
                if (r.id == id)
                    byId = &r;
        if (byId) {
            out.ids << byId->id;
            continue;
        }
        std::vector<const RunChoice *> whole, folder;
        for (const RunChoice &r : candidates) {
            if (r.name == spec)
                whole.push_back(&r);
            else if (r.name.section(u'/', -1) == spec)
                folder.push_back(&r);
        }
        const std::vector<const RunChoice *> &match = whole.empty() ? folder : whole;
        if (match.size() == 1) {
            out.ids << match.front()->id;
            continue;
        }
        if (match.empty()) {
            std::vector<const RunChoice *> near; // names that contain it, to suggest
            for (const RunChoice &r : candidates)
                if (!spec.isEmpty() && r.name.contains(spec, Qt::CaseInsensitive) && near.size() < 8)
                    near.push_back(&r);
            out.error = unknown.arg(spec)
                + (near.empty() ? QStringLiteral(" (plumb ls lists them)")
                                : QStringLiteral("; did you mean: %1").arg(candidateList(near)));
        } else {
            out.error = QStringLiteral("%1 names %2 runs; give one of their ids: %3")
                            .arg(spec)
                            .arg(match.size())
                            .arg(candidateList(match));
        }
        out.ids.clear();
        return out;
    }
    return out;
}

std::vector<RunChoice> workspaceRuns(Workspace &workspace)
{
    std::vector<RunChoice> out;
    SqliteStmt st(workspace.db(), "SELECT id, name FROM run ORDER BY id");
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnText(1) });
    return out;
}

} // namespace plumb
