// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_goodput.h"

#include "present/goodputpresent.h"

using namespace plumb;

using cli::err;
using cli::out;

int runGoodput(const cli::Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import a job lifecycle log or an experiment log first, or pass --workspace FILE"),
        [&](Workspace &ws) {
            const GoodputLookup lookup = readGoodput(ws, a.paths.value(0), a.goodput);
            if (!lookup.error.isEmpty()) {
                err(lookup.error);
                return 1;
            }
            out(a.json ? cli::jsonText(goodputJson(lookup.report)) : goodputText(lookup.report));
            return 0;
        });
}
