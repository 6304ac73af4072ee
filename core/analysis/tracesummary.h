// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/doctorreport.h"

#include <functional>
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
constexpr int kTraceSummaryVersion = 3;

// Writes (replaces) the trace's summaries, in a transaction of its own (the caller holds none).
void writeTraceSummary(Workspace &ws, int64_t traceId);
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
// The GPU windows stored for the trace (step_summary): each step's, by step, and the whole trace's;
// nothing when the trace has no summary of this version. Their byKinds are not kept.
struct StoredWindows {
    std::vector<TemporalBreakdown> steps;
    TemporalBreakdown whole;
};
[[nodiscard]] std::optional<StoredWindows> storedWindows(Workspace &ws, int64_t traceId);

// The device ops of the trace's steps by name (op_summary, steps 0 and up, merged): name, kind, count,
// total, min, max and p50/p90/p99 from the merged sketches (within 0.5%); no durations histogram, no
// occupancy. Empty when the trace has no summary of this version.
[[nodiscard]] std::vector<KernelStats> storedStepOps(Workspace &ws, int64_t traceId);

// The report's encoding in trace_summary.report (a versioned binary layout, internal to Plumb).
[[nodiscard]] QByteArray encodeReport(const DoctorReport &r);
[[nodiscard]] std::optional<DoctorReport> decodeReport(const QByteArray &bytes);

} // namespace plumb
