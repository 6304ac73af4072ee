// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_configdiff.h"

#include "present/configdiffpresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QJsonDocument>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runConfigDiff(const Args &a)
{
    if (a.paths.size() < 2) {
        err(QStringLiteral(
            "diff --config needs two or more experiment runs, by id or name (plumb ls lists them)"));
        return 2;
    }
    if (a.mode != GpuOpMode::EveryOp) {
        err(QStringLiteral("--mode is for traces; diff --config compares experiment runs"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import the runs first or pass --workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const ConfigDiffLookup lookup = readConfigDiff(ws, a.paths, a.allRows);
        if (!lookup.error.isEmpty()) {
            err(lookup.error);
            return 1;
        }
        out(a.json ? QString::fromUtf8(
                QJsonDocument(configDiffJson(lookup.presentation)).toJson(QJsonDocument::Indented))
                   : configDiffText(lookup.presentation));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}
