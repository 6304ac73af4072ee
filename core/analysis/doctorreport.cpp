#include "doctorreport.h"

namespace plumb {

DoctorReport doctorReport(Workspace &ws, int64_t traceId, TemporalBreakdown::Mode mode)
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
    r.verdict = diagnose(ws, ops, r.overall, r.host);
    return r;
}

} // namespace plumb
