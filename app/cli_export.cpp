// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_export.h"

#include "export/chromeexport.h"
#include "store/runselection.h"
#include "store/traceselection.h"
#include "store/workspace.h"

#include <QDir>

using namespace plumb;
using cli::err;
using cli::out;

namespace {

QString summary(const ChromeExportStats &s, const QString &where)
{
    return QStringLiteral("%1 events (%2 slices, %3 GPU ops, %4 flows, %5 counter samples), %6 bytes -> %7\n")
        .arg(s.events)
        .arg(s.slices)
        .arg(s.gpuOps)
        .arg(s.flows)
        .arg(s.counters)
        .arg(s.bytes)
        .arg(where);
}

QString tracesText(int64_t n)
{
    return n == 1 ? QStringLiteral("1 trace") : QStringLiteral("%1 traces").arg(n);
}

} // namespace

int runExport(const cli::ExportArgs &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import a trace first (plumb import trace.json) or pass --workspace FILE"),
        [&](Workspace &ws) {
            ChromeExportOptions options;
            options.fromNs = a.fromNs;
            options.toNs = a.toNs;
            options.gzip = a.gzip;
            try {
                if (!a.run.isEmpty()) {
                    const RunSelection chosen = selectRuns(workspaceRuns(ws), { a.run });
                    if (!chosen.ok()) {
                        err(chosen.error);
                        return 1;
                    }
                    const int64_t runId = chosen.ids.front();
                    const std::vector<int64_t> ranks(a.ranks.begin(), a.ranks.end());
                    const ChromeExportStats s
                        = ChromeExporter(ws).exportRun(runId, ranks, a.output, a.singleFile, options);
                    out(QStringLiteral("exported %1 of run %2: ").arg(tracesText(s.traces)).arg(runId)
                        + summary(s, a.singleFile ? a.output : QDir(a.output).path() + QLatin1Char('/')));
                    return 0;
                }
                const TraceSelection chosen = selectTraces(ws, { a.traceId });
                if (!chosen.ok()) {
                    err(chosen.error);
                    return 1;
                }
                const TraceRef &t = chosen.traces.front();
                const ChromeExportStats s = ChromeExporter(ws).exportTrace(t.id, a.output, options);
                out(QStringLiteral("exported trace %1 (%2): ").arg(t.id).arg(t.name) + summary(s, a.output));
                return 0;
            } catch (const ExportError &e) {
                err(QString::fromUtf8(e.what()));
                return 1;
            }
        });
}
