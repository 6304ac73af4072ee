// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/doctorreport.h"
#include "analysis/goodput.h"
#include "analysis/serving.h"
#include "analysis/tracediff.h"
#include "report/reportmodel.h"
#include "report/reportoptions.h"
#include "store/experimentreader.h"
#include "store/workspacereader.h"

#include <QString>

#include <functional>
#include <map>
#include <vector>

namespace plumb {

class Workspace;

// What the section builders share: the runs and traces the report covers, the baseline, and the
// analyses several sections read (each trace's doctor report is computed once).
class ReportContext {
public:
    ReportContext(Workspace &ws, const ReportOptions &options);

    Workspace &ws;
    const ReportOptions &options;
    TemporalBreakdown::Mode mode = TemporalBreakdown::Mode::EveryOp;
    std::vector<TraceInfo> traces; // covered, by id
    std::vector<RunInfo> traceRuns; // covered runs that hold traces, by id
    QList<ExperimentRunInfo> experimentRuns; // covered experiment runs (trials and their sub-runs), by id
    int64_t baselineTrace = -1; // the baseline run's first trace
    int64_t baselineRun = -1; // the baseline experiment run (a trial)
    bool metricRunsOnly = false; // trials(): only the runs that logged metrics (no --runs given)

    [[nodiscard]] const DoctorReport &doctor(int64_t traceId);
    // A run's goodput and its serving requests' summary, computed once for the sections and the summary.
    [[nodiscard]] const GoodputReport &goodput(int64_t runId);
    [[nodiscard]] const ServingSummary &serving(int64_t runId);
    [[nodiscard]] QString traceName(int64_t traceId) const;
    // The covered experiment runs that are trials (not a trial's train/ or validation/ sub-run), the
    // baseline first; with metricRunsOnly, those of them that logged metrics.
    [[nodiscard]] QList<int64_t> trials() const;

private:
    std::map<int64_t, DoctorReport> m_doctor;
    std::map<int64_t, GoodputReport> m_goodput;
    std::map<int64_t, ServingSummary> m_serving;
};

// One section a report can hold. `missing` says why the workspace gives it nothing to show (empty
// when it has data); `build` makes it. Sections are a registry so that later analyses (goodput,
// serving objectives) join by registering their entry.
struct ReportSectionDef {
    QString id;
    QString title;
    std::function<QString(ReportContext &)> missing;
    std::function<ReportSection(ReportContext &)> build;
};

// Adds `def` (replacing a section of the same id); the built-in sections are registered first.
void registerReportSection(ReportSectionDef def);
[[nodiscard]] const std::vector<ReportSectionDef> &reportSections();
// The ids a template may name: every registered section's and the reserved ones.
[[nodiscard]] QStringList reportSectionIds();
// Section ids accepted in templates whose analyses are not in this build yet (goodput, slo): asked
// for, they are listed in the appendix as not available.
[[nodiscard]] QStringList reservedReportSectionIds();
[[nodiscard]] QString reportSectionTitle(const QString &id);

struct ReportBuild {
    ReportModel model;
    QString error; // a run or section that does not exist, a cancel, an unreadable workspace
};

// progress(done, total, stage) is called between steps; `cancelled` is polled between them.
using ReportProgress = std::function<void(int done, int total, const QString &stage)>;

[[nodiscard]] ReportBuild buildReport(Workspace &ws, const QString &workspacePath,
    const ReportOptions &options, const ReportProgress &progress = {},
    const std::function<bool()> &cancelled = {});

} // namespace plumb
