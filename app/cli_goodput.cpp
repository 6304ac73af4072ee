// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_goodput.h"

#include "present/goodputpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;

using cli::err;
using cli::out;

int runGoodput(const cli::Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
            "no workspace at %1; import a job lifecycle log or an experiment log first, or pass "
            "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const GoodputLookup lookup = readGoodput(ws, a.paths.value(0), a.goodput);
        if (!lookup.error.isEmpty()) {
            err(lookup.error);
            return 1;
        }
        out(a.json
                ? QString::fromUtf8(QJsonDocument(goodputJson(lookup.report)).toJson(QJsonDocument::Indented))
                : goodputText(lookup.report));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
