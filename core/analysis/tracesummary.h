// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/doctorreport.h"
#include "store/keptslices.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace plumb {

class Workspace;

// The summaries a trace gets when it is imported (docs/sql.md, "Summaries"): per step and for the whole
// trace (step -1) its GPU window and step time (step_summary), its device ops by name with a quantile
// sketch of their durations (op_summary), idle per stream (stream_summary), its collective calls
// (collective_call), and the doctor's analyses of the trace alone (trace_summary). The doctor, the report
// and the window read them instead of the events; a job's ranks merge them. Written from the events once,
// every GPU op counted (GpuOpMode::EveryOp) and no further input ranges; a change to the analyses bumps
// kTraceSummaryVersion, and summaries of another version are written again like missing ones.
constexpr int kTraceSummaryVersion = 4;

// Writes (replaces) the trace's summaries, in a transaction of its own (the caller holds none). `kept`:
// the trace's slices as its import wrote them (TraceSink::takeKeptSlices()), read instead of the
// events for the tracks it kept and freed once the analyses are done; the import writes a trace's
// summaries from them right after its commit.
void writeTraceSummary(Workspace &ws, int64_t traceId, std::unique_ptr<KeptSlices> kept = {});
// Writes the summaries of every trace that has none of this version, one transaction each; stops early
// when `cancelled` says so. Returns how many were written.
int writeMissingTraceSummaries(Workspace &ws, const std::function<bool()> &cancelled = {});
// Whether a workspace has traces whose summaries are missing or of another version.
[[nodiscard]] bool traceSummariesMissing(Workspace &ws);

// Whether the stored report answers a report in `mode` with these options.
[[nodiscard]] bool reportIsSummarised(GpuOpMode mode, const StepTimeOptions &stepOptions);
// The trace's stored analyses (traceAnalyses(): finishReport() weighs its run in), when they are of this
// version.
[[nodiscard]] std::optional<DoctorReport> storedReport(Workspace &ws, int64_t traceId);

// Of each trace of the run whose summaries are of this version: its steps' GPU windows summed (the whole
// trace's window when it has no steps), read in one pass over the run's step rows (compareRanks() averages
// them; a job has thousands of ranks).
struct WindowSums {
    int steps = 0; // 0: the sums are the whole trace's window
    double windowNs = 0, computeNs = 0, commNs = 0, exposedCommNs = 0, idleNs = 0;
};
[[nodiscard]] std::map<int64_t, WindowSums> storedWindowSums(Workspace &ws, int64_t runId);

// The device ops of the trace's steps by name (op_summary, steps 0 and up, merged): name, kind, count,
// total, min, max and p50/p90/p99 from the merged sketches (within 0.5%); no durations histogram, no
// occupancy. Empty when the trace has no summary of this version.
[[nodiscard]] std::vector<KernelStats> storedStepOps(Workspace &ws, int64_t traceId);

// The report's encoding in trace_summary.report (a versioned binary layout, internal to Plumb).
[[nodiscard]] QByteArray encodeReport(const DoctorReport &r);
[[nodiscard]] std::optional<DoctorReport> decodeReport(const QByteArray &bytes);
// Of the encoded report, what finishReport(..., verdictOnly) reads: the verdict and the kernel table (the
// rest left empty), decoded without the rest (a rank's report holds its every step).
[[nodiscard]] std::optional<DoctorReport> decodeVerdictInputs(const QByteArray &bytes);

} // namespace plumb
