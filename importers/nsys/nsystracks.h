// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"
#include "store/foreignsqlitedb.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace plumb::nsys {

class NsysSchema;
class NsysStrings;

// The trace's processes and tracks, made on first use: a host process per pid (named from PROCESSES,
// with its MPI rank when the export holds several ranks), a thread track per globalTid (named from
// ThreadNames) with its companion tracks, a GPU process per device (named from TARGET_INFO_GPU), a
// stream track and a synchronisation track per (device, stream).
class NsysTracks {
public:
    // A host thread's track and its companions, kNoValue until first used.
    struct ThreadTracks {
        int64_t thread = 0;
        int64_t api = kNoValue;
        int64_t samples = kNoValue;
        int64_t onCpu = kNoValue;
    };

    NsysTracks(NsysSchema &schema, NsysStrings &strings, TraceSink &sink);
    ~NsysTracks();

    // Reads MPI_RANKS: an export of one rank sets the trace's rank, one of several labels processes.
    void readMpiRanks();
    // The GPU's name, from the export's device table, for its process.
    void setDeviceName(int64_t device, std::string name) { m_deviceNames[device] = std::move(name); }

    [[nodiscard]] int64_t hostProcess(int64_t pid, int64_t globalPid);
    [[nodiscard]] ThreadTracks &threadTracks(int64_t globalTid);
    [[nodiscard]] int64_t gpuProcess(int64_t device);
    [[nodiscard]] int64_t streamTrack(int64_t device, int64_t stream);
    [[nodiscard]] int64_t syncTrack(int64_t device, int64_t stream);

private:
    NsysSchema &m_schema;
    NsysStrings &m_strings;
    TraceSink &m_sink;
    std::unique_ptr<ForeignSqliteDb::Stmt> m_threadNameLookup;
    std::unique_ptr<ForeignSqliteDb::Stmt> m_processNameLookup;
    std::unordered_map<int64_t, int64_t> m_processes; // pid -> process row
    std::map<int64_t, int64_t> m_processRanks; // pid -> MPI rank, when the export holds several ranks
    std::unordered_map<int64_t, ThreadTracks> m_threads; // globalTid -> tracks
    std::unordered_map<int64_t, int64_t> m_gpuProcesses; // device -> process row
    std::unordered_map<int64_t, int64_t> m_streamTracks; // device << 32 | stream -> track
    std::unordered_map<int64_t, int64_t> m_syncTracks;
    std::unordered_map<int64_t, std::string> m_deviceNames;
};

} // namespace plumb::nsys
