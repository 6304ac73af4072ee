// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/threadops.h"

#include <QString>

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace plumb {

class SqliteDb;
class KeptSlices;
class Workspace;

// The collectives of a trace (communication kernels) grouped by operation, process group, group size,
// element type and message size: how many, how long, and the effective bandwidth. What a collective
// moved comes from its args as PyTorch's profiler records them ("Collective name", "In msg nelems",
// "Out msg nelems", "dtype", "Group size", "Process Group Name"), on the kernel or, for older traces,
// on the `record_param_comms` CPU op with the same External id. Collectives without sizes are
// grouped by kernel name with bytes 0.
//
// Bandwidth as nccl-tests defines it: algorithm bandwidth = bytes / time; bus bandwidth scales it by
// the data each rank must send over the slowest link, so that it compares with the hardware's peak:
// all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n (bytes = the larger of in and out),
// all-to-all (n-1)/n, broadcast, reduce, send and receive 1.
struct CollectiveStats {
    QString collective; // "allreduce", ..., else the kernel name
    QString processGroup; // name (description), empty when unknown
    QString dtype;
    int64_t groupSize = 0; // 0 when unknown
    int64_t bytes = 0; // per call
    int64_t count = 0;
    int64_t timeNs = 0; // summed over calls
    int64_t maxNs = 0;
    [[nodiscard]] double algorithmGBps() const
    {
        return timeNs > 0 ? double(bytes) * double(count) / double(timeNs) : 0.0;
    }
    [[nodiscard]] double busGBps() const { return algorithmGBps() * busFactor(); }
    [[nodiscard]] double busFactor() const;
};

// Sorted by total time, largest first.
// One collective kernel: what collectiveStats() groups, and what the per-step summaries keep
// (collective_call) so that a job's ranks pair their calls.
struct CollectiveCall {
    int64_t sliceId = 0;
    int64_t startNs = 0; // trace time
    int64_t endNs = 0;
    QString collective;
    QString processGroup;
    QString dtype;
    int64_t groupSize = 0;
    int64_t bytes = 0;
    int64_t seq = 0; // its place among the trace's calls in the same process group, from 0
    [[nodiscard]] int64_t durNs() const { return endNs - startNs; }
};

// The trace's collective kernels, by start (read from the rows the import kept, `kept`, for the tracks
// it kept).
[[nodiscard]] std::vector<CollectiveCall> collectiveCalls(Workspace &ws, int64_t traceId,
    const std::vector<ThreadOp> *threadOps = nullptr, const KeptSlices *kept = nullptr);
// The string ids of the CPU ops whose args give a collective's parameters to its kernels
// (record_param_comms): `threadOps`, when given, holds at least those.
[[nodiscard]] std::unordered_set<int64_t> collectiveParamNameIds(SqliteDb &db);
[[nodiscard]] std::vector<CollectiveStats> collectiveStats(const std::vector<CollectiveCall> &calls);
[[nodiscard]] std::vector<CollectiveStats> collectiveStats(Workspace &ws, int64_t traceId);

// Bytes per element of a PyTorch dtype name as the profiler writes it ("Float", "BFloat16", ...); 0
// when unknown.
[[nodiscard]] int dtypeBytes(const QString &dtype);

} // namespace plumb
