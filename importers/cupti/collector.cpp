// SPDX-License-Identifier: GPL-3.0-or-later
// libplumb_cupti.so: a CUPTI Activity API collector that any CUDA program loads through
// CUDA_INJECTION64_PATH. The CUDA driver calls InitializeInjection() during cuInit(); from then on
// CUPTI hands us filled activity buffers, whose records we copy into compact structs
// (cuptirecords.h) and free the buffer. At exit everything is flushed and written once, streamed,
// as a Kineto-compatible Chrome trace (cuptijson.h) to $PLUMB_CUPTI_OUTPUT (a "%p" in it becomes
// the process id), or plumb_cupti_<pid>.pt.trace.json in the working directory.
//
// Clock: CUPTI's default timestamps, which on Linux are clock_gettime(CLOCK_REALTIME) in ns since
// the Unix epoch (CUPTI maps GPU timestamps onto that clock itself); they are written unchanged
// with baseTimeNanoseconds 0, i.e. the same wall-clock µs PyTorch's profiler writes.
//
// Caveats: the trace is written from an atexit() handler, so a process ended by a signal or
// os._exit() writes nothing; CUPTI allows one activity client per process, so this cannot run
// together with torch.profiler or Nsight Systems.
//
// No Qt here: this library is loaded into other people's processes.

#include "cupti/cuptijson.h"
#include "cupti/cuptirecords.h"

#include <cupti.h>

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using namespace plumb::cupti;

constexpr size_t kBufferBytes = 4 << 20; // per activity buffer; CUPTI asks for more as they fill
constexpr size_t kBufferAlign = 8; // CUPTI requires 8-byte aligned buffers

// Lives until the process ends (never destroyed), so the atexit handler and CUPTI's late buffer
// callbacks never see it torn down by static destructors.
struct Collector {
    std::mutex dataMutex; // guards trace and apiNames
    std::mutex flushMutex; // serialises flush-and-write
    CollectedTrace trace;
    std::unordered_map<uint64_t, uint32_t> apiNames; // (domain << 32 | cbid) -> string id
    std::atomic<uint64_t> buffersFailed { 0 }; // buffers we could not allocate (CUPTI drops their records)
    std::string outputPath;
    pid_t pid = 0; // the process that initialised CUPTI; a fork()ed child inherits our state but not CUPTI
};

Collector &collector()
{
    static Collector *c = new Collector;
    return *c;
}

void warn(const char *what, CUptiResult r)
{
    const char *text = nullptr;
    if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text)
        text = "unknown error";
    std::fprintf(stderr, "[plumb_cupti] %s: %s\n", what, text);
}

std::string outputPath()
{
    const std::string pid = std::to_string(getpid());
    const char *env = std::getenv("PLUMB_CUPTI_OUTPUT");
    if (!env || !*env)
        return "plumb_cupti_" + pid + ".pt.trace.json";
    std::string path = env;
    for (size_t at = path.find("%p"); at != std::string::npos; at = path.find("%p", at + pid.size()))
        path.replace(at, 2, pid);
    return path;
}

std::string processName()
{
    std::string name;
    if (std::FILE *f = std::fopen("/proc/self/comm", "r")) {
        char buf[256];
        if (std::fgets(buf, sizeof buf, f))
            name = buf;
        std::fclose(f);
    }
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r'))
        name.pop_back();
    return name;
}

uint32_t apiName(Collector &c, CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    const uint64_t key = uint64_t(domain) << 32 | cbid;
    if (auto it = c.apiNames.find(key); it != c.apiNames.end())
        return it->second;
    const char *name = nullptr;
    uint32_t id = 0;
    if (cuptiGetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS && name)
        id = c.trace.strings.intern(name);
    else
        id = c.trace.strings.intern(
            (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "cudart cbid " : "cu cbid ") + std::to_string(cbid));
    c.apiNames.emplace(key, id);
    return id;
}

// The fields every CUPTI GPU-operation record (kernel, memcpy, memset) has under the same names.
template <typename Record> void fillGpuOp(GpuOp &op, const Record *r)
{
    op.startNs = r->start;
    op.endNs = r->end;
    op.deviceId = r->deviceId;
    op.contextId = r->contextId;
    op.streamId = r->streamId;
    op.correlationId = r->correlationId;
}

// The records of the CUPTI this is built against (CUPTI_API_VERSION: 19-28 in CUDA 12.x, xxyyzz from 13.0),
// by the versions its headers define: Kernel9 through 12.x, Kernel10 in 13.0 and 13.1, Kernel11 from 13.2;
// Memcpy6, Synchronization2, Device5 and Context3 from 12.8 (API version 26), Memcpy5, Synchronization,
// Device4 and Context before; Device6 and Context4 from 13.2; Memset4 throughout. A newer version only
// appends fields, and only fields every version has are read, so the collector builds against CUDA 12
// and 13 (the cupti_compile_check test builds it against each toolkit on the machine).
#if CUPTI_API_VERSION >= 130200
using KernelRecord = CUpti_ActivityKernel11;
using DeviceRecord = CUpti_ActivityDevice6;
using ContextRecord = CUpti_ActivityContext4;
#elif CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using DeviceRecord = CUpti_ActivityDevice5;
using ContextRecord = CUpti_ActivityContext3;
#elif CUPTI_API_VERSION >= 26
using KernelRecord = CUpti_ActivityKernel9;
using DeviceRecord = CUpti_ActivityDevice5;
using ContextRecord = CUpti_ActivityContext3;
#else
using KernelRecord = CUpti_ActivityKernel9;
using DeviceRecord = CUpti_ActivityDevice4;
using ContextRecord = CUpti_ActivityContext;
#endif
#if CUPTI_API_VERSION >= 26
using MemcpyRecord = CUpti_ActivityMemcpy6;
using SyncRecord = CUpti_ActivitySynchronization2;
#else
using MemcpyRecord = CUpti_ActivityMemcpy5;
using SyncRecord = CUpti_ActivitySynchronization;
#endif
using MemsetRecord = CUpti_ActivityMemset4;

// Copies one record into the compact structs. Caller holds dataMutex.
void keep(Collector &c, const CUpti_Activity *record)
{
    CollectedTrace &t = c.trace;
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto *r = reinterpret_cast<const KernelRecord *>(record);
        KernelOp k;
        fillGpuOp(k, r);
        k.grid[0] = r->gridX;
        k.grid[1] = r->gridY;
        k.grid[2] = r->gridZ;
        k.block[0] = r->blockX;
        k.block[1] = r->blockY;
        k.block[2] = r->blockZ;
        k.staticSharedMemory = r->staticSharedMemory;
        k.dynamicSharedMemory = r->dynamicSharedMemory;
        k.registersPerThread = r->registersPerThread;
        k.nameId = t.strings.intern(r->name ? r->name : "");
        t.kernels.push_back(k);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto *r = reinterpret_cast<const MemcpyRecord *>(record);
        MemcpyOp m;
        fillGpuOp(m, r);
        m.bytes = r->bytes;
        m.copyKind = r->copyKind;
        m.srcKind = r->srcKind;
        m.dstKind = r->dstKind;
        m.async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
        t.memcpys.push_back(m);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto *r = reinterpret_cast<const MemsetRecord *>(record);
        MemsetOp m;
        fillGpuOp(m, r);
        m.bytes = r->bytes;
        m.value = r->value;
        m.memoryKind = r->memoryKind;
        m.async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0;
        t.memsets.push_back(m);
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto *r = reinterpret_cast<const CUpti_ActivityAPI *>(record);
        const bool runtime = record->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        ApiCall a;
        a.startNs = r->start;
        a.endNs = r->end;
        a.processId = r->processId;
        a.threadId = r->threadId;
        a.correlationId = r->correlationId;
        a.cbid = r->cbid;
        a.returnValue = r->returnValue;
        a.domain = runtime ? ApiDomain::Runtime : ApiDomain::Driver;
        a.nameId = apiName(c, runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, r->cbid);
        t.apiCalls.push_back(a);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto *r = reinterpret_cast<const SyncRecord *>(record);
        SyncOp s;
        s.startNs = r->start;
        s.endNs = r->end;
        s.contextId = r->contextId;
        s.streamId = r->streamId;
        s.correlationId = r->correlationId;
        s.cudaEventId = r->cudaEventId;
        s.type = r->type <= CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE ? SyncType(r->type)
                                                                                    : SyncType::Unknown;
        t.syncs.push_back(s);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const auto *r = reinterpret_cast<const CUpti_ActivityMarker2 *>(record);
        MarkerRecord m;
        m.timestampNs = r->timestamp;
        m.id = r->id;
        if (r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
            m.processId = r->objectId.pt.processId;
            m.threadId = r->objectId.pt.threadId;
        } else {
            m.processId = uint32_t(getpid());
        }
        m.nameId = t.strings.intern(r->name ? r->name : "");
        m.domainId = t.strings.intern(r->domain ? r->domain : "");
        if (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
            m.flags = MarkerRecord::Instant;
        else if (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
            m.flags = MarkerRecord::Start;
        else if (r->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
            m.flags = MarkerRecord::End;
        else
            break; // synchronisation markers (acquire/release) are not ranges
        t.markers.push_back(m);
        break;
    }
    case CUPTI_ACTIVITY_KIND_NAME: {
        const auto *r = reinterpret_cast<const CUpti_ActivityName *>(record);
        if (!r->name)
            break;
        if (r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD)
            t.names.push_back({ ObjectName::Kind::Thread, r->objectId.pt.processId, r->objectId.pt.threadId,
                t.strings.intern(r->name) });
        else if (r->objectKind == CUPTI_ACTIVITY_OBJECT_STREAM)
            t.names.push_back({ ObjectName::Kind::Stream, r->objectId.dcs.deviceId, r->objectId.dcs.streamId,
                t.strings.intern(r->name) });
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto *r = reinterpret_cast<const DeviceRecord *>(record);
        DeviceInfo d;
        d.id = r->id;
        d.name = r->name ? r->name : "";
        d.totalGlobalMem = r->globalMemorySize;
        d.computeMajor = r->computeCapabilityMajor;
        d.computeMinor = r->computeCapabilityMinor;
        d.maxThreadsPerBlock = r->maxThreadsPerBlock;
        d.maxThreadsPerMultiprocessor = r->maxWarpsPerMultiprocessor * r->numThreadsPerWarp;
        d.regsPerBlock = r->maxRegistersPerBlock;
        d.regsPerMultiprocessor = r->maxRegistersPerMultiprocessor;
        d.warpSize = r->numThreadsPerWarp;
        d.sharedMemPerBlock = r->maxSharedMemoryPerBlock;
        d.sharedMemPerMultiprocessor = r->maxSharedMemoryPerMultiprocessor;
        d.numSms = r->numMultiprocessors;
        for (const DeviceInfo &seen : t.devices)
            if (seen.id == d.id)
                return;
        t.devices.push_back(std::move(d));
        break;
    }
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto *r = reinterpret_cast<const ContextRecord *>(record);
        t.contexts.push_back({ r->contextId, r->deviceId });
        break;
    }
    default:
        break;
    }
}

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
{
    *maxNumRecords = 0; // as many as fit
    *size = kBufferBytes;
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(kBufferAlign, kBufferBytes));
    if (!*buffer) {
        *size = 0;
        ++collector().buffersFailed;
    }
}

void CUPTIAPI bufferCompleted(
    CUcontext context, uint32_t streamId, uint8_t *buffer, size_t /*size*/, size_t validSize)
{
    Collector &c = collector();
    {
        std::lock_guard lock(c.dataMutex);
        CUpti_Activity *record = nullptr;
        while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
            keep(c, record);
        size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS)
            c.trace.droppedRecords += dropped;
    }
    std::free(buffer);
}

// Flushes CUPTI's buffers and (re)writes the trace file with everything collected so far.
void flushAndWrite()
{
    Collector &c = collector();
    std::lock_guard flushLock(c.flushMutex);
    if (const CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); r != CUPTI_SUCCESS)
        warn("flushing activity buffers", r);
    std::lock_guard lock(c.dataMutex);
    WriteOptions o;
    o.processId = uint32_t(getpid());
    o.processName = processName();
    o.clock = "CUPTI default: CLOCK_REALTIME ns since the Unix epoch on Linux";
    o.bufferBytes = kBufferBytes;
    WriteStats stats;
    std::string error;
    if (!writeChromeTraceFile(c.outputPath, c.trace, o, &error, &stats)) {
        std::fprintf(stderr, "[plumb_cupti] %s\n", error.c_str());
        return;
    }
    std::fprintf(stderr,
        "[plumb_cupti] wrote %s: %zu kernels, %zu memcpy, %zu memset, %zu API calls, %llu flows, "
        "%llu records dropped\n",
        c.outputPath.c_str(), c.trace.kernels.size(), c.trace.memcpys.size(), c.trace.memsets.size(),
        c.trace.apiCalls.size(), static_cast<unsigned long long>(stats.flows),
        static_cast<unsigned long long>(c.trace.droppedRecords));
    if (c.trace.droppedRecords || c.buffersFailed)
        std::fprintf(stderr,
            "[plumb_cupti] warning: %llu records dropped, %llu buffers not allocated; the trace "
            "is incomplete\n",
            static_cast<unsigned long long>(c.trace.droppedRecords),
            static_cast<unsigned long long>(c.buffersFailed.load()));
}

void atExit()
{
    // A child forked after CUDA started (a data-loader worker) would otherwise overwrite the
    // parent's trace with its stale copy of the parent's records.
    if (getpid() == collector().pid)
        flushAndWrite();
}

// NVTX reports to CUPTI only when NVTX_INJECTION64_PATH names libcupti; point it there unless the
// user already chose. NVTX reads it at its first call, so ranges opened before CUDA initialised
// are only seen when the user sets it before starting the program.
void routeNvtxToCupti()
{
    if (std::getenv("NVTX_INJECTION64_PATH"))
        return;
    Dl_info info {};
    if (dladdr(reinterpret_cast<void *>(&cuptiActivityFlushAll), &info) && info.dli_fname)
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

} // namespace

// Called by the CUDA driver when CUDA_INJECTION64_PATH names this library. Non-zero: success.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    static std::atomic<bool> started { false };
    if (started.exchange(true))
        return 1;
    Collector &c = collector();
    c.outputPath = outputPath();
    c.pid = getpid();

    if (const CUptiResult r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
        r != CUPTI_SUCCESS) {
        warn("registering activity buffers (nothing will be recorded)", r);
        return 0;
    }
    // Device and context records first: they describe what the later records refer to.
    const std::pair<CUpti_ActivityKind, const char *> kinds[] = {
        { CUPTI_ACTIVITY_KIND_DEVICE, "device" },
        { CUPTI_ACTIVITY_KIND_CONTEXT, "context" },
        { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent kernel" },
        { CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy" },
        { CUPTI_ACTIVITY_KIND_MEMSET, "memset" },
        { CUPTI_ACTIVITY_KIND_RUNTIME, "runtime API" },
        { CUPTI_ACTIVITY_KIND_DRIVER, "driver API" },
        { CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization" },
        { CUPTI_ACTIVITY_KIND_MARKER, "NVTX marker" },
        { CUPTI_ACTIVITY_KIND_NAME, "NVTX name" },
    };
    std::vector<std::pair<const char *, CUptiResult>> failed;
    for (const auto &[kind, what] : kinds)
        if (const CUptiResult r = cuptiActivityEnable(kind); r != CUPTI_SUCCESS)
            failed.emplace_back(what, r);
    if (failed.size() == std::size(kinds)) {
        warn("no activity kind could be enabled, nothing will be recorded", failed.front().second);
        return 0;
    }
    for (const auto &[what, r] : failed) {
        const std::string msg = std::string("enabling ") + what + " records (they will be missing)";
        warn(msg.c_str(), r);
    }
    routeNvtxToCupti();
    std::atexit(atExit);
    return 1;
}

// For programs that end without running atexit handlers (os._exit, a supervisor's SIGKILL after a
// grace period): call this (ctypes, dlsym) to write the trace so far. Safe to call more than once.
extern "C" __attribute__((visibility("default"))) void plumb_cupti_flush(void)
{
    if (getpid() == collector().pid)
        flushAndWrite();
}
