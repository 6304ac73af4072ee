// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_diff.h"

#include "analysis/tracediff.h"
#include "present/diffpresent.h"
#include "present/selection.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runDiff(const Args &a)
{
    if (a.paths.size() != 2) {
        err(QStringLiteral(
            "diff needs two trace ids: the baseline and the trace to compare (plumb ls lists them)"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import the traces first or pass --workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const TraceSelection chosen = selectTraces(ws, a.paths);
        if (!chosen.ok()) {
            err(chosen.error);
            return 1;
        }
        const TraceDiff d = diffTraces(ws, chosen.traces[0].id, chosen.traces[1].id, a.mode);
        out(a.json ? QString::fromUtf8(QJsonDocument(diffJson(d, a.mode)).toJson(QJsonDocument::Indented))
                   : diffText(d));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
