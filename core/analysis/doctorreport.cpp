#include "doctorreport.h"

#include "sqlitedb.h"
#include "workspace.h"

namespace plumb {

DoctorReport doctorReport(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode, const RankComparison *ranks)
{
    DoctorReport r;
    const std::vector<GpuOp> ops = readGpuOps(ws, traceId, mode);
    r.overall = breakdownOf(ops);
    r.steps = stepBreakdowns(ws, traceId, ops);
    r.kernels = kernelTable(ws, ops);
    r.idle = idleBreakdown(ws, ops);
    r.host = hostAnalysis(ws, traceId, ops);
    r.launch = launchStats(ops);
    r.copies = memcpyStats(ws, traceId);
    r.collectives = collectiveStats(ws, traceId);
    r.verdict = diagnose(ws, ops, r.overall, r.host);
    if (ranks) {
        r.ranks = *ranks;
    } else {
        SqliteStmt run(ws.db(), "SELECT run_id, (SELECT count(*) FROM trace t2 WHERE t2.run_id = t.run_id) FROM trace t WHERE id = ?");
        run.bind(1, traceId);
        if (run.step() && run.columnInt(1) > 1)
            r.ranks = compareRanks(ws, run.columnInt(0), mode);
    }
    weighStraggler(ws, ops, r.ranks, traceId, r.verdict);
    r.stepVerdicts = diagnoseSteps(ws, ops, r.steps, r.host, r.verdict);
    return r;
}

} // namespace plumb
