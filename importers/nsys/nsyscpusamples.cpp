// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsyscpusamples.h"

#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystracks.h"

#include <string>

namespace plumb::nsys {

NsysCpuSamples::NsysCpuSamples(NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink)
    : m_strings(strings)
    , m_tracks(tracks)
    , m_args(args)
    , m_sink(sink)
    , m_catCpuSample(sink.intern("cpu_sample"))
{
}

void NsysCpuSamples::setBacktraces(NsysCallchains chains)
{
    m_stacks.set(std::move(chains));
    m_stackSlices.assign(m_stacks.chains().stacks.size(), { 0, kNoValue });
}

// A CPU sample is an instant on its thread's "CPU samples" row, named by the function the thread was
// in (the backtrace's leaf; where nsys could not resolve it, its module in brackets, as perf names
// it, so that such samples add up by library), the backtrace in its args; one without a backtrace is
// "[no backtrace]".
void NsysCpuSamples::handle(NsysCursor &c, SliceFields &f)
{
    NsysTracks::ThreadTracks &t = m_tracks.threadTracks(c.get(GlobalTid, 0));
    if (t.samples == kNoValue) {
        t.samples = m_sink.companionTrack(t.thread, TrackKind::CpuSamples);
    }
    f.durNs = 0;
    f.catId = m_catCpuSample;
    const uint32_t stackIndex = m_stacks.chains().find(c.get(SampleId, kNoValue));
    if (stackIndex == NsysCallchains::kNone) {
        f.nameId = m_sink.intern("[no backtrace]"); // the sink's string table caches it
        m_sink.addSlice(t.samples, f);
        return;
    }
    auto &[nameId, argsId] = m_stackSlices[stackIndex];
    if (!nameId) {
        std::string leaf = "[no backtrace]";
        if (const auto &frames = m_stacks.chains().stacks[stackIndex]; !frames.empty()) {
            const auto &[symbol, moduleId, unresolved] = frames.front();
            const std::string &function = m_strings.frameText(symbol, false);
            const std::string &module
                = moduleId != kNoValue ? m_strings.frameText(moduleId, true) : std::string();
            leaf = !unresolved || module.empty() ? function
                : module.front() == '['          ? module // [vdso], [kernel.kallsyms]
                                                 : "[" + module + "]";
        }
        nameId = m_sink.intern(leaf);
        m_args.addRaw("backtrace", m_stacks.json(stackIndex, m_strings));
        argsId = m_sink.internArgs(m_args.finish());
    }
    f.nameId = nameId;
    f.argsId = argsId;
    m_sink.addSlice(t.samples, f);
}

} // namespace plumb::nsys
