// SPDX-License-Identifier: GPL-3.0-or-later
#include "rankjobgen.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace plumb::bench {

namespace {

uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A factor in [1 - jitter, 1 + jitter], the same for the same (seed, rank, step, k).
double jitterOf(const RankJobOptions &o, int rank, int step, int k)
{
    const uint64_t h = splitmix(o.seed ^ splitmix(uint64_t(rank) << 40 ^ uint64_t(step) << 16 ^ uint64_t(k)));
    const double u = double(h >> 11) / double(1ULL << 53); // [0, 1)
    return 1.0 + o.jitter * (2.0 * u - 1.0);
}

// A rank's events, written a step at a time in start order (a step's annotation, known last, first).
struct Writer {
    std::string out;
    std::vector<std::pair<int64_t, std::string>> step;
    void event(const char *cat, const std::string &name, int pid, int tid, int64_t ts, int64_t dur,
        const std::string &args = {})
    {
        char head[256];
        std::string e;
        std::snprintf(head, sizeof head, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"", cat);
        e += head;
        e += name;
        std::snprintf(head, sizeof head, "\",\"pid\":%d,\"tid\":%d,\"ts\":%lld,\"dur\":%lld", pid, tid,
            static_cast<long long>(ts), static_cast<long long>(dur));
        e += head;
        if (!args.empty())
            e += ",\"args\":{" + args + "}";
        e += "}";
        step.emplace_back(ts, std::move(e));
    }
    void endStep()
    {
        // By start; at the same start the enclosing slice was added last (its end is known last).
        std::stable_sort(step.begin(), step.end(), [](auto &a, auto &b) { return a.first < b.first; });
        for (size_t i = 0; i < step.size();) {
            size_t j = i;
            while (j < step.size() && step[j].first == step[i].first)
                ++j;
            std::reverse(step.begin() + ptrdiff_t(i), step.begin() + ptrdiff_t(j));
            i = j;
        }
        for (auto &[ts, e] : step) {
            if (!out.empty())
                out += ",\n";
            out += e;
        }
        step.clear();
    }
};

std::string ids(int64_t external, int64_t corr)
{
    std::string s = "\"External id\":" + std::to_string(external);
    if (corr > 0)
        s += ",\"correlation\":" + std::to_string(corr);
    return s;
}

} // namespace

bool writeRankJob(const std::string &dir, const RankJobOptions &o, std::string *error)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        *error = dir + ": " + ec.message();
        return false;
    }
    const int n = std::max(1, o.ranks);
    std::vector<Writer> w(size_t(n), Writer {});
    std::vector<int64_t> external(size_t(n), 1), corr(size_t(n), 1);
    int64_t stepStart = 1'000'000;
    const int computeStream = 7, commStream = 20;
    for (int step = 0; step < o.steps; ++step) {
        // Each rank up to its all-reduce launch; the all-reduce ends on every rank together.
        std::vector<int64_t> ready(static_cast<size_t>(n)), commLaunched(ready), cpuAt(ready);
        for (int r = 0; r < n; ++r) {
            Writer &x = w[size_t(r)];
            const int pid = 1000 + r, tid = 1000 + r;
            const double inputFactor = r == o.inputBoundRank ? o.inputFactor : 1.0;
            const double computeFactor = r == o.stragglerRank ? o.stragglerFactor : 1.0;
            int64_t c = stepStart;
            const int64_t input = int64_t(double(o.inputUs) * inputFactor * jitterOf(o, r, step, -1));
            x.event("cpu_op", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", pid, tid,
                c + 5, input);
            c += 5 + input + 5;
            int64_t gpuFree = 0;
            for (int k = 0; k < o.kernels; ++k) {
                const int64_t e = external[size_t(r)]++, id = corr[size_t(r)]++;
                x.event("cpu_op", "aten::mm", pid, tid, c, 20, ids(e, 0));
                x.event("cuda_runtime", "cudaLaunchKernel", pid, tid, c + 5, 10, ids(e, id));
                const int64_t start = std::max(c + 20, gpuFree);
                const int64_t dur = int64_t(double(o.kernelUs) * computeFactor * jitterOf(o, r, step, k));
                x.event("kernel",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1", 0,
                    computeStream, start, dur,
                    ids(e, id) + ",\"stream\":" + std::to_string(computeStream) + ",\"device\":0");
                gpuFree = start + dur;
                c += 25;
            }
            ready[size_t(r)] = gpuFree;
            cpuAt[size_t(r)] = c;
            commLaunched[size_t(r)] = c + 20;
        }
        int64_t allArrived = 0;
        for (int r = 0; r < n; ++r)
            allArrived = std::max(allArrived, std::max(ready[size_t(r)], commLaunched[size_t(r)]));
        const int64_t reduced = allArrived + o.transferUs;
        for (int r = 0; r < n; ++r) {
            Writer &x = w[size_t(r)];
            const int pid = 1000 + r, tid = 1000 + r;
            const int64_t c = cpuAt[size_t(r)];
            const int64_t e = external[size_t(r)]++, id = corr[size_t(r)]++;
            x.event("cpu_op", "record_param_comms", pid, tid, c, 20,
                ids(e, 0)
                    + ",\"Collective name\":\"allreduce\",\"Process Group Name\":\"0\","
                      "\"Process Group Description\":\"default_pg\",\"Group size\":"
                    + std::to_string(n)
                    + ",\"dtype\":\"BFloat16\",\"In msg nelems\":25165824,\"Out msg nelems\":25165824");
            x.event("cuda_runtime", "cudaLaunchKernel", pid, tid, c + 5, 10, ids(e, id));
            const int64_t start = std::max(ready[size_t(r)], commLaunched[size_t(r)]);
            x.event("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, commStream, start,
                reduced - start, ids(e, id) + ",\"stream\":" + std::to_string(commStream) + ",\"device\":0");
            x.event("cuda_runtime", "cudaStreamSynchronize", pid, tid, c + 25, reduced + 10 - (c + 25));
            x.event("user_annotation", "ProfilerStep#" + std::to_string(step), pid, tid, stepStart,
                reduced + 20 - stepStart);
            x.endStep();
        }
        stepStart = reduced + 30;
    }
    for (int r = 0; r < n; ++r) {
        const std::string path = dir + "/rank-" + std::to_string(r) + ".json";
        std::ofstream f(path, std::ios::binary);
        f << "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" << r
          << ",\"world_size\":" << n
          << "},\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":"
             "85045477376,\"computeMajor\":9,\"computeMinor\":0,\"numSms\":132}],\"traceEvents\":[\n"
          << w[size_t(r)].out
          << "\n],\"displayTimeUnit\":\"ms\",\"baseTimeNanoseconds\":1700000000000000000}\n";
        if (!f.good()) {
            *error = path + ": cannot be written";
            return false;
        }
    }
    return true;
}

} // namespace plumb::bench
