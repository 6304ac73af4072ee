// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

namespace plumb {
class DiagnosticLog;
} // namespace plumb

namespace plumb::nsys {

class NsysArgs;
class NsysSchema;
class NsysTracks;
struct NsysCursor;

// Thread scheduling (SCHED_EVENTS, nsys --cpuctxsw) onto the thread's "On CPU" companion track: each
// interval a thread spent on a CPU, from its scheduled-in to its scheduled-out event, is a slice named
// by the CPU ("CPU 5", category sched), with the thread's state when it left (Running: preempted while
// it could still run; Interruptible: it waited, blocked in a call) and what blocked it, where nsys
// says. Nsight Systems draws the same intervals on the thread. A scheduled-out without a scheduled-in
// before it (the thread was running when the capture began), or a second scheduled-in before the first
// was matched, is counted as skipped; a thread still on a CPU at the end is closed at the trace's end
// (closeOpen()).
class NsysScheduling {
public:
    NsysScheduling(
        NsysSchema &schema, NsysTracks &tracks, NsysArgs &args, TraceSink &sink, DiagnosticLog &diag);

    void handle(NsysCursor &c, SliceFields &f);
    // After the last row: threads still on a CPU when the capture ended.
    void closeOpen();

private:
    void addOnCpu(int64_t globalTid, int64_t cpu, SliceFields &f);
    [[nodiscard]] const std::string &stateLabel(bool block, int64_t id);

    NsysSchema &m_schema;
    NsysTracks &m_tracks;
    NsysArgs &m_args;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    // Per globalTid, the scheduled-in event not yet matched by its scheduled-out (start, cpu); the
    // CPUs' names; the labels read (see stateLabel()).
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> m_schedIn;
    std::unordered_map<int64_t, int64_t> m_cpuNames;
    std::unordered_map<int64_t, std::string> m_labels;
    int64_t m_catSched = 0;
};

} // namespace plumb::nsys
