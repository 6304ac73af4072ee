// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/doctorreport.h"

#include "analysis/steptimeverdict.h"
#include "analysis/threadops.h"
#include "analysis/tracesummary.h"
#include "store/eventslocation.h"
#include "store/sqlitedb.h"
#include "store/sqlitestate.h"
#include "store/workspace.h"

#include <QFileInfo>

#include <future>

namespace plumb {

namespace {

// The trace's run compared rank by rank, when the run has several traces; else none.
RankComparison runRanks(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, ReportSource source)
{
    SqliteStmt run(ws.db(),
        "SELECT run_id, (SELECT count(*) FROM trace t2 WHERE t2.run_id = t.run_id) FROM trace t WHERE id = "
        "?");
    run.bind(1, traceId);
    if (run.step() && run.columnInt(1) > 1)
        return compareRanks(ws, run.columnInt(0), mode, source);
    return {};
}

} // namespace

namespace {

// traceAnalyses() with the ops given, or read here in `mode` (into `opsOut` when given). The host side
// runs on a second reader connection of its own: one pass over the CPU tracks (step time's host parts,
// the host analysis's slices, the CPU ops that FLOPs and collectives look up), which needs no device
// ops, while this thread reads them and the copies; then each side finishes what needs the other's
// reads. (A reader sees the same committed data; a writer's uncommitted view, or a workspace in
// memory, runs both sides here, one after the other.)
DoctorReport analyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> *given, GpuOpMode mode,
    const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls, std::vector<GpuOp> *opsOut)
{
    DoctorReport r;
    std::vector<GpuOp> read;
    const std::vector<GpuOp> &ops = given ? *given : read;
    HostSliceTap hostSlices;
    ThreadOpTap threadOps;
    // The CPU ops both look up by name.
    threadOps.names = collectiveParamNameIds(ws.db());
    threadOps.names.merge(flopsOpNameIds(ws.db()));
    StepTimeHostPass hostPass;
    auto hostRead = [&](Workspace &w) {
        hostSlices.names = hostActivityNames(w.db());
        hostPass = stepTimeHostPass(w, traceId, stepOptions, &hostSlices, &threadOps);
    };
    auto hostFinish = [&](Workspace &w) {
        r.stepTime = stepTimeBreakdown(std::move(hostPass), ops);
        r.host = hostAnalysis(w, traceId, ops, hostSlices);
    };
    const bool twoConnections = !inWriteTransaction(ws.db()) && QFileInfo(ws.path()).isFile();
    // The two sides' hand-overs. The thread reads both futures, so they outlive it (declared before
    // `host`); `opsRead` is destroyed before `host` is joined, so that a throw here, before the ops
    // were handed over, reaches the other thread as a broken promise instead of leaving it waiting.
    std::promise<void> threadOpsRead;
    std::future<void> threadOpsReady = threadOpsRead.get_future();
    std::future<void> opsReady;
    std::future<void> host;
    std::promise<void> opsRead;
    opsReady = opsRead.get_future();
    if (twoConnections)
        host = std::async(std::launch::async, [&] {
            Workspace second(ws.path(), Workspace::Role::Reader);
            const SqliteReadTransaction secondSnapshot(second.db());
            try {
                hostRead(second);
            } catch (...) {
                threadOpsRead.set_exception(std::current_exception());
                throw;
            }
            threadOpsRead.set_value();
            opsReady.get(); // rethrows what the read threw
            hostFinish(second);
        });
    else
        hostRead(ws);
    if (!given)
        read = readGpuOps(ws, traceId, mode);
    opsRead.set_value();
    if (!twoConnections)
        hostFinish(ws);
    r.copies = memcpyStats(ws, traceId);
    r.overall = breakdownOf(ops);
    r.steps = stepBreakdowns(ws, traceId, ops);
    r.kernels = kernelTable(ws, ops);
    r.idle = idleBreakdown(ws, ops);
    r.launch = launchStats(ops);
    if (twoConnections)
        threadOpsReady.get(); // rethrows what the other connection threw
    {
        std::vector<CollectiveCall> all = collectiveCalls(ws, traceId, &threadOps.ops);
        r.collectives = collectiveStats(all);
        if (calls)
            *calls = std::move(all);
        r.flops = flopsSummary(ws, traceId, &threadOps.ops);
    }
    if (host.valid())
        host.get(); // rethrows what the other connection threw
    r.verdict = diagnose(ws, ops, r.overall, r.host, &r.kernels);
    if (opsOut)
        *opsOut = std::move(read);
    return r;
}

} // namespace

DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls)
{
    return analyses(ws, traceId, &ops, GpuOpMode::EveryOp, stepOptions, calls, nullptr);
}

DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, GpuOpMode mode, const StepTimeOptions &stepOptions,
    std::vector<CollectiveCall> *calls, std::vector<GpuOp> *ops)
{
    return analyses(ws, traceId, nullptr, mode, stepOptions, calls, ops);
}

void finishReport(
    Workspace &ws, int64_t traceId, const RankComparison &ranks, DoctorReport &r, bool verdictOnly)
{
    weighStraggler(ws, r.kernels, ranks, traceId, r.verdict);
    if (!verdictOnly) {
        r.ranks = ranks;
        // Compute-bound: how close the matrix and attention kernels came to what the GPU can do.
        if (r.verdict.component == Verdict::Component::GpuCompute)
            if (const QString e = flopsEvidence(r.flops, r.overall.computeNs); !e.isEmpty())
                r.verdict.evidence << e;
        if (const QString e = stepTimeEvidence(r.stepTime); !e.isEmpty())
            r.verdict.evidence << e;
        r.stepVerdicts = diagnoseStepTimes(r.stepTime, r.verdict);
    }
    r.backend = traceDeviceBackend(ws, traceId);
    if (r.backend != DeviceBackend::Unknown)
        r.deviceNoun = deviceNoun(r.backend);
    sayDevice(r.verdict, r.deviceNoun);
    for (Verdict &v : r.stepVerdicts)
        sayDevice(v, r.deviceNoun);
}

DoctorReport doctorReport(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const RankComparison &ranks, const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls)
{
    DoctorReport r = traceAnalyses(ws, traceId, ops, stepOptions, calls);
    finishReport(ws, traceId, ranks, r);
    return r;
}

DoctorReport doctorReport(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode,
    const RankComparison *ranks, const StepTimeOptions &stepOptions, ReportSource source)
{
    // One read transaction per connection for the whole report: one snapshot, one file lock.
    const SqliteReadTransaction snapshot(ws.db());
    const RankComparison run = ranks ? *ranks : runRanks(ws, traceId, mode, source);
    // The analyses stored at import are the trace's alone: the run's ranks are weighed in here.
    if (source == ReportSource::Summaries && reportIsSummarised(mode, stepOptions))
        if (std::optional<DoctorReport> stored = storedReport(ws, traceId)) {
            finishReport(ws, traceId, run, *stored);
            return std::move(*stored);
        }
    // A rank of a job merged from shards: its events are in its shard, its run is the job's here.
    if (const std::optional<EventsLocation> at = eventsLocation(ws, traceId)) {
        Workspace shard(at->workspacePath, Workspace::Role::Reader);
        RankComparison there = run;
        for (RankSummary &r : there.ranks)
            if (r.traceId == traceId)
                r.traceId = at->traceId;
        DoctorReport r = traceAnalyses(shard, at->traceId, mode, stepOptions);
        finishReport(shard, at->traceId, there, r);
        r.ranks = run;
        return r;
    }
    DoctorReport r = traceAnalyses(ws, traceId, mode, stepOptions);
    finishReport(ws, traceId, run, r);
    return r;
}

} // namespace plumb
