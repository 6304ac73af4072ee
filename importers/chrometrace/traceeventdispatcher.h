// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chrometrace/chrometracetracks.h"
#include "chrometrace/launchflows.h"
#include "chrometrace/traceevent.h"

#include "analysis/devicebackend.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>

namespace plumb {
class DiagnosticLog;
class TraceSink;
struct SliceFields;
} // namespace plumb

namespace plumb::chrometrace {

// One parsed Trace Event onto the sink, by its phase: X and B/E -> slices, i/I/R -> zero-length slices
// (on the thread, the process's or the global instants track by scope), C -> one counter track per
// series, s/t/f -> flow ends paired by (category, id), M -> names and order (ChromeTraceTracks).
// Kineto's categories (today's and older spellings, KinetoCategory; every backend's, from the table in
// analysis/devicebackend.h) put runtime calls (CUDA, HIP, MTIA, XPU...) on the thread's API track and
// device ops on stream tracks of a device process, and its per-event ids (correlation,
// External id, ...) go into the slice's columns instead of its args; its launch flows are checked
// against those correlations (LaunchFlows). A malformed event is counted and skipped with a reason.
class TraceEventDispatcher {
public:
    TraceEventDispatcher(TraceSink &sink, DiagnosticLog &diag);

    void dispatch(TraceEvent &e, int64_t offset);
    // After the last event: also names the trace's device type from what it saw (and evidence()).
    void finish();
    // What tells the trace's backend; the top-level fields add the device's name to it.
    [[nodiscard]] BackendEvidence &evidence() { return m_evidence; }

private:
    void skip(const char *code, int64_t offset, const QString &message);
    [[nodiscard]] static QString at(int64_t offset) { return QStringLiteral("byte %1").arg(offset); }
    [[nodiscard]] static int64_t flowKey(std::string_view raw);
    // The event's args as compact JSON, interned; with `promote`, the per-event ids go into its
    // columns instead (correlation, External id, Sequence number, Ev Idx, Record function id).
    [[nodiscard]] int64_t internArgs(const TraceEvent &e, SliceFields *promote);

    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    ChromeTraceTracks m_tracks;
    LaunchFlows m_flows;
    std::string m_argsJson;
    BackendEvidence m_evidence;
};

} // namespace plumb::chrometrace
