// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plain mirrors of the CUPTI activity records the collector keeps (CUpti_ActivityKernel9/10/11,
// CUpti_ActivityMemcpy6, CUpti_ActivityMemset4, CUpti_ActivityAPI, CUpti_ActivitySynchronization2,
// CUpti_ActivityMarker2, CUpti_ActivityName, CUpti_ActivityDevice5, CUpti_ActivityContext3), with
// only the fields the Chrome trace needs. No CUPTI header is included here, so the conversion to
// JSON builds and is tested on machines without CUDA.
//
// Times are CUPTI timestamps in ns (the collector makes them ns since the Unix epoch, see
// collector.cpp). Names are indices into CollectedTrace::strings, so a buffer of records stays
// compact until it is written.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb::cupti {

// Interned strings: index 0 is the empty string.
class StringTable {
public:
    StringTable() { m_strings.emplace_back(); }
    [[nodiscard]] uint32_t intern(std::string_view s);
    [[nodiscard]] const std::string &at(uint32_t id) const
    {
        return m_strings[id < m_strings.size() ? id : 0];
    }
    [[nodiscard]] size_t size() const { return m_strings.size(); }

private:
    std::deque<std::string> m_strings; // a deque never moves its elements, so views into them stay valid
    std::unordered_map<std::string_view, uint32_t> m_index;
};

enum class ApiDomain : uint8_t { Runtime, Driver };

// A CUDA runtime or driver API call on a CPU thread (CUpti_ActivityAPI).
struct ApiCall {
    uint64_t startNs = 0;
    uint64_t endNs = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0;
    uint32_t correlationId = 0;
    uint32_t cbid = 0;
    uint32_t nameId = 0; // cudaLaunchKernel, cuMemcpyHtoD_v2, ...
    uint32_t returnValue = 0;
    ApiDomain domain = ApiDomain::Runtime;
};

// What every GPU operation record has: when, where (device, context, stream) and the correlation id
// of the API call that queued it.
struct GpuOp {
    uint64_t startNs = 0;
    uint64_t endNs = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
};

struct KernelOp : GpuOp {
    int32_t grid[3] = { 0, 0, 0 };
    int32_t block[3] = { 0, 0, 0 };
    int32_t staticSharedMemory = 0; // bytes per block
    int32_t dynamicSharedMemory = 0; // bytes per block
    uint32_t nameId = 0;
    uint16_t registersPerThread = 0;
};

// CUpti_ActivityMemcpyKind and CUpti_ActivityMemoryKind values, kept as the raw numbers.
struct MemcpyOp : GpuOp {
    uint64_t bytes = 0;
    uint8_t copyKind = 0;
    uint8_t srcKind = 0;
    uint8_t dstKind = 0;
    bool async = false;
};

struct MemsetOp : GpuOp {
    uint64_t bytes = 0;
    uint32_t value = 0;
    uint16_t memoryKind = 0;
    bool async = false;
};

// CUpti_ActivitySynchronizationType values.
enum class SyncType : uint8_t {
    Unknown = 0,
    EventSynchronize = 1,
    StreamWaitEvent = 2,
    StreamSynchronize = 3,
    ContextSynchronize = 4
};

// A synchronisation (CUpti_ActivitySynchronization2): the host-side wait, placed on the stream it
// waited for. kInvalidId marks fields that do not apply (a context synchronise has no stream).
struct SyncOp {
    static constexpr uint32_t kInvalidId = 0xFFFFFFFFu;
    uint64_t startNs = 0;
    uint64_t endNs = 0;
    uint32_t contextId = 0;
    uint32_t streamId = kInvalidId;
    uint32_t correlationId = 0;
    uint32_t cudaEventId = kInvalidId;
    SyncType type = SyncType::Unknown;
};

// One NVTX marker record (CUpti_ActivityMarker2): a range arrives as a start and an end record
// sharing `id` (the end has no name); instantaneous markers come alone.
struct MarkerRecord {
    enum Flags : uint8_t { Instant = 1, Start = 2, End = 4 };
    uint64_t timestampNs = 0;
    uint32_t id = 0;
    uint32_t processId = 0;
    uint32_t threadId = 0;
    uint32_t nameId = 0;
    uint32_t domainId = 0;
    uint8_t flags = 0;
};

// A name given to a CUDA stream or an OS thread with nvtxNameCudaStream / nvtxNameOsThread
// (CUpti_ActivityName).
struct ObjectName {
    enum class Kind : uint8_t { Thread, Stream };
    Kind kind = Kind::Thread;
    uint32_t a = 0; // process id, or device id for a stream
    uint32_t b = 0; // thread id, or stream id
    uint32_t nameId = 0;
};

// Device properties for Kineto's deviceProperties (from CUpti_ActivityDevice5).
struct DeviceInfo {
    uint32_t id = 0;
    std::string name;
    uint64_t totalGlobalMem = 0; // bytes
    uint32_t computeMajor = 0;
    uint32_t computeMinor = 0;
    uint32_t maxThreadsPerBlock = 0;
    uint32_t maxThreadsPerMultiprocessor = 0;
    uint32_t regsPerBlock = 0;
    uint32_t regsPerMultiprocessor = 0;
    uint32_t warpSize = 0;
    uint32_t sharedMemPerBlock = 0; // bytes
    uint32_t sharedMemPerMultiprocessor = 0; // bytes
    uint32_t numSms = 0;
};

struct ContextInfo {
    uint32_t contextId = 0;
    uint32_t deviceId = 0;
};

// Everything one process collected, ready to be written.
struct CollectedTrace {
    StringTable strings;
    std::vector<ApiCall> apiCalls;
    std::vector<KernelOp> kernels;
    std::vector<MemcpyOp> memcpys;
    std::vector<MemsetOp> memsets;
    std::vector<SyncOp> syncs;
    std::vector<MarkerRecord> markers;
    std::vector<ObjectName> names;
    std::vector<DeviceInfo> devices;
    std::vector<ContextInfo> contexts;
    uint64_t droppedRecords = 0; // CUPTI's count of records lost for lack of buffer space
};

} // namespace plumb::cupti
