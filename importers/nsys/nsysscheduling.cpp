// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysscheduling.h"

#include "ingest/diagnosticlog.h"
#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysschema.h"
#include "nsys/nsystracks.h"

#include <algorithm>
#include <vector>

namespace plumb::nsys {

NsysScheduling::NsysScheduling(
    NsysSchema &schema, NsysTracks &tracks, NsysArgs &args, TraceSink &sink, DiagnosticLog &diag)
    : m_schema(schema)
    , m_tracks(tracks)
    , m_args(args)
    , m_sink(sink)
    , m_diag(diag)
    , m_catSched(sink.intern("sched"))
{
}

void NsysScheduling::handle(NsysCursor &c, SliceFields &f)
{
    const int64_t tid = c.get(GlobalTid, 0);
    const bool in = c.get(IsSchedIn, 0) != 0;
    const auto open = m_schedIn.find(tid);
    if (in) {
        if (open != m_schedIn.end()) {
            m_diag.skipped(QStringLiteral("sched-in-twice"),
                QStringLiteral("table SCHED_EVENTS, start %1").arg(open->second.first),
                QStringLiteral("A thread was scheduled in twice without being scheduled out between; "
                               "the first was not imported."));
            open->second = { c.start, c.get(Cpu, -1) };
        } else {
            m_schedIn.emplace(tid, std::pair { c.start, c.get(Cpu, -1) });
        }
        return;
    }
    if (open == m_schedIn.end()) {
        m_diag.skipped(QStringLiteral("sched-out-without-in"),
            QStringLiteral("table SCHED_EVENTS, start %1").arg(c.start),
            QStringLiteral("A thread was scheduled out with no scheduled-in before it in the capture "
                           "(it was running when the capture began); the interval was not imported."));
        return;
    }
    const auto [start, cpu] = open->second;
    m_schedIn.erase(open);
    f.tsNs = start;
    f.durNs = std::max<int64_t>(0, c.start - start);
    const int64_t state = c.get(ThreadState, 0);
    const int64_t block = c.get(ThreadBlock, 0);
    m_args.add("cpu", cpu);
    if (state != 0) { // Unknown
        if (const std::string &label = stateLabel(false, state); !label.empty()) {
            m_args.add("state when scheduled out", label);
        }
    }
    if (block > 1) { // NonBlocked, Unknown
        if (const std::string &label = stateLabel(true, block); !label.empty()) {
            m_args.add("blocked on", label);
        }
    }
    f.argsId = m_sink.internArgs(m_args.finish());
    addOnCpu(tid, cpu, f);
}

// The slice of an interval on a CPU, on the thread's "On CPU" row.
void NsysScheduling::addOnCpu(int64_t globalTid, int64_t cpu, SliceFields &f)
{
    NsysTracks::ThreadTracks &t = m_tracks.threadTracks(globalTid);
    if (t.onCpu == kNoValue) {
        t.onCpu = m_sink.companionTrack(t.thread, TrackKind::OnCpu);
    }
    auto name = m_cpuNames.find(cpu);
    if (name == m_cpuNames.end()) {
        name
            = m_cpuNames
                  .emplace(cpu, m_sink.intern(cpu >= 0 ? "CPU " + std::to_string(cpu) : std::string("CPU ?")))
                  .first;
    }
    f.nameId = name->second;
    f.catId = m_catSched;
    m_sink.addSlice(t.onCpu, f);
}

// Threads still on a CPU when the capture ended: their last interval ends with the trace.
void NsysScheduling::closeOpen()
{
    if (m_schedIn.empty()) {
        return;
    }
    std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> open(m_schedIn.begin(), m_schedIn.end());
    std::sort(open.begin(), open.end()); // the same tracks in the same order, import after import
    const int64_t end = m_sink.stats().endNs;
    for (const auto &[tid, in] : open) {
        SliceFields f;
        f.tsNs = in.first;
        f.durNs = std::max<int64_t>(0, end - in.first);
        m_args.clear();
        m_args.add("cpu", in.second);
        m_args.add("state when scheduled out", "still on the CPU when the capture ended");
        f.argsId = m_sink.internArgs(m_args.finish());
        addOnCpu(tid, in.second, f);
    }
    m_diag.report(Severity::Info, QStringLiteral("sched-open-at-end"), QStringLiteral("table SCHED_EVENTS"),
        QStringLiteral("Threads still on a CPU when the capture ended: their last interval on the CPU "
                       "ends with the trace."),
        int64_t(open.size()));
    m_schedIn.clear();
}

// What ENUM_SCHEDULING_THREAD_BLOCK (`block`) or ENUM_SAMPLING_THREAD_STATE names `id` (empty when the
// export has no such table), read once.
const std::string &NsysScheduling::stateLabel(bool block, int64_t id)
{
    const int64_t key = (int64_t(block) << 32) | (id & 0xffffffff);
    auto it = m_labels.find(key);
    if (it == m_labels.end()) {
        const char *table = block ? "ENUM_SCHEDULING_THREAD_BLOCK" : "ENUM_SAMPLING_THREAD_STATE";
        it = m_labels.emplace(key, m_schema.hasTable(table) ? m_schema.enumLabel(table, id) : std::string())
                 .first;
    }
    return it->second;
}

} // namespace plumb::nsys
