// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_doctor.h"

#include "job/jobview.h"
#include "present/doctorpresent.h"
#include "present/jobpresent.h"
#include "store/traceselection.h"

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

int runDoctor(const Args &a)
{
    return cli::withWorkspace(a.workspace,
        QStringLiteral("import a trace first (plumb import trace.json) or pass --workspace FILE"),
        [&](Workspace &ws) {
            if (a.job) {
                const JobView job = jobView(ws, 0, false);
                if (job.runId == 0) {
                    err(QStringLiteral("%1 holds no multi-rank job (a run of several ranks, or plumb merge's "
                                       "output)")
                            .arg(a.workspace));
                    return 1;
                }
                out(a.json ? cli::jsonText(jobJson(job)) : jobText(job));
                return 0;
            }
            const TraceSelection chosen = selectTraces(ws, a.paths);
            if (!chosen.ok()) {
                err(chosen.error);
                return 1;
            }
            DoctorFindings findings = doctorFindings(ws, chosen.traces, a.mode, a.stepTime,
                a.fromEvents ? ReportSource::Events : ReportSource::Summaries);
            if (a.criticalPath)
                addCriticalPaths(ws, findings,
                    { a.mode == GpuOpMode::Hta ? CriticalPathMode::Hta : CriticalPathMode::Plumb, a.step,
                        {} });
            out(a.json ? cli::jsonText(doctorJson(findings)) : doctorText(findings));
            return 0;
        });
}
