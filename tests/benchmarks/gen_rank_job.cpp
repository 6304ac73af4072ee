// SPDX-License-Identifier: GPL-3.0-or-later
// gen_rank_job: writes a synthetic multi-rank training job, one Kineto trace per rank (rankjobgen.h).
//
//   gen_rank_job -o DIR [--ranks 32] [--steps 8] [--kernels 4] [--straggler 5] [--input-bound 9] [--seed 1]
//
// --straggler -1 / --input-bound -1: no such rank.

#include "rankjobgen.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
    plumb::bench::RankJobOptions o;
    std::string dir;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "-o" && hasValue)
            dir = argv[++i];
        else if (a == "--ranks" && hasValue)
            o.ranks = std::atoi(argv[++i]);
        else if (a == "--steps" && hasValue)
            o.steps = std::atoi(argv[++i]);
        else if (a == "--kernels" && hasValue)
            o.kernels = std::atoi(argv[++i]);
        else if (a == "--straggler" && hasValue)
            o.stragglerRank = std::atoi(argv[++i]);
        else if (a == "--input-bound" && hasValue)
            o.inputBoundRank = std::atoi(argv[++i]);
        else if (a == "--seed" && hasValue)
            o.seed = std::strtoull(argv[++i], nullptr, 10);
        else {
            std::fprintf(stderr,
                "usage: gen_rank_job -o DIR [--ranks N] [--steps N] [--kernels N] [--straggler R] "
                "[--input-bound R] [--seed S]\n");
            return 2;
        }
    }
    if (dir.empty() || o.ranks < 1 || o.steps < 1 || o.kernels < 1) {
        std::fprintf(stderr, "gen_rank_job: -o DIR is needed, and positive counts\n");
        return 2;
    }
    std::string error;
    if (!plumb::bench::writeRankJob(dir, o, &error)) {
        std::fprintf(stderr, "gen_rank_job: %s\n", error.c_str());
        return 1;
    }
    std::printf("%s: %d ranks, %d steps, %d kernels a step\n", dir.c_str(), o.ranks, o.steps, o.kernels);
    return 0;
}
