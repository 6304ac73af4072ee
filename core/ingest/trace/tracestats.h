// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace plumb {

// Counts kept while a trace streams in; written to the trace row.
struct TraceStats {
    int64_t events = 0; // input events read (all phases)
    int64_t slices = 0;
    int64_t kernels = 0;
    int64_t gpuOps = 0; // kernels + memcpy + memset
    int64_t flows = 0; // all flows, including corrFlows
    int64_t corrFlows = 0; // launch flows represented by slice.corr (see TraceSink::addCorrelationFlows)
    int64_t counters = 0;
    int64_t startNs = INT64_MAX;
    int64_t endNs = INT64_MIN;
};

} // namespace plumb
