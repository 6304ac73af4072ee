// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace plumb::bench {

// Synthetic PyTorch profiler (Kineto) traces for benchmarks: a simulated training job (a transformer
// split across the GPUs of one process, DDP-style all-reduce buckets, AdamW) written the way Kineto
// writes it: CPU ops first (ProfilerStep#N annotations, nested cpu_op slices on the main and autograd
// threads, fwdbwd flows), then the CUPTI activity (cuda_runtime calls, kernels, memcpy/memset, ac2g
// flows s -> f), then process/thread metadata, the profiler span and the top-level footer. GPU work is
// queued behind its launches on per-device streams (7 compute, 20 communication), so kernel start
// times, gaps and queueing follow from the simulation. Deterministic: same options, same bytes.
struct KinetoTraceOptions {
    int64_t events = 1'000'000; // stops after the first step that reaches this many events
    uint64_t seed = 1;
    int devices = 8; // deviceProperties entries and GPUs the layers are spread over (1..16)
    int layers = 0; // transformer blocks per step; 0: 24, fewer for small traces
    double shapesFraction = 0.8; // share of cpu_op events carrying "Input Dims"/"Input type"
    bool kinetoLayout = false; // Kineto's own multi-line layout instead of one event per line
    // The GPU activity out of order as CUPTI's buffers can come: every N-th chunk of about 1 MB of
    // events written before the one ahead of it (0: in time order), so that each runtime-call track and
    // GPU stream comes in ordered runs.
    int swapActivityChunks = 0;
    bool gzip = false;
    int gzipLevel = 6;
};

struct KinetoTraceStats {
    int64_t events = 0; // entries of traceEvents
    int64_t uncompressedBytes = 0; // JSON text
    int64_t fileBytes = 0; // on disk (compressed when gzip)
    int64_t steps = 0;
    int64_t cpuOps = 0;
    int64_t userAnnotations = 0; // user_annotation + gpu_user_annotation
    int64_t runtime = 0; // cuda_runtime
    int64_t launches = 0; // runtime calls with a GPU activity (correlated)
    int64_t kernels = 0;
    int64_t memcpys = 0;
    int64_t memsets = 0;
    int64_t flowStarts = 0; // ph "s" (ac2g + fwdbwd)
    int64_t flowEnds = 0; // ph "f"
    int64_t metadata = 0; // ph "M"
    int64_t other = 0; // profiler span, instant events
};

// Writes a trace to `path` (gzip-compressed when options.gzip). Returns false with *error set when the
// file cannot be written.
bool writeKinetoTrace(
    const std::string &path, const KinetoTraceOptions &options, KinetoTraceStats *stats, std::string *error);

} // namespace plumb::bench
