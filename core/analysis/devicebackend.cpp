// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/devicebackend.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <unordered_map>

namespace plumb {

namespace {

using R = CategoryRole;
using B = DeviceBackend;

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool inList(const std::vector<std::string_view> &list, std::string_view name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

} // namespace

const std::vector<BackendCategory> &backendCategories()
{
    // Kineto's ActivityType names (libkineto's ActivityType.cpp). CUDA's categories are shared: ROCm
    // (roctracer/rocprofiler behind the same CUPTI-shaped API) writes kernel, gpu_memcpy and
    // cuda_runtime with hip* call names; Intel XPU and PrivateUse1 backends write their device ops as
    // kernel, gpu_memcpy and gpu_memset.
    static const std::vector<BackendCategory> table = {
        { "kernel", R::Kernel, B::Unknown, {}, {}, {} },
        { "gpu_memcpy", R::Memcpy, B::Unknown, {}, {}, {} },
        { "gpu_memset", R::Memset, B::Unknown, {}, {}, {} },
        { "gpu_user_annotation", R::DeviceAnnotation, B::Unknown, {}, {}, {} },
        { "cuda_runtime", R::Runtime, B::Unknown, {}, {}, {} },
        { "cuda_driver", R::Driver, B::Unknown, {}, {}, {} },
        { "cuda_sync", R::Sync, B::Cuda, {}, {}, {} },
        { "cuda_graph", R::Graph, B::Cuda, {}, {}, {} },
        // MTIA: the device's command processor (CCP) events are its device ops, one track per stream;
        // dma_request moves memory; pe_exe (a processing element's execution) is the op HTA leaves
        // untyped; event_wait and event_record are a stream waiting on, or recording, another's event.
        { "mtia_ccp_events", R::Kernel, B::Mtia, { "dma" }, { "pe_exe" }, { "event_wait", "event_record" } },
        { "mtia_runtime", R::Runtime, B::Mtia, {}, {}, {} },
        { "mtia_insight", R::None, B::Mtia, {}, {}, {} },
        { "mtia_counters", R::None, B::Mtia, {}, {}, {} },
        { "xpu_runtime", R::Runtime, B::Xpu, {}, {}, {} },
        { "xpu_driver", R::Driver, B::Xpu, {}, {}, {} },
        { "xpu_sync", R::Sync, B::Xpu, {}, {}, {} },
        { "privateuse1_runtime", R::Runtime, B::PrivateUse1, {}, {}, {} },
        { "privateuse1_driver", R::Driver, B::PrivateUse1, {}, {}, {} },
    };
    return table;
}

const std::vector<DeviceBackendInfo> &deviceBackends()
{
    static const std::vector<DeviceBackendInfo> table = {
        { B::Unknown, "", "", {}, {}, {} },
        { B::Cuda, "cuda", "CUDA",
            { "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cuCtxSynchronize",
                "cuStreamSynchronize", "cuEventSynchronize" },
            { "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel", "cuLaunchKernel",
                "cuLaunchKernelEx", "cudaGraphLaunch", "cuGraphLaunch" },
            { "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy2DAsync", "cudaMemcpyPeerAsync",
                "cudaMemset", "cudaMemsetAsync", "cuMemcpyAsync", "cuMemcpyHtoDAsync_v2",
                "cuMemcpyDtoHAsync_v2", "cuMemsetD8Async", "cuMemsetD32Async" } },
        { B::Rocm, "rocm", "ROCm/HIP",
            { "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipCtxSynchronize" },
            { "hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel", "hipExtModuleLaunchKernel",
                "hipLaunchCooperativeKernel", "hipGraphLaunch" },
            { "hipMemcpy", "hipMemcpyAsync", "hipMemcpyWithStream", "hipMemcpyHtoD", "hipMemcpyDtoH",
                "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync", "hipMemcpyDtoD", "hipMemcpyDtoDAsync",
                "hipMemset", "hipMemsetAsync", "hipMemsetD32Async" } },
        { B::Mtia, "mtia", "MTIA",
            { "synchronize", "synchronizeStream", "synchronizeDevice", "synchronizeEvent" },
            { "runFunction - job_prep_and_submit_for_execution" },
            { "enqueueCommand memcpyHtoDAsync", "enqueueCommand memcpyDtoHAsync",
                "enqueueCommand memcpyDtoDAsync" } },
        // Intel XPU (XPUPTI): Unified Runtime calls (ur*), older PI calls (pi*), Level Zero (ze*).
        { B::Xpu, "xpu", "Intel XPU",
            { "urQueueFinish", "urEventWait", "piQueueFinish", "piEventsWait", "zeCommandQueueSynchronize",
                "zeEventHostSynchronize", "zeFenceHostSynchronize" },
            { "urEnqueueKernelLaunch", "piEnqueueKernelLaunch", "zeCommandListAppendLaunchKernel" },
            { "urEnqueueUSMMemcpy", "urEnqueueUSMFill", "piextUSMEnqueueMemcpy", "piextUSMEnqueueMemset",
                "zeCommandListAppendMemoryCopy", "zeCommandListAppendMemoryFill" } },
        { B::PrivateUse1, "privateuse1", "PrivateUse1", {}, {}, {} },
    };
    return table;
}

const DeviceBackendInfo &deviceBackendInfo(DeviceBackend backend)
{
    for (const DeviceBackendInfo &b : deviceBackends())
        if (b.backend == backend)
            return b;
    return deviceBackends().front();
}

const BackendCategory *backendCategory(std::string_view category)
{
    static const std::unordered_map<std::string_view, const BackendCategory *> index = [] {
        std::unordered_map<std::string_view, const BackendCategory *> m;
        for (const BackendCategory &c : backendCategories())
            m.emplace(c.category, &c);
        return m;
    }();
    const auto it = index.find(category);
    return it == index.end() ? nullptr : it->second;
}

CategoryRole categoryRole(std::string_view category)
{
    const BackendCategory *c = backendCategory(category);
    return c ? c->role : CategoryRole::None;
}

std::vector<std::string_view> categoriesWithRoles(std::initializer_list<CategoryRole> roles)
{
    std::vector<std::string_view> out;
    for (const BackendCategory &c : backendCategories())
        if (std::find(roles.begin(), roles.end(), c.role) != roles.end())
            out.push_back(c.category);
    return out;
}

std::string sqlCategoryList(std::initializer_list<CategoryRole> roles)
{
    std::string out;
    for (std::string_view c : categoriesWithRoles(roles)) {
        out += out.empty() ? "'" : ", '";
        out.append(c); // the table's names have no quotes
        out += '\'';
    }
    return out.empty() ? std::string("NULL") : out;
}

std::string_view categoryRoleName(CategoryRole role)
{
    switch (role) {
    case R::None:
        return "none";
    case R::Kernel:
        return "kernel";
    case R::Memcpy:
        return "memcpy";
    case R::Memset:
        return "memset";
    case R::Graph:
        return "graph";
    case R::DeviceAnnotation:
        return "device_annotation";
    case R::Runtime:
        return "runtime";
    case R::Driver:
        return "driver";
    case R::Sync:
        return "sync";
    }
    return "none";
}

bool isSyncCall(std::string_view name)
{
    for (const DeviceBackendInfo &b : deviceBackends())
        if (inList(b.syncCalls, name))
            return true;
    return false;
}

std::string sqlSyncCallList()
{
    std::string out;
    for (const DeviceBackendInfo &b : deviceBackends())
        for (std::string_view call : b.syncCalls) {
            out += out.empty() ? "'" : ", '";
            out.append(call); // the table's names have no quotes
            out += '\'';
        }
    return out.empty() ? std::string("NULL") : out;
}

bool isLaunchCall(std::string_view name)
{
    for (const DeviceBackendInfo &b : deviceBackends())
        if (inList(b.launchCalls, name))
            return true;
    return false;
}

bool isMemcpyCall(std::string_view name)
{
    for (const DeviceBackendInfo &b : deviceBackends())
        if (inList(b.memcpyCalls, name))
            return true;
    return false;
}

QString deviceTypeId(DeviceBackend backend)
{
    const std::string_view id = deviceBackendInfo(backend).id;
    return QString::fromLatin1(id.data(), qsizetype(id.size()));
}

DeviceBackend deviceBackendFromId(QStringView id)
{
    if (id.isEmpty())
        return B::Unknown;
    for (const DeviceBackendInfo &b : deviceBackends())
        if (id == QLatin1String(b.id.data(), qsizetype(b.id.size())))
            return b.backend;
    return B::Unknown;
}

QString deviceTypeName(DeviceBackend backend)
{
    const std::string_view name = deviceBackendInfo(backend).name;
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

QString deviceNoun(DeviceBackend backend)
{
    switch (backend) {
    case B::Cuda:
    case B::Rocm:
    case B::Xpu:
        return QStringLiteral("GPU");
    case B::Mtia:
    case B::PrivateUse1:
    case B::Unknown:
        break;
    }
    return QStringLiteral("device");
}

void BackendEvidence::add(std::string_view category, std::string_view name)
{
    if (const BackendCategory *c = backendCategory(category))
        add(*c, name);
}

void BackendEvidence::add(const BackendCategory &category, std::string_view name)
{
    const BackendCategory *c = &category;
    if (c->backend != B::Unknown) {
        ++byBackend[int(c->backend)];
        return;
    }
    if (c->role == R::None)
        return;
    ++sharedDeviceEvents;
    if (isHostCallRole(c->role)) {
        if (startsWith(name, "hip"))
            ++hipCalls;
        else if (startsWith(name, "cu"))
            ++cudaCalls;
    }
}

DeviceBackend guessDeviceBackend(const BackendEvidence &e)
{
    // A backend's own categories name it; the most events win (a CUDA trace with a few cuda_sync
    // events is CUDA, an MTIA trace never writes CUDA's).
    int best = 0;
    for (int b = 1; b < 6; ++b)
        if (b != int(B::Cuda) && e.byBackend[b] > e.byBackend[best])
            best = b;
    if (best != 0)
        return DeviceBackend(best);
    if (e.sharedDeviceEvents == 0 && e.byBackend[int(B::Cuda)] == 0)
        return B::Unknown;
    // The shared (CUDA-shaped) categories: ROCm when its calls are hip* or its device says so.
    const bool amdName = e.deviceName.contains(QLatin1String("AMD"), Qt::CaseInsensitive)
        || e.deviceName.contains(QLatin1String("Instinct"), Qt::CaseInsensitive)
        || e.deviceName.contains(QLatin1String("Radeon"), Qt::CaseInsensitive);
    if (e.hipCalls > e.cudaCalls || e.rocmProperties || (e.hipCalls == e.cudaCalls && amdName))
        return B::Rocm;
    return B::Cuda;
}

DeviceBackend traceDeviceBackend(Workspace &ws, int64_t traceId)
{
    SqliteStmt st(ws.db(), "SELECT coalesce(device_type, '') FROM trace WHERE id = ?");
    st.bind(1, traceId);
    return st.step() ? deviceBackendFromId(st.columnText(0)) : B::Unknown;
}

} // namespace plumb
