// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer entry point of one target, chosen at compile time (PLUMB_FUZZ_TARGET).
#include "fuzztargets.h"

#include <cstdio>
#include <cstdlib>

namespace {
const plumb::fuzz::Target *target()
{
    static const plumb::fuzz::Target *t = [] {
        const plumb::fuzz::Target *found = plumb::fuzz::findTarget(PLUMB_FUZZ_TARGET);
        if (!found) {
            std::fprintf(stderr, "no fuzz target named %s\n", PLUMB_FUZZ_TARGET);
            std::abort();
        }
        return found;
    }();
    return t;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    target()->run(data, size);
    return 0;
}
