// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"
#include "nsys/nsysbacktraces.h"

namespace plumb::nsys {

class NsysArgs;
class NsysStrings;
class NsysTracks;
struct NsysCursor;

// Calls on host threads onto the thread's track: OS runtime calls (OSRT_API, category osrt, their
// backtraces from OSRT_CALLCHAINS in the args) and library calls (cuBLAS, cuDNN, MPI with its message
// sizes, tags and peers, the profiler's own overhead; category by table), each named as Nsight Systems
// shows it, its return value in the args when not 0.
class NsysHostCalls {
public:
    NsysHostCalls(NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink);

    [[nodiscard]] NsysBacktraces &backtraces() { return m_stacks; }
    void handleOsrt(NsysCursor &c, SliceFields &f);
    void handleHostCall(NsysCursor &c, SliceFields &f);

private:
    NsysStrings &m_strings;
    NsysTracks &m_tracks;
    NsysArgs &m_args;
    TraceSink &m_sink;
    NsysBacktraces m_stacks { "OSRT_CALLCHAINS" };
    int64_t m_catOsrt = 0;
};

} // namespace plumb::nsys
