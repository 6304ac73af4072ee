// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsystables.h"

namespace plumb::nsys {

const std::vector<FieldSpec> &fieldSpecs()
{
    static const std::vector<FieldSpec> specs = {
        { Start, { "start", "timestamp" } }, // GPU_METRICS samples have a timestamp
        { End, { "end" } },
        { GlobalTid, { "globalTid" } },
        // Kernel tables name the process; some layouts write a globalTid there (its pid bits agree).
        { GlobalPid, { "globalPid", "globalTid" } },
        { Corr, { "correlationId" } },
        { NameId, { "nameId" } },
        { EventClass, { "eventClass" } },
        { ReturnValue, { "returnValue" } },
        { Device, { "deviceId" } },
        { Context, { "contextId" } },
        { Stream, { "streamId" } },
        { Demangled, { "demangledName" } },
        { Short, { "shortName" } },
        { GridX, { "gridX" } },
        { GridY, { "gridY" } },
        { GridZ, { "gridZ" } },
        { BlockX, { "blockX" } },
        { BlockY, { "blockY" } },
        { BlockZ, { "blockZ" } },
        { Registers, { "registersPerThread" } },
        { StaticSmem, { "staticSharedMemory" } },
        { DynamicSmem, { "dynamicSharedMemory" } },
        { Bytes, { "bytes" } },
        { CopyKind, { "copyKind" } },
        { SrcKind, { "srcKind" } },
        { DstKind, { "dstKind" } },
        { MemKind, { "memKind" } },
        { Value, { "value" } },
        { SyncType, { "syncType" } },
        { EventType, { "eventType" } },
        { Text, { "text" } },
        { TextId, { "textId" } },
        { GraphId, { "graphId" } },
        { GraphExecId, { "graphExecId" } },
        { TypeId, { "typeId" } },
        { MetricId, { "metricId" } },
        { Address, { "address" } },
        { MemoryOp, { "memoryOperationType" } },
        { Domain, { "domainId" } },
        { NvtxCategory, { "category" } },
        // An NVTX event's payload: one of these, by its type.
        { PayloadInt, { "int64Value" } },
        { PayloadUint, { "uint64Value" } },
        { PayloadInt32, { "int32Value" } },
        { PayloadUint32, { "uint32Value" } },
        { PayloadDouble, { "doubleValue" } },
        { PayloadFloat, { "floatValue" } },
        { JsonText, { "jsonText" } },
        // MPI calls (nsys --trace=mpi).
        { MessageSize, { "size" } },
        { ReceiveSize, { "recvSize" } },
        { Tag, { "tag" } },
        { RemoteRank, { "remoteRank" } },
        { RootRank, { "rootRank" } },
        // CPU samples: the id their backtrace (SAMPLING_CALLCHAINS) refers to.
        { SampleId, { "id" } },
        // Thread scheduling: the CPU, in (non-zero) or out, and why it left (its state, what blocked it).
        { Cpu, { "cpu" } },
        { IsSchedIn, { "isSchedIn" } },
        { ThreadState, { "threadState" } },
        { ThreadBlock, { "threadBlock" } },
        // An OS runtime or CUDA call's backtrace (nsys --osrt-backtrace-*, --cudabacktrace): its id in
        // OSRT_CALLCHAINS or CUDA_CALLCHAINS; read only when the export has that table.
        { CallchainId, { "callchainId" } },
    };
    return specs;
}

const std::vector<TableSpec> &tableSpecs()
{
    static const std::vector<TableSpec> specs = {
        { Source::Runtime, "CUPTI_ACTIVITY_KIND_RUNTIME",
            { Start, End, GlobalTid, Corr, NameId, EventClass, ReturnValue, CallchainId }, { Start, NameId },
            1, GlobalTid, FieldCount },
        { Source::Kernel, "CUPTI_ACTIVITY_KIND_KERNEL",
            { Start, End, GlobalPid, Corr, Device, Context, Stream, Demangled, Short, GridX, GridY, GridZ,
                BlockX, BlockY, BlockZ, Registers, StaticSmem, DynamicSmem },
            { Start, Device, Stream }, 2, Device, Stream },
        { Source::Memcpy, "CUPTI_ACTIVITY_KIND_MEMCPY",
            { Start, End, GlobalPid, Corr, Device, Context, Stream, Bytes, CopyKind, SrcKind, DstKind },
            { Start, Device, Stream }, 2, Device, Stream },
        { Source::Memset, "CUPTI_ACTIVITY_KIND_MEMSET",
            { Start, End, GlobalPid, Corr, Device, Context, Stream, Bytes, Value, MemKind },
            { Start, Device, Stream }, 2, Device, Stream },
        // A CUDA graph launch traced whole (nsys --cuda-graph-trace=graph): its kernels are not in
        // the kernel table, so this is the GPU time they took.
        { Source::Graph, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
            { Start, End, GlobalPid, Corr, Device, Context, Stream, GraphId, GraphExecId },
            { Start, Device, Stream }, 2, Device, Stream },
        { Source::Sync, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
            { Start, End, GlobalPid, Corr, Device, Context, Stream, SyncType }, { Start, Device }, 3, Device,
            Stream },
        // nsys --gpu-metrics-devices: per GPU (typeId) sampled counters (metricId), named in
        // TARGET_INFO_GPU_METRICS; one counter track each, read in time order.
        { Source::Metric, "GPU_METRICS", { Start, TypeId, MetricId, Value }, { Start, MetricId, Value }, 3,
            TypeId, MetricId },
        // nsys --cuda-memory-usage=true: each allocation and free of GPU memory (cudaMalloc, cudaFree,
        // pool allocations); a running total per process and device, as a counter track.
        { Source::MemoryUsage, "CUDA_GPU_MEMORY_USAGE_EVENTS",
            { Start, GlobalPid, Device, Bytes, MemKind, MemoryOp, Address }, { Start, Bytes, MemoryOp }, 3,
            GlobalPid, FieldCount },
        { Source::Nvtx, "NVTX_EVENTS",
            { Start, End, GlobalTid, EventType, Text, TextId, Domain, NvtxCategory, PayloadInt, PayloadUint,
                PayloadInt32, PayloadUint32, PayloadDouble, PayloadFloat, JsonText },
            { Start }, 0, GlobalTid, FieldCount },
        { Source::Osrt, "OSRT_API", { Start, End, GlobalTid, NameId, ReturnValue, CallchainId },
            { Start, NameId }, 0, GlobalTid, FieldCount },
        // nsys --trace=cublas,cudnn: the library calls around the CUDA calls they make.
        { Source::HostCall, "CUBLAS_EVENTS", { Start, End, GlobalTid, NameId }, { Start, NameId }, 0,
            GlobalTid, FieldCount, "cublas" },
        { Source::HostCall, "CUDNN_EVENTS", { Start, End, GlobalTid, NameId }, { Start, NameId }, 0,
            GlobalTid, FieldCount, "cudnn" },
        // nsys --trace=mpi: the function name is the textId's string.
        { Source::HostCall, "MPI_P2P_EVENTS", { Start, End, GlobalTid, TextId, MessageSize, Tag, RemoteRank },
            { Start, TextId }, 0, GlobalTid, FieldCount, "mpi" },
        { Source::HostCall, "MPI_COLLECTIVES_EVENTS",
            { Start, End, GlobalTid, TextId, MessageSize, ReceiveSize, RootRank }, { Start, TextId }, 0,
            GlobalTid, FieldCount, "mpi" },
        { Source::HostCall, "MPI_START_WAIT_EVENTS", { Start, End, GlobalTid, TextId }, { Start, TextId }, 0,
            GlobalTid, FieldCount, "mpi" },
        { Source::HostCall, "MPI_OTHER_EVENTS", { Start, End, GlobalTid, TextId }, { Start, TextId }, 0,
            GlobalTid, FieldCount, "mpi" },
        // nsys --sample (on by default): each sample of a thread, on the thread's "CPU samples" row. In
        // the last phase: their backtraces are read meanwhile (see NsysCallchains::start()).
        { Source::CpuSample, "COMPOSITE_EVENTS", { Start, GlobalTid, SampleId }, { Start, GlobalTid },
            kLastPhase, GlobalTid, FieldCount },
        // nsys --cpuctxsw (on by default: it follows --sample): a thread scheduled in on a CPU, or out; each
        // interval on a CPU is a slice on the thread's "On CPU" row (see NsysScheduling).
        { Source::Sched, "SCHED_EVENTS", { Start, GlobalTid, Cpu, IsSchedIn, ThreadState, ThreadBlock },
            { Start, GlobalTid, Cpu, IsSchedIn }, kLastPhase, GlobalTid, FieldCount },
        // Time the profiler itself took on a thread (its injection's setup, buffer flushes), as Nsight
        // Systems shows it on the thread.
        { Source::HostCall, "PROFILER_OVERHEAD", { Start, End, GlobalTid, NameId, ReturnValue },
            { Start, NameId }, 0, GlobalTid, FieldCount, "profiler_overhead" },
    };
    return specs;
}

} // namespace plumb::nsys
