// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace plumb {

struct HostSliceTap;
struct ThreadOpTap;
class KeptSlices;
class SqliteDb;
class Workspace;

// Where a step's wall time goes, as users count step time. Each nanosecond goes to exactly one part,
// the first that applies in this order: the device runs (1) computation, (2) communication with no
// computation, (3) memcpy/memset alone (GPU ops as readGpuOps() classes them, every op counted, united
// over every stream and device of the trace: a process driving several devices is busy when any is);
// with the device idle, the host (any CPU thread of the trace) is in (4) the input pipeline (DataLoader
// iterators' __next__, `enumerate(DataLoader)`, and the options' extra patterns), (5) a synchronising
// call (device, stream or event synchronize, `cuda_sync` events, `.item()` / _local_scalar_dense),
// (6) a runtime call (cuda_runtime / cuda_driver slices, Nsight's CUDA API tracks), (7) any other slice
// on the step's thread (slices that enclose a whole step, the step spans themselves among them, do not
// count); else (8) idle.
struct StepTimeParts {
    int64_t computeNs = 0;
    int64_t exposedCommNs = 0;
    int64_t exposedMemoryNs = 0;
    int64_t inputPipelineNs = 0;
    int64_t synchronizationNs = 0;
    int64_t runtimeNs = 0;
    int64_t otherCpuNs = 0;
    int64_t idleNs = 0;
    [[nodiscard]] int64_t wallNs() const
    {
        return computeNs + exposedCommNs + exposedMemoryNs + inputPipelineNs + synchronizationNs + runtimeNs
            + otherCpuNs + idleNs;
    }
    StepTimeParts &operator+=(const StepTimeParts &o);
};

// The eight parts of step time (StepTimeParts), in their order of precedence.
enum class StepTimePart {
    Compute,
    ExposedComm,
    ExposedMemory,
    InputPipeline,
    Synchronization,
    Runtime,
    OtherCpu,
    Idle
};
constexpr int kStepTimePartCount = 8;

// Each part, in StepTimePart order: `key` as the JSON outputs name it ("compute", "exposed_comm",
// "exposed_memory", "input_pipeline", "synchronization", "runtime", "other_cpu", "idle"; its
// nanoseconds are key + "_ns"), `name` as the texts and charts do ("device compute", "exposed
// communication", "exposed memcpy/memset", "input pipeline", "synchronisation", "runtime calls",
// "other CPU work", "idle"), `member` its field of StepTimeParts.
struct StepTimePartInfo {
    StepTimePart part;
    const char *key;
    const char *name;
    int64_t StepTimeParts::*member;
};
[[nodiscard]] const std::array<StepTimePartInfo, kStepTimePartCount> &stepTimeParts();
[[nodiscard]] inline const StepTimePartInfo &stepTimePart(StepTimePart part)
{
    return stepTimeParts()[size_t(part)];
}
[[nodiscard]] inline QString stepTimePartName(StepTimePart part)
{
    return QString::fromLatin1(stepTimePart(part).name);
}
[[nodiscard]] inline QString stepTimePartKey(StepTimePart part)
{
    return QString::fromLatin1(stepTimePart(part).key);
}
[[nodiscard]] inline int64_t stepTimePartNs(const StepTimeParts &p, StepTimePart part)
{
    return p.*stepTimePart(part).member;
}

// One step: its span on the CPU (ProfilerStep#N, a step-named NVTX range, an XPlane Steps slice: see
// stepMarkers()), widened back to the end of the step before it, since the gap between two steps'
// spans (the loop's next() runs there) belongs to the step that follows. startNs..endNs is that
// wall time (trace time); spanStartNs is where the span itself starts.
struct StepTime {
    int64_t step = 0; // the step number
    QString name; // the span's name (ProfilerStep#N, ...)
    int64_t startNs = 0;
    int64_t spanStartNs = 0;
    int64_t endNs = 0;
    StepTimeParts parts;
    [[nodiscard]] int64_t wallNs() const { return endNs - startNs; }
};

struct StepTimeBreakdown {
    std::vector<StepTime> steps; // by start
    StepTimeParts total; // summed over the steps
};

struct StepTimeOptions {
    // Names of further input-pipeline ranges (a match anywhere in the slice's name).
    QList<QRegularExpression> inputPatterns;
};

// The step time breakdown of a trace (its steps as traceSteps() gives them, so steps[i] is
// stepBreakdowns()[i]), every GPU op of the trace counted; no steps found gives an empty breakdown.
[[nodiscard]] StepTimeBreakdown stepTimeBreakdown(
    Workspace &ws, int64_t traceId, const StepTimeOptions &options = {});
// The same with the device's ops already read (readGpuOps() in the mode the caller counts). `hostTap`,
// when given, takes hostAnalysis()'s slices from the same pass over the CPU tracks.
[[nodiscard]] StepTimeBreakdown stepTimeBreakdown(Workspace &ws, int64_t traceId,
    const std::vector<GpuOp> &ops, const StepTimeOptions &options = {}, HostSliceTap *hostTap = nullptr);

// The host's half of the step time: the steps, and the intervals of parts 4-7 from one pass over the
// trace's CPU tracks, which needs no device ops, so that it can run while another connection reads
// them. The tracks are shared out among the threads that call scan(), each on its own connection to
// the workspace. The same pass serves hostAnalysis() (`hostTap`) and the CPU ops that FLOPs and
// collectives look up (`threadOps`: what readThreadOps() gives for its names, read at once when the
// trace has no step). A track whose slices the import kept (`kept`, see writeTraceSummary()) is read
// from those rows instead of the workspace; those of a CPU track that no other analysis reads (one
// without correlation ids) are freed once read.
class StepTimeHostPass {
public:
    StepTimeHostPass(Workspace &ws, int64_t traceId, const StepTimeOptions &options,
        HostSliceTap *hostTap = nullptr, ThreadOpTap *threadOps = nullptr, KeptSlices *kept = nullptr);
    ~StepTimeHostPass();
    StepTimeHostPass(const StepTimeHostPass &) = delete;
    StepTimeHostPass &operator=(const StepTimeHostPass &) = delete;

    // Reads the tracks no other call has taken, until none is left or `maxTracks` were read, on `db`:
    // a connection that sees what the constructor's saw. Calls may run at once on several threads.
    void scan(SqliteDb &db, size_t maxTracks = SIZE_MAX);
    // Whether a track is left for scan() to take; whether every track was read, by whichever call.
    [[nodiscard]] bool tracksLeft() const;
    [[nodiscard]] bool scanned() const;
    // Once scanned() (the two may run at once): threadOps->ops; the breakdown, with the device's ops,
    // and hostTap->slices.
    void takeThreadOps();
    [[nodiscard]] StepTimeBreakdown finish(const std::vector<GpuOp> &ops);

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace plumb
