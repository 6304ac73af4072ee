// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Converts what the CUPTI collector gathered (cuptirecords.h) into a Chrome trace as PyTorch's
// Kineto writes it, so the Chrome trace importer, Holistic Trace Analysis and Perfetto all read it:
//
//   {"schemaVersion":1, "plumbCupti":{...}, "deviceProperties":[...], "baseTimeNanoseconds":0,
//    "traceEvents":[ M names, X CUDA API calls + ac2g "s", X GPU ops + ac2g "f", X NVTX ranges ]}
//
// CPU events (API calls, NVTX) sit at pid = process id, tid = thread id; GPU events (kernels,
// memcpy, memset, synchronisation) at pid = device id, tid = stream id (-1 for a context-wide
// synchronise, as Kineto writes it). ts and dur are µs with exactly three decimals, printed from the
// integer ns (a double would lose the last digits of an epoch time). Timestamps are written as
// recorded, so baseTimeNanoseconds is 0.
//
// Launch flows follow Kineto: one "ac2g" pair per GPU op whose launching API call was recorded,
// id = correlation id, "s" at the call's start, "f" with bp "e" at the GPU op's start. When the
// runtime call and the driver call beneath it share the correlation id, the flow starts at the
// runtime call.
//
// NVTX ranges are paired here from their start and end records (by marker id); a start without an
// end is written with duration 0 and args.unfinished, an end without a start is dropped; both are
// counted in plumbCupti.
//
// As Kineto projects user annotations onto the GPU, each NVTX range is also written on every stream
// its launches fed, as a "gpu_user_annotation" X event from its first GPU op's start to its last
// one's end (args."GPU ops": how many), for the enclosing ranges too (core/rangeprojection.h).

#include "cupti/cuptirecords.h"

#include <cstdio>
#include <string>

namespace plumb::cupti {

struct WriteOptions {
    uint32_t processId = 0;
    std::string processName; // the CPU process's name in the trace; "process <pid>" when empty
    std::string clock; // what the timestamps count, recorded in plumbCupti.clock
    uint64_t bufferBytes = 0; // activity buffer size, recorded in plumbCupti
};

struct WriteStats {
    uint64_t events = 0; // traceEvents written, flows and metadata included
    uint64_t flows = 0; // ac2g pairs
    uint64_t unfinishedRanges = 0; // NVTX starts without an end
    uint64_t orphanRangeEnds = 0; // NVTX ends without a start
};

// Writes the trace to `out`, streaming through a bounded buffer. False on an I/O error.
[[nodiscard]] bool writeChromeTrace(
    std::FILE *out, const CollectedTrace &trace, const WriteOptions &options, WriteStats *stats = nullptr);

// Writes to `path` + ".partial" and renames it into place, so a reader never sees half a file.
// False (with `error` set) when the file cannot be written.
[[nodiscard]] bool writeChromeTraceFile(const std::string &path, const CollectedTrace &trace,
    const WriteOptions &options, std::string *error = nullptr, WriteStats *stats = nullptr);

// Kineto's names: "Memcpy HtoD (Pageable -> Device)", "Memset (Device)", "Stream Sync".
[[nodiscard]] std::string memcpyName(uint8_t copyKind, uint8_t srcKind, uint8_t dstKind);
[[nodiscard]] std::string memsetName(uint16_t memoryKind);
[[nodiscard]] const char *memcpyKindName(uint8_t copyKind);
[[nodiscard]] const char *memoryKindName(uint16_t memoryKind);
[[nodiscard]] const char *syncName(SyncType type);

} // namespace plumb::cupti
