// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_diff.h"

#include "analysis/tracediff.h"
#include "analysis/verdict.h"
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
            const int64_t idA = chosen.traces[0].id, idB = chosen.traces[1].id;
            const TraceDiff d = diffTraces(ws, idA, idB, a.mode, a.stepTime,
                a.fromEvents ? ReportSource::Events : ReportSource::Summaries);
            const QString verdictA = componentName(d.a.verdict.component);
            const QString verdictB = componentName(d.b.verdict.component);
            out(a.json ? cli::jsonText(diffJson(d, a.mode, verdictA, verdictB))
                       : diffText(d, verdictA, verdictB));
            return 0;
        });
}
