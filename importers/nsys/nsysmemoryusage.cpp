// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysmemoryusage.h"

#include "ingest/diagnosticlog.h"
#include "ingest/tracesink.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsystables.h"
#include "nsys/nsystracks.h"

#include <algorithm>
#include <string>

namespace plumb::nsys {

NsysMemoryUsage::NsysMemoryUsage(NsysTracks &tracks, TraceSink &sink, DiagnosticLog &diag)
    : m_tracks(tracks)
    , m_sink(sink)
    , m_diag(diag)
{
}

void NsysMemoryUsage::handle(NsysCursor &c)
{
    // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation.
    const int64_t op = c.get(MemoryOp);
    if (op != 0 && op != 1) {
        m_diag.skipped(QStringLiteral("unknown-memory-operation"),
            QStringLiteral("table CUDA_GPU_MEMORY_USAGE_EVENTS, start %1").arg(c.start),
            QStringLiteral("A memory event is neither an allocation nor a free; it was skipped."));
        return;
    }
    const int64_t globalPid = c.get(GlobalPid, 0) & ~int64_t(0xffffff);
    const int64_t kind = c.get(MemKind, 2); // ENUM_CUDA_MEM_KIND: 0 pageable, 1 pinned, 2 device, ...
    const int64_t device = kind == 0 || kind == 1 ? -1 : c.get(Device, 0);
    const double bytes = double(std::max<int64_t>(c.get(Bytes, 0), 0));
    const bool hasAddress = !c.isNull(Address);
    const std::pair<int64_t, int64_t> at { globalPid, c.get(Address, 0) };

    auto total = m_memoryTotals.find({ globalPid, device });
    if (total == m_memoryTotals.end()) {
        // Named as the Kineto importer names PyTorch's memory counters.
        const std::string name = device >= 0 ? "Memory allocated, device " + std::to_string(device)
                                             : std::string("Memory allocated, CUDA host");
        const int64_t track = m_sink.counterTrack(m_tracks.hostProcess(pidOf(globalPid), globalPid), name);
        total = m_memoryTotals.emplace(std::make_pair(globalPid, device), MemoryTotal { track, 0 }).first;
    }
    if (op == 0) {
        if (hasAddress) {
            // An address allocated again without a free in between: the earlier allocation is gone.
            auto [live, added] = m_liveAllocations.try_emplace(at, LiveAllocation { &total->second, bytes });
            if (!added) {
                MemoryTotal &owner = *live->second.total;
                owner.bytes -= live->second.bytes;
                if (&owner != &total->second) {
                    m_sink.addCounter(owner.track, c.start, owner.bytes);
                }
                live->second = LiveAllocation { &total->second, bytes };
            }
        }
        total->second.bytes += bytes;
    } else {
        // A free releases what was allocated at its address, on the device it was allocated on. Memory
        // allocated before the capture began was never counted: its free changes nothing. (Without
        // addresses, a free releases the bytes it names.)
        if (!hasAddress) {
            total->second.bytes = std::max(total->second.bytes - bytes, 0.0);
        } else if (auto live = m_liveAllocations.find(at); live != m_liveAllocations.end()) {
            MemoryTotal &owner = *live->second.total;
            owner.bytes -= live->second.bytes;
            m_liveAllocations.erase(live);
            if (&owner != &total->second) {
                m_sink.addCounter(owner.track, c.start, owner.bytes);
            }
        } else {
            ++m_unmatchedFrees;
        }
    }
    m_sink.addCounter(total->second.track, c.start, total->second.bytes);
}

void NsysMemoryUsage::report()
{
    if (m_unmatchedFrees > 0) {
        m_diag.report(Severity::Info, QStringLiteral("memory-freed-before-allocated"),
            QStringLiteral("table CUDA_GPU_MEMORY_USAGE_EVENTS"),
            QStringLiteral("GPU memory freed whose allocation is not in the capture (made before it "
                           "began); the allocated totals count the capture's own allocations."),
            m_unmatchedFrees);
    }
}

} // namespace plumb::nsys
