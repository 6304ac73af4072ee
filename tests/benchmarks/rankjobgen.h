// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace plumb::bench {

// A synthetic data-parallel training job: one PyTorch profiler (Kineto) trace per rank, `rank-N.json`,
// with `distributedInfo` (rank, world size). Each step on each rank: the DataLoader's __next__ (input),
// `kernels` compute kernels launched back to back, then an all-reduce (record_param_comms with its
// process group, and its NCCL kernel) that ends on every rank when the last rank arrives plus the
// transfer, while the host waits in cudaStreamSynchronize. All ranks share one clock, so the arrival
// order is the ready times' order. One rank computes `stragglerFactor` times longer (the straggler:
// the others wait for it in every all-reduce); another spends `inputFactor` times longer in its input
// pipeline, yet arrives before the straggler. Deterministic: same options, same bytes.
struct RankJobOptions {
    int ranks = 32;
    int steps = 8;
    int kernels = 4; // compute kernels per step
    int64_t kernelUs = 3000; // each, on an ordinary rank
    int64_t inputUs = 2000; // DataLoader per step on an ordinary rank
    int64_t transferUs = 1500; // the all-reduce after the last rank arrives
    int stragglerRank = 5; // -1: none
    double stragglerFactor = 1.5;
    int inputBoundRank = 9; // -1: none
    double inputFactor = 2.5;
    double jitter = 0.02; // each kernel and input +- this share, from `seed`
    uint64_t seed = 1;
};

// Writes the ranks' traces into `dir` (created). Returns false with *error set when a file cannot be
// written.
bool writeRankJob(const std::string &dir, const RankJobOptions &options, std::string *error);

} // namespace plumb::bench
