#pragma once

#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// The GPU ops of a trace as the analyses see them: kernels, memcpy and memset on its GPU streams,
// classed as computation, communication (kernels named like NCCL's) or memory, each with the trace
// time of the CPU-side call that launched it when a correlation id links one.
struct GpuOp {
    enum class Kind { Compute, Comm, Memory };
    int64_t startNs = 0;    // trace time (slice.ts)
    int64_t endNs = 0;
    int64_t nameId = 0;
    int64_t streamTrackId = 0;
    int64_t launchNs = -1;  // start of the launching CPU-side call; -1 when none is linked
    int64_t launchDurNs = 0; // its duration
    Kind kind = Kind::Compute;
};

// Every GPU op of the trace starting in [fromNs, toNs), in start order; with linkedOnly, only those
// with a launch.
[[nodiscard]] std::vector<GpuOp> readGpuOps(Workspace &ws, int64_t traceId, bool linkedOnly,
                                            int64_t fromNs = INT64_MIN, int64_t toNs = INT64_MAX);

} // namespace plumb
