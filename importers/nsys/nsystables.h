// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace plumb::nsys {

// The event tables of an Nsight Systems export that the importer reads, and the logical fields read
// from them: each field from the first of its candidate columns a table has (columns are renamed
// across nsys versions), each table in a phase and in an order that lands every track's slices in time
// order (see NsysReader).

constexpr int64_t kInvalidStream = 0xffffffff; // CUPTI's "no stream" (context and device syncs)

// globalTid / globalPid: serialized GlobalId, pid in bits 24-47 and tid in bits 0-23.
constexpr int64_t pidOf(int64_t globalId)
{
    return (globalId >> 24) & 0xffffff;
}
constexpr int64_t tidOf(int64_t globalId)
{
    return globalId & 0xffffff;
}

// HostCall: a library's calls on a host thread (cuBLAS, cuDNN, MPI, the profiler's own overhead),
// each table with its category.
// CpuSample: a CPU sample of a thread (nsys --sample), named by the function it was in.
// Sched: a thread scheduled in on a CPU or out of it (nsys --cpuctxsw, on by default: it follows --sample).
enum class Source {
    Runtime,
    Kernel,
    Memcpy,
    Memset,
    Graph,
    Sync,
    Nvtx,
    Osrt,
    HostCall,
    Metric,
    MemoryUsage,
    CpuSample,
    Sched
};

// Logical fields; each is read from the first of its candidate columns the table has.
enum F {
    Start,
    End,
    GlobalTid,
    GlobalPid,
    Corr,
    NameId,
    EventClass,
    ReturnValue,
    Device,
    Context,
    Stream,
    Demangled,
    Short,
    GridX,
    GridY,
    GridZ,
    BlockX,
    BlockY,
    BlockZ,
    Registers,
    StaticSmem,
    DynamicSmem,
    Bytes,
    CopyKind,
    SrcKind,
    DstKind,
    MemKind,
    Value,
    SyncType,
    EventType,
    Text,
    TextId,
    GraphId,
    GraphExecId,
    TypeId,
    MetricId,
    Address,
    MemoryOp,
    Domain,
    NvtxCategory,
    PayloadInt,
    PayloadUint,
    PayloadInt32,
    PayloadUint32,
    PayloadDouble,
    PayloadFloat,
    JsonText,
    MessageSize,
    ReceiveSize,
    Tag,
    RemoteRank,
    RootRank,
    SampleId,
    Cpu,
    IsSchedIn,
    ThreadState,
    ThreadBlock,
    CallchainId,
    FieldCount
};

// A logical field and the columns it is read from.
struct FieldSpec {
    F field;
    std::array<const char *, 2> candidates; // unused slots are nullptr
};

// The last phase: CPU samples (their backtraces are read while the others merge) and thread
// scheduling, each on companion tracks of their own.
constexpr int kLastPhase = 3;

struct TableSpec {
    Source source;
    const char *table;
    std::vector<F> fields;
    std::vector<F> required;
    // Rows are read grouped by the track they land on (group1, group2), each group by start time, and
    // the tables of one phase are merged on that order: every track then receives its slices in time
    // order and in one run, so the workspace's (track, ts) clustered table is appended to, not
    // scattered into.
    int phase;
    F group1;
    F group2;
    const char *category = nullptr; // Source::HostCall: the slices' category
};

// Every field and its candidate columns.
[[nodiscard]] const std::vector<FieldSpec> &fieldSpecs();
// Every event table read, in the order its rows win a tie in the merge.
[[nodiscard]] const std::vector<TableSpec> &tableSpecs();

} // namespace plumb::nsys
