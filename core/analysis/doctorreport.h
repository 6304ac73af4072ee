// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/collectives.h"
#include "analysis/devicebackend.h"
#include "analysis/flops.h"
#include "analysis/hostanalysis.h"
#include "analysis/idlebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/launchstats.h"
#include "analysis/memcpystats.h"
#include "analysis/rankcomparison.h"
#include "analysis/stepbreakdown.h"
#include "analysis/steptime.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/verdict.h"

#include <vector>

namespace plumb {

class KeptSlices;
class Workspace;

// Everything the doctor says about one trace, computed from one read of its GPU ops: what
// `plumb doctor`, the Doctor tab and bench_doctor share.
struct DoctorReport {
    TemporalBreakdown overall;
    std::vector<StepBreakdown> steps; // each step's GPU window (the second view)
    StepTimeBreakdown stepTime; // each step's wall time: stepTime.steps[i] is steps[i]
    std::vector<KernelStats> kernels;
    std::vector<StreamIdle> idle;
    HostAnalysis host;
    LaunchStats launch;
    std::vector<MemcpyKindStats> copies;
    std::vector<CollectiveStats> collectives;
    FlopsSummary flops; // matrix and attention ops: achieved vs peak
    Verdict verdict; // overall; in a multi-rank run with the straggler weighed in
    std::vector<Verdict> stepVerdicts; // one per step, on its step time
    RankComparison ranks; // the trace's run, when it has several ranks
    DeviceBackend backend = DeviceBackend::Unknown; // the accelerator the trace ran on
    QString deviceNoun = QStringLiteral("GPU"); // deviceNoun(backend) when it is known; the verdicts say it
};

// `source`: the summaries stored at import when they answer the question (analysis/tracesummary.h: every
// GPU op counted, no further input ranges), else the events; or always the
// events (`plumb doctor --from-events`).
// `ranks` is the trace's run compared (compareRanks()), when the caller has it; else it is computed
// when the run has several traces. Step time counts the GPU ops `mode` counts.
[[nodiscard]] DoctorReport doctorReport(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode,
    const RankComparison *ranks = nullptr, const StepTimeOptions &stepOptions = {},
    ReportSource source = ReportSource::Summaries);
// The report computed from the GPU ops already read (readGpuOps() in the mode wanted) and the events;
// `calls`, when given, receives the collective calls the report's collectives were counted from.
[[nodiscard]] DoctorReport doctorReport(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const RankComparison &ranks, const StepTimeOptions &stepOptions = {},
    std::vector<CollectiveCall> *calls = nullptr);

// A report in two halves: the trace's own analyses (what the summaries store at import: the verdict as
// diagnosed from the trace alone; no step verdicts, ranks or device yet), then the run weighed in (a
// straggler moves this rank's waiting in collectives to it), the evidence added, each step's verdict
// and the device named. doctorReport() is the two in a row.
[[nodiscard]] DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const StepTimeOptions &stepOptions = {}, std::vector<CollectiveCall> *calls = nullptr);
// The same, reading the GPU ops in `mode` itself (into `ops`, when given) while it reads what needs none;
// the tracks whose slices the import kept (`kept`) from those rows (freeing some: see StepTimeHostPass).
[[nodiscard]] DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, GpuOpMode mode,
    const StepTimeOptions &stepOptions = {}, std::vector<CollectiveCall> *calls = nullptr,
    std::vector<GpuOp> *ops = nullptr, KeptSlices *kept = nullptr);
// `verdictOnly`: the verdict's component and headline alone (no step verdicts, evidence of step time or
// FLOPs, nor the run's comparison kept in r.ranks), for a job of thousands of ranks.
void finishReport(
    Workspace &ws, int64_t traceId, const RankComparison &ranks, DoctorReport &r, bool verdictOnly = false);

} // namespace plumb
