// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/keptslices.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plumb {

class SqliteDb;

// Each slice of `track` in (ts, id) order, into `f`: from the rows its import kept (`kept`, see
// writeTraceSummary()) when it kept the track's, else read from the workspace, where `where` (an SQL
// condition on the slice table's columns, or empty) narrows what is read. `f` sees every kept row, so
// it tests what `where` tests itself. The slices' depth is left out.
void forEachTrackSlice(SqliteDb &db, const KeptSlices *kept, int64_t track, const std::string &where,
    const std::function<void(const KeptSlice &)> &f);

// The trace's GPU stream tracks, by id.
[[nodiscard]] std::vector<int64_t> gpuStreamTracks(SqliteDb &db, int64_t traceId);

} // namespace plumb
