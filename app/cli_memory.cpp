// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_memory.h"

#include "present/memorypresent.h"

using namespace plumb;

using cli::err;
using cli::out;

int runMemory(const cli::Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import a trace first (plumb import trace.json) or pass --workspace FILE"),
        [&](Workspace &ws) {
            const MemoryLookup lookup = readMemory(ws, a.paths.value(0));
            if (!lookup.error.isEmpty()) {
                err(lookup.error);
                return 1;
            }
            out(a.json ? cli::jsonText(memoryJson(lookup.timeline)) : memoryText(lookup.timeline));
            return 0;
        });
}
