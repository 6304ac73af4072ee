// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lineage.h"

#include "present/lineagepresent.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runLineage(const Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import an ML Metadata store or OpenLineage events first, or pass --workspace FILE"),
        [&](Workspace &ws) {
            const LineageLookup lookup = readLineage(ws, a.paths[0], a.lineageDirection, a.lineageDepth);
            if (!lookup.error.isEmpty()) {
                err(lookup.error);
                return 1;
            }
            out(a.json ? cli::jsonText(lineageJson(lookup.presentation)) : lineageText(lookup.presentation));
            return 0;
        });
}
