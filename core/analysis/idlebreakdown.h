// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Why each GPU stream sat idle between consecutive ops (Holistic Trace Analysis's classification,
// so the figures can be checked against HTA's): a gap is
//   host wait    when the next op's launch started after the previous op ended (the CPU did not
//                queue work fast enough);
//   kernel wait  otherwise, when the gap is shorter than kernelWaitNs (back-to-back launch overhead);
//   other        otherwise.
// Ops without a linked launch can only be kernel wait or other.
struct StreamIdle {
    int64_t streamTrackId = 0;
    int64_t stream = -1; // the CUDA stream id, -1 when unknown
    int64_t hostWaitNs = 0;
    int64_t kernelWaitNs = 0;
    int64_t otherNs = 0;
    int64_t gaps = 0;
    [[nodiscard]] int64_t idleNs() const { return hostWaitNs + kernelWaitNs + otherNs; }
};

constexpr int64_t kDefaultKernelWaitNs = 30'000; // HTA's default consecutive_kernel_delay (30 µs)

// Per stream, in stream order.
[[nodiscard]] std::vector<StreamIdle> idleBreakdown(
    Workspace &ws, const std::vector<GpuOp> &ops, int64_t kernelWaitNs = kDefaultKernelWaitNs);

} // namespace plumb
