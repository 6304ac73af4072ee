// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/threadops.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

namespace plumb {

class SqliteDb;
class KeptSlices;
class Workspace;

// How much arithmetic the matrix and attention ops of a trace did, how fast their kernels did it, and
// how that compares with what the GPU can do: "achieved vs peak" for a compute-bound verdict.
//
// FLOPs come from the shapes the PyTorch profiler records with record_shapes=True ("Input Dims",
// "Input type", "Concrete Inputs" of a cpu_op), counted as PyTorch's own flop counter
// (torch.utils.flop_counter) counts them: a multiply-add is 2 FLOPs; mm/addmm/_scaled_mm [M,K]x[K,N]
// 2MKN; bmm/baddbmm 2BMKN; a convolution 2 x output elements x Cin/groups x kernel size (its
// backward the same for each of grad input and grad weight it computes); attention 4 x B x H x Lq x
// Lk x D forward (two matmuls; causal masking not discounted, as PyTorch counts it) and 2.5x that
// backward. Only the innermost ops count (the ones Kineto links kernels to through "External id"), so
// nothing is counted twice; a varlen (packed) attention, whose sequence lengths are not in the shapes,
// is not counted.
enum class FlopsDtype { Fp32, Tf32, Bf16, Fp16, Fp8, Other };

struct OpFlops {
    double flops = 0;
    FlopsDtype dtype = FlopsDtype::Other;
    QString shape; // the shapes that decided, e.g. "[8944,1024]x[1024,2816]"
};

// The FLOPs of one op from its name and args JSON (the compact object the importer stores); nullopt
// for ops this does not know or shapes it cannot read.
[[nodiscard]] std::optional<OpFlops> opFlops(const QString &name, const QByteArray &argsJson);

[[nodiscard]] QString dtypeName(FlopsDtype d);

// Dense (no sparsity) tensor-core peak of a GPU for a dtype, in TFLOP/s, from NVIDIA's data sheets,
// told by the name the profiler wrote (deviceProperties / the device table) and its SM count where
// the name is ambiguous; 0 when the GPU or the dtype is not in the table. fp32 is the CUDA-core peak
// (PyTorch does not use TF32 for matmuls unless allowed), tf32 the tensor-core one.
[[nodiscard]] double peakTflops(const QString &deviceName, int smCount, FlopsDtype dtype);

// One (op, shape, dtype) of the trace.
struct FlopsEntry {
    QString op;
    QString shape;
    FlopsDtype dtype = FlopsDtype::Other;
    int64_t count = 0; // ops of this shape whose kernels were found
    double flops = 0; // all of them
    int64_t kernelNs = 0; // GPU time of their kernels
    [[nodiscard]] double tflops() const { return kernelNs > 0 ? flops / double(kernelNs) / 1e3 : 0; }
};

struct FlopsSummary {
    QString device; // the GPU the kernels ran on (the first, when several)
    int64_t ops = 0; // ops counted: FLOPs known and kernels found
    int64_t opsWithoutKernels
        = 0; // FLOPs known, no kernel linked (the op ran elsewhere, or before the trace)
    double flops = 0;
    int64_t kernelNs = 0; // GPU time of their kernels
    double peakTflops = 0; // of the dominant dtype (most FLOPs) on `device`; 0 when unknown
    FlopsDtype dtype = FlopsDtype::Other;
    std::vector<FlopsEntry> entries; // by kernel time, longest first
    [[nodiscard]] double achievedTflops() const { return kernelNs > 0 ? flops / double(kernelNs) / 1e3 : 0; }
    // Achieved over peak (0..1); 0 when the peak is unknown.
    [[nodiscard]] double peakShare() const { return peakTflops > 0 ? achievedTflops() / peakTflops : 0; }
    // Achieved above the device's peak: the recorded shapes or the kernels' durations are not what the
    // FLOP estimate assumes, so no share of the peak is shown as true.
    [[nodiscard]] bool abovePeak() const { return peakTflops > 0 && achievedTflops() > peakTflops; }
};

// A rate's share of the peak as printed: "69%", "above the peak" when it exceeds it, "-" when the peak is
// unknown.
[[nodiscard]] QString peakShareText(double tflops, double peakTflops, int decimals = 0);

// The trace's ops with known FLOPs, joined to the GPU kernels sharing their External id (read from the
// rows the import kept, `kept`, for the tracks it kept).
[[nodiscard]] FlopsSummary flopsSummary(Workspace &ws, int64_t traceId,
    const std::vector<ThreadOp> *threadOps = nullptr, const KeptSlices *kept = nullptr);
// The string ids of the ops flopsSummary() counts (`threadOps`, when given, holds at least those).
[[nodiscard]] std::unordered_set<int64_t> flopsOpNameIds(SqliteDb &db);

// "GEMM/attention: 312 TFLOP/s of the H100's 989 bf16 (32%) over 41% of compute time", or empty when
// no op had known FLOPs. `computeNs`: the trace's computation time, for the share its kernels cover.
[[nodiscard]] QString flopsEvidence(const FlopsSummary &s, int64_t computeNs);

} // namespace plumb
