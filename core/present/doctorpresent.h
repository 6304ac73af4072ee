// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/criticalpath.h"
#include "analysis/doctorreport.h"
#include "analysis/gpuops.h"
#include "analysis/rankcomparison.h"
#include "store/traceselection.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace plumb {

// What `plumb doctor` says of some traces: each trace's report, and the ranks side by side for every
// run of them that has several ranks.
struct DoctorFindings {
    struct Trace {
        int64_t id = 0;
        QString name;
        DoctorReport report;
        std::optional<CriticalPath> criticalPath; // asked for (plumb doctor --critical-path)
    };
    struct Run {
        int64_t id = 0;
        RankComparison ranks; // only runs with two ranks or more are kept
    };
    GpuOpMode mode = GpuOpMode::EveryOp;
    std::vector<Trace> traces; // in the order asked for
    std::vector<Run> runs; // in the order of their first trace
};

// The reports of `traces` (selectTraces()), each run's ranks compared once. Throws SqlError.
[[nodiscard]] DoctorFindings doctorFindings(Workspace &ws, const std::vector<TraceRef> &traces,
    GpuOpMode mode, const StepTimeOptions &stepOptions = {}, ReportSource source = ReportSource::Summaries);

// Each trace's critical path (criticalPath()), its sentence added to the verdict's evidence.
void addCriticalPaths(Workspace &ws, DoctorFindings &f, const CriticalPathOptions &options);

// The findings as the `plumb.doctor/1` JSON object (docs/json.md).
[[nodiscard]] QJsonObject doctorJson(const DoctorFindings &f);
// The findings as `plumb doctor` prints them: per trace the verdict, the breakdown, steps, host, copies,
// collectives, idle per stream, top GPU ops and FLOPs; then the runs' ranks.
[[nodiscard]] QString doctorText(const DoctorFindings &f);

} // namespace plumb
