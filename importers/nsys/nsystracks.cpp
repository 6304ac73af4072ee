// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsystracks.h"

#include "nsys/nsysschema.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystables.h"

#include <algorithm>
#include <climits>
#include <set>

namespace plumb::nsys {

NsysTracks::NsysTracks(NsysSchema &schema, NsysStrings &strings, TraceSink &sink)
    : m_schema(schema)
    , m_strings(strings)
    , m_sink(sink)
{
}

NsysTracks::~NsysTracks() = default;

int64_t NsysTracks::hostProcess(int64_t pid, int64_t globalPid)
{
    auto it = m_processes.find(pid);
    if (it != m_processes.end()) {
        return it->second;
    }
    const int64_t process = m_sink.process(std::to_string(pid));
    m_processes.emplace(pid, process);
    std::string name;
    if (m_schema.hasColumns("PROCESSES", { "name" })) {
        // Looked up by globalPid where the layout has it, else by pid (for every process, not only the
        // first).
        const bool byGlobal = m_schema.hasColumns("PROCESSES", { "globalPid" });
        if (!m_processNameLookup) {
            m_processNameLookup = std::make_unique<ForeignSqliteDb::Stmt>(m_schema.db(),
                byGlobal ? "SELECT name FROM PROCESSES WHERE globalPid = ?1"
                         : "SELECT name FROM PROCESSES WHERE pid = ?1",
                "PROCESSES");
        }
        m_processNameLookup->reset();
        m_processNameLookup->bind(1, byGlobal ? globalPid : pid);
        if (m_processNameLookup->step() && !m_processNameLookup->isNull(0)) {
            name = std::string(m_processNameLookup->text(0));
        }
    }
    if (auto rank = m_processRanks.find(pid); rank != m_processRanks.end()) {
        name
            = (name.empty() ? std::string("process") : name) + " [rank " + std::to_string(rank->second) + "]";
    }
    if (!name.empty()) {
        m_sink.setProcessName(process, name);
    }
    return process;
}

NsysTracks::ThreadTracks &NsysTracks::threadTracks(int64_t globalTid)
{
    auto it = m_threads.find(globalTid);
    if (it != m_threads.end()) {
        return it->second;
    }
    const int64_t pid = pidOf(globalTid);
    const int64_t process = hostProcess(pid, globalTid & ~int64_t(0xffffff));
    ThreadTracks t;
    t.thread = m_sink.thread(process, std::to_string(tidOf(globalTid)));
    if (m_schema.hasTable("ThreadNames")) {
        if (!m_threadNameLookup) {
            m_threadNameLookup = std::make_unique<ForeignSqliteDb::Stmt>(
                m_schema.db(), "SELECT nameId FROM ThreadNames WHERE globalTid = ? LIMIT 1", "ThreadNames");
        }
        m_threadNameLookup->reset();
        m_threadNameLookup->bind(1, globalTid);
        if (m_threadNameLookup->step() && !m_threadNameLookup->isNull(0)) {
            const int64_t nameId = m_threadNameLookup->integer(0);
            m_sink.setTrackName(t.thread, m_strings.lookup(nameId));
        }
    }
    return m_threads.emplace(globalTid, t).first->second;
}

int64_t NsysTracks::gpuProcess(int64_t device)
{
    auto it = m_gpuProcesses.find(device);
    if (it != m_gpuProcesses.end()) {
        return it->second;
    }
    const std::string label = "GPU " + std::to_string(device);
    const int64_t process = m_sink.process(label);
    m_sink.setProcessKind(process, ProcessKind::Gpu, device);
    m_sink.setProcessLabels(process, label);
    auto name = m_deviceNames.find(device);
    m_sink.setProcessName(
        process, name != m_deviceNames.end() && !name->second.empty() ? label + ": " + name->second : label);
    // Below the host processes (a device id from the file may be anything: clamped, not overflowed).
    m_sink.setProcessSortIndex(process, 1000000 + std::clamp<int64_t>(device, 0, INT32_MAX));
    m_gpuProcesses.emplace(device, process);
    return process;
}

int64_t NsysTracks::streamTrack(int64_t device, int64_t stream)
{
    const int64_t key = (device << 32) | (stream & 0xffffffff);
    auto it = m_streamTracks.find(key);
    if (it != m_streamTracks.end()) {
        return it->second;
    }
    const std::string label = "stream " + std::to_string(stream);
    const int64_t track = m_sink.thread(gpuProcess(device), label);
    m_sink.setTrackGpuStream(track, stream);
    m_sink.setTrackName(track, "Stream " + std::to_string(stream));
    m_streamTracks.emplace(key, track);
    return track;
}

int64_t NsysTracks::syncTrack(int64_t device, int64_t stream)
{
    const int64_t key = (device << 32) | (stream & 0xffffffff);
    auto it = m_syncTracks.find(key);
    if (it != m_syncTracks.end()) {
        return it->second;
    }
    // Host-side waits: kept off the stream tracks, whose kernels they would overlap.
    const bool noStream = stream == kInvalidStream || stream < 0;
    const std::string label = noStream ? std::string("sync") : "stream " + std::to_string(stream) + " sync";
    const int64_t track = m_sink.thread(gpuProcess(device), label);
    m_sink.setTrackName(track,
        noStream ? std::string("CUDA synchronisation")
                 : "Stream " + std::to_string(stream) + " synchronisation");
    m_sink.setTrackStream(track, noStream ? -1 : stream);
    m_syncTracks.emplace(key, track);
    return track;
}

// An MPI job traced with nsys --trace=mpi maps its threads to MPI ranks. An export of one rank is that
// rank's trace (a folder of them imports as one multi-rank run, without the rank guessed from the
// file name); a report of several ranks at once labels each process with its rank.
void NsysTracks::readMpiRanks()
{
    if (!m_schema.hasColumns("MPI_RANKS", { "globalTid", "rank" })) {
        return;
    }
    ForeignSqliteDb::Stmt st(
        m_schema.db(), "SELECT DISTINCT globalTid, rank FROM MPI_RANKS WHERE rank IS NOT NULL", "MPI_RANKS");
    std::map<int64_t, int64_t> ranks;
    std::set<int64_t> distinct;
    while (st.step()) {
        ranks[pidOf(st.integer(0))] = st.integer(1);
        distinct.insert(st.integer(1));
    }
    if (distinct.size() == 1) {
        m_sink.setRank(*distinct.begin(), kNoValue);
    } else {
        m_processRanks = std::move(ranks);
    }
}

} // namespace plumb::nsys
