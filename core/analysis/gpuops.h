// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class KeptSlices;
class Workspace;

// The device ops of a trace as the analyses see them: kernels, memcpy and memset on its device streams
// (every backend's categories: analysis/devicebackend.h; MTIA's dma* ops are memory),
// classed as computation, communication (kernels named like NCCL's) or memory, each with the trace
// time of the CPU-side call that launched it when a correlation id links one.
struct GpuOp {
    enum class Kind { Compute, Comm, Memory };
    int64_t startNs = 0; // trace time (slice.ts)
    int64_t endNs = 0;
    int64_t nameId = 0;
    int64_t streamTrackId = 0;
    int64_t launchNs = -1; // start of the launching CPU-side call; -1 when none is linked
    int64_t launchDurNs = 0; // its duration
    int64_t argsId = -1; // the op's args row (args.id), -1 when it has none
    Kind kind = Kind::Compute;
    // HTA mode only: an op Holistic Trace Analysis types as none of the three (MTIA's pe_exe; see
    // BackendCategory::htaUntypedOps). It counts as busy time, not as computation, communication or
    // memory; `kind` is Memory so that it shows as non-compute where an analysis reads only the kind.
    bool untyped = false;
};

// Which GPU ops an analysis counts, and how (documented for users in the README, "Doctor"):
//   EveryOp    every GPU op in the trace, classed by category (kernels named like NCCL's are
//              communication);
//   LinkedOnly only ops whose CUDA correlation id links them to a CPU-side launch in the same trace
//              (what TraceLens counts: work the traced Python program launched);
//   Hta        Holistic Trace Analysis's policy, so its figures can be checked against ours: when the
//              trace has at least two ProfilerStep#N annotations, the last step is dropped, and with
//              it every GPU op not launched by a CPU call that starts before it; kernels are classed
//              by name (communication when the name starts with "nccl", memory when it contains
//              "Memcpy" or "Memset", computation otherwise); times are whole microseconds as HTA reads
//              them (start rounded up, end rounded down, so an op loses up to 2 us; HTA lets a
//              sub-microsecond op go negative, here it keeps zero length).
enum class GpuOpMode { EveryOp, LinkedOnly, Hta };

// A start and an end (start + duration) as HTA reads them: whole microseconds, the start rounded up
// and the end rounded down (see GpuOpMode::Hta), in ns.
[[nodiscard]] int64_t htaStartNs(int64_t ns);
[[nodiscard]] int64_t htaEndNs(int64_t ns, int64_t durNs);

// "every", "linked" or "hta": the mode as `--mode` and the JSON outputs name it.
[[nodiscard]] QString gpuOpModeName(GpuOpMode mode);

// Every GPU op of the trace starting in [fromNs, toNs), in start order, chosen by mode. The tracks
// whose slices the import kept (`kept`, see writeTraceSummary()) are read from those rows.
[[nodiscard]] std::vector<GpuOp> readGpuOps(Workspace &ws, int64_t traceId, GpuOpMode mode,
    int64_t fromNs = INT64_MIN, int64_t toNs = INT64_MAX, const KeptSlices *kept = nullptr);

} // namespace plumb
