// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace plumb {
struct BackendCategory;
}

namespace plumb::chrometrace {

// What a category makes of an event: device work (kernel, copy, set, a stream's annotation), a
// runtime or driver call of any backend (CUDA, HIP, MTIA, XPU, PrivateUse1), a CPU op, or anything else.
enum class CatClass { Other, Kernel, Memcpy, Memset, GpuAnnotation, Runtime, CpuOp };

// Category spellings across PyTorch profiler versions (2021 "Kernel"/"Memcpy"/"Runtime"/"Operator",
// 2022 "async_cpu_to_gpu" flows) mapped onto today's names, so analyses see one vocabulary.
struct KinetoCategory {
    std::string_view canonical;
    CatClass cls;
    const BackendCategory *backend = nullptr; // its entry in the device backend table, if any

    // The category `cat` names, nullptr when it is none Kineto writes; `legacy` says whether `cat` is
    // an older spelling.
    [[nodiscard]] static const KinetoCategory *find(std::string_view cat, bool &legacy);
};

[[nodiscard]] inline bool isGpuClass(CatClass c)
{
    return c == CatClass::Kernel || c == CatClass::Memcpy || c == CatClass::Memset
        || c == CatClass::GpuAnnotation;
}

} // namespace plumb::chrometrace
