// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_configdiff.h"

#include "present/configdiffpresent.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runConfigDiff(const Args &a)
{
    return cli::withWorkspace(
        a.workspace, QStringLiteral("import the runs first or pass --workspace FILE"), [&](Workspace &ws) {
            const ConfigDiffLookup lookup = readConfigDiff(ws, a.paths, a.allRows);
            if (!lookup.error.isEmpty()) {
                err(lookup.error);
                return 1;
            }
            out(a.json ? cli::jsonText(configDiffJson(lookup.presentation))
                       : configDiffText(lookup.presentation));
            return 0;
        });
}
