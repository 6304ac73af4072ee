// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"
#include "nsys/nsysbacktraces.h"

#include <utility>
#include <vector>

namespace plumb::nsys {

class NsysArgs;
class NsysStrings;
class NsysTracks;
struct NsysCursor;

// CPU samples (COMPOSITE_EVENTS, nsys --sample) onto an instant each on the thread's "CPU samples"
// companion track, named by the function the thread was in (the backtrace's leaf from
// SAMPLING_CALLCHAINS; where nsys could not resolve it, its module in brackets, as perf names it, so
// that such samples add up by library), the backtrace in its args; "[no backtrace]" without one. Each
// distinct stack's name and args are made once.
class NsysCpuSamples {
public:
    NsysCpuSamples(NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink);

    [[nodiscard]] NsysBacktraces &backtraces() { return m_stacks; }
    // Once the backtraces are read, before the first sample.
    void setBacktraces(NsysCallchains chains);
    void handle(NsysCursor &c, SliceFields &f);

private:
    NsysStrings &m_strings;
    NsysTracks &m_tracks;
    NsysArgs &m_args;
    TraceSink &m_sink;
    NsysBacktraces m_stacks { "SAMPLING_CALLCHAINS" };
    std::vector<std::pair<int64_t, int64_t>> m_stackSlices; // per stack: (name, args), name 0 until made
    int64_t m_catCpuSample = 0;
};

} // namespace plumb::nsys
