// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lineage.h"

#include "present/lineagepresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

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
        const LineageLookup lookup = readLineage(ws, a.paths[0], a.lineageDirection, a.lineageDepth);
        if (!lookup.error.isEmpty()) {
            err(lookup.error);
            return 1;
        }
        out(a.json ? QString::fromUtf8(
                QJsonDocument(lineageJson(lookup.presentation)).toJson(QJsonDocument::Indented))
                   : lineageText(lookup.presentation));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
