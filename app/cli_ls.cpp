// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_ls.h"

#include "present/lspresent.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runLs(const Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import something first (plumb import trace.json) or pass --workspace FILE"),
        [&](Workspace &ws) {
            const LsListing listing = lsListing(ws, a.diagnostics);
            out(a.json ? cli::jsonText(lsJson(listing)) : lsText(listing));
            return 0;
        });
}
