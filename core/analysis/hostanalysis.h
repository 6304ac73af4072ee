// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/gpuops.h"

#include <QString>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;
class Workspace;

// The CPU side of a trace: time spent where the host holds the GPU back, and how kernels are
// launched. CPU times are unions per thread (nested matches are not counted twice), summed over
// threads.
struct HostAnalysis {
    struct Activity {
        int64_t timeNs = 0;
        int64_t count = 0;
        std::vector<std::pair<int64_t, int64_t>> ranges; // the matching calls [start, end), by start
    };
    // Fetching the next batch: DataLoader iterators' __next__ and `enumerate(DataLoader)` ranges.
    Activity inputPipeline;
    // Blocking synchronisation: cudaDeviceSynchronize / cudaStreamSynchronize / cudaEventSynchronize
    // (and their driver forms), and `.item()`-style scalar copies (aten::item, aten::_local_scalar_dense).
    Activity synchronization;
    // Optimizer.step / Optimizer.zero_grad ranges.
    Activity optimizer;
    // Communication the host waits in: MPI calls (MPI_Allreduce, MPI_Wait, ...), as Nsight Systems
    // records them with --trace=mpi, on the threads that launch GPU work (every thread's when no
    // launch is linked): a progress thread that sits in MPI_Wait does not hold the GPU back.
    Activity communication;

    // CPU samples (Nsight Systems' --sample: the 'cpu_samples' tracks) of the threads that launch GPU
    // work (every thread's when no launch is linked): how many, how many fell in the GPU's idle
    // stretches, and those by function sampled, most first (at most kSampledFunctions): what the host
    // was doing while the GPU waited.
    static constexpr size_t kSampledFunctions = 5;
    int64_t cpuSamples = 0;
    int64_t cpuSamplesInIdle = 0;
    std::vector<std::pair<QString, int64_t>> idleSampleFunctions;

    // Thread scheduling (Nsight Systems' context switches: the 'on_cpu' tracks) of the launching
    // threads: of the GPU's idle time within the stretch each thread's scheduling covers (its first
    // scheduled-in to its last scheduled-out), how much that thread spent on no CPU (blocked in a call,
    // sleeping, or preempted), summed over the threads. A launching thread off the CPU while the GPU
    // waits for it is waiting itself, or is denied a core.
    int64_t schedThreads = 0;
    int64_t schedIdleNs = 0;
    int64_t offCpuIdleNs = 0;

    // Launches: delay from the start of the launch call to the start of its GPU op (queueing included).
    int64_t launchedOps = 0;
    int64_t launchDelayP50Ns = 0;
    int64_t launchDelayP90Ns = 0;
    // Ops that ran for less time on the GPU than their launch call took on the CPU: the CPU cannot
    // keep such a stream busy.
    int64_t shortOps = 0;
    int64_t shortOpsGpuNs = 0;
};

// What each of HostAnalysis's activities matches (exposed for tests).
enum class HostActivity { None, InputPipeline, Synchronization, Optimizer, Communication };
[[nodiscard]] HostActivity classifyHostName(const QString &name);

// The names hostAnalysis() counts, by string id, with what each matches.
using HostActivityNames = std::unordered_map<int64_t, HostActivity>;
[[nodiscard]] HostActivityNames hostActivityNames(SqliteDb &db);

// The slices hostAnalysis() counts (those of the trace's thread and CUDA API tracks whose names are in
// `names`), taken by another pass over those tracks as it reads them (StepTimeHostPass does), so that
// they are read once.
struct HostSliceTap {
    struct Slice {
        int64_t trackId, tsNs, durNs, nameId;
    };
    HostActivityNames names;
    std::vector<Slice> slices; // any order
    bool read = false; // the pass ran over every such track: `slices` are all of them
};

[[nodiscard]] HostAnalysis hostAnalysis(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops);
// The same with its slices from `tap` when tap.read, else read here.
[[nodiscard]] HostAnalysis hostAnalysis(
    Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops, const HostSliceTap &tap);

} // namespace plumb
