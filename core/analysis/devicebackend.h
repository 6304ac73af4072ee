// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plumb {

class Workspace;

// The accelerator a trace ran on, as PyTorch's profiler (Kineto) tells them apart. Stored in
// trace.device_type by its id (deviceTypeId()); Unknown is stored as NULL.
enum class DeviceBackend { Unknown, Cuda, Rocm, Mtia, Xpu, PrivateUse1 };

// What the events of a category are, whatever the backend wrote them.
enum class CategoryRole {
    None, // not a device or runtime category (cpu_op, user_annotation, flows, ...)
    Kernel, // a device op that computes (CUDA/HIP/XPU kernels, MTIA's CCP events; see memoryNamePrefixes)
    Memcpy, // a device op that copies memory
    Memset, // a device op that sets memory
    Graph, // a CUDA graph launch traced whole (Nsight): a device op, computation
    DeviceAnnotation, // a user annotation on a device stream (not work of its own)
    Runtime, // a host call into the device runtime (launches, copies, syncs)
    Driver, // a host call into the device driver
    Sync, // a synchronisation event as the profiler writes it apart from the calls (cuda_sync)
};

// One category spelling as Kineto writes it (today's names; older PyTorch spellings are read as
// these by the Chrome-trace importer), the role of its events and the backend it is unique to
// (Unknown: shared, e.g. 'kernel' is CUDA's, HIP's, XPU's and PrivateUse1's).
struct BackendCategory {
    std::string_view category;
    CategoryRole role;
    DeviceBackend backend;
    // Device ops of this category whose name starts with one of these move memory (MTIA: dma_request).
    std::vector<std::string_view> memoryNamePrefixes;
    // Device ops of this category that Holistic Trace Analysis counts as busy time but as no kernel
    // type (neither computation, communication nor memory). See docs/formats.md, "Accelerators".
    std::vector<std::string_view> htaUntypedOps;
    // Device ops of this category that wait rather than work (a stream waiting on, or recording, an
    // event another stream signals): no device work in Plumb's own modes, so a stream held by a wait
    // is not "computing" and the work it waits for counts where it runs; HTA counts them as computation.
    std::vector<std::string_view> waitOps;
};

// One backend: its names and the host calls of its runtime that matter to the analyses.
struct DeviceBackendInfo {
    DeviceBackend backend;
    std::string_view id; // as stored and in JSON: "cuda", "rocm", "mtia", "xpu", "privateuse1"
    std::string_view name; // for people: "CUDA", "ROCm/HIP", "MTIA", "Intel XPU", "PrivateUse1"
    std::vector<std::string_view> syncCalls; // host calls that block until the device has finished
    std::vector<std::string_view> launchCalls; // host calls that start a kernel
    std::vector<std::string_view> memcpyCalls; // host calls that start a copy (or set)
};

// The one table: every device, runtime and sync category Plumb reads, and every backend.
[[nodiscard]] const std::vector<BackendCategory> &backendCategories();
[[nodiscard]] const std::vector<DeviceBackendInfo> &deviceBackends();
[[nodiscard]] const DeviceBackendInfo &deviceBackendInfo(DeviceBackend backend);

// The entry for `category`, nullptr when it is none of the table's.
[[nodiscard]] const BackendCategory *backendCategory(std::string_view category);
[[nodiscard]] CategoryRole categoryRole(std::string_view category);
// The categories of the given roles (for SQL `IN (...)` lists and string-id look-ups).
[[nodiscard]] std::vector<std::string_view> categoriesWithRoles(std::initializer_list<CategoryRole> roles);
// The same as an SQL list of quoted literals ("'kernel', 'mtia_ccp_events'"); "NULL" when none.
[[nodiscard]] std::string sqlCategoryList(std::initializer_list<CategoryRole> roles);
[[nodiscard]] inline bool isDeviceOpRole(CategoryRole r)
{
    return r == CategoryRole::Kernel || r == CategoryRole::Memcpy || r == CategoryRole::Memset
        || r == CategoryRole::Graph;
}
[[nodiscard]] inline bool isHostCallRole(CategoryRole r)
{
    return r == CategoryRole::Runtime || r == CategoryRole::Driver;
}
// A role's name as the device_category table and docs/sql.md write it ("kernel", "runtime", ...).
[[nodiscard]] std::string_view categoryRoleName(CategoryRole role);

// Whether `name` is a synchronising host call of any backend (cudaDeviceSynchronize,
// hipStreamSynchronize, MTIA's synchronizeStream, ...).
[[nodiscard]] bool isSyncCall(std::string_view name);
// Every backend's synchronising calls as an SQL list of quoted literals (for a prefilter on `string`).
[[nodiscard]] std::string sqlSyncCallList();
[[nodiscard]] bool isLaunchCall(std::string_view name);
[[nodiscard]] bool isMemcpyCall(std::string_view name);

[[nodiscard]] QString deviceTypeId(DeviceBackend backend); // empty for Unknown
[[nodiscard]] DeviceBackend deviceBackendFromId(QStringView id); // Unknown for anything else
[[nodiscard]] QString deviceTypeName(DeviceBackend backend); // "ROCm/HIP"; empty for Unknown
// The word for one of the backend's accelerators in the UI's sentences: "GPU" for CUDA, ROCm and
// Intel XPU, "device" for MTIA, PrivateUse1 and an unknown accelerator.
[[nodiscard]] QString deviceNoun(DeviceBackend backend);

// What an importer saw of a trace, to tell its backend.
struct BackendEvidence {
    int64_t byBackend[6] {}; // events of categories unique to each backend, by DeviceBackend
    int64_t sharedDeviceEvents = 0; // events of shared device or runtime categories (kernel, cuda_runtime...)
    int64_t hipCalls = 0; // runtime calls named hip*
    int64_t cudaCalls = 0; // runtime calls named cuda* / cu*
    QString deviceName; // deviceProperties[0].name, when the file has it
    bool rocmProperties = false; // deviceProperties carry ROCm's fields (gcnArchName)

    // Counts one event of `category` named `name`.
    void add(std::string_view category, std::string_view name);
    void add(const BackendCategory &category, std::string_view name);
};
// The backend the evidence names; Unknown for a trace with no device or runtime events.
[[nodiscard]] DeviceBackend guessDeviceBackend(const BackendEvidence &evidence);

// trace.device_type of a trace in the workspace.
[[nodiscard]] DeviceBackend traceDeviceBackend(Workspace &ws, int64_t traceId);

} // namespace plumb
