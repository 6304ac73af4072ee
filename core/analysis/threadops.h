// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace plumb {

class SqliteDb;

// A CPU op of a trace's threads with an External id and args: how the analyses that link a named op
// to its kernels find it (flopsSummary() its matrix and attention ops, collectiveCalls() the
// record_param_comms that carry a collective's parameters).
struct ThreadOp {
    int64_t extId, nameId, argsId;
};

// The ops named by `names` that another pass over the thread tracks takes as it reads them, in
// readThreadOps()'s order (StepTimeHostPass does).
struct ThreadOpTap {
    std::unordered_set<int64_t> names;
    std::vector<ThreadOp> ops;
};

// The ops of the trace's thread tracks named by `nameIds`, in track id order, then in each track's
// (start, id) order: one pass over the thread tracks serves every analysis that gives its names.
[[nodiscard]] std::vector<ThreadOp> readThreadOps(
    SqliteDb &db, int64_t traceId, const std::unordered_set<int64_t> &nameIds);

} // namespace plumb
