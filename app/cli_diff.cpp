// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_diff.h"

#include "analysis/tracediff.h"
#include "present/diffpresent.h"
#include "store/traceselection.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runDiff(const Args &a)
{
    return cli::withWorkspace(
        a.workspace, QStringLiteral("import the traces first or pass --workspace FILE"), [&](Workspace &ws) {
            const TraceSelection chosen = selectTraces(ws, a.paths);
            if (!chosen.ok()) {
                err(chosen.error);
                return 1;
            }
            const TraceDiff d = diffTraces(ws, chosen.traces[0].id, chosen.traces[1].id, a.mode);
            out(a.json ? cli::jsonText(diffJson(d, a.mode)) : diffText(d));
            return 0;
        });
}
