// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace plumb {

// a + b and a - b clamped to int64's range: for times and durations from files that may hold anything
// (a crafted or damaged trace's timestamps near the limits).
[[nodiscard]] inline int64_t satAdd(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

[[nodiscard]] inline int64_t satSub(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? INT64_MAX : INT64_MIN;
    return r;
}

} // namespace plumb
