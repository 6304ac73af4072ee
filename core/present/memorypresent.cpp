// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/memorypresent.h"

#include "store/traceselection.h"
#include "text/textformat.h"

#include <QJsonArray>

namespace plumb {

namespace {

// Rows of the text output's tables (the JSON has every live allocation).
constexpr int kTextRows = 10;

QJsonValue orNull(int64_t value)
{
    return value >= 0 ? QJsonValue(qint64(value)) : QJsonValue();
}

QString hexAddress(int64_t addr)
{
    return QStringLiteral("0x") + QString::number(quint64(addr), 16);
}

QJsonArray allocationsJson(const std::vector<MemoryAllocation> &allocations)
{
    QJsonArray out;
    for (const MemoryAllocation &a : allocations)
        out.append(QJsonObject { { QStringLiteral("op"), a.op.isEmpty() ? QJsonValue() : QJsonValue(a.op) },
            { QStringLiteral("bytes"), qint64(a.bytes) }, { QStringLiteral("ts_ns"), qint64(a.tsNs) },
            { QStringLiteral("freed_ns"), orNull(a.freedNs) },
            { QStringLiteral("addr"), hexAddress(a.addr) } });
    return out;
}

// "12.345 ms" after the trace's start.
QString at(const MemoryTimeline &t, int64_t ns)
{
    return text::milliseconds(ns - t.startNs) + QStringLiteral(" ms");
}

QString allocationsText(const MemoryTimeline &t, const std::vector<MemoryAllocation> &allocations)
{
    QString out = QStringLiteral("    %1 %2  %3\n")
                      .arg(QStringLiteral("bytes").rightJustified(10),
                          QStringLiteral("at").rightJustified(14), QStringLiteral("op"));
    const size_t n = std::min<size_t>(allocations.size(), kTextRows);
    for (size_t i = 0; i < n; ++i) {
        const MemoryAllocation &a = allocations[i];
        out += QStringLiteral("    %1 %2  %3\n")
                   .arg(text::bytes(a.bytes).rightJustified(10), at(t, a.tsNs).rightJustified(14),
                       a.op.isEmpty() ? QStringLiteral("-") : text::elided(a.op, 70));
    }
    if (allocations.size() > n)
        out += QStringLiteral("    ... %1 more\n").arg(text::count(int64_t(allocations.size() - n)));
    return out;
}

} // namespace

MemoryLookup readMemory(Workspace &workspace, const QString &traceId)
{
    MemoryLookup out;
    const TraceSelection chosen
        = selectTraces(workspace, traceId.isEmpty() ? QStringList {} : QStringList { traceId });
    if (!chosen.ok()) {
        out.error = chosen.error;
        return out;
    }
    if (chosen.traces.empty()) {
        out.error = QStringLiteral("the workspace has no trace; import one (plumb import trace.json)");
        return out;
    }
    out.timeline = memoryTimeline(workspace, chosen.traces.back().id);
    return out;
}

QJsonObject memoryJson(const MemoryTimeline &t)
{
    QJsonObject o;
    o[QStringLiteral("schema")] = QStringLiteral("plumb.memory/1");
    o[QStringLiteral("trace")] = qint64(t.traceId);
    o[QStringLiteral("trace_name")] = t.traceName;
    QJsonArray devices;
    for (const DeviceMemory &d : t.devices) {
        QJsonObject j;
        j[QStringLiteral("device")] = d.label;
        j[QStringLiteral("device_index")] = d.device >= 0 ? QJsonValue(qint64(d.device)) : QJsonValue();
        j[QStringLiteral("source")] = d.fromCounters ? QStringLiteral("counters") : QStringLiteral("events");
        j[QStringLiteral("events")] = qint64(d.eventCount);
        j[QStringLiteral("allocations")] = qint64(d.allocationCount);
        j[QStringLiteral("frees")] = qint64(d.freeCount);
        j[QStringLiteral("unmatched_frees")] = qint64(d.unmatchedFreeCount);
        j[QStringLiteral("peak_allocated_bytes")] = qint64(d.peakAllocatedBytes);
        j[QStringLiteral("peak_ns")] = qint64(d.peakNs);
        j[QStringLiteral("reserved_reported")] = d.reservedReported;
        j[QStringLiteral("reserved_at_peak_bytes")] = qint64(d.reservedAtPeakBytes);
        j[QStringLiteral("peak_reserved_bytes")] = qint64(d.peakReservedBytes);
        j[QStringLiteral("peak_reserved_ns")] = qint64(d.peakReservedNs);
        j[QStringLiteral("max_reserved_minus_allocated_bytes")] = qint64(d.maxUnusedReservedBytes);
        j[QStringLiteral("max_reserved_minus_allocated_ns")] = qint64(d.maxUnusedReservedNs);
        j[QStringLiteral("live_at_peak_bytes")] = qint64(d.liveAtPeakBytes);
        j[QStringLiteral("allocated_before_capture_bytes")] = qint64(d.allocatedBeforeCaptureBytes);
        j[QStringLiteral("live_at_peak")] = allocationsJson(d.liveAtPeak);
        j[QStringLiteral("largest_allocations")] = allocationsJson(d.largest);
        devices.append(j);
    }
    o[QStringLiteral("devices")] = devices;
    return o;
}

QString memoryText(const MemoryTimeline &t)
{
    QString out = QStringLiteral("trace %1  %2\n").arg(t.traceId).arg(t.traceName);
    if (t.empty())
        return out
            + QStringLiteral("no memory events: profile with torch.profiler's profile_memory=True (or nsys "
                             "--cuda-memory-usage=true) to record allocations\n");
    for (const DeviceMemory &d : t.devices) {
        out += QStringLiteral("\n%1  %2 events, %3 allocations, %4 frees%5\n")
                   .arg(d.label, text::count(d.eventCount), text::count(d.allocationCount),
                       text::count(d.freeCount),
                       d.fromCounters ? QStringLiteral(" (allocated totals only: Nsight's memory counters)")
                                      : QString());
        out += QStringLiteral("  peak allocated   %1 at %2")
                   .arg(text::bytes(d.peakAllocatedBytes), at(t, d.peakNs));
        if (d.reservedReported)
            out += QStringLiteral(" (reserved then %1)").arg(text::bytes(d.reservedAtPeakBytes));
        out += QLatin1Char('\n');
        if (d.reservedReported) {
            out += QStringLiteral("  peak reserved    %1 at %2\n")
                       .arg(text::bytes(d.peakReservedBytes), at(t, d.peakReservedNs));
            out += QStringLiteral(
                "  reserved - allocated  at most %1 at %2 (held by the caching allocator)\n")
                       .arg(text::bytes(d.maxUnusedReservedBytes), at(t, d.maxUnusedReservedNs));
        }
        if (d.fromCounters)
            continue;
        out += QStringLiteral("  live at the peak: %1 in %2")
                   .arg(text::bytes(d.liveAtPeakBytes),
                       text::counted(int64_t(d.liveAtPeak.size()), QStringLiteral("allocation"),
                           QStringLiteral("allocations")));
        if (d.allocatedBeforeCaptureBytes > 0)
            out += QStringLiteral("; %1 allocated before the capture began")
                       .arg(text::bytes(d.allocatedBeforeCaptureBytes));
        out += QLatin1Char('\n');
        if (!d.liveAtPeak.empty())
            out += allocationsText(t, d.liveAtPeak);
        if (!d.largest.empty())
            out += QStringLiteral("  largest allocations:\n") + allocationsText(t, d.largest);
    }
    return out;
}

} // namespace plumb
