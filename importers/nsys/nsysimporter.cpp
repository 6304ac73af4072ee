// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysimporter.h"

#include "text/jsontext.h"

#include "ingest/corrlinks.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/rangeprojection.h"
#include "ingest/tracesink.h"
#include "nsys/sortedtablereader.h"
#include "store/foreignsqlitedb.h"
#include "text/textformat.h"

#include <QFileInfo>

#include <sqlite3.h>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace plumb {

namespace {

constexpr int64_t kCheckpointRows = 4096;
constexpr int64_t kInvalidStream = 0xffffffff; // CUPTI's "no stream" (context and device syncs)
constexpr size_t kReadAheadBytes = 1 << 20;
constexpr size_t kMaxGpuKeys = 1 << 16; // distinct GPU-op names+args remembered (~10 MB)
// Memory the tables of one phase may take to be sorted in memory (see SortedTableReader); a larger
// table is sorted that much at a time, in runs spilled to temporary files. Two phases are held at once
// (one read, the next loading): 256 MB at most. About 700k kernel rows.
constexpr size_t kSortMemoryBudget = size_t(128) << 20;
// Rows below which a table is read in one piece (see openCursors()).
constexpr int64_t kMinPartRows = 100'000;

int64_t loaderThreads()
{
    return std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, 4);
}

// Loader threads read ahead while the writer thread, which bounds the import, inserts what the
// producer merged: they take the cores those two leave, and all of them when the producer waits
// for a phase.
void lowerThreadPriority()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
}

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

struct FieldSpec {
    F field;
    std::array<const char *, 2> candidates; // unused slots are nullptr
};

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
        // the last phase: their backtraces are read meanwhile (see startCallchains()).
        { Source::CpuSample, "COMPOSITE_EVENTS", { Start, GlobalTid, SampleId }, { Start, GlobalTid },
            kLastPhase, GlobalTid, FieldCount },
        // nsys --cpuctxsw (on by default: it follows --sample): a thread scheduled in on a CPU, or out; each
        // interval on a CPU is a slice on the thread's "On CPU" row (see handleSched()).
        { Source::Sched, "SCHED_EVENTS", { Start, GlobalTid, Cpu, IsSchedIn, ThreadState, ThreadBlock },
            { Start, GlobalTid, Cpu, IsSchedIn }, kLastPhase, GlobalTid, FieldCount },
        // Time the profiler itself took on a thread (its injection's setup, buffer flushes), as Nsight
        // Systems shows it on the thread.
        { Source::HostCall, "PROFILER_OVERHEAD", { Start, End, GlobalTid, NameId, ReturnValue },
            { Start, NameId }, 0, GlobalTid, FieldCount, "profiler_overhead" },
    };
    return specs;
}

// Copy and memory kinds as Nsight numbers them (ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND); used
// when an export has no enum tables. Short copy-kind spellings are Kineto's ("HtoD").
const char *copyKindText(int64_t k)
{
    static const char *names[] = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
        "HtoH", "PtoP", "UVM HtoD", "UVM DtoH", "UVM DtoD" };
    return k >= 0 && k < int64_t(std::size(names)) ? names[k] : "Unknown";
}

const char *memKindText(int64_t k)
{
    static const char *names[] = { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
        "Managed Static", "Unknown" };
    return k >= 0 && k < int64_t(std::size(names)) ? names[k] : "Unknown";
}

// CUPTI synchronisation types, named as Kineto names its cuda_sync events.
const char *syncName(int64_t t)
{
    switch (t) {
    case 1:
        return "Event Sync";
    case 2:
        return "Stream Wait Event";
    case 3:
        return "Stream Sync";
    case 4:
        return "Context Sync";
    default:
        return "Unknown Sync";
    }
}

// NVTX event types (ENUM_NSYS_EVENT_TYPE).
constexpr bool isNvtxMark(int64_t t)
{
    return t == 34 || t == 65;
}
constexpr bool isNvtxRange(int64_t t)
{
    return t == 59 || t == 60 || t == 70 || t == 71;
}
constexpr int64_t kNvtxCategoryName = 33;
constexpr int64_t kNvtxDomainCreate = 75;

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string_view stripVersionSuffix(std::string_view name)
{
    const size_t at = name.rfind("_v");
    if (at == std::string_view::npos || at == 0 || at + 2 >= name.size())
        return name;
    for (size_t i = at + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, at);
}

// Compact JSON object, built field by field into a reused buffer.
class Args {
public:
    void clear() { m_json.clear(); }
    void key(std::string_view k)
    {
        m_json.push_back(m_json.empty() ? '{' : ',');
        appendJsonString(m_json, k);
        m_json.push_back(':');
    }
    void add(std::string_view k, int64_t v)
    {
        key(k);
        appendInt(v);
    }
    void add(std::string_view k, std::string_view v)
    {
        key(k);
        appendJsonString(m_json, v);
    }
    void add3(std::string_view k, int64_t x, int64_t y, int64_t z)
    {
        key(k);
        m_json.push_back('[');
        appendInt(x);
        m_json.push_back(',');
        appendInt(y);
        m_json.push_back(',');
        appendInt(z);
        m_json.push_back(']');
    }
    // JSON has no NaN or infinity: those are written as strings. A float is written as the shortest
    // text that reads back as that float ("0.1", not the double 0.10000000149011612 it widened to).
    template <typename Real> void addReal(std::string_view k, Real v)
    {
        if (!std::isfinite(v)) {
            add(k, std::string_view(std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"));
            return;
        }
        key(k);
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_json.append(buf, size_t(r.ptr - buf));
    }
    void addRaw(std::string_view k, std::string_view raw)
    {
        key(k);
        m_json.append(raw);
    }
    [[nodiscard]] std::string_view finish()
    {
        if (m_json.empty())
            return {};
        m_json.push_back('}');
        return m_json;
    }

private:
    void appendInt(int64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_json.append(buf, size_t(r.ptr - buf));
    }
    std::string m_json;
};

bool hasPrefix(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

class NsysReader {
public:
    NsysReader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_sink(ctx.traceSink())
        , m_diag(ctx.diagnostics())
        , m_db(ctx.input().path())
    {
        m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
    }

    void run();

private:
    struct Cursor {
        const TableSpec *spec = nullptr;
        std::unique_ptr<SortedTableReader> st;
        std::array<int, FieldCount> col {};
        // Fields whose default value (0, 0.0, '') stands for "none": optional columns of an export that
        // declared every column NOT NULL (see openCursors()).
        std::array<bool, FieldCount> defaultIsNone {};
        // Merge key of the current row: as each table is sorted, end descending (an enclosing range
        // first), then tables in m_cursors order (a table's parts in rowid order).
        int64_t group1 = 0, group2 = 0, start = 0, end = 0;
        bool operator<(const Cursor &o) const
        {
            return std::tie(group1, group2, start, o.end) < std::tie(o.group1, o.group2, o.start, end);
        }
    };
    struct ThreadTracks {
        int64_t thread = 0;
        int64_t api = kNoValue;
        int64_t samples = kNoValue;
        int64_t onCpu = kNoValue;
    };

    [[nodiscard]] bool has(const Cursor &c, F f) const { return c.col[f] >= 0; }
    [[nodiscard]] int64_t get(const Cursor &c, F f, int64_t fallback = kNoValue) const
    {
        return isNull(c, f) ? fallback : c.st->integer(c.col[f]);
    }
    [[nodiscard]] bool isNull(const Cursor &c, F f) const
    {
        const int i = c.col[f];
        return i < 0 || c.st->isNull(i) || (c.defaultIsNone[f] && isDefault(c, f));
    }
    [[nodiscard]] bool isDefault(const Cursor &c, F f) const;

    void checkIsNsight();
    void readSessionInfo();
    void readDevices();
    void readMetadata();
    void readNsysDiagnostics();
    void reportUnreadTables();
    void openCursors();
    [[nodiscard]] std::future<bool> startCorrScope();
    void setCorrScope(bool perProcess);
    void handle(Cursor &c);
    void handleRuntime(Cursor &c, SliceFields &f);
    void handleGpu(Cursor &c, SliceFields &f);
    using GpuKey = std::array<int64_t, 14>;
    struct GpuKeyHash {
        size_t operator()(const GpuKey &k) const noexcept
        {
            uint64_t h = 0x9e3779b97f4a7c15ull;
            for (const int64_t v : k)
                h = (h ^ uint64_t(v)) * 0x100000001b3ull;
            return size_t(h ^ (h >> 29));
        }
    };
    struct GpuNames {
        int64_t nameId = 0;
        int64_t argsId = kNoValue;
    };
    [[nodiscard]] GpuNames gpuNameAndArgs(const GpuKey &key);
    void handleSync(Cursor &c, SliceFields &f);
    void handleNvtx(Cursor &c, SliceFields &f);
    void handleOsrt(Cursor &c, SliceFields &f);
    void handleHostCall(Cursor &c, SliceFields &f);
    void handleCpuSample(Cursor &c, SliceFields &f);
    void handleSched(Cursor &c, SliceFields &f);
    void closeOpenSched();
    void addOnCpu(int64_t globalTid, int64_t cpu, SliceFields &f);
    [[nodiscard]] const std::string &schedLabel(bool block, int64_t id);
    [[nodiscard]] const std::string &frameText(int64_t stringId, bool module);
    // Backtraces (SAMPLING_CALLCHAINS of the CPU samples, OSRT_CALLCHAINS and CUDA_CALLCHAINS of OS
    // runtime and CUDA calls), read on a connection of their own while the phases before their events'
    // are merged: each distinct stack once (leaf first, at most kMaxFrames frames of StringIds symbol and
    // module, and whether the symbol is unresolved, an address), and per callchain id its stack's index:
    // 4 bytes an id while the ids are dense, as nsys numbers them (a long capture holds tens of
    // millions), else (id, index) pairs.
    using Frame = std::tuple<int64_t, int64_t, bool>;
    struct Callchains {
        static constexpr uint32_t kNone = UINT32_MAX;
        std::vector<std::vector<Frame>> stacks;
        int64_t firstId = 0;
        std::vector<uint32_t> byId; // index id - firstId; kNone: no backtrace
        std::vector<std::pair<int64_t, uint32_t>> sparse; // when the ids are not dense, ascending
        void add(int64_t id, uint32_t stack)
        {
            if (sparse.empty() && byId.empty())
                firstId = id;
            const int64_t at = id - firstId;
            if (sparse.empty() && at < int64_t(4 * (byId.size() + 1024))) {
                byId.resize(size_t(at), kNone);
                byId.push_back(stack);
                return;
            }
            for (size_t i = 0; i < byId.size(); ++i)
                if (byId[i] != kNone)
                    sparse.emplace_back(firstId + int64_t(i), byId[i]);
            std::vector<uint32_t>().swap(byId);
            sparse.emplace_back(id, stack);
        }
        [[nodiscard]] uint32_t find(int64_t id) const
        {
            if (sparse.empty())
                return id >= firstId && id - firstId < int64_t(byId.size()) ? byId[size_t(id - firstId)]
                                                                            : kNone;
            const auto it
                = std::lower_bound(sparse.begin(), sparse.end(), std::pair<int64_t, uint32_t> { id, 0 });
            return it != sparse.end() && it->first == id ? it->second : kNone;
        }
    };
    [[nodiscard]] std::future<Callchains> startCallchains(const char *table, const char *events);
    // Whether the export has the backtrace table `table` in a layout startCallchains() reads.
    [[nodiscard]] bool hasCallchains(const char *table)
    {
        return hasColumns(table, { "id", "symbol", "stackDepth" });
    }
    // The backtraces of one table, once read, with each stack's JSON array made when first used.
    struct Backtraces {
        const char *table;
        Callchains chains;
        std::vector<std::string> json;
        bool read = false;
        void set(Callchains c)
        {
            chains = std::move(c);
            json.assign(chains.stacks.size(), std::string());
            read = true;
        }
    };
    [[nodiscard]] const std::string &backtraceJson(Backtraces &b, uint32_t stack);
    void addBacktrace(Backtraces &b, const Cursor &c);
    void readGpuMetricNames();
    void readMpiRanks();
    // NVTX's naming records (domain and category names), read on a connection of their own.
    struct NvtxName {
        int64_t type = 0, domain = 0, category = 0, textId = kNoValue;
        std::string text;
    };
    [[nodiscard]] std::future<std::vector<NvtxName>> startNvtxNames();
    void setNvtxNames(std::vector<NvtxName> names);
    void projectNvtx();
    void handleMetric(Cursor &c);
    void handleMemoryUsage(Cursor &c);
    void progress();
    void loadKey(Cursor &c);

    [[nodiscard]] std::string_view lookupString(int64_t id);
    [[nodiscard]] int64_t nameOf(int64_t stringId);
    [[nodiscard]] int64_t apiNameOf(int64_t stringId);
    [[nodiscard]] int64_t hostProcess(int64_t pid, int64_t globalPid);
    [[nodiscard]] ThreadTracks &threadTracks(int64_t globalTid);
    [[nodiscard]] int64_t gpuProcess(int64_t device);
    [[nodiscard]] int64_t streamTrack(int64_t device, int64_t stream);
    [[nodiscard]] int64_t syncTrack(int64_t device, int64_t stream);
    [[nodiscard]] int64_t corrOf(const Cursor &c, F pidField);
    [[nodiscard]] std::string enumLabel(const char *table, int64_t id);
    // Whether the export has `table` with every one of `columns` (tables and columns come and go
    // across nsys versions and capture options).
    [[nodiscard]] bool hasColumns(const char *table, std::initializer_list<const char *> columns);

    ImportContext &m_ctx;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    ForeignSqliteDb m_db;
    std::unordered_set<std::string> m_tables;
    std::vector<std::unique_ptr<Cursor>> m_cursors;

    std::unique_ptr<ForeignSqliteDb::Stmt> m_stringLookup;
    std::unique_ptr<ForeignSqliteDb::Stmt> m_threadNameLookup;
    std::unique_ptr<ForeignSqliteDb::Stmt> m_processNameLookup;
    std::string m_stringScratch;
    std::unordered_map<int64_t, int64_t> m_names; // StringIds id -> interned id
    std::unordered_map<int64_t, int64_t> m_apiNames; // same, version suffix stripped
    std::unordered_map<int64_t, std::string> m_shortNames; // kernel base names, for args
    std::unordered_map<GpuKey, GpuNames, GpuKeyHash> m_gpuNames; // see handleGpu(); at most kMaxGpuKeys
    std::unordered_map<int64_t, int64_t> m_processes; // pid -> process row
    std::map<int64_t, int64_t> m_processRanks; // pid -> MPI rank, when the export holds several ranks
    std::unordered_map<int64_t, ThreadTracks> m_threads; // globalTid -> tracks
    std::unordered_map<int64_t, int64_t> m_gpuProcesses; // device -> process row
    std::unordered_map<int64_t, int64_t> m_streamTracks; // device << 32 | stream -> track
    std::unordered_map<int64_t, int64_t> m_syncTracks;
    std::unordered_map<int64_t, std::string> m_deviceNames;
    std::unordered_map<int64_t, bool> m_driverClass; // eventClass -> is the CUDA driver
    std::unordered_map<int64_t, bool> m_driverByName; // nameId -> is a driver call
    std::array<std::string, 14> m_copyKinds;
    std::array<std::string, 8> m_memKinds;
    bool m_corrPerProcess = false;
    int64_t m_catRuntime = 0, m_catDriver = 0, m_catKernel = 0, m_catMemcpy = 0, m_catMemset = 0,
            m_catSync = 0, m_catNvtx = 0, m_catOsrt = 0, m_catGraph = 0;
    int64_t m_graphLaunches = 0;
    // GPU metrics: names by (typeId, metricId), type names by typeId, counter tracks by the same key.
    std::map<std::pair<int64_t, int64_t>, std::string> m_metricNames;
    std::map<int64_t, std::string> m_metricTypeNames;
    std::map<std::pair<int64_t, int64_t>, int64_t> m_metricTracks;
    std::map<int64_t, int64_t> m_metricProcesses;
    std::unordered_set<std::string> m_metricProcessNames;
    // GPU memory usage: the bytes allocated and not yet freed per (globalPid, device; -1 for pinned or
    // pageable host memory), and the live allocations by (globalPid, address), to know what a free
    // releases. Bytes as doubles, what the counter holds: exact to 8 PiB, and no overflow to guard.
    struct MemoryTotal {
        int64_t track = 0;
        double bytes = 0;
    };
    struct LiveAllocation {
        MemoryTotal *total = nullptr;
        double bytes = 0;
    };
    std::map<std::pair<int64_t, int64_t>, MemoryTotal> m_memoryTotals;
    std::map<std::pair<int64_t, int64_t>, LiveAllocation> m_liveAllocations;
    int64_t m_unmatchedFrees = 0;
    Args m_args;
    int64_t m_rows = 0;
    int64_t m_totalRows = 0;
    int64_t m_nvtxSkipped = 0;
    Backtraces m_sampleStacks { "SAMPLING_CALLCHAINS", {}, {} };
    Backtraces m_osrtStacks { "OSRT_CALLCHAINS", {}, {} };
    Backtraces m_cudaStacks { "CUDA_CALLCHAINS", {}, {} };
    std::vector<std::pair<int64_t, int64_t>>
        m_stackSlices; // per sample stack: (name, args), name 0 until made
    std::unordered_map<int64_t, std::string> m_functionNames, m_moduleNames; // see frameText()
    // Thread scheduling: per globalTid, the scheduled-in event not yet matched by its scheduled-out
    // (start, cpu); the CPUs' names; the labels read (see schedLabel()).
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> m_schedIn;
    std::unordered_map<int64_t, int64_t> m_cpuNames;
    std::unordered_map<int64_t, std::string> m_schedLabels;
    int64_t m_catSched = 0;
    int64_t m_catCpuSample = 0;
    // NVTX domain names by domainId, category names by (domainId, category).
    std::unordered_map<int64_t, std::string> m_nvtxDomains;
    std::map<std::pair<int64_t, int64_t>, std::string> m_nvtxCategories;

    // NVTX ranges projected onto the GPU streams (see projectNvtx()), and each kept range's name.
    RangeProjection m_projection;
    CorrLinkCounter m_links; // the trace's launch -> GPU op links, its flows
    std::vector<int64_t> m_nvtxRangeNames;
    int64_t m_catGpuAnnotation = 0;
    std::atomic<bool> m_stopLoading { false }; // abandons the loader thread's table (see run())
    std::vector<char> m_readAhead;
};

void NsysReader::checkIsNsight()
{
    for (auto &t : m_db.tables())
        m_tables.insert(std::move(t));
    bool eventTables = false;
    bool nsightTables = false;
    for (const auto &t : m_tables) {
        if (hasPrefix(t, "CUPTI_ACTIVITY_KIND_") || t == "NVTX_EVENTS" || t == "OSRT_API")
            eventTables = true;
        if (hasPrefix(t, "TARGET_INFO_") || hasPrefix(t, "META_DATA_") || t == "ThreadNames"
            || t == "ANALYSIS_DETAILS")
            nsightTables = true;
    }
    if (!m_tables.count("StringIds") || !(eventTables || nsightTables)) {
        QStringList some;
        for (const auto &t : m_tables) {
            if (some.size() == 5)
                break;
            some << QString::fromStdString(t);
        }
        const QString found = m_tables.empty()
            ? QStringLiteral("it has no tables")
            : QStringLiteral("its tables are %1%2")
                  .arg(some.join(QStringLiteral(", ")),
                      m_tables.size() > 5 ? QStringLiteral(", ...") : QString());
        throw ImportError(
            QStringLiteral("%1 is an SQLite database but not an Nsight Systems export: it has no "
                           "StringIds table and no CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or "
                           "TARGET_INFO_* tables (%2)")
                .arg(m_db.fileName(), found));
    }
    m_stringLookup = std::make_unique<ForeignSqliteDb::Stmt>(
        m_db, "SELECT value FROM StringIds WHERE id = ?", "StringIds");
}

bool NsysReader::hasColumns(const char *table, std::initializer_list<const char *> columns)
{
    if (!m_tables.count(table))
        return false;
    const auto cols = m_db.columns(table);
    return std::all_of(columns.begin(), columns.end(),
        [&](const char *c) { return std::find(cols.begin(), cols.end(), c) != cols.end(); });
}

std::string NsysReader::enumLabel(const char *table, int64_t id)
{
    if (!hasColumns(table, { "label" }))
        return {};
    ForeignSqliteDb::Stmt st(m_db, "SELECT label FROM " + quoteIdentifier(table) + " WHERE id = ?", table);
    st.bind(1, id);
    return st.step() ? std::string(st.text(0)) : std::string();
}

void NsysReader::readSessionInfo()
{
    if (hasColumns("TARGET_INFO_SESSION_START_TIME", { "utcEpochNs" })) {
        ForeignSqliteDb::Stmt st(
            m_db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_SESSION_START_TIME");
        if (st.step() && !st.isNull(0))
            m_sink.setBaseTimeNs(st.integer(0));
    }
    // The driver's event class, from the enum table when there is one (1 in every layout seen).
    m_driverClass[1] = true;
    if (m_tables.count("ENUM_NSYS_EVENT_CLASS")) {
        ForeignSqliteDb::Stmt st(m_db, "SELECT * FROM ENUM_NSYS_EVENT_CLASS", "ENUM_NSYS_EVENT_CLASS");
        int idCol = -1, nameCol = -1;
        for (int c = 0; c < st.columnCount(); ++c) {
            if (st.columnName(c) == "id")
                idCol = c;
            else if (st.columnName(c) == "name")
                nameCol = c;
        }
        if (idCol >= 0 && nameCol >= 0) {
            m_driverClass.clear();
            while (st.step())
                if (st.text(nameCol) == "TRACE_PROCESS_EVENT_CUDA_DRIVER")
                    m_driverClass[st.integer(idCol)] = true;
        }
    }
    for (size_t k = 0; k < m_copyKinds.size(); ++k)
        m_copyKinds[k] = copyKindText(int64_t(k));
    for (size_t k = 0; k < m_memKinds.size(); ++k) {
        const std::string label = enumLabel("ENUM_CUDA_MEM_KIND", int64_t(k));
        m_memKinds[k] = label.empty() ? memKindText(int64_t(k)) : label;
    }
}

// Every column of a row as compact JSON (names as the export spells them).
std::string rowJson(ForeignSqliteDb::Stmt &st)
{
    Args a;
    for (int c = 0; c < st.columnCount(); ++c) {
        switch (st.type(c)) {
        case SQLITE_INTEGER:
            a.add(st.columnName(c), st.integer(c));
            break;
        case SQLITE_FLOAT:
            a.addRaw(st.columnName(c), st.text(c));
            break; // as SQLite renders it
        case SQLITE_TEXT:
            a.add(st.columnName(c), st.text(c));
            break;
        default:
            break;
        }
    }
    return std::string(a.finish());
}

void NsysReader::readDevices()
{
    // TARGET_INFO_GPU (2021+): one row per GPU, `id` is the deviceId the activity tables use.
    // Older exports describe CUDA devices only (TARGET_INFO_CUDA_DEVICE, keyed by gpuId/cudaId).
    for (const char *table : { "TARGET_INFO_GPU", "TARGET_INFO_CUDA_DEVICE" }) {
        if (!m_tables.count(table))
            continue;
        ForeignSqliteDb::Stmt st(m_db, std::string("SELECT * FROM ") + table, table);
        int idCol = -1, nameCol = -1;
        for (int c = 0; c < st.columnCount(); ++c) {
            const std::string_view n = st.columnName(c);
            if (idCol < 0 && (n == "id" || n == "gpuId" || n == "cudaId"))
                idCol = c;
            if (n == "name")
                nameCol = c;
        }
        if (idCol < 0)
            continue;
        bool any = false;
        while (st.step()) {
            if (st.isNull(idCol))
                continue;
            const int64_t id = st.integer(idCol);
            const std::string name = nameCol >= 0 ? std::string(st.text(nameCol)) : std::string();
            m_sink.addDevice(id, QString::fromStdString(name), QByteArray::fromStdString(rowJson(st)));
            m_deviceNames[id] = name;
            any = true;
        }
        if (any)
            break;
    }
}

void NsysReader::readMetadata()
{
    if (!hasColumns("META_DATA_EXPORT", { "name", "value" }))
        return;
    ForeignSqliteDb::Stmt st(m_db, "SELECT name, value FROM META_DATA_EXPORT", "META_DATA_EXPORT");
    Args a;
    while (st.step())
        if (!st.isNull(0))
            a.add(st.text(0), st.text(1));
    const std::string_view json = a.finish();
    if (!json.empty())
        m_sink.setMetadataJson(QByteArray(json.data(), qsizetype(json.size())));
}

// Nsight Systems' own diagnostics (what its Diagnostics Summary lists): its warnings and errors become
// the source's warnings, each distinct message once. Its info messages (event counts, what was
// injected) are not copied.
void NsysReader::readNsysDiagnostics()
{
    if (!hasColumns("DIAGNOSTIC_EVENT", { "severity", "text" }))
        return;
    const bool hasSource = hasColumns("DIAGNOSTIC_EVENT", { "source" });
    // ENUM_DIAGNOSTIC_SEVERITY_LEVEL: 1 info, 2 warning, 3 error, 4 verbose.
    ForeignSqliteDb::Stmt st(m_db,
        std::string("SELECT severity, text, ") + (hasSource ? "source" : "NULL")
            + " FROM DIAGNOSTIC_EVENT WHERE severity IN (2, 3) ORDER BY rowid",
        "DIAGNOSTIC_EVENT");
    std::set<QString> seen;
    while (st.step()) {
        const std::string_view raw = st.text(1);
        const QString text = QString::fromUtf8(raw.data(), qsizetype(raw.size())).simplified();
        if (text.isEmpty() || !seen.insert(text).second)
            continue;
        const bool error = st.integer(0) == 3;
        const std::string from
            = st.isNull(2) ? std::string() : enumLabel("ENUM_DIAGNOSTIC_SOURCE_TYPE", st.integer(2));
        const QString kind = error ? QStringLiteral("error") : QStringLiteral("warning");
        m_diag.report(Severity::Warning, QStringLiteral("nsys-%1-%2").arg(kind).arg(seen.size()),
            QStringLiteral("table DIAGNOSTIC_EVENT"),
            QStringLiteral("Nsight Systems %1%2: %3")
                .arg(kind,
                    from.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(from)),
                    text));
    }
}

// What an export holds that this importer does not read: tables of events (CPU samples, thread
// scheduling, page faults, graph construction, ...), their rows counted as skipped; backtraces, said
// as info (they belong to events: OS runtime and CUDA calls, CPU samples). Tables that only name or
// describe things (strings, enums, target and session info) are not events and are not listed.
void NsysReader::reportUnreadTables()
{
    const Backtraces *const readBacktraces[] = { &m_sampleStacks, &m_osrtStacks, &m_cudaStacks };
    static const std::set<std::string_view> kLookups
        = { "StringIds", "ThreadNames", "PROCESSES", "ProcessStreams", "MPI_RANKS", "DIAGNOSTIC_EVENT",
              "NIC_ID_MAP", "PMU_EVENT_REQUESTS", "UCP_WORKERS" };
    static const std::string_view kLookupPrefixes[]
        = { "ENUM_", "TARGET_INFO_", "META_DATA_", "ANALYSIS_", "sqlite_", "NVTX_PAYLOAD_" };
    // What the common ones hold, for the message.
    static const std::pair<std::string_view, const char *> kContents[] = {
        { "SCHED_EVENTS", "thread scheduling" },
        { "CUDA_UM_", "unified memory page faults" },
        { "CUDA_GRAPH_", "CUDA graph construction" },
        { "CUDA_GPU_MEMORY_POOL_EVENTS", "GPU memory pool operations" },
        { "CUPTI_ACTIVITY_KIND_CUDA_EVENT", "CUDA event records" },
        { "OPENMP_", "OpenMP events" },
        { "OPENACC_", "OpenACC events" },
        { "NET_", "network metrics" },
        { "UCP_", "UCX calls" },
        { "NCCL_", "NCCL events" },
        { "OSRT_CALLCHAINS", "backtraces of OS runtime calls" },
        { "CUDA_CALLCHAINS", "backtraces of CUDA calls" },
        { "SAMPLING_CALLCHAINS", "backtraces of CPU samples" },
    };
    std::vector<std::string> tables(m_tables.begin(), m_tables.end());
    std::sort(tables.begin(), tables.end());
    QStringList events, backtraces;
    QString firstEvents, firstBacktraces; // the diagnostics' location
    int64_t eventRows = 0, backtraceRows = 0;
    for (const std::string &t : tables) {
        const std::string_view name = t;
        if (kLookups.count(name)
            || std::any_of(std::begin(kLookupPrefixes), std::end(kLookupPrefixes),
                [&](std::string_view p) { return hasPrefix(name, p); })
            || std::any_of(
                tableSpecs().begin(), tableSpecs().end(), [&](const TableSpec &s) { return name == s.table; })
            || std::any_of(std::begin(readBacktraces), std::end(readBacktraces),
                [&](const Backtraces *b) { return b->read && name == b->table; }))
            continue;
        // Exports never delete rows, so the rowid range is the row count, in two b-tree descents (a
        // count(*) reads every page: CPU samples of a long capture run to tens of millions of rows).
        // A table without rowids is counted; one that cannot be read is listed without a count.
        // (Each of max() and min() alone in its SELECT: SQLite answers those from the b-tree's ends.)
        const std::string q = quoteIdentifier(t);
        int64_t rows = -1;
        for (const std::string &sql : { "SELECT coalesce((SELECT max(rowid) FROM " + q
                     + ") - (SELECT min(rowid) FROM " + q + ") + 1, 0)",
                 "SELECT count(*) FROM " + q }) {
            try {
                ForeignSqliteDb::Stmt count(m_db, sql, t);
                if (count.step())
                    rows = count.integer(0);
                break;
            } catch (const ImportError &) {
            }
        }
        if (rows == 0)
            continue;
        const char *what = nullptr;
        for (const auto &[prefix, contents] : kContents)
            if (hasPrefix(name, prefix))
                what = contents;
        QStringList about;
        if (rows > 0)
            about << QStringLiteral("%1 %2").arg(
                text::count(rows), rows == 1 ? QStringLiteral("row") : QStringLiteral("rows"));
        if (what)
            about << QLatin1String(what);
        const QString entry = QString::fromStdString(t)
            + (about.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(about.join(QStringLiteral(": "))));
        const bool isBacktraces = name.size() > 11 && name.substr(name.size() - 11) == "_CALLCHAINS";
        (isBacktraces ? backtraces : events) << entry;
        QString &first = isBacktraces ? firstBacktraces : firstEvents;
        if (first.isEmpty())
            first = QStringLiteral("table %1").arg(QString::fromStdString(t));
        (isBacktraces ? backtraceRows : eventRows) += std::max<int64_t>(rows, 0);
    }
    if (!events.isEmpty()) {
        const QString message
            = QStringLiteral("Not imported: %1. Plumb does not read these tables; their rows are "
                             "counted as skipped.")
                  .arg(events.join(QStringLiteral(", ")));
        if (eventRows > 0)
            m_diag.skipped(QStringLiteral("nsys-tables-not-imported"), firstEvents, message, eventRows);
        else
            m_diag.report(
                Severity::Warning, QStringLiteral("nsys-tables-not-imported"), firstEvents, message);
    }
    if (!backtraces.isEmpty())
        m_diag.report(Severity::Info, QStringLiteral("nsys-backtraces-not-imported"), firstBacktraces,
            QStringLiteral("Backtraces are not imported: %1.").arg(backtraces.join(QStringLiteral(", "))),
            std::max<int64_t>(backtraceRows, 1));
}

void NsysReader::openCursors()
{
    std::array<size_t, 4> phaseBudget;
    phaseBudget.fill(kSortMemoryBudget);
    for (const TableSpec &spec : tableSpecs()) {
        if (!m_tables.count(spec.table))
            continue;
        const auto cols = m_db.columns(spec.table);
        auto cursor = std::make_unique<Cursor>();
        cursor->spec = &spec;
        cursor->col.fill(-1);
        std::vector<SortedTableReader::Column> select;
        std::array<const char *, FieldCount> chosen {}; // the column read for each field
        for (const F f : spec.fields) {
            // A backtrace id is read only when there are backtraces to look it up in (see run()).
            if (f == CallchainId
                && !hasCallchains((spec.source == Source::Osrt ? m_osrtStacks : m_cudaStacks).table))
                continue;
            for (const FieldSpec &fs : fieldSpecs()) {
                if (fs.field != f)
                    continue;
                for (const char *cand : fs.candidates) {
                    if (!cand || std::find(cols.begin(), cols.end(), cand) == cols.end())
                        continue;
                    cursor->col[f] = int(select.size());
                    chosen[f] = cand;
                    // GPU metric samples: nsys writes integers, but the column may hold fractions.
                    select.push_back({ quoteIdentifier(cand), f == Text || f == JsonText,
                        (f == Value && spec.source == Source::Metric) || f == PayloadDouble
                            || f == PayloadFloat });
                    break;
                }
            }
        }
        // Exports of 2021 and before declared every column NOT NULL and wrote a default where a value
        // was missing: an NVTX mark's end 0, no payload as 0 in each of the six value columns, a
        // registered string's text ''. There, those defaults read as missing (a payload of exactly 0
        // is not told from none).
        if (spec.source == Source::Nvtx) {
            const auto notNull = m_db.notNullColumns(spec.table);
            for (const F f : { End, Text, TextId, PayloadInt, PayloadUint, PayloadInt32, PayloadUint32,
                     PayloadDouble, PayloadFloat, JsonText })
                if (chosen[f] && std::find(notNull.begin(), notNull.end(), chosen[f]) != notNull.end())
                    cursor->defaultIsNone[f] = true;
        }
        QStringList missing;
        for (const F f : spec.required)
            if (cursor->col[f] < 0)
                for (const FieldSpec &fs : fieldSpecs())
                    if (fs.field == f)
                        missing << QString::fromLatin1(fs.candidates[0]);
        if (!missing.isEmpty()) {
            m_diag.report(Severity::Warning, QStringLiteral("unknown-table-layout"),
                QStringLiteral("table %1").arg(QString::fromLatin1(spec.table)),
                QStringLiteral("Table %1 lacks the columns %2; it was not imported.")
                    .arg(QString::fromLatin1(spec.table), missing.join(QStringLiteral(", "))));
            continue;
        }
        // Exports never delete rows, so the last rowid is the row count (and costs one b-tree descent
        // where count(*) reads the whole table): for progress and the in-memory sort's budget.
        int64_t rows = 0;
        {
            ForeignSqliteDb::Stmt count(
                m_db, "SELECT max(rowid) FROM " + quoteIdentifier(spec.table), spec.table);
            if (count.step())
                rows = count.integer(0);
        }
        m_totalRows += rows;
        if (spec.source == Source::Runtime)
            m_projection = RangeProjection(rows); // sized for the calls, before any row is read
        // Ties: longer first, so an enclosing range arrives before what it encloses.
        std::vector<int> ascending;
        for (const F g : { spec.group1, spec.group2 })
            if (g != FieldCount && cursor->col[g] >= 0)
                ascending.push_back(cursor->col[g]);
        ascending.push_back(cursor->col[Start]);
        size_t &budget = phaseBudget[size_t(spec.phase)];
        const size_t bytes
            = size_t(std::max<int64_t>(rows, 0)) * SortedTableReader::bytesPerRow(select.size());
        // A table that fits what the phase has left is sorted in memory; a larger one in runs, with half
        // of it (the rest for the phase's other tables).
        const bool fits = bytes <= budget;
        const size_t tableBudget = fits ? budget : budget / 2;
        budget -= fits ? bytes : tableBudget;
        // A large table is read in parts, rowid ranges merged like tables of their own, each loaded on a
        // connection and thread of its own (see run()) with its share of the budget: the read and sort
        // that the writer waits for before a phase's first row take a fraction of the time. Up to two
        // parts a loader thread: the loaders get the cores the writer and the merge leave, unevenly, and
        // the part loaded last ran alone on one core while everything else waited for it (0.1 s of a
        // 1M-row import; 0.96x the wall time in paired runs).
        const int64_t parts = std::clamp<int64_t>(rows / kMinPartRows, 1, 2 * loaderThreads());
        for (int64_t part = 0; part < parts; ++part) {
            auto partCursor = std::make_unique<Cursor>();
            partCursor->spec = cursor->spec;
            partCursor->col = cursor->col;
            partCursor->defaultIsNone = cursor->defaultIsNone;
            std::string where;
            if (parts > 1) {
                const int64_t lo = rows * part / parts;
                const int64_t hi = rows * (part + 1) / parts;
                where = part == 0 ? "rowid <= " + std::to_string(hi)
                    : part + 1 == parts
                    ? "rowid > " + std::to_string(lo)
                    : "rowid > " + std::to_string(lo) + " AND rowid <= " + std::to_string(hi);
            }
            // Prepared now (a bad layout fails before anything is written).
            partCursor->st = std::make_unique<SortedTableReader>(
                std::make_unique<ForeignSqliteDb>(m_ctx.input().path()), spec.table, select, ascending,
                cursor->col[End], rows / parts + 1, tableBudget / size_t(parts),
                [this] {
                    if (m_stopLoading.load(std::memory_order_relaxed))
                        throw ImportCancelled();
                },
                where);
            m_cursors.push_back(std::move(partCursor));
        }
    }
}

// Correlation ids are counted per process: with several CUDA processes in one export the same id
// names different launches, so slice.corr gets the pid in its high bits. Known by the time the
// runtime calls (the first table that links) are merged: the scan, a whole table's when one process
// made every call, runs on a connection of its own while the first phases load.
std::future<bool> NsysReader::startCorrScope()
{
    if (!hasColumns("CUPTI_ACTIVITY_KIND_RUNTIME", { "globalTid" }))
        return {};
    return std::async(std::launch::async, [path = m_ctx.input().path()] {
        ForeignSqliteDb db(path);
        // Stops at the first call from a second process.
        ForeignSqliteDb::Stmt st(db,
            "SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid >> 24 <> "
            "(SELECT globalTid >> 24 FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid IS NOT NULL "
            "LIMIT 1) LIMIT 1",
            "CUPTI_ACTIVITY_KIND_RUNTIME");
        return st.step();
    });
}

void NsysReader::setCorrScope(bool perProcess)
{
    m_corrPerProcess = perProcess;
    if (m_corrPerProcess)
        m_diag.report(Severity::Info, QStringLiteral("corr-per-process"), {},
            QStringLiteral("Several processes made CUDA calls: correlation ids are stored as "
                           "pid << 32 | correlationId so each launch links to its own GPU work."));
}

std::string_view NsysReader::lookupString(int64_t id)
{
    m_stringLookup->reset();
    m_stringLookup->bind(1, id);
    if (m_stringLookup->step()) {
        m_stringScratch.assign(m_stringLookup->text(0));
    } else {
        m_stringScratch = "[string " + std::to_string(id) + "]";
        m_diag.report(Severity::Warning, QStringLiteral("unknown-string-id"),
            QStringLiteral("StringIds id %1").arg(id),
            QStringLiteral("A name refers to a StringIds id that the export does not have; it is shown "
                           "as [string N]."));
    }
    return m_stringScratch;
}

int64_t NsysReader::nameOf(int64_t stringId)
{
    auto it = m_names.find(stringId);
    if (it != m_names.end())
        return it->second;
    const int64_t id = m_sink.intern(lookupString(stringId));
    m_names.emplace(stringId, id);
    return id;
}

int64_t NsysReader::apiNameOf(int64_t stringId)
{
    auto it = m_apiNames.find(stringId);
    if (it != m_apiNames.end())
        return it->second;
    const int64_t id = m_sink.intern(stripVersionSuffix(lookupString(stringId)));
    m_apiNames.emplace(stringId, id);
    return id;
}

int64_t NsysReader::hostProcess(int64_t pid, int64_t globalPid)
{
    auto it = m_processes.find(pid);
    if (it != m_processes.end())
        return it->second;
    const int64_t process = m_sink.process(std::to_string(pid));
    m_processes.emplace(pid, process);
    std::string name;
    if (hasColumns("PROCESSES", { "name" })) {
        // Looked up by globalPid where the layout has it, else by pid (for every process, not only the
        // first).
        const bool byGlobal = hasColumns("PROCESSES", { "globalPid" });
        if (!m_processNameLookup)
            m_processNameLookup = std::make_unique<ForeignSqliteDb::Stmt>(m_db,
                byGlobal ? "SELECT name FROM PROCESSES WHERE globalPid = ?1"
                         : "SELECT name FROM PROCESSES WHERE pid = ?1",
                "PROCESSES");
        m_processNameLookup->reset();
        m_processNameLookup->bind(1, byGlobal ? globalPid : pid);
        if (m_processNameLookup->step() && !m_processNameLookup->isNull(0))
            name = std::string(m_processNameLookup->text(0));
    }
    if (auto rank = m_processRanks.find(pid); rank != m_processRanks.end())
        name
            = (name.empty() ? std::string("process") : name) + " [rank " + std::to_string(rank->second) + "]";
    if (!name.empty())
        m_sink.setProcessName(process, name);
    return process;
}

NsysReader::ThreadTracks &NsysReader::threadTracks(int64_t globalTid)
{
    auto it = m_threads.find(globalTid);
    if (it != m_threads.end())
        return it->second;
    const int64_t pid = pidOf(globalTid);
    const int64_t process = hostProcess(pid, globalTid & ~int64_t(0xffffff));
    ThreadTracks t;
    t.thread = m_sink.thread(process, std::to_string(tidOf(globalTid)));
    if (m_tables.count("ThreadNames")) {
        if (!m_threadNameLookup)
            m_threadNameLookup = std::make_unique<ForeignSqliteDb::Stmt>(
                m_db, "SELECT nameId FROM ThreadNames WHERE globalTid = ? LIMIT 1", "ThreadNames");
        m_threadNameLookup->reset();
        m_threadNameLookup->bind(1, globalTid);
        if (m_threadNameLookup->step() && !m_threadNameLookup->isNull(0)) {
            const int64_t nameId = m_threadNameLookup->integer(0);
            m_sink.setTrackName(t.thread, lookupString(nameId));
        }
    }
    return m_threads.emplace(globalTid, t).first->second;
}

int64_t NsysReader::gpuProcess(int64_t device)
{
    auto it = m_gpuProcesses.find(device);
    if (it != m_gpuProcesses.end())
        return it->second;
    const std::string label = "GPU " + std::to_string(device);
    const int64_t process = m_sink.process(label);
    m_sink.setProcessKind(process, ProcessKind::Gpu, device);
    m_sink.setProcessLabels(process, label);
    auto name = m_deviceNames.find(device);
    m_sink.setProcessName(
        process, name != m_deviceNames.end() && !name->second.empty() ? label + ": " + name->second : label);
    // Below the host processes (a device id from the file may be anything: clamped, not overflowed).
    m_sink.setProcessSortIndex(process, 1000000 + std::clamp<int64_t>(device, 0, INT32_MAX));
    m_gpuProcesses.emplace(device, process);
    return process;
}

int64_t NsysReader::streamTrack(int64_t device, int64_t stream)
{
    const int64_t key = (device << 32) | (stream & 0xffffffff);
    auto it = m_streamTracks.find(key);
    if (it != m_streamTracks.end())
        return it->second;
    const std::string label = "stream " + std::to_string(stream);
    const int64_t track = m_sink.thread(gpuProcess(device), label);
    m_sink.setTrackGpuStream(track, stream);
    m_sink.setTrackName(track, "Stream " + std::to_string(stream));
    m_streamTracks.emplace(key, track);
    return track;
}

int64_t NsysReader::syncTrack(int64_t device, int64_t stream)
{
    const int64_t key = (device << 32) | (stream & 0xffffffff);
    auto it = m_syncTracks.find(key);
    if (it != m_syncTracks.end())
        return it->second;
    // Host-side waits: kept off the stream tracks, whose kernels they would overlap.
    const bool noStream = stream == kInvalidStream || stream < 0;
    const std::string label = noStream ? std::string("sync") : "stream " + std::to_string(stream) + " sync";
    const int64_t track = m_sink.thread(gpuProcess(device), label);
    m_sink.setTrackName(track,
        noStream ? std::string("CUDA synchronisation")
                 : "Stream " + std::to_string(stream) + " synchronisation");
    m_sink.setTrackStream(track, noStream ? -1 : stream);
    m_syncTracks.emplace(key, track);
    return track;
}

int64_t NsysReader::corrOf(const Cursor &c, F pidField)
{
    const int64_t corr = get(c, Corr);
    if (corr == kNoValue || !m_corrPerProcess)
        return corr;
    const int64_t g = get(c, pidField);
    return g == kNoValue ? corr : (pidOf(g) << 32) | (corr & 0xffffffff);
}

void NsysReader::progress()
{
    ++m_ctx.recordsRead;
    ++m_sink.stats().events;
    if (++m_rows % kCheckpointRows)
        return;
    // Read the file along with the rows: the runner's progress follows the input offset, and the
    // content hash it computes afterwards needs these bytes anyway.
    InputFile &in = m_ctx.input();
    const int64_t target
        = m_totalRows > 0 ? int64_t(double(m_rows) / double(m_totalRows) * double(in.size())) : 0;
    m_readAhead.resize(kReadAheadBytes);
    while (in.compressedOffset() < target)
        if (in.read(m_readAhead.data(), int64_t(m_readAhead.size())) <= 0)
            break;
    m_ctx.checkpoint();
}

bool NsysReader::isDefault(const Cursor &c, F f) const
{
    const int i = c.col[f];
    switch (f) {
    case Text:
    case JsonText:
        return c.st->text(i).empty();
    case PayloadDouble:
    case PayloadFloat:
        return c.st->real(i) == 0;
    default:
        return c.st->integer(i) == 0;
    }
}

void NsysReader::loadKey(Cursor &c)
{
    // NULL sorts first in SQLite, as INT64_MIN does here.
    auto key = [&c](F f) {
        const int i = f == FieldCount ? -1 : c.col[f];
        return i < 0 || c.st->isNull(i) ? INT64_MIN : c.st->integer(i);
    };
    c.group1 = key(c.spec->group1);
    c.group2 = key(c.spec->group2);
    c.start = key(Start);
    c.end = key(End);
}

void NsysReader::handleRuntime(Cursor &c, SliceFields &f)
{
    const int64_t nameId = get(c, NameId, 0);
    f.nameId = apiNameOf(nameId);
    bool driver = false;
    if (has(c, EventClass)) {
        driver = m_driverClass.count(get(c, EventClass, -1)) != 0;
    } else {
        // No event class (older layouts): the driver API is the cu* functions.
        auto it = m_driverByName.find(nameId);
        if (it == m_driverByName.end()) {
            const std::string_view name = lookupString(nameId);
            it = m_driverByName.emplace(nameId, hasPrefix(name, "cu") && !hasPrefix(name, "cuda")).first;
        }
        driver = it->second;
    }
    f.catId = driver ? m_catDriver : m_catRuntime;
    f.corr = corrOf(c, GlobalTid);
    if (const int64_t ret = get(c, ReturnValue, 0); ret != 0)
        m_args.add("return value", ret);
    addBacktrace(m_cudaStacks, c);
    if (const std::string_view json = m_args.finish(); !json.empty())
        f.argsId = m_sink.internArgs(json);
    if (f.corr != kNoValue) {
        m_projection.addLaunch(f.corr, get(c, GlobalTid, 0), f.tsNs);
        m_links.addLaunch(f.corr);
    }
    ThreadTracks &t = threadTracks(get(c, GlobalTid, 0));
    if (t.api == kNoValue)
        t.api = m_sink.companionTrack(t.thread, TrackKind::CudaApi);
    m_sink.addSlice(t.api, f);
}

void NsysReader::handleGpu(Cursor &c, SliceFields &f)
{
    const Source source = c.spec->source;
    const int64_t device = get(c, Device, 0);
    const int64_t stream = get(c, Stream, 0);
    const int64_t context = has(c, Context) ? get(c, Context, 0) : kNoValue;
    f.corr = corrOf(c, GlobalPid);

    // Every value the name and args are made of (kNoValue: not in the table): rows that agree on
    // them get the same name and args, without building and hashing the JSON again.
    GpuKey key;
    key.fill(kNoValue);
    key[0] = int64_t(source);
    key[1] = device;
    key[2] = context;
    key[3] = stream;
    int64_t demangled = kNoValue, shortName = kNoValue;
    switch (source) {
    case Source::Kernel:
        demangled = get(c, Demangled);
        shortName = get(c, Short);
        if (has(c, GridX)) {
            key[4] = get(c, GridX, 0);
            key[5] = get(c, GridY, 1);
            key[6] = get(c, GridZ, 1);
        }
        if (has(c, BlockX)) {
            key[7] = get(c, BlockX, 0);
            key[8] = get(c, BlockY, 1);
            key[9] = get(c, BlockZ, 1);
        }
        if (has(c, Registers))
            key[10] = get(c, Registers, 0);
        if (has(c, StaticSmem) || has(c, DynamicSmem)) {
            key[11] = get(c, StaticSmem, 0);
            key[12] = get(c, DynamicSmem, 0);
        }
        if (shortName != kNoValue && demangled != kNoValue)
            key[13] = shortName;
        break;
    case Source::Memcpy:
        key[4] = get(c, CopyKind, 0);
        key[5] = get(c, SrcKind);
        key[6] = get(c, DstKind);
        key[7] = get(c, Bytes, 0);
        break;
    case Source::Graph:
        key[4] = get(c, GraphId);
        key[5] = get(c, GraphExecId);
        break;
    case Source::Memset:
        key[4] = get(c, MemKind);
        key[5] = get(c, Bytes, 0);
        if (has(c, Value))
            key[6] = get(c, Value, 0);
        break;
    default:
        break;
    }

    auto cached = m_gpuNames.find(key);
    if (cached == m_gpuNames.end()) {
        if (m_gpuNames.size() >= kMaxGpuKeys)
            m_gpuNames.clear();
        cached = m_gpuNames.emplace(key, gpuNameAndArgs(key)).first;
    }
    f.nameId = source == Source::Kernel ? nameOf(demangled != kNoValue ? demangled
                       : shortName != kNoValue                         ? shortName
                                                                       : 0)
                                        : cached->second.nameId;
    f.argsId = cached->second.argsId;
    if (source == Source::Kernel) {
        f.catId = m_catKernel;
        ++m_sink.stats().kernels;
    } else if (source == Source::Graph) {
        f.catId = m_catGraph;
        ++m_graphLaunches;
    } else {
        f.catId = source == Source::Memcpy ? m_catMemcpy : m_catMemset;
    }
    ++m_sink.stats().gpuOps;
    const int64_t track = streamTrack(device, stream);
    if (f.corr != kNoValue) {
        m_projection.addOp(f.corr, track, f.tsNs, f.tsNs + f.durNs);
        m_links.addOp(f.corr);
    }
    m_sink.addSlice(track, f);
}

NsysReader::GpuNames NsysReader::gpuNameAndArgs(const GpuKey &key)
{
    GpuNames out;
    m_args.clear();
    m_args.add("device", key[1]);
    if (key[2] != kNoValue)
        m_args.add("context", key[2]);
    m_args.add("stream", key[3]);
    switch (Source(key[0])) {
    case Source::Kernel: {
        if (key[4] != kNoValue)
            m_args.add3("grid", key[4], key[5], key[6]);
        if (key[7] != kNoValue)
            m_args.add3("block", key[7], key[8], key[9]);
        if (key[10] != kNoValue)
            m_args.add("registers per thread", key[10]);
        if (key[11] != kNoValue) {
            m_args.add("shared memory", key[11] + key[12]);
            m_args.add("static shared memory", key[11]);
            m_args.add("dynamic shared memory", key[12]);
        }
        if (const int64_t shortName = key[13]; shortName != kNoValue) {
            auto it = m_shortNames.find(shortName);
            if (it == m_shortNames.end())
                it = m_shortNames.emplace(shortName, std::string(lookupString(shortName))).first;
            m_args.add("short name", it->second);
        }
        break;
    }
    case Source::Memcpy: {
        const int64_t kind = key[4];
        const std::string_view kindText = kind >= 0 && kind < int64_t(m_copyKinds.size())
            ? std::string_view(m_copyKinds[size_t(kind)])
            : std::string_view("Unknown");
        const int64_t src = key[5], dst = key[6];
        auto memKind = [this](int64_t k) {
            return k >= 0 && k < int64_t(m_memKinds.size()) ? std::string_view(m_memKinds[size_t(k)])
                                                            : std::string_view("Unknown");
        };
        // Named as Kineto names them: "Memcpy HtoD (Pageable -> Device)".
        std::string name = "Memcpy ";
        name += kindText;
        if (src != kNoValue && dst != kNoValue) {
            name += " (";
            name += memKind(src);
            name += " -> ";
            name += memKind(dst);
            name += ')';
        }
        out.nameId = m_sink.intern(name);
        m_args.add("bytes", key[7]);
        m_args.add("copyKind", kindText);
        if (src != kNoValue)
            m_args.add("srcKind", memKind(src));
        if (dst != kNoValue)
            m_args.add("dstKind", memKind(dst));
        break;
    }
    case Source::Graph: {
        // Named by its graph, as Nsight Systems' timeline labels a whole-graph range.
        out.nameId = m_sink.intern(
            key[4] == kNoValue ? std::string("CUDA graph") : "CUDA graph " + std::to_string(key[4]));
        if (key[4] != kNoValue)
            m_args.add("graph id", key[4]);
        if (key[5] != kNoValue)
            m_args.add("graph exec id", key[5]);
        break;
    }
    case Source::Memset: {
        const int64_t kind = key[4];
        std::string name = "Memset";
        if (kind != kNoValue) {
            name += " (";
            name += kind >= 0 && kind < int64_t(m_memKinds.size()) ? m_memKinds[size_t(kind)]
                                                                   : std::string("Unknown");
            name += ')';
        }
        out.nameId = m_sink.intern(name);
        m_args.add("bytes", key[5]);
        if (key[6] != kNoValue)
            m_args.add("value", key[6]);
        break;
    }
    default:
        break;
    }
    out.argsId = m_sink.internArgs(m_args.finish());
    return out;
}

void NsysReader::handleSync(Cursor &c, SliceFields &f)
{
    const int64_t device = get(c, Device, 0);
    const int64_t stream = get(c, Stream, kInvalidStream);
    f.nameId = m_sink.intern(syncName(get(c, SyncType, 0)));
    f.catId = m_catSync;
    f.corr = corrOf(c, GlobalPid);
    m_args.add("device", device);
    if (stream != kInvalidStream)
        m_args.add("stream", stream);
    f.argsId = m_sink.internArgs(m_args.finish());
    if (f.corr != kNoValue)
        m_links.addOp(f.corr);
    m_sink.addSlice(syncTrack(device, stream), f);
}

void NsysReader::handleNvtx(Cursor &c, SliceFields &f)
{
    const int64_t type = get(c, EventType, kNoValue);
    const bool hasEnd = !isNull(c, End);
    if (type != kNoValue && !isNvtxMark(type) && !isNvtxRange(type)) {
        ++m_nvtxSkipped; // domain, category and thread naming records: not events
        return;
    }
    if (type != kNoValue && isNvtxMark(type))
        f.durNs = 0;
    else if (!hasEnd) {
        f.durNs = 0;
        if (type != kNoValue)
            m_diag.report(Severity::Warning, QStringLiteral("unterminated-nvtx-range"),
                QStringLiteral("NVTX_EVENTS start %1").arg(f.tsNs),
                QStringLiteral("An NVTX range has no end (the capture stopped inside it); it was "
                               "imported with duration 0."));
    }
    if (!isNull(c, Text))
        f.nameId = m_sink.intern(c.st->text(c.col[Text]));
    else if (get(c, TextId) != kNoValue)
        f.nameId = nameOf(get(c, TextId));
    else
        f.nameId = m_sink.intern("[unnamed NVTX range]");
    f.catId = m_catNvtx;
    // Where it came from (a library's own domain, NCCL's say, or the default one) and what it carries.
    const int64_t domain = get(c, Domain, 0);
    if (domain != 0) {
        const auto name = m_nvtxDomains.find(domain);
        if (name != m_nvtxDomains.end())
            m_args.add("domain", std::string_view(name->second));
        else
            m_args.add("domain", domain);
    }
    if (const int64_t category = get(c, NvtxCategory, 0); category != 0) {
        const auto name = m_nvtxCategories.find({ domain, category });
        if (name != m_nvtxCategories.end())
            m_args.add("category", std::string_view(name->second));
        else
            m_args.add("category", category);
    }
    // The payload: the one value column its type filled (the first, should a row fill several).
    for (const F p :
        { PayloadInt, PayloadUint, PayloadInt32, PayloadUint32, PayloadDouble, PayloadFloat, JsonText }) {
        if (isNull(c, p))
            continue;
        if (p == PayloadDouble)
            m_args.addReal("payload", c.st->real(c.col[p]));
        else if (p == PayloadFloat)
            m_args.addReal("payload", float(c.st->real(c.col[p])));
        else if (p == JsonText)
            m_args.add("payload", c.st->text(c.col[p]));
        else
            m_args.add("payload", c.st->integer(c.col[p]));
        break;
    }
    f.argsId = m_sink.internArgs(m_args.finish());
    if (m_projection.addRange(get(c, GlobalTid, 0), f.tsNs, f.tsNs + f.durNs) >= 0)
        m_nvtxRangeNames.push_back(f.nameId);
    m_sink.addSlice(threadTracks(get(c, GlobalTid, 0)).thread, f);
}

// NVTX ranges projected onto the GPU, as Nsight Systems' timeline shows them under each stream: on a
// stream's annotation track, each range spans the GPU ops launched by the CUDA calls made inside it
// (from the first one's start to the last one's end), for every range around those calls, so the
// nesting of the host's ranges carries over.
void NsysReader::projectNvtx()
{
    std::unordered_map<int64_t, int64_t> annotationTracks; // stream track -> its annotation track
    for (const RangeProjection::Span &p : m_projection.spans()) {
        auto [t, added] = annotationTracks.try_emplace(p.lane, 0);
        if (added)
            t->second = m_sink.companionTrack(p.lane, TrackKind::GpuAnnotation);
        SliceFields f;
        f.tsNs = p.start;
        f.durNs = p.end - p.start;
        f.nameId = m_nvtxRangeNames[size_t(p.range)];
        f.catId = m_catGpuAnnotation;
        m_args.clear();
        m_args.add("GPU ops", p.ops);
        f.argsId = m_sink.internArgs(m_args.finish());
        m_sink.addSlice(t->second, f);
    }
}

// NVTX names its domains and categories with records of their own (nvtxDomainCreate,
// nvtxDomainNameCategory), which may come from another thread than the ranges that use them, so they
// are read before the ranges: on a connection of their own while the first phase loads (a scan of the
// whole NVTX table).
std::future<std::vector<NsysReader::NvtxName>> NsysReader::startNvtxNames()
{
    if (!hasColumns("NVTX_EVENTS", { "eventType", "domainId", "text" }))
        return {};
    const std::string sql = std::string("SELECT eventType, domainId, ")
        + (hasColumns("NVTX_EVENTS", { "category" }) ? "category" : "0") + ", text, "
        + (hasColumns("NVTX_EVENTS", { "textId" }) ? "textId" : "NULL")
        + " FROM NVTX_EVENTS WHERE eventType IN (" + std::to_string(kNvtxCategoryName) + ", "
        + std::to_string(kNvtxDomainCreate) + ")";
    return std::async(std::launch::async, [path = m_ctx.input().path(), sql] {
        ForeignSqliteDb db(path);
        ForeignSqliteDb::Stmt st(db, sql, "NVTX_EVENTS");
        std::vector<NvtxName> names;
        while (st.step())
            names.push_back(
                { st.integer(0), st.integer(1), st.integer(2), st.isNull(4) ? kNoValue : st.integer(4),
                    std::string(st.isNull(3) ? std::string_view() : st.text(3)) });
        return names;
    });
}

void NsysReader::setNvtxNames(std::vector<NvtxName> names)
{
    for (NvtxName &n : names) {
        std::string name = !n.text.empty() || n.textId == kNoValue ? std::move(n.text)
                                                                   : std::string(lookupString(n.textId));
        if (name.empty())
            continue;
        if (n.type == kNvtxDomainCreate)
            m_nvtxDomains[n.domain] = std::move(name);
        else
            m_nvtxCategories[{ n.domain, n.category }] = std::move(name);
    }
}

void NsysReader::readGpuMetricNames()
{
    if (!hasColumns("TARGET_INFO_GPU_METRICS", { "metricId", "metricName" }))
        return; // the samples are then named by their ids
    const bool typed = hasColumns("TARGET_INFO_GPU_METRICS", { "typeId" });
    ForeignSqliteDb::Stmt st(m_db,
        std::string("SELECT ") + (typed ? "typeId" : "0") + ", metricId, metricName, "
            + (hasColumns("TARGET_INFO_GPU_METRICS", { "typeName" }) ? "typeName" : "NULL")
            + " FROM TARGET_INFO_GPU_METRICS",
        "TARGET_INFO_GPU_METRICS");
    while (st.step()) {
        const int64_t type = st.integer(0);
        m_metricNames[{ typed ? type : kNoValue, st.integer(1) }] = std::string(st.text(2));
        if (!st.isNull(3))
            m_metricTypeNames.emplace(type, std::string(st.text(3)));
    }
}

// An MPI job traced with nsys --trace=mpi maps its threads to MPI ranks. An export of one rank is that
// rank's trace (a folder of them imports as one multi-rank run, without the rank guessed from the
// file name); a report of several ranks at once labels each process with its rank.
void NsysReader::readMpiRanks()
{
    if (!hasColumns("MPI_RANKS", { "globalTid", "rank" }))
        return;
    ForeignSqliteDb::Stmt st(
        m_db, "SELECT DISTINCT globalTid, rank FROM MPI_RANKS WHERE rank IS NOT NULL", "MPI_RANKS");
    std::map<int64_t, int64_t> ranks;
    std::set<int64_t> distinct;
    while (st.step()) {
        ranks[pidOf(st.integer(0))] = st.integer(1);
        distinct.insert(st.integer(1));
    }
    if (distinct.size() == 1)
        m_sink.setRank(*distinct.begin(), kNoValue);
    else
        m_processRanks = std::move(ranks);
}

void NsysReader::handleMetric(Cursor &c)
{
    const int64_t type = get(c, TypeId, 0);
    const int64_t metric = get(c, MetricId, 0);
    auto track = m_metricTracks.find({ type, metric });
    if (track == m_metricTracks.end()) {
        auto process = m_metricProcesses.find(type);
        if (process == m_metricProcesses.end()) {
            // One process per sampled GPU, below the GPUs' own rows, labelled by its name (shown alone;
            // numbered when two samplers share a name, as the GPUs of one model do).
            auto typeName = m_metricTypeNames.find(type);
            const std::string base = typeName != m_metricTypeNames.end() && !typeName->second.empty()
                ? "GPU metrics: " + typeName->second
                : std::string("GPU metrics");
            std::string name = base;
            for (int n = 2; m_metricProcessNames.count(name); ++n)
                name = base + " (" + std::to_string(n) + ")";
            m_metricProcessNames.insert(name);
            const int64_t id = m_sink.process(name);
            m_sink.setProcessName(id, name);
            m_sink.setProcessKind(id, ProcessKind::Other);
            m_sink.setProcessSortIndex(id, 2000000 + int64_t(m_metricProcesses.size()));
            process = m_metricProcesses.emplace(type, id).first;
        }
        auto name = m_metricNames.find({ type, metric });
        if (name == m_metricNames.end())
            name = m_metricNames.find({ kNoValue, metric });
        const std::string metricName
            = name != m_metricNames.end() ? name->second : "metric " + std::to_string(metric);
        track = m_metricTracks
                    .emplace(std::make_pair(type, metric), m_sink.counterTrack(process->second, metricName))
                    .first;
    }
    m_sink.addCounter(track->second, c.start, isNull(c, Value) ? 0.0 : c.st->real(c.col[Value]));
}

void NsysReader::handleOsrt(Cursor &c, SliceFields &f)
{
    f.nameId = nameOf(get(c, NameId, 0));
    f.catId = m_catOsrt;
    if (const int64_t ret = get(c, ReturnValue, 0); ret != 0)
        m_args.add("return value", ret);
    addBacktrace(m_osrtStacks, c);
    if (const std::string_view json = m_args.finish(); !json.empty())
        f.argsId = m_sink.internArgs(json);
    m_sink.addSlice(threadTracks(get(c, GlobalTid, 0)).thread, f);
}

void NsysReader::handleHostCall(Cursor &c, SliceFields &f)
{
    // Named as Nsight Systems shows them: cuBLAS's "cublasSgemm_v2" is the function's real name.
    f.nameId = nameOf(has(c, NameId) ? get(c, NameId, 0) : get(c, TextId, 0));
    f.catId = m_sink.intern(c.spec->category); // the sink's string table caches it
    if (const int64_t ret = get(c, ReturnValue, 0); ret != 0)
        m_args.add("return value", ret);
    for (const auto &[field, key] : { std::pair { MessageSize, "bytes" },
             std::pair { ReceiveSize, "bytes received" }, std::pair { Tag, "tag" },
             std::pair { RemoteRank, "peer rank" }, std::pair { RootRank, "root rank" } })
        if (!isNull(c, field))
            m_args.add(key, get(c, field));
    if (const std::string_view json = m_args.finish(); !json.empty())
        f.argsId = m_sink.internArgs(json);
    m_sink.addSlice(threadTracks(get(c, GlobalTid, 0)).thread, f);
}

// A CPU sample is an instant on its thread's "CPU samples" row, named by the function the thread was
// in (the backtrace's leaf; where nsys could not resolve it, its module in brackets, as perf names
// it, so that such samples add up by library), the backtrace in its args; one without a backtrace is
// "[no backtrace]".
void NsysReader::handleCpuSample(Cursor &c, SliceFields &f)
{
    ThreadTracks &t = threadTracks(get(c, GlobalTid, 0));
    if (t.samples == kNoValue)
        t.samples = m_sink.companionTrack(t.thread, TrackKind::CpuSamples);
    f.durNs = 0;
    f.catId = m_catCpuSample;
    const uint32_t stackIndex = m_sampleStacks.chains.find(get(c, SampleId, kNoValue));
    if (stackIndex == Callchains::kNone) {
        f.nameId = m_sink.intern("[no backtrace]"); // the sink's string table caches it
        m_sink.addSlice(t.samples, f);
        return;
    }
    auto &[nameId, argsId] = m_stackSlices[stackIndex];
    if (!nameId) {
        std::string leaf = "[no backtrace]";
        if (const auto &frames = m_sampleStacks.chains.stacks[stackIndex]; !frames.empty()) {
            const auto &[symbol, moduleId, unresolved] = frames.front();
            const std::string &function = frameText(symbol, false);
            const std::string &module = moduleId != kNoValue ? frameText(moduleId, true) : std::string();
            leaf = !unresolved || module.empty() ? function
                : module.front() == '['          ? module // [vdso], [kernel.kallsyms]
                                                 : "[" + module + "]";
        }
        nameId = m_sink.intern(leaf);
        m_args.addRaw("backtrace", backtraceJson(m_sampleStacks, stackIndex));
        argsId = m_sink.internArgs(m_args.finish());
    }
    f.nameId = nameId;
    f.argsId = argsId;
    m_sink.addSlice(t.samples, f);
}

// A stack as a JSON array of "function (module)", leaf first: made once per stack.
const std::string &NsysReader::backtraceJson(Backtraces &b, uint32_t stack)
{
    std::string &json = b.json[stack];
    if (json.empty()) {
        json = "[";
        for (const auto &[symbol, moduleId, unresolved] : b.chains.stacks[stack]) {
            const std::string &function = frameText(symbol, false);
            const std::string &module = moduleId != kNoValue ? frameText(moduleId, true) : std::string();
            if (json.size() > 1)
                json.push_back(',');
            appendJsonString(json, module.empty() ? function : function + " (" + module + ")");
        }
        json.push_back(']');
    }
    return json;
}

// An OS runtime or CUDA call's backtrace, in its args, when the export has it.
void NsysReader::addBacktrace(Backtraces &b, const Cursor &c)
{
    if (!b.read || isNull(c, CallchainId))
        return;
    if (const uint32_t stack = b.chains.find(get(c, CallchainId)); stack != Callchains::kNone)
        m_args.addRaw("backtrace", backtraceJson(b, stack));
}

// Thread scheduling: each interval a thread spent on a CPU, from its scheduled-in to its scheduled-out
// event, is a slice on the thread's "On CPU" row named by the CPU ("CPU 5"), with the thread's state
// when it left (Running: preempted while it could still run; Interruptible: it waited, blocked in
// a call) and what blocked it, where nsys says. Nsight Systems draws the same intervals on the thread.
// A scheduled-out without a scheduled-in before it (the thread was running when the capture began), or
// a second scheduled-in before the first was matched, is counted as skipped; a thread still on a CPU
// at the end is closed at the trace's end (closeOpenSched()).
void NsysReader::handleSched(Cursor &c, SliceFields &f)
{
    const int64_t tid = get(c, GlobalTid, 0);
    const bool in = get(c, IsSchedIn, 0) != 0;
    const auto open = m_schedIn.find(tid);
    if (in) {
        if (open != m_schedIn.end()) {
            m_diag.skipped(QStringLiteral("sched-in-twice"),
                QStringLiteral("table SCHED_EVENTS, start %1").arg(open->second.first),
                QStringLiteral("A thread was scheduled in twice without being scheduled out between; "
                               "the first was not imported."));
            open->second = { c.start, get(c, Cpu, -1) };
        } else {
            m_schedIn.emplace(tid, std::pair { c.start, get(c, Cpu, -1) });
        }
        return;
    }
    if (open == m_schedIn.end()) {
        m_diag.skipped(QStringLiteral("sched-out-without-in"),
            QStringLiteral("table SCHED_EVENTS, start %1").arg(c.start),
            QStringLiteral("A thread was scheduled out with no scheduled-in before it in the capture "
                           "(it was running when the capture began); the interval was not imported."));
        return;
    }
    const auto [start, cpu] = open->second;
    m_schedIn.erase(open);
    f.tsNs = start;
    f.durNs = std::max<int64_t>(0, c.start - start);
    const int64_t state = get(c, ThreadState, 0);
    const int64_t block = get(c, ThreadBlock, 0);
    m_args.add("cpu", cpu);
    if (state != 0) // Unknown
        if (const std::string &label = schedLabel(false, state); !label.empty())
            m_args.add("state when scheduled out", label);
    if (block > 1) // NonBlocked, Unknown
        if (const std::string &label = schedLabel(true, block); !label.empty())
            m_args.add("blocked on", label);
    f.argsId = m_sink.internArgs(m_args.finish());
    addOnCpu(tid, cpu, f);
}

// The slice of an interval on a CPU, on the thread's "On CPU" row.
void NsysReader::addOnCpu(int64_t globalTid, int64_t cpu, SliceFields &f)
{
    ThreadTracks &t = threadTracks(globalTid);
    if (t.onCpu == kNoValue)
        t.onCpu = m_sink.companionTrack(t.thread, TrackKind::OnCpu);
    auto name = m_cpuNames.find(cpu);
    if (name == m_cpuNames.end())
        name
            = m_cpuNames
                  .emplace(cpu, m_sink.intern(cpu >= 0 ? "CPU " + std::to_string(cpu) : std::string("CPU ?")))
                  .first;
    f.nameId = name->second;
    f.catId = m_catSched;
    m_sink.addSlice(t.onCpu, f);
}

// Threads still on a CPU when the capture ended: their last interval ends with the trace.
void NsysReader::closeOpenSched()
{
    if (m_schedIn.empty())
        return;
    std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> open(m_schedIn.begin(), m_schedIn.end());
    std::sort(open.begin(), open.end()); // the same tracks in the same order, import after import
    const int64_t end = m_sink.stats().endNs;
    for (const auto &[tid, in] : open) {
        SliceFields f;
        f.tsNs = in.first;
        f.durNs = std::max<int64_t>(0, end - in.first);
        m_args.clear();
        m_args.add("cpu", in.second);
        m_args.add("state when scheduled out", "still on the CPU when the capture ended");
        f.argsId = m_sink.internArgs(m_args.finish());
        addOnCpu(tid, in.second, f);
    }
    m_diag.report(Severity::Info, QStringLiteral("sched-open-at-end"), QStringLiteral("table SCHED_EVENTS"),
        QStringLiteral("Threads still on a CPU when the capture ended: their last interval on the CPU "
                       "ends with the trace."),
        int64_t(open.size()));
    m_schedIn.clear();
}

// What ENUM_SCHEDULING_THREAD_BLOCK (`block`) or ENUM_SAMPLING_THREAD_STATE names `id` (empty when the
// export has no such table), read once.
const std::string &NsysReader::schedLabel(bool block, int64_t id)
{
    const int64_t key = (int64_t(block) << 32) | (id & 0xffffffff);
    auto it = m_schedLabels.find(key);
    if (it == m_schedLabels.end()) {
        const char *table = block ? "ENUM_SCHEDULING_THREAD_BLOCK" : "ENUM_SAMPLING_THREAD_STATE";
        it = m_schedLabels.emplace(key, m_tables.count(table) ? enumLabel(table, id) : std::string()).first;
    }
    return it->second;
}

// A backtrace frame's function, or its module's file name: read once (stacks share their frames).
const std::string &NsysReader::frameText(int64_t stringId, bool module)
{
    auto &cache = module ? m_moduleNames : m_functionNames;
    auto it = cache.find(stringId);
    if (it == cache.end()) {
        std::string_view text = lookupString(stringId);
        if (module && text.rfind('/') != std::string_view::npos)
            text.remove_prefix(text.rfind('/') + 1);
        it = cache.emplace(stringId, std::string(text)).first;
    }
    return it->second;
}

std::future<NsysReader::Callchains> NsysReader::startCallchains(const char *table, const char *events)
{
    if (!m_tables.count(events) || !hasCallchains(table))
        return {};
    const bool modules = hasColumns(table, { "module" });
    const bool unresolved = hasColumns(table, { "unresolved" });
    return std::async(
        std::launch::async, [path = m_ctx.input().path(), table, modules, unresolved, &stop = m_stopLoading] {
            constexpr size_t kMaxFrames = 16;
            ForeignSqliteDb db(path);
            Callchains out;
            // The distinct stacks, as indexes into out.stacks (each stack held once), looked up by frames.
            using Frames = std::vector<Frame>;
            struct StackHash {
                using is_transparent = void;
                const std::vector<Frames> *stacks;
                size_t operator()(const Frames &frames) const noexcept
                {
                    uint64_t h = 0x9e3779b97f4a7c15ull;
                    for (const auto &[symbol, module, unresolved] : frames)
                        h = ((h ^ uint64_t(symbol)) * 0x100000001b3ull ^ uint64_t(module)
                                ^ uint64_t(unresolved))
                            * 0x100000001b3ull;
                    return size_t(h ^ (h >> 29));
                }
                size_t operator()(uint32_t stack) const noexcept { return (*this)((*stacks)[stack]); }
            };
            struct StackEqual {
                using is_transparent = void;
                const std::vector<Frames> *stacks;
                bool operator()(uint32_t a, uint32_t b) const { return (*stacks)[a] == (*stacks)[b]; }
                bool operator()(const Frames &a, uint32_t b) const { return a == (*stacks)[b]; }
                bool operator()(uint32_t a, const Frames &b) const { return (*stacks)[a] == b; }
            };
            std::unordered_set<uint32_t, StackHash, StackEqual> known(
                0, StackHash { &out.stacks }, StackEqual { &out.stacks });
            // nsys writes each callchain's frames together, by depth: read in storage order, and sorted by
            // SQLite only when a file has them otherwise.
            for (const char *order : { "", " ORDER BY id, stackDepth" }) {
                known.clear();
                out = {};
                ForeignSqliteDb::Stmt st(db,
                    std::string("SELECT id, stackDepth, symbol, ") + (modules ? "module" : "NULL") + ", "
                        + (unresolved ? "unresolved" : "NULL") + " FROM " + table + order,
                    table);
                std::vector<Frame> frames;
                int64_t current = INT64_MIN;
                bool inOrder = true;
                auto close = [&] {
                    if (current == INT64_MIN)
                        return;
                    auto it = known.find(frames);
                    if (it == known.end()) {
                        out.stacks.push_back(frames);
                        it = known.insert(uint32_t(out.stacks.size() - 1)).first;
                    }
                    out.add(current, *it);
                    frames.clear();
                };
                int64_t depthSeen = -1;
                for (int64_t row = 0; inOrder && st.step(); ++row) {
                    if (row % 65536 == 0 && stop.load(std::memory_order_relaxed))
                        return Callchains {}; // the import is leaving (cancel, error): nobody reads this
                    const int64_t id = st.integer(0), depth = st.integer(1);
                    if (id != current) {
                        if (id < current) {
                            inOrder = false;
                            break;
                        }
                        close();
                        current = id;
                        depthSeen = -1;
                    }
                    if (depth <= depthSeen) {
                        inOrder = false;
                        break;
                    }
                    depthSeen = depth;
                    if (depth == int64_t(frames.size()) && frames.size() < kMaxFrames)
                        frames.emplace_back(
                            st.integer(2), st.isNull(3) ? kNoValue : st.integer(3), st.integer(4) != 0);
                }
                if (!inOrder)
                    continue;
                close();
                break;
            }
            return out;
        });
}

void NsysReader::handleMemoryUsage(Cursor &c)
{
    // ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation.
    const int64_t op = get(c, MemoryOp);
    if (op != 0 && op != 1) {
        m_diag.skipped(QStringLiteral("unknown-memory-operation"),
            QStringLiteral("table CUDA_GPU_MEMORY_USAGE_EVENTS, start %1").arg(c.start),
            QStringLiteral("A memory event is neither an allocation nor a free; it was skipped."));
        return;
    }
    const int64_t globalPid = get(c, GlobalPid, 0) & ~int64_t(0xffffff);
    const int64_t kind = get(c, MemKind, 2); // ENUM_CUDA_MEM_KIND: 0 pageable, 1 pinned, 2 device, ...
    const int64_t device = kind == 0 || kind == 1 ? -1 : get(c, Device, 0);
    const double bytes = double(std::max<int64_t>(get(c, Bytes, 0), 0));
    const bool hasAddress = !isNull(c, Address);
    const std::pair<int64_t, int64_t> at { globalPid, get(c, Address, 0) };

    auto total = m_memoryTotals.find({ globalPid, device });
    if (total == m_memoryTotals.end()) {
        // Named as the Kineto importer names PyTorch's memory counters.
        const std::string name = device >= 0 ? "Memory allocated, device " + std::to_string(device)
                                             : std::string("Memory allocated, CUDA host");
        const int64_t track = m_sink.counterTrack(hostProcess(pidOf(globalPid), globalPid), name);
        total = m_memoryTotals.emplace(std::make_pair(globalPid, device), MemoryTotal { track, 0 }).first;
    }
    if (op == 0) {
        if (hasAddress) {
            // An address allocated again without a free in between: the earlier allocation is gone.
            auto [live, added] = m_liveAllocations.try_emplace(at, LiveAllocation { &total->second, bytes });
            if (!added) {
                MemoryTotal &owner = *live->second.total;
                owner.bytes -= live->second.bytes;
                if (&owner != &total->second)
                    m_sink.addCounter(owner.track, c.start, owner.bytes);
                live->second = LiveAllocation { &total->second, bytes };
            }
        }
        total->second.bytes += bytes;
    } else {
        // A free releases what was allocated at its address, on the device it was allocated on. Memory
        // allocated before the capture began was never counted: its free changes nothing. (Without
        // addresses, a free releases the bytes it names.)
        if (!hasAddress) {
            total->second.bytes = std::max(total->second.bytes - bytes, 0.0);
        } else if (auto live = m_liveAllocations.find(at); live != m_liveAllocations.end()) {
            MemoryTotal &owner = *live->second.total;
            owner.bytes -= live->second.bytes;
            m_liveAllocations.erase(live);
            if (&owner != &total->second)
                m_sink.addCounter(owner.track, c.start, owner.bytes);
        } else {
            ++m_unmatchedFrees;
        }
    }
    m_sink.addCounter(total->second.track, c.start, total->second.bytes);
}

void NsysReader::handle(Cursor &c)
{
    progress();
    SliceFields f;
    f.tsNs = c.start;
    const int64_t end = get(c, End, c.start);
    f.durNs = end - c.start;
    if (f.durNs < 0) {
        m_diag.report(Severity::Warning, QStringLiteral("negative-duration"),
            QStringLiteral("table %1, start %2").arg(QString::fromLatin1(c.spec->table)).arg(c.start),
            QStringLiteral("An event ends before it starts; it was imported with duration 0."));
        f.durNs = 0;
    }
    m_args.clear();
    switch (c.spec->source) {
    case Source::Runtime:
        handleRuntime(c, f);
        break;
    case Source::Kernel:
    case Source::Memcpy:
    case Source::Memset:
    case Source::Graph:
        handleGpu(c, f);
        break;
    case Source::Sync:
        handleSync(c, f);
        break;
    case Source::Nvtx:
        handleNvtx(c, f);
        break;
    case Source::Osrt:
        handleOsrt(c, f);
        break;
    case Source::HostCall:
        handleHostCall(c, f);
        break;
    case Source::CpuSample:
        handleCpuSample(c, f);
        break;
    case Source::Sched:
        handleSched(c, f);
        break;
    case Source::Metric:
        handleMetric(c);
        break;
    case Source::MemoryUsage:
        handleMemoryUsage(c);
        break;
    }
}

void NsysReader::run()
{
    checkIsNsight();
    m_catRuntime = m_sink.intern("cuda_runtime");
    m_catDriver = m_sink.intern("cuda_driver");
    m_catKernel = m_sink.intern("kernel");
    m_catMemcpy = m_sink.intern("gpu_memcpy");
    m_catMemset = m_sink.intern("gpu_memset");
    m_catSync = m_sink.intern("cuda_sync");
    m_catGraph = m_sink.intern("cuda_graph");
    m_catGpuAnnotation = m_sink.intern("gpu_user_annotation");
    m_catNvtx = m_sink.intern("nvtx");
    m_catOsrt = m_sink.intern("osrt");
    m_catCpuSample = m_sink.intern("cpu_sample");
    m_catSched = m_sink.intern("sched");
    readSessionInfo();
    readDevices();
    readMetadata();
    readNsysDiagnostics();
    readGpuMetricNames();
    readMpiRanks();
    std::future<std::vector<NvtxName>> nvtxNames = startNvtxNames();
    std::future<Callchains> sampleStacks = startCallchains("SAMPLING_CALLCHAINS", "COMPOSITE_EVENTS");
    std::future<Callchains> osrtStacks = startCallchains("OSRT_CALLCHAINS", "OSRT_API");
    std::future<Callchains> cudaStacks = startCallchains("CUDA_CALLCHAINS", "CUPTI_ACTIVITY_KIND_RUNTIME");
    std::future<bool> corrScope = startCorrScope();
    openCursors();
    m_ctx.checkpoint();

    // Phase by phase (thread tracks, CUDA API tracks, GPU streams, sync tracks), merge the tables of
    // the phase on (track group, start). Loader threads, one per table or part, read and sort the next
    // phase's tables meanwhile, so that work overlaps the writer's instead of leaving it idle at each
    // phase start.
    constexpr int kPhases = 4;
    auto loadPhase = [this](int phase) {
        std::vector<std::future<void>> parts;
        for (auto &c : m_cursors)
            if (c->spec->phase == phase)
                parts.push_back(std::async(std::launch::async, [&st = *c->st] {
                    lowerThreadPriority();
                    st.load();
                }));
        for (auto &p : parts)
            p.wait(); // all of them, even past an error: they use this reader
        for (auto &p : parts)
            p.get(); // the first error, if any
    };
    std::future<void> loading = std::async(std::launch::async, loadPhase, 0);
    struct StopLoading {
        std::atomic<bool> &flag;
        ~StopLoading() { flag = true; } // on the way out (cancel, error): the loader stops early
    } stopLoading { m_stopLoading };
    for (int phase = 0; phase < kPhases; ++phase) {
        while (loading.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
            m_ctx.checkpoint();
        loading.get(); // its error, if any
        if (phase == 0 && nvtxNames.valid())
            setNvtxNames(nvtxNames.get());
        if (phase == 0 && osrtStacks.valid())
            m_osrtStacks.set(osrtStacks.get());
        if (phase == 1 && cudaStacks.valid())
            m_cudaStacks.set(cudaStacks.get());
        if (phase == kLastPhase && sampleStacks.valid()) {
            m_sampleStacks.set(sampleStacks.get());
            m_stackSlices.assign(m_sampleStacks.chains.stacks.size(), { 0, kNoValue });
        }
        if (phase == 1 && corrScope.valid())
            setCorrScope(corrScope.get());
        if (phase + 1 < kPhases)
            loading = std::async(std::launch::async, loadPhase, phase + 1);
        std::vector<Cursor *> live;
        for (auto &c : m_cursors) {
            if (c->spec->phase != phase)
                continue;
            if (c->st->next()) {
                loadKey(*c);
                live.push_back(c.get());
            } else {
                c->st.reset();
            }
        }
        while (!live.empty()) {
            size_t best = 0;
            for (size_t i = 1; i < live.size(); ++i)
                if (*live[i] < *live[best])
                    best = i;
            Cursor &c = *live[best];
            if (isNull(c, Start)) {
                m_diag.skipped(QStringLiteral("missing-start"),
                    QStringLiteral("table %1").arg(QString::fromLatin1(c.spec->table)),
                    QStringLiteral("A row has no start time; it was skipped."));
            } else {
                handle(c);
            }
            if (c.st->next()) {
                loadKey(c);
            } else {
                c.st.reset();
                live.erase(live.begin() + ptrdiff_t(best));
            }
        }
    }
    closeOpenSched();
    projectNvtx();
    m_sink.addCorrelationFlows(m_links.links());
    if (m_unmatchedFrees > 0)
        m_diag.report(Severity::Info, QStringLiteral("memory-freed-before-allocated"),
            QStringLiteral("table CUDA_GPU_MEMORY_USAGE_EVENTS"),
            QStringLiteral("GPU memory freed whose allocation is not in the capture (made before it "
                           "began); the allocated totals count the capture's own allocations."),
            m_unmatchedFrees);
    if (m_nvtxSkipped > 0)
        m_diag.report(Severity::Info, QStringLiteral("nvtx-metadata"), QStringLiteral("table NVTX_EVENTS"),
            QStringLiteral("NVTX records that name domains, categories or threads are not events; "
                           "they were not imported as slices (domain and category names label the "
                           "ranges' arguments)."),
            m_nvtxSkipped);
    if (m_graphLaunches > 0)
        m_diag.report(Severity::Info, QStringLiteral("cuda-graph-trace"),
            QStringLiteral("table CUPTI_ACTIVITY_KIND_GRAPH_TRACE"),
            QStringLiteral("CUDA graphs were traced as whole launches (nsys --cuda-graph-trace=graph): "
                           "each is one 'CUDA graph N' op on its stream, its kernels not shown one by "
                           "one. Profile with --cuda-graph-trace=node to see them."),
            m_graphLaunches);
    if (m_rows == 0)
        m_diag.report(Severity::Warning, QStringLiteral("no-events"), {},
            QStringLiteral("The export holds no CUDA, NVTX or OS runtime events: nothing was traced "
                           "(check the nsys profile --trace option)."));
    reportUnreadTables();
    m_cursors.clear();
}

} // namespace

int NsysImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    static constexpr std::string_view kMagic("SQLite format 3\0", 16);
    const std::string_view h(head.data(), size_t(head.size()));
    if (h.substr(0, kMagic.size()) != kMagic)
        return 0;
    // The schema usually sits in the first pages: look for tables only Nsight exports have.
    for (const std::string_view marker : { "StringIds", "CUPTI_ACTIVITY_KIND_", "TARGET_INFO_", "NVTX_EVENTS",
             "ANALYSIS_DETAILS", "META_DATA_EXPORT" })
        if (h.find(marker) != std::string_view::npos)
            return 90;
    // Some SQLite file: ours unless a format that knows it claims it (read() then says what it is).
    return 10;
}

void NsysImporter::read(ImportContext &ctx) const
{
    if (ctx.input().isGzip())
        throw ImportError(QStringLiteral("%1 is a compressed SQLite file: decompress it first (gunzip), then "
                                         "import the .sqlite file")
                              .arg(ctx.input().fileName()));
    NsysReader reader(ctx);
    reader.run();
}

} // namespace plumb
