// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/traceeventdispatcher.h"

#include "chrometrace/jsonfragments.h"
#include "chrometrace/kinetocategory.h"
#include "chrometrace/timestamp.h"
#include "ingest/diagnosticlog.h"
#include "ingest/tracesink.h"
#include "text/jsontext.h"

#include <charconv>
#include <functional>

namespace plumb::chrometrace {

TraceEventDispatcher::TraceEventDispatcher(TraceSink &sink, DiagnosticLog &diag)
    : m_sink(sink)
    , m_diag(diag)
    , m_tracks(sink)
    , m_flows(sink, m_tracks.apiTracks())
{
}

void TraceEventDispatcher::skip(const char *code, int64_t offset, const QString &message)
{
    m_diag.skipped(QString::fromLatin1(code), at(offset), message);
}

void TraceEventDispatcher::finish()
{
    m_sink.setDeviceType(deviceTypeId(guessDeviceBackend(m_evidence)));
    m_flows.finish();
    m_tracks.relocateLaunchFlowEnds();
}

int64_t TraceEventDispatcher::internArgs(const TraceEvent &e, SliceFields *promote)
{
    m_argsJson.clear();
    for (const auto &a : e.args) {
        if (promote && a.kind == ArgKind::Int) {
            int64_t *column = nullptr;
            if (a.key == "correlation") {
                column = &promote->corr;
            } else if (a.key == "External id" || a.key == "external id") {
                column = &promote->extId;
            } else if (a.key == "Sequence number") {
                column = &promote->seqNr;
            } else if (a.key == "Ev Idx" || a.key == "Profiler Event Index") {
                column = &promote->evIdx;
            } else if (a.key == "Record function id") {
                column = &promote->rfId;
            }
            if (column) {
                if (auto v = toInt(a.raw)) {
                    *column = *v;
                    continue;
                }
            }
        }
        m_argsJson.push_back(m_argsJson.empty() ? '{' : ',');
        appendJsonString(m_argsJson, a.key);
        m_argsJson.push_back(':');
        if (a.kind == ArgKind::Container) {
            appendMinified(m_argsJson, a.raw);
        } else {
            m_argsJson.append(a.raw);
        }
    }
    if (m_argsJson.empty()) {
        return kNoValue;
    }
    m_argsJson.push_back('}');
    return m_sink.internArgs(m_argsJson);
}

int64_t TraceEventDispatcher::flowKey(std::string_view raw)
{
    if (auto v = toInt(raw)) {
        return *v;
    }
    std::string_view s = raw;
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
        s = s.substr(1, s.size() - 2);
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        if (ec == std::errc() && ptr == s.data() + s.size()) {
            return int64_t(v);
        }
    }
    return int64_t(std::hash<std::string_view>()(s) & 0x7fffffffffffffffULL);
}

void TraceEventDispatcher::dispatch(TraceEvent &e, int64_t offset)
{
    if (e.ph == 0) {
        skip("missing-phase", offset, QStringLiteral("An event has no \"ph\" (phase); it was skipped."));
        return;
    }
    if (e.ph == 'M') {
        if (!m_tracks.applyMetadata(e)) {
            m_diag.report(Severity::Info, QStringLiteral("metadata-ignored"), at(offset),
                QStringLiteral("Metadata events of other kinds (e.g. %1) carry nothing Plumb shows.")
                    .arg(QString::fromUtf8(e.name.data(), qsizetype(e.name.size()))));
        }
        return;
    }

    std::optional<int64_t> ts;
    if (e.hasTs) {
        ts = parseMicrosToNs(e.ts);
    }
    if (!ts) {
        skip(e.hasTs ? "bad-timestamp" : "missing-timestamp", offset,
            e.hasTs ? QStringLiteral("An event's \"ts\" is not a number; it was skipped.")
                    : QStringLiteral("An event has no \"ts\"; it was skipped."));
        return;
    }

    bool legacy = false;
    const KinetoCategory *known = e.cat.empty() ? nullptr : KinetoCategory::find(e.cat, legacy);
    if (legacy && !m_diag.bump(QStringLiteral("legacy-category"))) {
        m_diag.report(Severity::Info, QStringLiteral("legacy-category"), at(offset),
            QStringLiteral("Category names of an older PyTorch profiler (e.g. \"%1\") were read as "
                           "today's (\"%2\").")
                .arg(QString::fromUtf8(e.cat.data(), qsizetype(e.cat.size())),
                    QString::fromUtf8(known->canonical.data(), qsizetype(known->canonical.size()))));
    }
    const std::string_view catName = known ? known->canonical : e.cat;
    CatClass cls = known ? known->cls : CatClass::Other;
    if (cls == CatClass::Kernel && known->backend) {
        // A backend whose device ops are one category tells copies by name (MTIA's dma_request).
        for (std::string_view prefix : known->backend->memoryNamePrefixes) {
            if (e.name.substr(0, prefix.size()) == prefix) {
                cls = CatClass::Memcpy;
            }
        }
    }
    const int64_t catId = catName.empty() ? kNoValue : m_sink.intern(catName);
    if (known && known->backend) {
        m_evidence.add(*known->backend, e.name);
    }

    switch (e.ph) {
    case 'X':
    case 'B':
    case 'i':
    case 'I':
    case 'R': {
        const bool instant = e.ph != 'X' && e.ph != 'B';
        int64_t track = 0;
        if (instant && e.scope == 'g') {
            track = m_sink.globalTrack("Global instants");
        } else if (instant && e.scope == 'p') {
            track = m_sink.thread(m_tracks.process(e.pid), "process instants");
        } else {
            track = m_tracks.trackFor(e.pid, e.tid);
        }
        SliceFields f;
        f.tsNs = *ts;
        f.nameId = m_sink.intern(e.name);
        f.catId = catId;
        if (e.ph == 'X') {
            if (e.hasDur) {
                if (auto d = parseMicrosToNs(e.dur); d && *d >= 0) {
                    f.durNs = *d;
                } else {
                    m_diag.report(Severity::Warning, QStringLiteral("bad-duration"), at(offset),
                        QStringLiteral("A complete event's \"dur\" is negative or not a number; it "
                                       "was imported with duration 0."));
                }
            } else {
                m_diag.report(Severity::Warning, QStringLiteral("missing-duration"), at(offset),
                    QStringLiteral("A complete (X) event has no \"dur\"; it was imported with "
                                   "duration 0."));
            }
        }
        f.argsId = internArgs(e, &f);
        int64_t device = kNoValue, stream = kNoValue;
        if (const ArgField *a = e.arg("device"); a && a->kind == ArgKind::Int) {
            device = toInt(a->raw).value_or(kNoValue);
        }
        if (const ArgField *a = e.arg("stream"); a && a->kind == ArgKind::Int) {
            stream = toInt(a->raw).value_or(kNoValue);
        }
        if (isGpuClass(cls) || cls == CatClass::Runtime) {
            // Kineto writes a thread's CUDA calls, and a stream's annotations, in their own sections
            // after the ops they belong with; on companion tracks each stays in time order.
            if (cls == CatClass::GpuAnnotation) {
                track = m_sink.companionTrack(track, TrackKind::GpuAnnotation);
            } else if (cls == CatClass::Runtime) {
                track = m_tracks.apiTrack(track);
            }
        }
        if (isGpuClass(cls)) {
            if (m_tracks.addGpuTrack(track)) {
                const int64_t process = m_tracks.process(e.pid);
                const int64_t dev = device != kNoValue ? device : toInt(e.pid.text).value_or(kNoValue);
                m_sink.setProcessKind(process, ProcessKind::Gpu, dev);
                std::string_view tidText = e.tid.text;
                if (tidText.substr(0, 7) == "stream ") {
                    tidText.remove_prefix(7);
                }
                const int64_t streamId
                    = stream != kNoValue ? stream : toInt(trim(tidText)).value_or(kNoValue);
                if (cls == CatClass::GpuAnnotation) {
                    m_sink.setTrackStream(track, streamId);
                } else {
                    m_sink.setTrackGpuStream(track, streamId);
                }
            }
            if (cls != CatClass::GpuAnnotation) {
                ++m_sink.stats().gpuOps;
            }
            if (cls == CatClass::Kernel) {
                ++m_sink.stats().kernels;
            }
        }
        if (f.corr != kNoValue && e.ph == 'X') {
            if (cls == CatClass::Runtime) {
                m_flows.recordLaunch(f.corr, track, f.tsNs);
            } else if (isGpuClass(cls) && cls != CatClass::GpuAnnotation) {
                m_flows.recordGpuOp(f.corr, track, f.tsNs);
            }
        }
        if (e.ph == 'B') {
            m_sink.beginSlice(track, f);
        } else if (e.ph == 'X') {
            m_sink.addSlice(track, f);
        } else {
            m_sink.addSlice(track, f);
            // PyTorch's memory instants also become counter tracks, so memory shows over time.
            if (e.name == "[memory]") {
                const ArgField *total = e.arg("Total Allocated");
                const ArgField *devId = e.arg("Device Id");
                if (total && (total->kind == ArgKind::Int || total->kind == ArgKind::Double)) {
                    const int64_t d = devId ? toInt(devId->raw).value_or(-1) : -1;
                    const std::string name = d >= 0 ? "Memory allocated, device " + std::to_string(d)
                                                    : std::string("Memory allocated, CPU");
                    const int64_t process = m_tracks.process(e.pid);
                    m_sink.addCounter(
                        m_sink.counterTrack(process, name), *ts, toDouble(total->raw).value_or(0));
                }
            }
        }
        if ((e.flowIn || e.flowOut) && e.hasId && e.ph == 'X') {
            const int64_t flowCat = m_sink.intern("flow");
            if (e.flowIn) {
                m_sink.flowEnd(flowCat, flowKey(e.idRaw), track, *ts);
            }
            if (e.flowOut) {
                m_sink.flowStart(flowCat, flowKey(e.idRaw), track, *ts);
            }
        }
        return;
    }
    case 'E': {
        const int64_t track = m_tracks.trackFor(e.pid, e.tid);
        if (!m_sink.endSlice(track, *ts, internArgs(e, nullptr))) {
            skip("unmatched-end", offset,
                QStringLiteral("An E (end) event has no open B event on its thread; it was skipped."));
        }
        return;
    }
    case 'C': {
        const int64_t process = m_tracks.process(e.pid);
        size_t numeric = 0;
        for (const auto &a : e.args) {
            numeric += a.kind == ArgKind::Int || a.kind == ArgKind::Double;
        }
        if (numeric == 0) {
            skip("empty-counter", offset,
                QStringLiteral("A counter (C) event has no numeric values; skipped."));
            return;
        }
        for (const auto &a : e.args) {
            if (a.kind != ArgKind::Int && a.kind != ArgKind::Double) {
                continue;
            }
            std::string name(e.name);
            if (numeric > 1 || (a.key != "value" && a.key != e.name)) {
                if (!name.empty()) {
                    name.push_back(' ');
                }
                name.append(a.key);
            }
            m_sink.addCounter(m_sink.counterTrack(process, name), *ts, toDouble(a.raw).value_or(0));
        }
        return;
    }
    case 's':
    case 't':
    case 'f': {
        if (!e.hasId) {
            skip("flow-without-id", offset, QStringLiteral("A flow event has no \"id\"; it was skipped."));
            return;
        }
        const int64_t track = m_tracks.trackFor(e.pid, e.tid);
        const int64_t key = flowKey(e.idRaw);
        const int64_t cat = catId != kNoValue ? catId : m_sink.intern("flow");
        if (catName == "ac2g" && e.ph != 't') {
            m_flows.add(e.ph, cat, key, track, *ts);
            return;
        }
        if (e.ph != 's') {
            m_sink.flowEnd(cat, key, track, *ts);
        }
        if (e.ph != 'f') {
            m_sink.flowStart(cat, key, track, *ts);
        }
        return;
    }
    default: {
        const QString phase = QString::fromLatin1(&e.ph, 1);
        m_diag.skipped(QStringLiteral("unsupported-phase-") + phase, at(offset),
            QStringLiteral("Events of phase \"%1\" (async, object or sample events) are not "
                           "imported yet; they were counted and skipped.")
                .arg(phase));
        return;
    }
    }
}

} // namespace plumb::chrometrace
