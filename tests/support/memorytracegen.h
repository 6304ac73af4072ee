// SPDX-License-Identifier: GPL-3.0-or-later
// A PyTorch profiler trace of memory events (profile_memory=True) with what they add up to, for the
// memory timeline's tests and its benchmark.
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace plumb::testgen {

struct MemoryTraceSpec {
    int64_t events = 1000; // memory instants in all
    int devices = 1; // GPUs 0..devices-1, events spread over them at random
    uint32_t seed = 1;
    // Bytes allocated on each GPU before the capture began: in the totals, in no event. Some of it is
    // freed during the capture (frees no allocation of the trace matches).
    int64_t preCaptureBytes = 0;
    int cycleEvents = 4000; // events of one grow-then-shrink cycle
    int growPercent = 62; // chance of an allocation in the growing half of each cycle (100 - it: shrinking)
    bool truth = true; // compute MemoryTraceTruth (a copy of the live set at each new peak)
};

// An allocation as the generator made it.
struct GeneratedAllocation {
    int64_t tsNs = 0;
    int64_t bytes = 0;
    int64_t addr = 0;
    QString op; // the innermost op around it; empty when none
};

// What each device's events add up to, computed while generating (not by the code under test).
struct GeneratedDevice {
    int64_t events = 0;
    int64_t allocations = 0;
    int64_t frees = 0;
    int64_t unmatchedFrees = 0;
    int64_t peakAllocated = 0;
    int64_t peakNs = 0;
    int64_t reservedAtPeak = 0;
    int64_t peakReserved = 0;
    int64_t maxReservedMinusAllocated = 0;
    std::vector<GeneratedAllocation> liveAtPeak; // in allocation order
    std::vector<GeneratedAllocation> all; // every allocation
};

struct MemoryTraceTruth {
    std::vector<GeneratedDevice> devices; // by index
    int64_t ops = 0; // CPU op slices written
};

// The trace as Kineto writes it: on one thread, ops ("aten::linear" holding "aten::addmm", and others)
// with the memory instants inside them, some between ops; times in µs with 3 decimals.
[[nodiscard]] QByteArray memoryTraceJson(const MemoryTraceSpec &spec, MemoryTraceTruth *truth = nullptr);

} // namespace plumb::testgen
