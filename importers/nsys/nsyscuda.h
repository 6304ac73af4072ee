// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/tracesink.h"
#include "nsys/nsysbacktraces.h"
#include "nsys/nsystables.h"

#include <QString>

#include <array>
#include <atomic>
#include <cstdint>
#include <future>
#include <string>
#include <unordered_map>

namespace plumb {
class CorrLinkCounter;
class DiagnosticLog;
class RangeProjection;
} // namespace plumb

namespace plumb::nsys {

class NsysArgs;
class NsysSchema;
class NsysStrings;
class NsysTracks;
struct NsysCursor;

// The CUDA tables (CUPTI_ACTIVITY_KIND_*) onto the trace: runtime and driver calls -> the calling
// thread's CudaApi companion track (named without their `_v7000`-style version suffix, their
// backtraces from CUDA_CALLCHAINS in the args); kernels, memcpy, memset and whole CUDA graph launches
// -> their (device, stream) track, named and with args as the Chrome importer names Kineto's;
// synchronisation -> a sync track beside the streams. A launch and its GPU op share slice.corr: the
// correlation id, made unique per process (pid << 32 | id) when several processes made CUDA calls.
// Each launch and GPU op also goes to the NVTX projection and the launch-link count.
class NsysCuda {
public:
    NsysCuda(NsysSchema &schema, NsysStrings &strings, NsysTracks &tracks, NsysArgs &args, TraceSink &sink,
        DiagnosticLog &diag, RangeProjection &projection, CorrLinkCounter &links);

    // The driver's event class and the copy and memory kinds, from the enum tables when there are.
    void readEnums();
    // Whether correlation ids need the pid (several processes made CUDA calls): scanned on a
    // connection of its own; an invalid future when the export has no runtime calls to scan.
    [[nodiscard]] std::future<bool> startCorrScope(const QString &path);
    void setCorrScope(bool perProcess);
    [[nodiscard]] NsysBacktraces &backtraces() { return m_stacks; }

    void handleRuntime(NsysCursor &c, SliceFields &f);
    // Kernel, Memcpy, Memset and Graph rows.
    void handleGpu(NsysCursor &c, SliceFields &f);
    void handleSync(NsysCursor &c, SliceFields &f);
    // After the last row: what the import should say about the CUDA tables.
    void report();

private:
    using GpuKey = std::array<int64_t, 14>;
    struct GpuKeyHash {
        size_t operator()(const GpuKey &k) const noexcept
        {
            uint64_t h = 0x9e3779b97f4a7c15ull;
            for (const int64_t v : k) {
                h = (h ^ uint64_t(v)) * 0x100000001b3ull;
            }
            return size_t(h ^ (h >> 29));
        }
    };
    struct GpuNames {
        int64_t nameId = 0;
        int64_t argsId = kNoValue;
    };
    [[nodiscard]] GpuNames gpuNameAndArgs(const GpuKey &key);
    [[nodiscard]] int64_t corrOf(const NsysCursor &c, F pidField) const;

    NsysSchema &m_schema;
    NsysStrings &m_strings;
    NsysTracks &m_tracks;
    NsysArgs &m_args;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    RangeProjection &m_projection;
    CorrLinkCounter &m_links;
    NsysBacktraces m_stacks { "CUDA_CALLCHAINS" };
    std::unordered_map<int64_t, std::string> m_shortNames; // kernel base names, for args
    std::unordered_map<GpuKey, GpuNames, GpuKeyHash> m_gpuNames; // see handleGpu(); at most kMaxGpuKeys
    std::unordered_map<int64_t, bool> m_driverClass; // eventClass -> is the CUDA driver
    std::unordered_map<int64_t, bool> m_driverByName; // nameId -> is a driver call
    std::array<std::string, 14> m_copyKinds;
    std::array<std::string, 8> m_memKinds;
    bool m_corrPerProcess = false;
    int64_t m_catRuntime = 0, m_catDriver = 0, m_catKernel = 0, m_catMemcpy = 0, m_catMemset = 0,
            m_catSync = 0, m_catGraph = 0;
    int64_t m_graphLaunches = 0;
};

} // namespace plumb::nsys
