// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in report sections: each turns analyses the GUI and the CLI already show into text,
// tables and figures. Registered by registerBuiltinReportSections() (reportbuilder.cpp).
#include "report/reportsections.h"

#include "analysis/goodput.h"
#include "analysis/serving.h"

#include "analysis/configdiff.h"
#include "analysis/paramimportance.h"
#include "analysis/rankcomparison.h"
#include "analysis/scalarseries.h"
#include "analysis/tracediff.h"
#include "store/lineagereader.h"
#include "store/workspace.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace plumb {

namespace {

constexpr int kTopKernelRows = 15;
constexpr int kKernelHistograms = 4;
constexpr int kTopDiffOps = 15;
constexpr int kMaxStepRows = 200;
constexpr int kMaxChartTags = 4;
constexpr int kMaxChartRuns = 10;
constexpr int kConfigRunsPerTable = 5; // besides the baseline
constexpr int kLineageDepth = 2;
constexpr int kLineageMaxNodes = 40;
constexpr int kMaxDiagnosticRows = 300;

QString ms(double ns)
{
    return QString::number(ns / 1e6, 'f', ns >= 1e8 ? 1 : 3);
}

QString pct(double share)
{
    return QString::number(share * 100.0, 'f', 1);
}

QString signedMs(double ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + ms(ns);
}

ReportTable table(const QStringList &header, std::vector<bool> numeric, const QString &caption = {})
{
    ReportTable t;
    t.header = header;
    t.numeric = std::move(numeric);
    t.caption = caption;
    return t;
}

ReportFigure figure(const QString &kind, std::any data, double aspect, const QString &caption)
{
    ReportFigure f;
    f.kind = kind;
    f.data = std::move(data);
    f.aspect = aspect;
    f.caption = caption;
    return f;
}

QString kindName(GpuOp::Kind k)
{
    switch (k) {
    case GpuOp::Kind::Compute:
        return QStringLiteral("compute");
    case GpuOp::Kind::Comm:
        return QStringLiteral("comm");
    case GpuOp::Kind::Memory:
        return QStringLiteral("memory");
    }
    return {};
}

// ---- steps ----

QString stepsMissing(ReportContext &c)
{
    for (const TraceInfo &t : c.traces)
        if (!c.doctor(t.id).steps.empty())
            return {};
    return QStringLiteral(
        "no trace has training steps (ProfilerStep#N, step-named NVTX ranges or XPlane Steps)");
}

ReportSection stepsSection(ReportContext &c)
{
    ReportSection s;
    for (const TraceInfo &t : c.traces) {
        const DoctorReport &d = c.doctor(t.id);
        if (d.steps.empty())
            continue;
        s.blocks.push_back(ReportBlock::heading(c.traceName(t.id)));
        const StepTimeBreakdown &st = d.stepTime;
        int64_t longest = 0;
        for (const StepTime &step : st.steps)
            longest = std::max(longest, step.wallNs());
        const QString sizes = st.steps.size() == 1
            ? QStringLiteral("One step, %1 ms.").arg(ms(double(longest)))
            : QStringLiteral("%1 steps, %2 ms a step on average, the longest %3 ms.")
                  .arg(st.steps.size())
                  .arg(ms(double(st.total.wallNs()) / double(st.steps.size())), ms(double(longest)));
        s.blocks.push_back(ReportBlock::paragraph(sizes
            + QStringLiteral(" Each bar splits a step's wall time (its span on the CPU and the gap since "
                             "the step before) into what the device did, then, with the device idle, what "
                             "the host did: input pipeline, synchronisation, runtime calls, other CPU work, "
                             "or nothing.")));
        s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("steps"), st, 0.42,
            QStringLiteral("Step time per training step of %1 (ms)").arg(c.traceName(t.id)))));
        QStringList header { QStringLiteral("step"), QStringLiteral("wall (ms)") };
        for (const char *column : { "compute %", "exp. comm %", "exp. memcpy %", "input %", "sync %",
                 "runtime %", "CPU %", "idle %" })
            header << QLatin1String(column);
        header << QStringLiteral("GPU window (ms)") << QStringLiteral("limit");
        std::vector<bool> numeric(size_t(header.size()), true);
        numeric.back() = false;
        ReportTable tb = table(header, numeric);
        for (size_t i = 0; i < st.steps.size() && i < size_t(kMaxStepRows); ++i) {
            const StepTime &step = st.steps[i];
            QStringList row { QString::number(step.step), ms(double(step.wallNs())) };
            for (const StepTimePartInfo &part : stepTimeParts())
                row << pct(step.wallNs() > 0 ? double(step.parts.*part.member) / double(step.wallNs()) : 0.0);
            row << ms(double(d.steps[i].gpu.totalNs()))
                << (i < d.stepVerdicts.size() ? componentName(d.stepVerdicts[i].component) : QString());
            tb.rows << row;
        }
        s.blocks.push_back(ReportBlock::tableOf(tb));
        if (d.steps.size() > size_t(kMaxStepRows))
            s.blocks.push_back(
                ReportBlock::paragraph(QStringLiteral("The table lists the first %1 of %2 steps.")
                                           .arg(kMaxStepRows)
                                           .arg(d.steps.size())));
    }
    return s;
}

// ---- idle ----

QString idleMissing(ReportContext &c)
{
    for (const TraceInfo &t : c.traces)
        for (const StreamIdle &si : c.doctor(t.id).idle)
            if (si.idleNs() > 0)
                return {};
    return QStringLiteral("no GPU stream of the traces covered sat idle between ops");
}

ReportSection idleSection(ReportContext &c)
{
    ReportSection s;
    s.blocks.push_back(
        ReportBlock::paragraph(QStringLiteral("Why each GPU stream sat idle between consecutive ops: host "
                                              "wait (the next op was launched after the stream "
                                              "went idle: the CPU did not queue work fast enough), kernel "
                                              "wait (a gap under 30 µs between back-to-back "
                                              "launches) or other.")));
    for (const TraceInfo &t : c.traces) {
        const DoctorReport &d = c.doctor(t.id);
        int64_t idle = 0;
        for (const StreamIdle &si : d.idle)
            idle += si.idleNs();
        if (idle == 0)
            continue;
        s.blocks.push_back(ReportBlock::heading(c.traceName(t.id)));
        s.blocks.push_back(ReportBlock::figureOf(
            figure(QStringLiteral("idle"), d.idle, std::clamp(0.12 + 0.06 * double(d.idle.size()), 0.25, 0.8),
                QStringLiteral("Idle time per GPU stream of %1 (ms)").arg(c.traceName(t.id)))));
        ReportTable tb = table(
            { QStringLiteral("stream"), QStringLiteral("idle (ms)"), QStringLiteral("host wait (ms)"),
                QStringLiteral("kernel wait (ms)"), QStringLiteral("other (ms)"), QStringLiteral("gaps") },
            { false, true, true, true, true, true });
        for (const StreamIdle &si : d.idle)
            tb.rows << QStringList { si.stream >= 0 ? QStringLiteral("stream %1").arg(si.stream)
                                                    : QStringLiteral("stream (unknown)"),
                ms(double(si.idleNs())), ms(double(si.hostWaitNs)), ms(double(si.kernelWaitNs)),
                ms(double(si.otherNs)), QString::number(si.gaps) };
        s.blocks.push_back(ReportBlock::tableOf(tb));
    }
    return s;
}

// ---- kernels ----

QString kernelsMissing(ReportContext &c)
{
    for (const TraceInfo &t : c.traces)
        if (!c.doctor(t.id).kernels.empty())
            return {};
    return QStringLiteral("the traces covered hold no GPU ops");
}

ReportSection kernelsSection(ReportContext &c)
{
    ReportSection s;
    for (const TraceInfo &t : c.traces) {
        const DoctorReport &d = c.doctor(t.id);
        if (d.kernels.empty())
            continue;
        s.blocks.push_back(ReportBlock::heading(c.traceName(t.id)));
        ReportTable tb
            = table({ QStringLiteral("GPU op"), QStringLiteral("kind"), QStringLiteral("count"),
                        QStringLiteral("total (ms)"), QStringLiteral("share %"), QStringLiteral("p50 (µs)"),
                        QStringLiteral("p90 (µs)"), QStringLiteral("max (µs)") },
                { false, false, true, true, true, true, true, true },
                QStringLiteral("The %1 GPU ops that took most time, of %2")
                    .arg(std::min<size_t>(kTopKernelRows, d.kernels.size()))
                    .arg(d.kernels.size()));
        auto us = [](int64_t ns) { return QString::number(double(ns) / 1e3, 'f', 1); };
        for (size_t i = 0; i < d.kernels.size() && i < size_t(kTopKernelRows); ++i) {
            const KernelStats &k = d.kernels[i];
            tb.rows << QStringList { k.name, kindName(k.kind), QString::number(k.count),
                ms(double(k.totalNs)), pct(k.share), us(k.p50Ns), us(k.p90Ns), us(k.maxNs) };
        }
        s.blocks.push_back(ReportBlock::tableOf(tb));
        for (size_t i = 0; i < d.kernels.size() && i < size_t(kKernelHistograms); ++i) {
            const KernelStats &k = d.kernels[i];
            if (k.durations.bins() == 0)
                continue;
            HistogramFigure h;
            h.histogram = k.durations;
            h.quantity = QStringLiteral("GPU duration");
            h.title = k.name;
            h.markers = { { QStringLiteral("p50"), k.p50Ns }, { QStringLiteral("p90"), k.p90Ns } };
            s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("histogram"), h, 0.36,
                QStringLiteral("GPU durations of op #%1 (%2 runs, %3% of GPU op time)")
                    .arg(i + 1)
                    .arg(k.count)
                    .arg(pct(k.share)))));
        }
    }
    return s;
}

// ---- timeline ----

// The stretch to show for a trace: its longest step (by GPU window), else the longest idle stretch the
// verdict points at, else the whole trace. Empty when the trace has no GPU ops.
std::pair<int64_t, int64_t> worstStretch(const DoctorReport &d, QString *what)
{
    if (!d.stepTime.steps.empty()) {
        const std::vector<StepTime> &steps = d.stepTime.steps;
        const auto worst = std::max_element(steps.begin(), steps.end(),
            [](const StepTime &a, const StepTime &b) { return a.wallNs() < b.wallNs(); });
        const size_t i = size_t(worst - steps.begin());
        const TemporalBreakdown &gpu = d.steps[i].gpu; // its GPU work may run on past its end
        const int64_t from = gpu.ops ? std::min(worst->startNs, gpu.startNs) : worst->startNs;
        const int64_t to = gpu.ops ? std::max(worst->endNs, gpu.endNs) : worst->endNs;
        *what = QStringLiteral("step %1, the longest (%2 ms; limit: %3)")
                    .arg(worst->step)
                    .arg(ms(double(worst->wallNs())))
                    .arg(i < d.stepVerdicts.size() ? componentName(d.stepVerdicts[i].component)
                                                   : QStringLiteral("n/a"));
        return { from, to };
    }
    if (!d.verdict.where.empty()) {
        const Verdict::Where &w = d.verdict.where.front();
        const int64_t pad = std::max<int64_t>((w.endNs - w.startNs) / 2, 1000);
        *what = QStringLiteral("%1 (with half its length either side)").arg(w.label);
        return { w.startNs - pad, w.endNs + pad };
    }
    if (d.overall.totalNs() > 0) {
        *what = QStringLiteral("the whole GPU window");
        return { d.overall.startNs, d.overall.endNs };
    }
    return { 0, 0 };
}

QString timelineMissing(ReportContext &c)
{
    for (const TraceInfo &t : c.traces)
        if (c.doctor(t.id).overall.totalNs() > 0)
            return {};
    return QStringLiteral("the traces covered hold no GPU ops");
}

ReportSection timelineSection(ReportContext &c)
{
    ReportSection s;
    for (const TraceInfo &t : c.traces) {
        QString what;
        const auto [from, to] = worstStretch(c.doctor(t.id), &what);
        if (to <= from)
            continue;
        s.blocks.push_back(ReportBlock::heading(c.traceName(t.id)));
        s.blocks.push_back(
            ReportBlock::paragraph(QStringLiteral("The timeline of %1: %2 ms from %3 ms into the trace.")
                                       .arg(what, ms(double(to - from)), ms(double(from - t.startNs)))));
        TimelineFigure tf;
        tf.workspacePath = c.ws.path();
        tf.traceId = t.id;
        tf.fromNs = from;
        tf.toNs = to;
        s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("timeline"), tf, 0.62,
            QStringLiteral("Timeline excerpt of %1 (time from the start of the trace)")
                .arg(c.traceName(t.id)))));
    }
    return s;
}

// ---- ranks ----

QString ranksMissing(ReportContext &c)
{
    for (const RunInfo &r : c.traceRuns)
        if (r.traces.size() > 1)
            return {};
    return QStringLiteral("no run covered holds the traces of several ranks");
}

ReportSection ranksSection(ReportContext &c)
{
    ReportSection s;
    for (const RunInfo &r : c.traceRuns) {
        if (r.traces.size() < 2)
            continue;
        const RankComparison rc = compareRanks(c.ws, r.id, c.mode);
        s.blocks.push_back(ReportBlock::heading(QStringLiteral("Run %1 %2").arg(r.id).arg(r.name)));
        if (rc.straggler >= 0) {
            const RankSummary &st = rc.ranks[size_t(rc.straggler)];
            s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
                "Rank %1 is the straggler: it computes longest per step, and the other ranks wait for it "
                "about %2 ms per step in collectives. Steps differ by up to %3 ms between ranks.")
                                                          .arg(st.rank)
                                                          .arg(ms(rc.othersWaitNs), ms(rc.stepSpreadNs))));
        } else {
            s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
                "No rank stands out (none computes more than %1% longer per step than the median of the "
                "others); steps differ by up to %2 ms between ranks.")
                                                          .arg(kStragglerMargin * 100, 0, 'f', 0)
                                                          .arg(ms(rc.stepSpreadNs))));
        }
        ReportTable tb
            = table({ QStringLiteral("rank"), QStringLiteral("trace"), QStringLiteral("steps"),
                        QStringLiteral("window (ms/step)"), QStringLiteral("compute"), QStringLiteral("comm"),
                        QStringLiteral("exposed comm"), QStringLiteral("idle") },
                { true, false, true, true, true, true, true, true });
        for (size_t i = 0; i < rc.ranks.size(); ++i) {
            const RankSummary &k = rc.ranks[i];
            tb.rows << QStringList { QString::number(k.rank)
                    + (int(i) == rc.straggler ? QStringLiteral(" (straggler)") : QString()),
                k.name, QString::number(k.steps), ms(k.windowNs), ms(k.computeNs), ms(k.commNs),
                ms(k.exposedCommNs), ms(k.idleNs) };
        }
        s.blocks.push_back(ReportBlock::tableOf(tb));
    }
    return s;
}

// ---- diff ----

QString diffMissing(ReportContext &c)
{
    if (c.traces.size() < 2 || c.baselineTrace < 0)
        return QStringLiteral("a trace diff needs a baseline trace and at least one other trace");
    return {};
}

ReportSection diffSection(ReportContext &c)
{
    ReportSection s;
    for (const TraceInfo &t : c.traces) {
        if (t.id == c.baselineTrace)
            continue;
        const TraceDiff d = diffTraces(c.ws, c.baselineTrace, t.id, c.mode);
        const QString unit = d.perStep ? QStringLiteral("ms per step") : QStringLiteral("ms");
        s.blocks.push_back(ReportBlock::heading(
            QStringLiteral("%1 against %2").arg(c.traceName(t.id), c.traceName(c.baselineTrace))));
        // The step time first: the headline, its chart, and the parts' table.
        s.blocks.push_back(ReportBlock::paragraph(diffHeadline(d) + u' '
            + verdictChange(componentName(c.doctor(c.baselineTrace).verdict.component),
                componentName(c.doctor(t.id).verdict.component))));
        if (d.hasStepTime()) {
            s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("steptime-diff"), d, 0.36,
                QStringLiteral(
                    "Change of step time from %1 to %2 by part (ms per step, the mean of %3 and %4 steps)")
                    .arg(c.traceName(c.baselineTrace), c.traceName(t.id))
                    .arg(d.a.timedSteps)
                    .arg(d.b.timedSteps))));
            ReportTable parts = table({ QStringLiteral("step time part"), QStringLiteral("A (ms)"),
                                          QStringLiteral("B (ms)"), QStringLiteral("delta (ms)") },
                { false, true, true, true },
                QStringLiteral("Step time by part, largest change first (ms per step)"));
            parts.rows << QStringList { QStringLiteral("step time"), ms(d.a.stepWallNs), ms(d.b.stepWallNs),
                signedMs(d.stepTimeDeltaNs()) };
            for (const TraceDiff::StepComponent &p : d.stepComponents)
                parts.rows << QStringList { stepTimePartName(p.part), ms(p.baselineNs), ms(p.comparedNs),
                    signedMs(p.deltaNs()) };
            s.blocks.push_back(ReportBlock::tableOf(parts));
        }
        const double delta = d.windowDeltaNs();
        const double pctDelta = d.a.windowNs > 0 ? delta / d.a.windowNs * 100 : 0;
        s.blocks.push_back(ReportBlock::paragraph(
            QStringLiteral(
                "The GPU window went from %1 to %2 %3 (%4%5%): computation %6, exposed communication %7, "
                "exposed memcpy/memset %8, idle %9 %3.")
                .arg(
                    ms(d.a.windowNs), ms(d.b.windowNs), unit, pctDelta >= 0 ? QStringLiteral("+") : QString())
                .arg(pctDelta, 0, 'f', 1)
                .arg(signedMs(d.b.computeNs - d.a.computeNs), signedMs(d.b.exposedCommNs - d.a.exposedCommNs),
                    signedMs(d.b.exposedMemoryNs - d.a.exposedMemoryNs), signedMs(d.b.idleNs - d.a.idleNs))));
        s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("diff"), d, 0.32,
            QStringLiteral("Change of the GPU window from %1 to %2 by category (%3)")
                .arg(c.traceName(c.baselineTrace), c.traceName(t.id), unit))));
        ReportTable tb
            = table({ QStringLiteral("GPU op"), QStringLiteral("change"), QStringLiteral("count A"),
                        QStringLiteral("count B"), QStringLiteral("A (ms)"), QStringLiteral("B (ms)"),
                        QStringLiteral("delta (ms)") },
                { false, false, true, true, true, true, true },
                QStringLiteral("GPU ops that changed most (%1)").arg(unit));
        int rows = 0;
        for (const TraceDiff::OpDelta &op : d.ops) {
            if (op.change() == TraceDiff::OpDelta::Change::Same)
                continue;
            static const char *names[] = { "added", "removed", "slower", "faster", "same" };
            tb.rows << QStringList { op.name, QString::fromLatin1(names[int(op.change())]),
                QString::number(op.countA, 'f', op.countA == std::floor(op.countA) ? 0 : 1),
                QString::number(op.countB, 'f', op.countB == std::floor(op.countB) ? 0 : 1), ms(op.totalA),
                ms(op.totalB), signedMs(op.deltaNs()) };
            if (++rows == kTopDiffOps)
                break;
        }
        if (!tb.rows.isEmpty())
            s.blocks.push_back(ReportBlock::tableOf(tb));
    }
    return s;
}

// ---- metrics ----

// Tags by how many covered runs have them (most first, then by name), and which runs.
std::vector<std::pair<QString, std::vector<std::pair<int64_t, int64_t>>>> chartTags(ReportContext &c)
{
    QList<int64_t> ids;
    for (const ExperimentRunInfo &r : c.experimentRuns)
        ids << r.id;
    std::map<QString, std::vector<std::pair<int64_t, int64_t>>> byTag; // tag -> (run, key id)
    if (!ids.isEmpty())
        for (const SeriesSummary &ss : ExperimentReader(c.ws).series(ids))
            if (!ss.histogram && ss.hasValues && ss.points > 1)
                byTag[ss.key].emplace_back(ss.runId, ss.keyId);
    std::vector<std::pair<QString, std::vector<std::pair<int64_t, int64_t>>>> out(byTag.begin(), byTag.end());
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        const bool da = metricDirection(a.first) != MetricDirection::Unknown,
                   db = metricDirection(b.first) != MetricDirection::Unknown;
        if (a.second.size() != b.second.size())
            return a.second.size() > b.second.size();
        return da > db;
    });
    return out;
}

QString metricsMissing(ReportContext &c)
{
    if (chartTags(c).empty())
        return QStringLiteral("no experiment run covered logged a scalar metric over steps");
    return {};
}

ReportSection metricsSection(ReportContext &c)
{
    ReportSection s;
    const auto tags = chartTags(c);
    std::map<int64_t, QString> names;
    for (const ExperimentRunInfo &r : c.experimentRuns)
        names[r.id] = r.name;
    ExperimentReader reader(c.ws);
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "The %1 scalar tags most runs logged, raw values over steps (as TensorBoard shows a restarted "
        "series: at each step the latest segment that reached it).")
                                                  .arg(std::min<size_t>(kMaxChartTags, tags.size()))));
    for (size_t t = 0; t < tags.size() && t < size_t(kMaxChartTags); ++t) {
        ScalarFigure f;
        f.tag = tags[t].first;
        for (const auto &[runId, keyId] : tags[t].second) {
            if (f.lines.size() == size_t(kMaxChartRuns))
                break;
            const std::vector<ScalarPoint> pts = reader.scalarPoints(runId, keyId);
            ScalarFigure::Line line;
            line.name = names[runId];
            for (uint32_t i : latestSegmentPoints(pts)) {
                line.x.push_back(double(pts[i].step));
                line.y.push_back(pts[i].value);
            }
            f.lines.push_back(std::move(line));
        }
        const size_t runs = tags[t].second.size();
        s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("scalars"), f, 0.5,
            runs > size_t(kMaxChartRuns)
                ? QStringLiteral("%1 over steps, %2 of the %3 runs that logged it")
                      .arg(f.tag)
                      .arg(kMaxChartRuns)
                      .arg(runs)
                : QStringLiteral("%1 over steps, %2 %3")
                      .arg(f.tag)
                      .arg(runs)
                      .arg(runs == 1 ? QStringLiteral("run") : QStringLiteral("runs")))));
    }
    return s;
}

// ---- importance ----

ParamImportance importanceOf(ReportContext &c)
{
    const TrialTable table = readTrialTable(c.ws, c.trials());
    const QString metric = table.defaultMetric();
    if (metric.isEmpty()) {
        ParamImportance none;
        none.reason = QStringLiteral("no run has a metric");
        return none;
    }
    return paramImportance(table, metric, MetricStatistic::Last);
}

QString importanceMissing(ReportContext &c)
{
    if (c.trials().size() < kMinImportanceRuns)
        return QStringLiteral("parameter importance needs at least %1 experiment runs")
            .arg(kMinImportanceRuns);
    const ParamImportance p = importanceOf(c);
    if (p.entries.empty() || !p.reason.isEmpty())
        return QStringLiteral("no ranking of %1: %2")
            .arg(p.metric.isEmpty() ? QStringLiteral("any metric") : p.metric, p.reason);
    return {};
}

ReportSection importanceSection(ReportContext &c)
{
    ReportSection s;
    const ParamImportance p = importanceOf(c);
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "Which params move %1 (each run's last value) across %2 runs: the importance in a random forest "
        "of %3 regression trees (mean decrease of impurity, summing to 1) and the correlation (Pearson's "
        "r; for categorical params the correlation ratio η).")
                                                  .arg(p.metric)
                                                  .arg(p.runs)
                                                  .arg(kImportanceTrees)));
    s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("importance"), p,
        std::clamp(0.1 + 0.05 * double(std::min<size_t>(p.entries.size(), 20)), 0.25, 0.9),
        QStringLiteral("Importance of each param for %1").arg(p.metric))));
    ReportTable tb
        = table({ QStringLiteral("param"), QStringLiteral("kind"), QStringLiteral("values"),
                    QStringLiteral("runs"), QStringLiteral("importance"), QStringLiteral("correlation") },
            { false, false, true, true, true, true });
    for (const ParamImportance::Entry &e : p.entries)
        tb.rows << QStringList { e.key,
            e.categorical ? QStringLiteral("categorical") : QStringLiteral("numeric"),
            QString::number(e.levels), QString::number(e.runs), QString::number(e.importance, 'f', 3),
            std::isnan(e.correlation) ? QStringLiteral("n/a") : QString::number(e.correlation, 'f', 2) };
    s.blocks.push_back(ReportBlock::tableOf(tb));
    if (!p.skipped.empty()) {
        QStringList items;
        for (const ParamImportance::Skipped &k : p.skipped)
            items << QStringLiteral("%1: %2").arg(k.key, k.reason);
        s.blocks.push_back(ReportBlock::paragraph(QStringLiteral("Params left out:")));
        s.blocks.push_back(ReportBlock::bullets(items));
    }
    return s;
}

// ---- config ----

QString configMissing(ReportContext &c)
{
    if (c.trials().size() < 2)
        return QStringLiteral("a configuration diff needs at least two experiment runs");
    return {};
}

ReportSection configSection(ReportContext &c)
{
    ReportSection s;
    const QList<int64_t> trials = c.trials();
    s.blocks.push_back(ReportBlock::paragraph(QStringLiteral(
        "Params, tags and environment that differ between the runs (a param a run lacks counts as a "
        "difference), then each metric's last value; the first column is the baseline, and the metric "
        "rows give each run's change from it.")));
    for (int first = 1; first < trials.size(); first += kConfigRunsPerTable) {
        QList<int64_t> ids { trials.front() };
        for (int i = first; i < trials.size() && i < first + kConfigRunsPerTable; ++i)
            ids << trials[i];
        const ConfigDiff d = diffConfigs(c.ws, ids);
        QString common;
        const QStringList names = shortRunNames(d.runs, &common);
        QStringList header { QStringLiteral("key") };
        header << names;
        std::vector<bool> numeric(size_t(header.size()), false);
        if (trials.size() > kConfigRunsPerTable + 1)
            s.blocks.push_back(
                ReportBlock::heading(QStringLiteral("Runs %1 to %2 of %3 against the baseline")
                                         .arg(first + 1)
                                         .arg(std::min<int>(first + kConfigRunsPerTable, int(trials.size())))
                                         .arg(trials.size())));
        ReportTable params = table(header, numeric,
            common.isEmpty() ? QStringLiteral("Configuration rows that differ")
                             : QStringLiteral("Configuration rows that differ (runs in %1)").arg(common));
        for (const ConfigDiff::Row &r : d.rows) {
            if (!r.differs)
                continue;
            QStringList row { r.group == ConfigDiff::Group::Params
                    ? r.key
                    : QStringLiteral("%1 · %2").arg(groupName(r.group), r.key) };
            for (const auto &v : r.values)
                row << (v ? *v : QStringLiteral("—"));
            params.rows << row;
        }
        if (params.rows.isEmpty())
            s.blocks.push_back(ReportBlock::paragraph(
                QStringLiteral("Every param, tag and environment value is the same.")));
        else
            s.blocks.push_back(ReportBlock::tableOf(params));
        ReportTable metrics = table(header, std::vector<bool>(size_t(header.size()), true),
            QStringLiteral("Metrics: last value (change from the baseline)"));
        metrics.numeric[0] = false;
        for (const ConfigDiff::MetricRow &m : d.metrics) {
            if (!m.differs)
                continue;
            QStringList row { m.key };
            for (size_t i = 0; i < m.last.size(); ++i) {
                QString v = m.present[i] ? metricText(m.last[i]) : QStringLiteral("—");
                if (i > 0)
                    if (const QString dt = deltaText(m.delta[i], m.deltaPercent[i]); !dt.isEmpty())
                        v += QStringLiteral(" (%1)").arg(dt);
                if (m.better[i])
                    v += m.direction == MetricDirection::HigherIsBetter ? QStringLiteral(" ▲")
                                                                        : QStringLiteral(" ▼");
                row << v;
            }
            metrics.rows << row;
        }
        if (!metrics.rows.isEmpty())
            s.blocks.push_back(ReportBlock::tableOf(metrics));
    }
    return s;
}

// ---- lineage ----

QString lineageMissing(ReportContext &c)
{
    if (LineageReader(c.ws).defaultFocus() == 0)
        return QStringLiteral("the workspace holds no lineage (ML Metadata stores, OpenLineage events)");
    return {};
}

ReportSection lineageSection(ReportContext &c)
{
    ReportSection s;
    LineageReader reader(c.ws);
    const int64_t focus = reader.defaultFocus();
    LineageGraph g = reader.neighbourhood(focus, LineageDirection::Both, kLineageDepth, kLineageMaxNodes);
    const LineageNodeInfo n = g.nodes.front();
    s.blocks.push_back(ReportBlock::paragraph(
        QStringLiteral(
            "What %1 (%2%3) was made from and what was made from it, up to %4 edges away%5. Executions are "
            "green (red when they failed), artifacts and datasets blue; the focus is outlined.")
            .arg(n.name, n.kind, n.type.isEmpty() ? QString() : QStringLiteral(" %1").arg(n.type))
            .arg(kLineageDepth)
            .arg(g.truncated ? QStringLiteral(" (the first %1 nodes reached)").arg(kLineageMaxNodes)
                             : QString())));
    ReportTable tb = table({ QStringLiteral("node"), QStringLiteral("kind"), QStringLiteral("type"),
                               QStringLiteral("state"), QStringLiteral("edges away") },
        { false, false, false, false, true });
    for (size_t i = 0; i < g.nodes.size(); ++i)
        tb.rows << QStringList { g.nodes[i].name, g.nodes[i].kind, g.nodes[i].type, g.nodes[i].state,
            QString::number(g.depth[i]) };
    const size_t nodes = g.nodes.size();
    s.blocks.push_back(ReportBlock::figureOf(figure(QStringLiteral("lineage"), std::move(g), 0.55,
        QStringLiteral("Lineage neighbourhood of %1 (%2 nodes)").arg(n.name).arg(nodes))));
    s.blocks.push_back(ReportBlock::tableOf(tb));
    return s;
}

// ---- diagnostics ----

QString diagnosticsMissing(ReportContext &c)
{
    if (WorkspaceReader(c.ws).sources().isEmpty())
        return QStringLiteral("nothing was imported into the workspace");
    return {};
}

ReportSection diagnosticsSection(ReportContext &c)
{
    ReportSection s;
    WorkspaceReader reader(c.ws);
    ReportTable sources
        = table({ QStringLiteral("source"), QStringLiteral("format"), QStringLiteral("status"),
                    QStringLiteral("size"), QStringLiteral("records"), QStringLiteral("skipped"),
                    QStringLiteral("diagnostics") },
            { false, false, false, true, true, true, true }, QStringLiteral("Every imported file"));
    for (const SourceInfo &src : reader.sources())
        sources.rows << QStringList { src.name, src.format, src.status, text::bytes(src.sizeBytes),
            QString::number(src.events), QString::number(src.skipped), QString::number(src.diagnostics) };
    s.blocks.push_back(ReportBlock::tableOf(sources));
    const QList<DiagnosticRow> diagnostics = reader.diagnostics();
    if (diagnostics.isEmpty()) {
        s.blocks.push_back(
            ReportBlock::paragraph(QStringLiteral("The importers found nothing odd in these files.")));
        return s;
    }
    ReportTable rows = table({ QStringLiteral("source"), QStringLiteral("severity"), QStringLiteral("where"),
                                 QStringLiteral("what"), QStringLiteral("count") },
        { false, false, false, false, true },
        QStringLiteral("What the importers found odd (records skipped or repaired)"));
    for (const DiagnosticRow &d : diagnostics) {
        if (rows.rows.size() == kMaxDiagnosticRows)
            break;
        rows.rows << QStringList { d.sourceName, d.severity, d.location, d.message,
            QString::number(d.count) };
    }
    s.blocks.push_back(ReportBlock::tableOf(rows));
    if (diagnostics.size() > kMaxDiagnosticRows)
        s.blocks.push_back(ReportBlock::paragraph(
            QStringLiteral("The first %1 of %2 diagnostics; `plumb ls --diagnostics` lists them all.")
                .arg(kMaxDiagnosticRows)
                .arg(diagnostics.size())));
    return s;
}

// ---- goodput ----

// The runs the report covers that goodput can be computed for (a lifecycle log, else logged steps).
std::vector<GoodputRun> coveredGoodputRuns(ReportContext &c)
{
    std::vector<GoodputRun> out;
    for (const GoodputRun &r : goodputRuns(c.ws))
        if (c.options.runs.isEmpty()
                ? r.lifecycle
                : (c.options.runs.contains(QString::number(r.id)) || c.options.runs.contains(r.name)))
            out.push_back(r);
    return out;
}

QString goodputMissing(ReportContext &c)
{
    return coveredGoodputRuns(c).empty()
        ? QStringLiteral("no run covered has a job lifecycle log (or, when runs are "
                         "named, logged steps)")
        : QString();
}

ReportSection goodputSection(ReportContext &c)
{
    ReportSection s;
    ReportTable figures
        = table({ QStringLiteral("run"), QStringLiteral("elapsed"), QStringLiteral("goodput %"),
                    QStringLiteral("scheduling %"), QStringLiteral("runtime %"), QStringLiteral("program %"),
                    QStringLiteral("disruptions"), QStringLiteral("ideal step") },
            { false, true, true, true, true, true, true, true },
            QStringLiteral("Goodput: productive training time over the time paid for"));
    QStringList advice;
    std::vector<const GoodputReport *> reports;
    for (const GoodputRun &run : coveredGoodputRuns(c)) {
        const GoodputReport &g = c.goodput(run.id);
        if (!g.valid())
            continue;
        figures.rows << QStringList { g.runName, spanText(g.elapsedNs), pct(g.goodput),
            pct(g.schedulingGoodput), pct(g.runtimeGoodput),
            g.programGoodput ? pct(*g.programGoodput) : QStringLiteral("–"), QString::number(g.disruptions),
            spanText(g.idealStepNs) };
        if (const QString a = goodputAdvice(g); !a.isEmpty())
            advice << QStringLiteral("%1: %2").arg(g.runName, a);
        reports.push_back(&g);
    }
    s.blocks.push_back(ReportBlock::tableOf(figures));
    for (const GoodputReport *gp : reports) {
        const GoodputReport &g = *gp;
        ReportTable badput
            = table({ QStringLiteral("badput"), QStringLiteral("time"), QStringLiteral("share %") },
                { false, true, true }, QStringLiteral("Where the rest of %1's time went").arg(g.runName));
        for (size_t b = 0; b < kBadputCount; ++b)
            if (g.badputNs[b] > 0)
                badput.rows << QStringList { badputTitle(Badput(b)), spanText(g.badputNs[b]),
                    pct(g.badputShare(Badput(b))) };
        if (!badput.rows.isEmpty())
            s.blocks.push_back(ReportBlock::tableOf(badput));
    }
    if (!advice.isEmpty())
        s.blocks.push_back(ReportBlock::bullets(advice));
    return s;
}

// ---- serving ----

QString sloMissing(ReportContext &c)
{
    return servingRuns(c.ws).empty()
        ? QStringLiteral("the workspace holds no serving requests (vLLM results, request logs)")
        : QString();
}

ReportSection sloSection(ReportContext &c)
{
    ReportSection s;
    ReportTable t = table({ QStringLiteral("run"), QStringLiteral("group"), QStringLiteral("requests"),
                              QStringLiteral("errors %"), QStringLiteral("req/s"),
                              QStringLiteral("latency p50 ms"), QStringLiteral("p90"), QStringLiteral("p99"),
                              QStringLiteral("TTFT p50 ms"), QStringLiteral("p99") },
        { false, false, true, true, true, true, true, true, true, true },
        QStringLiteral("Serving latency, time to first token and errors per run and model/endpoint "
                       "(`plumb check --objectives FILE` gates on them)"));
    const auto num = [](double v, int decimals) {
        return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
    };
    for (const ServingRunInfo &run : servingRuns(c.ws)) {
        if (!c.options.runs.isEmpty() && !c.options.runs.contains(QString::number(run.runId))
            && !c.options.runs.contains(run.name))
            continue;
        const ServingSummary &summary = c.serving(run.runId);
        std::vector<const ServingStats *> rows { &summary.overall };
        if (summary.groups.size() > 1)
            for (const ServingStats &g : summary.groups)
                rows.push_back(&g);
        for (const ServingStats *st : rows)
            t.rows << QStringList { run.name, st == &summary.overall ? QStringLiteral("(all)") : st->label,
                QString::number(st->requests), num(st->errorRate * 100, 1), num(st->requestsPerS, 2),
                num(st->latencyMs.p50, 1), num(st->latencyMs.p90, 1), num(st->latencyMs.p99, 1),
                num(st->ttftMs.p50, 1), num(st->ttftMs.p99, 1) };
    }
    if (t.rows.isEmpty())
        return s;
    s.blocks.push_back(ReportBlock::tableOf(t));
    return s;
}

} // namespace

QStringList goodputAndServingSummary(ReportContext &c)
{
    QStringList lines;
    for (const GoodputRun &run : coveredGoodputRuns(c)) {
        const GoodputReport &g = c.goodput(run.id);
        if (!g.valid())
            continue;
        QString line = QStringLiteral("Goodput of %1: %2% of %3")
                           .arg(g.runName, pct(g.goodput), spanText(g.elapsedNs));
        if (const auto b = g.largestBadput())
            line += QStringLiteral(" (largest badput: %1, %2%)").arg(badputTitle(*b), pct(g.badputShare(*b)));
        lines << line + QLatin1Char('.');
    }
    for (const ServingRunInfo &run : servingRuns(c.ws)) {
        if (!c.options.runs.isEmpty() && !c.options.runs.contains(QString::number(run.runId))
            && !c.options.runs.contains(run.name))
            continue;
        const ServingStats &st = c.serving(run.runId).overall;
        lines << QStringLiteral("Serving run %1: %2 requests, p99 latency %3 ms, %4% errors.")
                     .arg(run.name)
                     .arg(st.requests)
                     .arg(std::isfinite(st.latencyMs.p99) ? QString::number(st.latencyMs.p99, 'f', 1)
                                                          : QStringLiteral("–"))
                     .arg(std::isfinite(st.errorRate) ? pct(st.errorRate) : QStringLiteral("–"));
    }
    return lines;
}

std::vector<ReportSectionDef> builtinReportSections()
{
    return {
        { QStringLiteral("steps"), QStringLiteral("Step breakdown"), stepsMissing, stepsSection },
        { QStringLiteral("idle"), QStringLiteral("Idle time per GPU stream"), idleMissing, idleSection },
        { QStringLiteral("kernels"), QStringLiteral("Top GPU ops"), kernelsMissing, kernelsSection },
        { QStringLiteral("timeline"), QStringLiteral("Timeline around the worst step"), timelineMissing,
            timelineSection },
        { QStringLiteral("ranks"), QStringLiteral("Multi-rank comparison"), ranksMissing, ranksSection },
        { QStringLiteral("diff"), QStringLiteral("Trace diff against the baseline"), diffMissing,
            diffSection },
        { QStringLiteral("metrics"), QStringLiteral("Per-trial metrics"), metricsMissing, metricsSection },
        { QStringLiteral("importance"), QStringLiteral("Parameter importance"), importanceMissing,
            importanceSection },
        { QStringLiteral("config"), QStringLiteral("Configuration diff"), configMissing, configSection },
        { QStringLiteral("goodput"), QStringLiteral("Goodput breakdown"), goodputMissing, goodputSection },
        { QStringLiteral("slo"), QStringLiteral("Serving latency and errors"), sloMissing, sloSection },
        { QStringLiteral("lineage"), QStringLiteral("Lineage of the model"), lineageMissing, lineageSection },
        { QStringLiteral("diagnostics"), QStringLiteral("Import diagnostics"), diagnosticsMissing,
            diagnosticsSection },
    };
}

} // namespace plumb
