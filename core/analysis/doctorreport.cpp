// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/doctorreport.h"

#include "analysis/steptimeverdict.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>

#include <future>

namespace plumb {

DoctorReport doctorReport(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode,
    const RankComparison *ranks, const StepTimeOptions &stepOptions)
{
    DoctorReport r;
    // One read transaction per connection for the whole report: one snapshot, one file lock.
    const SqliteReadTransaction snapshot(ws.db());
    const std::vector<GpuOp> ops = readGpuOps(ws, traceId, mode);
    // The host side, copies and collectives read the workspace again: on a second reader connection of
    // their own, in parallel with the analyses of the ops (a reader sees the same committed data; a
    // writer's own uncommitted view, or a workspace in memory, stays on this thread).
    auto hostSide = [&ops, &stepOptions, traceId](Workspace &w, DoctorReport &out) {
        out.host = hostAnalysis(w, traceId, ops);
        out.stepTime = stepTimeBreakdown(w, traceId, ops, stepOptions);
        out.copies = memcpyStats(w, traceId);
        out.collectives = collectiveStats(w, traceId);
        out.flops = flopsSummary(w, traceId);
    };
    std::future<void> host;
    if (ws.role() == Workspace::Role::Reader && QFileInfo(ws.path()).isFile())
        host = std::async(std::launch::async, [&] {
            Workspace second(ws.path(), Workspace::Role::Reader);
            const SqliteReadTransaction secondSnapshot(second.db());
            hostSide(second, r);
        });
    else
        hostSide(ws, r);
    r.overall = breakdownOf(ops);
    r.steps = stepBreakdowns(ws, traceId, ops);
    r.kernels = kernelTable(ws, ops);
    r.idle = idleBreakdown(ws, ops);
    r.launch = launchStats(ops);
    if (host.valid())
        host.get(); // rethrows what the other connection threw
    r.verdict = diagnose(ws, ops, r.overall, r.host, &r.kernels);
    if (ranks) {
        r.ranks = *ranks;
    } else {
        SqliteStmt run(ws.db(),
            "SELECT run_id, (SELECT count(*) FROM trace t2 WHERE t2.run_id = t.run_id) FROM trace t WHERE id "
            "= ?");
        run.bind(1, traceId);
        if (run.step() && run.columnInt(1) > 1)
            r.ranks = compareRanks(ws, run.columnInt(0), mode);
    }
    weighStraggler(ws, ops, r.ranks, traceId, r.verdict);
    // Compute-bound: how close the matrix and attention kernels came to what the GPU can do.
    if (r.verdict.component == Verdict::Component::GpuCompute)
        if (const QString e = flopsEvidence(r.flops, r.overall.computeNs); !e.isEmpty())
            r.verdict.evidence << e;
    if (const QString e = stepTimeEvidence(r.stepTime); !e.isEmpty())
        r.verdict.evidence << e;
    r.stepVerdicts = diagnoseStepTimes(r.stepTime, r.verdict);
    r.backend = traceDeviceBackend(ws, traceId);
    if (r.backend != DeviceBackend::Unknown)
        r.deviceNoun = deviceNoun(r.backend);
    sayDevice(r.verdict, r.deviceNoun);
    for (Verdict &v : r.stepVerdicts)
        sayDevice(v, r.deviceNoun);
    return r;
}

} // namespace plumb
