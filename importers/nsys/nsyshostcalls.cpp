// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsyshostcalls.h"

#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystracks.h"

#include <utility>

namespace plumb::nsys {

NsysHostCalls::NsysHostCalls(NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink)
    : m_strings(strings)
    , m_tracks(tracks)
    , m_args(args)
    , m_sink(sink)
    , m_catOsrt(sink.intern("osrt"))
{
}

void NsysHostCalls::handleOsrt(NsysCursor &c, SliceFields &f)
{
    f.nameId = m_strings.nameOf(c.get(NameId, 0));
    f.catId = m_catOsrt;
    if (const int64_t ret = c.get(ReturnValue, 0); ret != 0) {
        m_args.add("return value", ret);
    }
    m_stacks.addTo(m_args, c, m_strings);
    if (const std::string_view json = m_args.finish(); !json.empty()) {
        f.argsId = m_sink.internArgs(json);
    }
    m_sink.addSlice(m_tracks.threadTracks(c.get(GlobalTid, 0)).thread, f);
}

void NsysHostCalls::handleHostCall(NsysCursor &c, SliceFields &f)
{
    // Named as Nsight Systems shows them: cuBLAS's "cublasSgemm_v2" is the function's real name.
    f.nameId = m_strings.nameOf(c.has(NameId) ? c.get(NameId, 0) : c.get(TextId, 0));
    f.catId = m_sink.intern(c.spec->category); // the sink's string table caches it
    if (const int64_t ret = c.get(ReturnValue, 0); ret != 0) {
        m_args.add("return value", ret);
    }
    for (const auto &[field, key] : { std::pair { MessageSize, "bytes" },
             std::pair { ReceiveSize, "bytes received" }, std::pair { Tag, "tag" },
             std::pair { RemoteRank, "peer rank" }, std::pair { RootRank, "root rank" } }) {
        if (!c.isNull(field)) {
            m_args.add(key, c.get(field));
        }
    }
    if (const std::string_view json = m_args.finish(); !json.empty()) {
        f.argsId = m_sink.internArgs(json);
    }
    m_sink.addSlice(m_tracks.threadTracks(c.get(GlobalTid, 0)).thread, f);
}

} // namespace plumb::nsys
