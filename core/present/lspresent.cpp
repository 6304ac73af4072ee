// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/lspresent.h"

#include "analysis/devicebackend.h"

#include "store/workspace.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QJsonArray>

namespace plumb {

LsListing lsListing(Workspace &ws, bool withDiagnostics)
{
    LsListing l;
    WorkspaceReader reader(ws);
    l.summary = reader.summary();
    l.runs = reader.runs();
    l.sources = reader.sources();
    for (const auto &e : ExperimentReader(ws).runs())
        l.logs.emplace(e.id, e);
    l.lineage = LineageReader(ws).counts();
    l.withDiagnostics = withDiagnostics;
    if (withDiagnostics)
        l.diagnostics = reader.diagnostics();
    return l;
}

namespace {

QJsonObject traceJson(const TraceInfo &t)
{
    QJsonObject x;
    x[QStringLiteral("id")] = qint64(t.id);
    x[QStringLiteral("name")] = t.name;
    x[QStringLiteral("format")] = t.format;
    x[QStringLiteral("source_id")] = qint64(t.sourceId);
    if (t.rank >= 0)
        x[QStringLiteral("rank")] = qint64(t.rank);
    if (t.worldSize >= 0)
        x[QStringLiteral("world_size")] = qint64(t.worldSize);
    x[QStringLiteral("duration_ns")] = qint64(t.endNs - t.startNs);
    x[QStringLiteral("events")] = qint64(t.events);
    x[QStringLiteral("slices")] = qint64(t.slices);
    x[QStringLiteral("kernels")] = qint64(t.kernels);
    x[QStringLiteral("gpu_ops")] = qint64(t.gpuOps);
    x[QStringLiteral("flows")] = qint64(t.flows);
    x[QStringLiteral("counters")] = qint64(t.counters);
    x[QStringLiteral("tracks")] = qint64(t.tracks);
    x[QStringLiteral("gpu_streams")] = qint64(t.gpuStreams);
    x[QStringLiteral("devices")] = t.devices;
    x[QStringLiteral("device_type")] = t.deviceType.isEmpty() ? QJsonValue() : QJsonValue(t.deviceType);
    return x;
}

QJsonObject logsJson(const ExperimentRunInfo &e)
{
    QJsonObject x;
    x[QStringLiteral("path")] = e.path;
    x[QStringLiteral("scalar_tags")] = qint64(e.scalarTags);
    x[QStringLiteral("points")] = qint64(e.scalarPoints);
    x[QStringLiteral("histogram_tags")] = qint64(e.histogramTags);
    x[QStringLiteral("histograms")] = qint64(e.histograms);
    x[QStringLiteral("params")] = qint64(e.params);
    x[QStringLiteral("restarts")] = qint64(e.restarts);
    if (!e.status.isEmpty())
        x[QStringLiteral("status")] = e.status;
    if (!e.groupName.isEmpty())
        x[QStringLiteral("group")] = e.groupName;
    if (e.parentRunId >= 0)
        x[QStringLiteral("trial_run_id")] = qint64(e.parentRunId);
    return x;
}

} // namespace

QJsonObject lsJson(const LsListing &l)
{
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("plumb.ls/1");
    root[QStringLiteral("workspace")] = l.summary.path;
    // The workspace file's own schema; "schema" is this output's.
    root[QStringLiteral("workspace_schema_version")] = l.summary.schemaVersion;
    root[QStringLiteral("size_bytes")] = qint64(l.summary.fileBytes);
    QJsonArray jr;
    for (const auto &r : l.runs) {
        QJsonObject o;
        o[QStringLiteral("id")] = qint64(r.id);
        o[QStringLiteral("name")] = r.name;
        QJsonArray jt;
        for (const auto &t : r.traces)
            jt.append(traceJson(t));
        o[QStringLiteral("traces")] = jt;
        if (auto it = l.logs.find(r.id); it != l.logs.end())
            o[QStringLiteral("logs")] = logsJson(it->second);
        jr.append(o);
    }
    root[QStringLiteral("runs")] = jr;
    QJsonArray js;
    for (const auto &s : l.sources) {
        QJsonObject o;
        o[QStringLiteral("id")] = qint64(s.id);
        o[QStringLiteral("path")] = s.path;
        o[QStringLiteral("format")] = s.format;
        o[QStringLiteral("status")] = s.status;
        o[QStringLiteral("size_bytes")] = qint64(s.sizeBytes);
        o[QStringLiteral("records")] = qint64(s.events);
        o[QStringLiteral("skipped")] = qint64(s.skipped);
        o[QStringLiteral("diagnostics")] = qint64(s.diagnostics);
        js.append(o);
    }
    root[QStringLiteral("sources")] = js;
    if (l.hasLineage()) {
        QJsonObject o;
        o[QStringLiteral("artifacts")] = qint64(l.lineage.artifacts);
        o[QStringLiteral("executions")] = qint64(l.lineage.executions);
        o[QStringLiteral("contexts")] = qint64(l.lineage.contexts);
        o[QStringLiteral("edges")] = qint64(l.lineage.edges);
        o[QStringLiteral("links")] = qint64(l.lineage.links);
        root[QStringLiteral("lineage")] = o;
    }
    if (l.withDiagnostics) {
        QJsonArray jd;
        for (const auto &d : l.diagnostics) {
            QJsonObject o;
            o[QStringLiteral("source_id")] = qint64(d.sourceId);
            o[QStringLiteral("severity")] = d.severity;
            o[QStringLiteral("code")] = d.code;
            o[QStringLiteral("location")] = d.location;
            o[QStringLiteral("count")] = qint64(d.count);
            o[QStringLiteral("message")] = d.message;
            jd.append(o);
        }
        root[QStringLiteral("diagnostics")] = jd;
    }
    return root;
}

QString lsText(const LsListing &l)
{
    QString out = QStringLiteral("Workspace %1 (%2, schema %3)\n\n")
                      .arg(l.summary.path, text::bytes(l.summary.fileBytes))
                      .arg(l.summary.schemaVersion);
    if (l.runs.isEmpty() && !l.hasLineage())
        out += QStringLiteral("No runs yet: plumb import PATH... adds traces and experiment logs.\n");
    if (l.hasLineage())
        out += QStringLiteral("lineage  %1\n").arg(l.lineage.summary());
    for (const auto &r : l.runs) {
        out += QStringLiteral("run %1  %2\n").arg(r.id).arg(r.name);
        for (const auto &t : r.traces) {
            // "rank 3/8", or "rank 3" when the trace does not give the job's size.
            const QString rank = t.rank < 0 ? QString()
                : t.worldSize >= 0          ? QStringLiteral("rank %1/%2  ").arg(t.rank).arg(t.worldSize)
                                            : QStringLiteral("rank %1  ").arg(t.rank);
            // "GPU ops", or "device ops" for an accelerator that is no GPU (MTIA).
            const DeviceBackend kind = deviceBackendFromId(t.deviceType);
            const QString opNoun = kind == DeviceBackend::Unknown ? QStringLiteral("GPU") : deviceNoun(kind);
            // The backend before the devices: ", ROCm/HIP: AMD Instinct MI300X VF".
            const QString backend = deviceTypeName(kind);
            const QString devices = backend.isEmpty()
                ? (t.devices.isEmpty() ? QString() : QStringLiteral(", ") + t.devices)
                : t.devices.isEmpty() ? QStringLiteral(", ") + backend
                                      : QStringLiteral(", %1: %2").arg(backend, t.devices);
            out += QStringLiteral("  trace %1  %2  %3%4, %5, %6, %7, %8, %9%10\n")
                       .arg(t.id)
                       .arg(t.name, rank)
                       .arg(text::counted(t.events, QStringLiteral("event"), QStringLiteral("events")),
                           text::counted(t.kernels, QStringLiteral("kernel"), QStringLiteral("kernels")),
                           text::counted(
                               t.gpuOps, opNoun + QStringLiteral(" op"), opNoun + QStringLiteral(" ops")),
                           text::counted(t.flows, QStringLiteral("flow"), QStringLiteral("flows")),
                           text::counted(t.gpuStreams, QStringLiteral("stream"), QStringLiteral("streams")))
                       .arg(formatDuration(t.endNs - t.startNs))
                       .arg(devices);
        }
        if (auto it = l.logs.find(r.id); it != l.logs.end()) {
            const ExperimentRunInfo &e = it->second;
            QStringList parts;
            parts << QStringLiteral("%1 (%2)").arg(
                text::counted(e.scalarTags, QStringLiteral("scalar tag"), QStringLiteral("scalar tags")),
                text::counted(e.scalarPoints, QStringLiteral("point"), QStringLiteral("points")));
            if (e.histogramTags)
                parts << QStringLiteral("%1 (%2)").arg(
                    text::counted(
                        e.histogramTags, QStringLiteral("histogram tag"), QStringLiteral("histogram tags")),
                    text::count(e.histograms));
            if (e.params)
                parts << text::counted(e.params, QStringLiteral("param"), QStringLiteral("params"));
            if (e.restarts)
                parts << text::counted(e.restarts, QStringLiteral("restart"), QStringLiteral("restarts"));
            if (!e.status.isEmpty())
                parts << QStringLiteral("status %1").arg(e.status);
            if (e.parentRunId >= 0)
                parts << QStringLiteral("in trial run %1").arg(e.parentRunId);
            out += QStringLiteral("  logs  %1\n").arg(parts.join(QStringLiteral(", ")));
        }
    }
    out += QStringLiteral("\nsources\n");
    for (const auto &s : l.sources) {
        out += QStringLiteral("  %1  %2  %3  %4  %5  %6%7%8\n")
                   .arg(s.id)
                   .arg(s.name, s.format, text::bytes(s.sizeBytes), s.status,
                       text::counted(s.events, QStringLiteral("record"), QStringLiteral("records")),
                       s.skipped ? QStringLiteral(", %1 skipped").arg(text::count(s.skipped)) : QString(),
                       s.diagnostics ? QStringLiteral(", ")
                               + text::counted(
                                   s.diagnostics, QStringLiteral("diagnostic"), QStringLiteral("diagnostics"))
                                     : QString());
    }
    if (l.withDiagnostics) {
        out += QStringLiteral("\ndiagnostics\n");
        for (const auto &d : l.diagnostics)
            out += QStringLiteral("  [%1] %2 %3 x%4 at %5: %6\n")
                       .arg(d.sourceName, d.severity, d.code)
                       .arg(d.count)
                       .arg(d.location.isEmpty() ? QStringLiteral("-") : d.location, d.message);
    }
    return out;
}

} // namespace plumb
