// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/kinetocategory.h"

#include <unordered_map>
#include <utility>

namespace plumb::chrometrace {

const KinetoCategory *KinetoCategory::find(std::string_view cat, bool &legacy)
{
    static const std::unordered_map<std::string_view, std::pair<KinetoCategory, bool>> table = {
        { "kernel", { { "kernel", CatClass::Kernel }, false } },
        { "Kernel", { { "kernel", CatClass::Kernel }, true } },
        { "gpu_memcpy", { { "gpu_memcpy", CatClass::Memcpy }, false } },
        { "Memcpy", { { "gpu_memcpy", CatClass::Memcpy }, true } },
        { "gpu_memset", { { "gpu_memset", CatClass::Memset }, false } },
        { "Memset", { { "gpu_memset", CatClass::Memset }, true } },
        { "gpu_user_annotation", { { "gpu_user_annotation", CatClass::GpuAnnotation }, false } },
        { "cuda_runtime", { { "cuda_runtime", CatClass::Runtime }, false } },
        { "Runtime", { { "cuda_runtime", CatClass::Runtime }, true } },
        { "cuda_driver", { { "cuda_driver", CatClass::Runtime }, false } },
        { "cpu_op", { { "cpu_op", CatClass::CpuOp }, false } },
        { "Operator", { { "cpu_op", CatClass::CpuOp }, true } },
        { "ac2g", { { "ac2g", CatClass::Other }, false } },
        { "async_cpu_to_gpu", { { "ac2g", CatClass::Other }, true } },
        { "fwdbwd", { { "fwdbwd", CatClass::Other }, false } },
        { "fwd_bwd", { { "fwdbwd", CatClass::Other }, true } },
        { "forward_backward", { { "fwdbwd", CatClass::Other }, true } },
    };
    auto it = table.find(cat);
    if (it == table.end()) {
        return nullptr;
    }
    legacy = it->second.second;
    return &it->second.first;
}

} // namespace plumb::chrometrace
