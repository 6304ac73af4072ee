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
#include <latch>
#include <memory>

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

// Counts a thread in at a latch once, however it leaves.
class Arrival {
public:
    explicit Arrival(std::latch &latch)
        : m_latch(latch)
    {
    }
    ~Arrival()
    {
        if (!m_arrived)
            m_latch.count_down();
    }
    Arrival(const Arrival &) = delete;
    Arrival &operator=(const Arrival &) = delete;
    void arriveAndWait()
    {
        m_arrived = true;
        m_latch.arrive_and_wait();
    }

private:
    std::latch &m_latch;
    bool m_arrived = false;
};

// traceAnalyses() with the ops given, or read here in `mode` (into `opsOut` when given). One pass over
// the CPU tracks (step time's host parts, the host analysis's slices, the CPU ops that FLOPs and
// collectives look up) needs no device ops: it starts on a second reader connection while this thread
// reads the device ops, the copies and what needs only the ops, then this thread takes the tracks left
// to read. Then the second finishes step time and the host analysis, and this one FLOPs and
// collectives. (A reader sees the same committed data; a writer's uncommitted view, or a workspace in
// memory, runs everything here, one after the other.)
DoctorReport analyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> *given, GpuOpMode mode,
    const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls, std::vector<GpuOp> *opsOut)
{
    DoctorReport r;
    std::vector<GpuOp> read;
    const std::vector<GpuOp> &ops = given ? *given : read;
    HostSliceTap hostSlices;
    hostSlices.names = hostActivityNames(ws.db());
    ThreadOpTap threadOps;
    threadOps.names = collectiveParamNameIds(ws.db());
    threadOps.names.merge(flopsOpNameIds(ws.db()));
    auto opSide = [&] {
        r.copies = memcpyStats(ws, traceId);
        r.overall = breakdownOf(ops);
        r.steps = stepBreakdowns(ws, traceId, ops);
        r.kernels = kernelTable(ws, ops);
        r.idle = idleBreakdown(ws, ops);
        r.launch = launchStats(ops);
    };
    auto threadOpSide = [&] {
        std::vector<CollectiveCall> all = collectiveCalls(ws, traceId, &threadOps.ops);
        r.collectives = collectiveStats(all);
        if (calls)
            *calls = std::move(all);
        r.flops = flopsSummary(ws, traceId, &threadOps.ops);
    };
    if (inWriteTransaction(ws.db()) || !QFileInfo(ws.path()).isFile()) {
        StepTimeHostPass pass(ws, traceId, stepOptions, &hostSlices, &threadOps);
        pass.scan(ws.db());
        pass.takeThreadOps();
        if (!given)
            read = readGpuOps(ws, traceId, mode);
        r.stepTime = pass.finish(ops);
        r.host = hostAnalysis(ws, traceId, ops, hostSlices);
        opSide();
        threadOpSide();
    } else {
        // What the two threads hand over. The other thread uses all of these, so they outlive it
        // (declared before `host`); what this thread owes it (`opsRead`, `arrival`) is destroyed
        // before `host` is joined, so that a throw here reaches it instead of leaving it waiting.
        std::unique_ptr<StepTimeHostPass> pass;
        std::promise<void> prepared;
        std::future<void> preparedReady = prepared.get_future();
        std::latch scanned(2);
        std::future<void> opsReady;
        std::future<void> host;
        std::promise<void> opsRead;
        opsReady = opsRead.get_future();
        Arrival arrival(scanned);
        host = std::async(std::launch::async, [&] {
            Arrival hostArrival(scanned);
            Workspace second(ws.path(), Workspace::Role::Reader);
            const SqliteReadTransaction secondSnapshot(second.db());
            try {
                pass = std::make_unique<StepTimeHostPass>(
                    second, traceId, stepOptions, &hostSlices, &threadOps);
            } catch (...) {
                prepared.set_exception(std::current_exception());
                throw;
            }
            prepared.set_value();
            pass->scan(second.db());
            hostArrival.arriveAndWait();
            opsReady.get(); // rethrows what the read threw
            r.stepTime = pass->finish(ops);
            r.host = hostAnalysis(second, traceId, ops, hostSlices);
        });
        if (!given)
            read = readGpuOps(ws, traceId, mode);
        opsRead.set_value();
        opSide();
        preparedReady.get(); // rethrows what the other connection threw
        pass->scan(ws.db());
        arrival.arriveAndWait();
        pass->takeThreadOps();
        threadOpSide();
        host.get(); // rethrows what the other connection threw
    }
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
