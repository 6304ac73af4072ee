// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace plumb {

// The depths of the slices that start at one time on a track, the starts taken in time order: the
// longest first, each one level below the slices still open at its start, as (ts, dur desc) order nests
// them. `ends` holds the ends of the open slices from start to start (the innermost last). Sorts `group`
// longest first (stable) and calls f(slice, depth) for each; Slice has ts and dur.
template <class Slice, class F>
void nestOneStart(std::vector<Slice> &group, std::vector<int64_t> &ends, F &&f)
{
    std::stable_sort(
        group.begin(), group.end(), [](const Slice &a, const Slice &b) { return a.dur > b.dur; });
    for (Slice &s : group) {
        while (!ends.empty() && ends.back() <= s.ts) {
            ends.pop_back();
        }
        const auto depth = int64_t(ends.size());
        ends.push_back(s.ts + s.dur);
        f(s, depth);
    }
}

} // namespace plumb
