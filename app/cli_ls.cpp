// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_ls.h"

#include "present/lspresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runLs(const Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import something first (plumb import trace.json) or pass "
                           "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const LsListing listing = lsListing(ws, a.diagnostics);
        out(a.json ? QString::fromUtf8(QJsonDocument(lsJson(listing)).toJson(QJsonDocument::Indented))
                   : lsText(listing));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
