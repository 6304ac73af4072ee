// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/kinetocategory.h"

#include "analysis/devicebackend.h"

#include <unordered_map>
#include <utility>

namespace plumb::chrometrace {

namespace {

CatClass classOf(CategoryRole role)
{
    switch (role) {
    case CategoryRole::Kernel:
    case CategoryRole::Graph:
        return CatClass::Kernel;
    case CategoryRole::Memcpy:
        return CatClass::Memcpy;
    case CategoryRole::Memset:
        return CatClass::Memset;
    case CategoryRole::DeviceAnnotation:
        return CatClass::GpuAnnotation;
    case CategoryRole::Runtime:
    case CategoryRole::Driver:
        return CatClass::Runtime;
    case CategoryRole::Sync:
    case CategoryRole::None:
        break;
    }
    return CatClass::Other;
}

} // namespace

const KinetoCategory *KinetoCategory::find(std::string_view cat, bool &legacy)
{
    // Today's spellings of every backend come from the one table (analysis/devicebackend.h) and are
    // kept as written; older PyTorch spellings are read as today's.
    static const std::unordered_map<std::string_view, std::pair<KinetoCategory, bool>> table = [] {
        std::unordered_map<std::string_view, std::pair<KinetoCategory, bool>> t = {
            { "Kernel", { { "kernel", CatClass::Kernel }, true } },
            { "Memcpy", { { "gpu_memcpy", CatClass::Memcpy }, true } },
            { "Memset", { { "gpu_memset", CatClass::Memset }, true } },
            { "Runtime", { { "cuda_runtime", CatClass::Runtime }, true } },
            { "cpu_op", { { "cpu_op", CatClass::CpuOp }, false } },
            { "Operator", { { "cpu_op", CatClass::CpuOp }, true } },
            { "ac2g", { { "ac2g", CatClass::Other }, false } },
            { "async_cpu_to_gpu", { { "ac2g", CatClass::Other }, true } },
            { "fwdbwd", { { "fwdbwd", CatClass::Other }, false } },
            { "fwd_bwd", { { "fwdbwd", CatClass::Other }, true } },
            { "forward_backward", { { "fwdbwd", CatClass::Other }, true } },
        };
        for (const BackendCategory &c : backendCategories())
            t.emplace(c.category, std::pair { KinetoCategory { c.category, classOf(c.role), &c }, false });
        for (auto &[spelling, entry] : t)
            if (!entry.first.backend)
                entry.first.backend = backendCategory(entry.first.canonical);
        return t;
    }();
    auto it = table.find(cat);
    if (it == table.end()) {
        return nullptr;
    }
    legacy = it->second.second;
    return &it->second.first;
}

} // namespace plumb::chrometrace
