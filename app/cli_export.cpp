// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_export.h"

#include "export/chromeexport.h"
#include "store/runselection.h"
#include "store/sqlitedb.h"
#include "store/traceselection.h"
#include "store/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

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

void add(ChromeExportStats &total, const ChromeExportStats &s)
{
    total.traces += s.traces;
    total.events += s.events;
    total.slices += s.slices;
    total.gpuOps += s.gpuOps;
    total.flows += s.flows;
    total.counters += s.counters;
    total.bytes += s.bytes;
}

int exportRun(Workspace &ws, const cli::ExportArgs &a, const ChromeExportOptions &options)
{
    const RunSelection chosen = selectRuns(workspaceRuns(ws), { a.run });
    if (!chosen.ok()) {
        err(chosen.error);
        return 1;
    }
    const int64_t runId = chosen.ids.front();
    struct Rank {
        int64_t traceId;
        int64_t rank;
    };
    std::vector<Rank> traces;
    SqliteStmt st(
        ws.db(), "SELECT id, coalesce(rank, -1) FROM trace WHERE run_id = ? ORDER BY rank IS NULL, rank, id");
    st.bind(1, runId);
    while (st.step())
        traces.push_back({ st.columnInt(0), st.columnInt(1) });
    if (!a.ranks.isEmpty()) {
        std::vector<Rank> kept;
        for (int64_t r : a.ranks) {
            const auto it
                = std::find_if(traces.begin(), traces.end(), [r](const Rank &t) { return t.rank == r; });
            if (it == traces.end()) {
                err(QStringLiteral("run %1 has no trace of rank %2").arg(a.run).arg(r));
                return 1;
            }
            for (const Rank &t : traces)
                if (t.rank == r)
                    kept.push_back(t);
        }
        traces = kept;
    }
    if (traces.empty()) {
        err(QStringLiteral("run %1 has no trace to export (plumb ls lists the traces)").arg(a.run));
        return 1;
    }
    if (a.singleFile) {
        std::vector<int64_t> ids;
        for (const Rank &t : traces)
            ids.push_back(t.traceId);
        const ChromeExportStats s = ChromeExporter(ws).exportTraces(ids, a.output, options);
        out(QStringLiteral("exported %1 of run %2: ").arg(tracesText(s.traces)).arg(runId)
            + summary(s, a.output));
        return 0;
    }
    if (!QDir().mkpath(a.output) || !QFileInfo(a.output).isDir()) {
        err(QStringLiteral("cannot write %1: it cannot be made a folder").arg(a.output));
        return 1;
    }
    ChromeExportStats total;
    QSet<QString> names;
    ChromeExporter exporter(ws);
    for (const Rank &t : traces) {
        QString name = rankFileName(t.rank, t.traceId, options.gzip);
        if (names.contains(name)) // two traces of one rank (several hosts): the second by its id
            name = rankFileName(-1, t.traceId, options.gzip);
        names.insert(name);
        add(total, exporter.exportTrace(t.traceId, QDir(a.output).filePath(name), options));
    }
    out(QStringLiteral("exported %1 of run %2: ").arg(tracesText(total.traces)).arg(runId)
        + summary(total, QDir(a.output).path() + QLatin1Char('/')));
    return 0;
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
                if (!a.run.isEmpty())
                    return exportRun(ws, a, options);
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
