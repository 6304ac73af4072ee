// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

// The fuzz targets: one per input format Plumb reads. Each takes arbitrary bytes and must return
// normally whatever they are (an import that fails with a message is a pass); a crash, a sanitizer
// report, a hang or a broken invariant (a failed import that changed the workspace) is a finding.
// The same functions run under libFuzzer (fuzzmain.cpp, clang builds with PLUMB_FUZZ=ON) and
// replay the committed corpora and crash regressions as ordinary tests (fuzzreplay.cpp).
namespace plumb::fuzz {

struct Target {
    const char *name;
    void (*run)(const uint8_t *data, size_t size);
    const char *description;
};

[[nodiscard]] const std::vector<Target> &targets();
[[nodiscard]] const Target *findTarget(std::string_view name);

} // namespace plumb::fuzz
