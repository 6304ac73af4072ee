// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class KeptSlices;
class Workspace;

// GPU memory copies of a trace by kind (the op's name, e.g. "Memcpy HtoD (Pageable -> Device)"):
// how many, how many bytes, how long, and the effective bandwidth. Bytes come from the op's args
// ("bytes" as Kineto and Nsight exports write it, memcpy_details.size in XPlane). Copies from or to
// pageable host memory are flagged: they are synchronous and slow, and pinned memory usually fixes
// them.
struct MemcpyKindStats {
    QString kind;
    int64_t count = 0;
    int64_t bytes = 0;
    int64_t timeNs = 0;
    bool pageable = false;
    [[nodiscard]] double gigabytesPerSecond() const
    {
        return timeNs > 0 ? double(bytes) / double(timeNs) : 0.0;
    }
};

// Sorted by time, largest first. The tracks whose slices the import kept (`kept`) are read from those rows.
[[nodiscard]] std::vector<MemcpyKindStats> memcpyStats(
    Workspace &ws, int64_t traceId, const KeptSlices *kept = nullptr);

} // namespace plumb
