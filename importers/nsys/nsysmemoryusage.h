// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace plumb {
class DiagnosticLog;
class TraceSink;
} // namespace plumb

namespace plumb::nsys {

class NsysTracks;
struct NsysCursor;

// GPU memory usage (CUDA_GPU_MEMORY_USAGE_EVENTS, nsys --cuda-memory-usage=true): each allocation and
// free of GPU memory (cudaMalloc, cudaFree, pool allocations) onto a running total per process and
// device (pinned and pageable host memory together as "CUDA host"), a counter track named as the
// Kineto importer names PyTorch's memory counters. A free releases what was allocated at its address.
class NsysMemoryUsage {
public:
    NsysMemoryUsage(NsysTracks &tracks, TraceSink &sink, DiagnosticLog &diag);

    void handle(NsysCursor &c);
    // After the last row: frees whose allocation the capture does not hold.
    void report();

private:
    // The bytes allocated and not yet freed per (globalPid, device; -1 for pinned or pageable host
    // memory), and the live allocations by (globalPid, address), to know what a free releases. Bytes as
    // doubles, what the counter holds: exact to 8 PiB, and no overflow to guard.
    struct MemoryTotal {
        int64_t track = 0;
        double bytes = 0;
    };
    struct LiveAllocation {
        MemoryTotal *total = nullptr;
        double bytes = 0;
    };

    NsysTracks &m_tracks;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    std::map<std::pair<int64_t, int64_t>, MemoryTotal> m_memoryTotals;
    std::map<std::pair<int64_t, int64_t>, LiveAllocation> m_liveAllocations;
    int64_t m_unmatchedFrees = 0;
};

} // namespace plumb::nsys
