// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/workspacesnapshot.h"

#include "analysis/tracesummary.h"

#include "session/importcontent.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>

namespace plumb {

WorkspaceSnapshot WorkspaceSnapshot::load(const QString &path, Mode mode)
{
    WorkspaceSnapshot s;
    s.path = path;
    const QFileInfo info(path);
    if (path.isEmpty()) {
        s.error = QStringLiteral("no workspace file was given");
        return s;
    }
    if (info.isDir()) {
        s.error = QStringLiteral("%1 is a folder, not a workspace file").arg(path);
        return s;
    }
    try {
        if (!info.exists()) {
            if (mode != Mode::CreateIfMissing) {
                s.error = QStringLiteral("%1 does not exist").arg(path);
                return s;
            }
            Workspace created(path, Workspace::Role::Writer); // creates and migrates
        } else if (const QString why = Workspace::readOnlyReason(path); !why.isEmpty()) {
            // Read as it is (a Reader refuses an older one it could not upgrade, saying why).
            s.readOnlyReason = why;
        } else {
            // A Reader first: it refuses SQLite files that are not Plumb workspaces, which a Writer
            // would otherwise migrate (write our tables into).
            bool needsMigration = false, missing = false;
            {
                Workspace probe(path, Workspace::Role::Reader);
                needsMigration = probe.schemaVersion() < Workspace::currentSchemaVersion();
                missing = !needsMigration && traceSummariesMissing(probe);
            }
            if (needsMigration) {
                Workspace migrated(path, Workspace::Role::Writer);
            }
            // Traces imported before this build's summaries (analysis/tracesummary.h) get them once; a
            // workspace we may not write keeps without, and the doctor reads its events.
            try {
                if (needsMigration || missing) {
                    Workspace writer(path, Workspace::Role::Writer);
                    writeMissingTraceSummaries(writer);
                }
            } catch (const SqlError &) {
            }
        }
        Workspace ws(path, Workspace::Role::Reader);
        WorkspaceReader reader(ws);
        s.summary = reader.summary();
        s.sources = reader.sources();
        s.runs = reader.runs();
        s.diagnostics = reader.diagnostics();
        s.metricPoints = ImportContent::metricPoints(ws.db());
    } catch (const SqlError &e) {
        s = WorkspaceSnapshot {};
        s.path = path;
        s.error = e.message();
    }
    return s;
}

} // namespace plumb
