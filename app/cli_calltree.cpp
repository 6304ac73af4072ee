// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_calltree.h"

#include "present/calltreepresent.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runCallTree(const Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import a trace first (plumb import trace.json) or pass --workspace FILE"),
        [&](Workspace &ws) {
            const CallTreeLookup lookup = readCallTree(ws, a.paths[0], a.thread, a.step,
                a.samples ? CallTreeSource::Samples : CallTreeSource::Slices, a.bottomUp);
            if (!lookup.error.isEmpty()) {
                err(lookup.error);
                return 1;
            }
            out(a.json ? cli::jsonText(callTreeJson(lookup.presentation))
                       : callTreeText(lookup.presentation));
            return 0;
        });
}
