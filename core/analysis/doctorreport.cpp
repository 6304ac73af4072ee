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

#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>

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

// The analyses of one report, taken by up to two workers, each on its own connection to the
// workspace, in list order, each the first that is ready when a worker is free (list scheduling,
// longest first), so that neither waits while the other works, whatever the trace's shape: many CPU
// slices, or many kernels. A task that throws stops both; work() then rethrows it on this thread.
class Analyses {
public:
    struct Task {
        std::function<bool()> ready; // asked under the board's lock
        std::function<void(Workspace &)> run;
        std::function<bool()> shared; // while true, every worker may run it at once (the track scan)
        bool taken = false, done = false;
        int running = 0; // workers running it
    };
    std::vector<Task> tasks;

    // Adds a task; returns its index.
    size_t add(
        std::function<bool()> ready, std::function<void(Workspace &)> run, std::function<bool()> shared = {})
    {
        tasks.push_back({ std::move(ready), std::move(run), std::move(shared) });
        return tasks.size() - 1;
    }

    // Runs tasks until none is left (or one threw).
    void work(Workspace &w)
    {
        for (;;) {
            Task *t = nullptr;
            {
                std::unique_lock lock(m_mutex);
                for (;;) {
                    if (m_error)
                        return;
                    bool left = false;
                    for (Task &c : tasks) {
                        if (c.taken)
                            continue;
                        if (c.shared && c.ready() && !c.shared()) {
                            c.taken = true; // nothing left to share out: done when its runs end
                            continue;
                        }
                        left = true;
                        if (c.ready()) {
                            t = &c;
                            break;
                        }
                    }
                    if (t || !left)
                        break;
                    m_changed.wait(lock);
                }
                if (!t)
                    return;
                if (!t->shared)
                    t->taken = true;
                ++t->running;
            }
            std::exception_ptr error;
            try {
                t->run(w);
            } catch (...) {
                error = std::current_exception();
            }
            {
                const std::lock_guard lock(m_mutex);
                if (--t->running == 0 && (!t->shared || !t->shared()))
                    t->done = true;
                if (error && !m_error)
                    m_error = error;
            }
            m_changed.notify_all();
        }
    }
    void rethrow()
    {
        if (m_error)
            std::rethrow_exception(m_error);
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::exception_ptr m_error;
};

// traceAnalyses() with the ops given, or read here in `mode` (into `opsOut` when given). Besides the
// device's ops, one pass over the CPU tracks (step time's host parts, the host analysis's slices, the
// CPU ops that FLOPs and collectives look up) that needs no device ops, whose tracks both workers
// share out. A second reader connection sees the same committed data; a writer's uncommitted view, or
// a workspace in memory, is read by this thread alone.
DoctorReport analyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> *given, GpuOpMode mode,
    const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls, std::vector<GpuOp> *opsOut,
    KeptSlices *kept)
{
    DoctorReport r;
    std::vector<GpuOp> read;
    const std::vector<GpuOp> &ops = given ? *given : read;
    HostSliceTap hostSlices;
    hostSlices.names = hostActivityNames(ws.db());
    ThreadOpTap threadOps;
    threadOps.names = collectiveParamNameIds(ws.db());
    threadOps.names.merge(flopsOpNameIds(ws.db()));
    std::unique_ptr<StepTimeHostPass> pass;

    // The tasks, longest first where they may run at once.
    Analyses board;
    const auto always = [] { return true; };
    const size_t prepared = board.add(always, [&](Workspace &w) {
        pass = std::make_unique<StepTimeHostPass>(w, traceId, stepOptions, &hostSlices, &threadOps, kept);
    });
    const size_t opsRead = board.add(always, [&](Workspace &w) {
        if (!given)
            read = readGpuOps(w, traceId, mode, INT64_MIN, INT64_MAX, kept);
    });
    auto isDone = [&board](size_t task) { return board.tasks[task].done; };
    auto afterOps = [isDone, opsRead] { return isDone(opsRead); };
    auto afterScan = [isDone, prepared, &pass] { return isDone(prepared) && pass->scanned(); };
    board.add([isDone, prepared] { return isDone(prepared); }, [&](Workspace &w) { pass->scan(w.db()); },
        [&pass] { return pass->tracksLeft(); });
    board.add(afterOps, [&](Workspace &w) { r.kernels = kernelTable(w, ops); });
    board.add([afterOps, afterScan] { return afterOps() && afterScan(); },
        [&](Workspace &w) {
            r.stepTime = pass->finish(ops);
            r.host = hostAnalysis(w, traceId, ops, hostSlices);
        });
    // Collectives and FLOPs each scan the device's tracks again: two tasks, so that both workers can
    // take them at the end of the CPU tracks' pass.
    const size_t opsTaken = board.add(afterScan, [&](Workspace &) { pass->takeThreadOps(); });
    auto afterThreadOps = [isDone, opsTaken] { return isDone(opsTaken); };
    board.add(afterThreadOps, [&](Workspace &w) {
        std::vector<CollectiveCall> all = collectiveCalls(w, traceId, &threadOps.ops, kept);
        r.collectives = collectiveStats(all);
        if (calls)
            *calls = std::move(all);
    });
    board.add(
        afterThreadOps, [&](Workspace &w) { r.flops = flopsSummary(w, traceId, &threadOps.ops, kept); });
    board.add(afterOps, [&](Workspace &w) { r.steps = stepBreakdowns(w, traceId, ops); });
    board.add(afterOps, [&](Workspace &w) { r.idle = idleBreakdown(w, ops); });
    board.add(always, [&](Workspace &w) { r.copies = memcpyStats(w, traceId, kept); });
    board.add(afterOps, [&](Workspace &) {
        r.overall = breakdownOf(ops);
        r.launch = launchStats(ops);
    });

    std::future<void> second;
    if (!inWriteTransaction(ws.db()) && QFileInfo(ws.path()).isFile())
        second = std::async(std::launch::async, [&] {
            Workspace w(ws.path(), Workspace::Role::Reader);
            const SqliteReadTransaction snapshot(w.db());
            board.work(w);
        });
    board.work(ws);
    if (second.valid())
        second.get(); // rethrows what opening the other connection threw
    board.rethrow();
    r.verdict = diagnose(ws, ops, r.overall, r.host, &r.kernels);
    if (opsOut)
        *opsOut = std::move(read);
    return r;
}

} // namespace

DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops,
    const StepTimeOptions &stepOptions, std::vector<CollectiveCall> *calls)
{
    return analyses(ws, traceId, &ops, GpuOpMode::EveryOp, stepOptions, calls, nullptr, nullptr);
}

DoctorReport traceAnalyses(Workspace &ws, int64_t traceId, GpuOpMode mode, const StepTimeOptions &stepOptions,
    std::vector<CollectiveCall> *calls, std::vector<GpuOp> *ops, KeptSlices *kept)
{
    return analyses(ws, traceId, nullptr, mode, stepOptions, calls, ops, kept);
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
