// SPDX-License-Identifier: GPL-3.0-or-later
// gen_kineto_trace: writes a synthetic PyTorch profiler (Kineto) trace for benchmarks.
//
//   gen_kineto_trace [-n EVENTS] [--seed S] [--devices D] [--layers L] [--shapes F]
//                    [--kineto-layout] [--swap-activity N] [--gzip] [--level 1-9] -o FILE

#include "kinetotracegen.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void usage()
{
    std::fprintf(stderr,
        "usage: gen_kineto_trace [-n EVENTS] [--seed S] [--devices D] [--layers L] [--shapes FRACTION]\n"
        "                        [--kineto-layout] [--swap-activity N] [--gzip] [--level 1-9] -o FILE\n"
        "Writes a deterministic synthetic PyTorch profiler trace of about EVENTS events (default 1000000).\n"
        "EVENTS accepts k/M suffixes (500k, 5M). --kineto-layout writes Kineto's multi-line layout\n"
        "instead of one event per line; --swap-activity N writes every N-th chunk (about 1 MB) of the GPU\n"
        "activity before the one ahead of it, as CUPTI's buffers can come, so that runtime-call tracks and\n"
        "GPU streams come in ordered runs; --gzip compresses (zlib level --level, default 6).\n");
}

long long parseCount(const char *s)
{
    char *end = nullptr;
    const double v = std::strtod(s, &end);
    double mult = 1;
    if (end && (*end == 'k' || *end == 'K'))
        mult = 1e3;
    else if (end && (*end == 'm' || *end == 'M'))
        mult = 1e6;
    return static_cast<long long>(v * mult);
}

double pct(long long part, long long whole)
{
    return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

} // namespace

int main(int argc, char **argv)
{
    plumb::bench::KinetoTraceOptions o;
    std::string out;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "-n" || a == "--events")
            o.events = parseCount(next());
        else if (a == "--seed")
            o.seed = std::strtoull(next(), nullptr, 10);
        else if (a == "--devices")
            o.devices = std::atoi(next());
        else if (a == "--layers")
            o.layers = std::atoi(next());
        else if (a == "--shapes")
            o.shapesFraction = std::atof(next());
        else if (a == "--kineto-layout")
            o.kinetoLayout = true;
        else if (a == "--swap-activity")
            o.swapActivityChunks = std::atoi(next());
        else if (a == "--gzip")
            o.gzip = true;
        else if (a == "--level")
            o.gzipLevel = std::atoi(next());
        else if (a == "--json")
            json = true;
        else if (a == "-o" || a == "--output")
            out = next();
        else if (a == "-h" || a == "--help") {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "gen_kineto_trace: unknown argument %s\n", a.c_str());
            usage();
            return 2;
        }
    }
    if (out.empty() || o.events <= 0) {
        usage();
        return 2;
    }

    const auto t0 = std::chrono::steady_clock::now();
    plumb::bench::KinetoTraceStats s;
    std::string error;
    if (!plumb::bench::writeKinetoTrace(out, o, &s, &error)) {
        std::fprintf(stderr, "gen_kineto_trace: %s\n", error.c_str());
        return 1;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const long long e = s.events;
    if (json) {
        std::printf(
            "{\"file\": \"%s\", \"events\": %lld, \"bytes\": %lld, \"file_bytes\": %lld, \"steps\": %lld, "
            "\"cpu_op\": %lld, \"user_annotation\": %lld, \"cuda_runtime\": %lld, \"kernel\": %lld, "
            "\"gpu_memcpy\": %lld, \"gpu_memset\": %lld, \"flow_s\": %lld, \"flow_f\": %lld, "
            "\"metadata\": %lld, \"other\": %lld, \"seconds\": %.3f}\n",
            out.c_str(), e, (long long)s.uncompressedBytes, (long long)s.fileBytes, (long long)s.steps,
            (long long)s.cpuOps, (long long)s.userAnnotations, (long long)s.runtime, (long long)s.kernels,
            (long long)s.memcpys, (long long)s.memsets, (long long)s.flowStarts, (long long)s.flowEnds,
            (long long)s.metadata, (long long)s.other, secs);
        return 0;
    }
    std::printf("%s: %lld events, %lld steps, %.1f MB JSON (%.1f bytes/event)", out.c_str(), e,
        (long long)s.steps, double(s.uncompressedBytes) / 1e6,
        e ? double(s.uncompressedBytes) / double(e) : 0.0);
    if (o.gzip)
        std::printf(", %.1f MB gzip", double(s.fileBytes) / 1e6);
    std::printf(", written in %.1f s\n", secs);
    std::printf(
        "  cpu_op %.1f%%  cuda_runtime %.1f%%  flows %.1f%% (s %lld, f %lld)  kernel %.1f%%  memcpy %.1f%%  "
        "memset %.1f%%  annotations %.1f%%  metadata/other %.1f%%\n",
        pct(s.cpuOps, e), pct(s.runtime, e), pct(s.flowStarts + s.flowEnds, e), (long long)s.flowStarts,
        (long long)s.flowEnds, pct(s.kernels, e), pct(s.memcpys, e), pct(s.memsets, e),
        pct(s.userAnnotations, e), pct(s.metadata + s.other, e));
    return 0;
}
