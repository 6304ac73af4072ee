// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/reportbuilder.h"

#include "analysis/configdiff.h"
#include "report/reportsections.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <set>

namespace plumb {

ReportBlock ReportBlock::heading(const QString &text)
{
    ReportBlock b;
    b.kind = Kind::Heading;
    b.text = text;
    return b;
}

ReportBlock ReportBlock::paragraph(const QString &text)
{
    ReportBlock b;
    b.kind = Kind::Paragraph;
    b.text = text;
    return b;
}

ReportBlock ReportBlock::bullets(const QStringList &items)
{
    ReportBlock b;
    b.kind = Kind::Bullets;
    b.items = items;
    return b;
}

ReportBlock ReportBlock::tableOf(ReportTable table)
{
    ReportBlock b;
    b.kind = Kind::Table;
    b.table = std::move(table);
    return b;
}

ReportBlock ReportBlock::figureOf(ReportFigure figure)
{
    ReportBlock b;
    b.kind = Kind::Figure;
    b.figure = std::move(figure);
    return b;
}

int ReportSection::count(ReportBlock::Kind kind) const
{
    return int(
        std::count_if(blocks.begin(), blocks.end(), [kind](const ReportBlock &b) { return b.kind == kind; }));
}

int ReportSection::countFigures(const QString &kind) const
{
    return int(std::count_if(blocks.begin(), blocks.end(),
        [&](const ReportBlock &b) { return b.kind == ReportBlock::Kind::Figure && b.figure.kind == kind; }));
}

const ReportSection *ReportModel::section(const QString &id) const
{
    if (id == summary.id)
        return &summary;
    for (const ReportSection &s : sections)
        if (s.id == id)
            return &s;
    return nullptr;
}

ReportContext::ReportContext(Workspace &workspace, const ReportOptions &opts)
    : ws(workspace)
    , options(opts)
{
}

const DoctorReport &ReportContext::doctor(int64_t traceId)
{
    auto it = m_doctor.find(traceId);
    if (it == m_doctor.end())
        it = m_doctor.emplace(traceId, doctorReport(ws, traceId, mode)).first;
    return it->second;
}

const GoodputReport &ReportContext::goodput(int64_t runId)
{
    auto it = m_goodput.find(runId);
    if (it == m_goodput.end())
        it = m_goodput.emplace(runId, computeGoodput(ws, runId)).first;
    return it->second;
}

const ServingSummary &ReportContext::serving(int64_t runId)
{
    auto it = m_serving.find(runId);
    if (it == m_serving.end())
        it = m_serving.emplace(runId, summarizeServing(readServingRequests(ws, { runId }, false))).first;
    return it->second;
}

QString ReportContext::traceName(int64_t traceId) const
{
    for (const TraceInfo &t : traces)
        if (t.id == traceId)
            return t.rank >= 0 ? QStringLiteral("%1 (rank %2)").arg(t.name).arg(t.rank) : t.name;
    return QString::number(traceId);
}

QList<int64_t> ReportContext::trials() const
{
    QList<int64_t> out;
    if (baselineRun >= 0)
        out << baselineRun;
    for (const ExperimentRunInfo &r : experimentRuns)
        if (r.parentRunId < 0 && r.id != baselineRun && (!metricRunsOnly || r.scalarTags > 0))
            out << r.id;
    return out;
}

namespace {

std::vector<ReportSectionDef> &registry()
{
    static std::vector<ReportSectionDef> sections = builtinReportSections();
    return sections;
}

// Reserved for analyses that land separately, in the order: after config, before lineage.
const QStringList kReserved { QStringLiteral("goodput"), QStringLiteral("slo") };

QString reservedTitle(const QString &id)
{
    return id == QLatin1String("goodput") ? QStringLiteral("Goodput breakdown")
                                          : QStringLiteral("Serving objectives (SLO)");
}

// The executive summary: each trace's verdict, the biggest regression against the baseline, the
// configuration's biggest metric change.
ReportSection summaryOf(ReportContext &c, const std::function<bool()> &cancelled)
{
    ReportSection s;
    s.id = QStringLiteral("summary");
    s.title = QStringLiteral("Executive summary");
    if (!c.traces.empty()) {
        ReportTable tb;
        tb.header = QStringList { QStringLiteral("trace"), QStringLiteral("GPU window (ms)"),
            QStringLiteral("compute %"), QStringLiteral("exposed comm %"), QStringLiteral("idle %"),
            QStringLiteral("limit") };
        tb.numeric = { false, true, true, true, true, false };
        tb.caption = QStringLiteral("The doctor's verdict for each trace");
        QStringList verdicts;
        for (const TraceInfo &t : c.traces) {
            if (cancelled && cancelled())
                return s;
            const DoctorReport &d = c.doctor(t.id);
            const TemporalBreakdown &b = d.overall;
            auto pct = [&](int64_t ns) { return QString::number(b.share(ns) * 100, 'f', 1); };
            tb.rows << QStringList { c.traceName(t.id), QString::number(double(b.totalNs()) / 1e6, 'f', 3),
                pct(b.computeNs), pct(b.exposedCommNs), pct(b.idleNs()), componentName(d.verdict.component) };
            verdicts << QStringLiteral("%1: %2").arg(c.traceName(t.id), d.verdict.headline);
        }
        s.blocks.push_back(ReportBlock::tableOf(tb));
        s.blocks.push_back(ReportBlock::bullets(verdicts));
    }
    // Each trace against the baseline, as users measure it: its step time, the parts that explain the
    // change and the verdict's change (the GPU window when a side has no steps); slowest first.
    if (c.baselineTrace >= 0 && c.traces.size() > 1) {
        std::vector<std::pair<double, QString>> lines; // step time's change (else the window's), line
        for (const TraceInfo &t : c.traces) {
            if (t.id == c.baselineTrace)
                continue;
            if (cancelled && cancelled())
                return s;
            const TraceDiff d = diffTraces(c.ws, c.baselineTrace, t.id, c.mode);
            lines.emplace_back(d.hasStepTime() ? d.stepTimeDeltaNs() : d.windowDeltaNs(),
                QStringLiteral("%1 against the baseline %2: %3 %4")
                    .arg(c.traceName(t.id), c.traceName(c.baselineTrace), diffHeadline(d),
                        verdictChange(componentName(c.doctor(c.baselineTrace).verdict.component),
                            componentName(c.doctor(t.id).verdict.component))));
        }
        std::stable_sort(
            lines.begin(), lines.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
        QStringList items;
        for (const auto &l : lines)
            items << l.second;
        s.blocks.push_back(
            items.size() == 1 ? ReportBlock::paragraph(items.front()) : ReportBlock::bullets(items));
    }
    // Experiment runs: the metric that got most worse against the baseline trial.
    const QList<int64_t> trials = c.trials();
    if (trials.size() > 1) {
        const TrialTable table = readTrialTable(c.ws, trials);
        const ConfigDiff d = diffConfigs(table);
        double worst = 0;
        QString line;
        for (const ConfigDiff::MetricRow &m : d.metrics) {
            if (m.direction == MetricDirection::Unknown)
                continue;
            for (size_t i = 1; i < m.deltaPercent.size(); ++i) {
                const double p = m.deltaPercent[i];
                const double worse = m.direction == MetricDirection::LowerIsBetter ? p : -p;
                if (std::isfinite(worse) && worse > worst) {
                    worst = worse;
                    line = QStringLiteral(
                        "Biggest metric regression against the baseline run %1: %2 of %3 is %4 (%5).")
                               .arg(runLabel(d.runs[0]), m.key, runLabel(d.runs[qsizetype(i)]),
                                   metricText(m.last[i]), deltaText(m.delta[i], p));
                }
            }
        }
        // Nothing got worse: which run did best on the metric the experiment pages open on.
        const QString key = table.defaultMetric();
        const auto m
            = std::find_if(d.metrics.begin(), d.metrics.end(), [&](const auto &r) { return r.key == key; });
        if (line.isEmpty() && m != d.metrics.end() && m->better.size() > 1) {
            const auto best = std::find(m->better.begin() + 1, m->better.end(), true);
            if (best != m->better.end()) {
                const size_t i = size_t(best - m->better.begin());
                line = QStringLiteral("No experiment metric got worse against the baseline run %1; the best "
                                      "%2 is %3's: %4, %5.")
                           .arg(runLabel(d.runs[0]), m->key, runLabel(d.runs[qsizetype(i)]),
                               metricText(m->last[i]), deltaText(m->delta[i], m->deltaPercent[i]));
            }
        }
        if (!line.isEmpty())
            s.blocks.push_back(ReportBlock::paragraph(line));
    }
    // Goodput of the jobs, and the serving runs' latency and errors.
    if (const QStringList lines = goodputAndServingSummary(c); !lines.isEmpty())
        s.blocks.push_back(ReportBlock::bullets(lines));
    if (s.blocks.empty())
        s.blocks.push_back(ReportBlock::paragraph(
            QStringLiteral("The workspace holds no trace and no experiment run to summarise.")));
    return s;
}

QList<ExperimentRunInfo> asRunList(
    const std::vector<RunInfo> &traceRuns, const QList<ExperimentRunInfo> &experimentRuns)
{
    QList<ExperimentRunInfo> all = experimentRuns;
    std::set<int64_t> seen;
    for (const ExperimentRunInfo &r : experimentRuns)
        seen.insert(r.id);
    for (const RunInfo &r : traceRuns)
        if (!seen.count(r.id)) {
            ExperimentRunInfo e;
            e.id = r.id;
            e.name = r.name;
            all << e;
        }
    std::sort(all.begin(), all.end(),
        [](const ExperimentRunInfo &a, const ExperimentRunInfo &b) { return a.id < b.id; });
    return all;
}

} // namespace

void registerReportSection(ReportSectionDef def)
{
    auto &r = registry();
    const auto it
        = std::find_if(r.begin(), r.end(), [&](const ReportSectionDef &d) { return d.id == def.id; });
    if (it != r.end()) {
        *it = std::move(def);
        return;
    }
    // Goodput and SLO keep their place between config and lineage.
    const auto lineage = std::find_if(
        r.begin(), r.end(), [](const ReportSectionDef &d) { return d.id == QLatin1String("lineage"); });
    r.insert(kReserved.contains(def.id) ? lineage : r.end(), std::move(def));
}

const std::vector<ReportSectionDef> &reportSections()
{
    return registry();
}

QStringList reservedReportSectionIds()
{
    QStringList out;
    for (const QString &id : kReserved)
        if (std::none_of(
                registry().begin(), registry().end(), [&](const ReportSectionDef &d) { return d.id == id; }))
            out << id;
    return out;
}

QStringList reportSectionIds()
{
    QStringList out;
    for (const ReportSectionDef &d : registry())
        out << d.id;
    return out + reservedReportSectionIds();
}

QString reportSectionTitle(const QString &id)
{
    for (const ReportSectionDef &d : registry())
        if (d.id == id)
            return d.title;
    return kReserved.contains(id) ? reservedTitle(id) : id;
}

ReportBuild buildReport(Workspace &ws, const QString &workspacePath, const ReportOptions &options,
    const ReportProgress &progress, const std::function<bool()> &cancelled)
{
    ReportBuild out;
    ReportModel &m = out.model;
    ReportContext c(ws, options);
    const QStringList sections = options.sections.isEmpty() ? [] {
        QStringList ids;
        for (const ReportSectionDef &d : registry())
            ids << d.id;
        return ids;
    }() : options.sections;
    const QStringList known = reportSectionIds();
    for (const QString &id : sections)
        if (!known.contains(id) && id != QLatin1String("summary")) {
            out.error = QStringLiteral("no report section \"%1\" (the sections are %2)")
                            .arg(id, known.join(QStringLiteral(", ")));
            return out;
        }

    // The runs covered.
    WorkspaceReader wr(ws);
    ExperimentReader er(ws);
    std::vector<RunInfo> traceRuns;
    for (const RunInfo &r : wr.runs())
        if (!r.traces.isEmpty())
            traceRuns.push_back(r);
    const QList<ExperimentRunInfo> experimentRuns = er.runs();
    const QList<ExperimentRunInfo> allRuns = asRunList(traceRuns, experimentRuns);
    auto lookup = [&](const QStringList &specs, QList<int64_t> *ids) {
        RunLookup l = resolveRuns(allRuns, specs);
        l.error.replace(QLatin1String("experiment run"), QLatin1String("run"));
        *ids = l.ids;
        return l.error;
    };
    std::set<int64_t> chosen;
    QList<int64_t> ids;
    if (!options.runs.isEmpty()) {
        if (const QString e = lookup(options.runs, &ids); !e.isEmpty()) {
            out.error = e;
            return out;
        }
        chosen.insert(ids.begin(), ids.end());
    }
    auto covered = [&](int64_t id, int64_t parent) {
        return chosen.empty() || chosen.count(id) || (parent >= 0 && chosen.count(parent));
    };
    for (const RunInfo &r : traceRuns)
        if (covered(r.id, -1)) {
            c.traceRuns.push_back(r);
            for (const TraceInfo &t : r.traces)
                c.traces.push_back(t);
        }
    std::sort(
        c.traces.begin(), c.traces.end(), [](const TraceInfo &a, const TraceInfo &b) { return a.id < b.id; });
    for (const ExperimentRunInfo &r : experimentRuns)
        if (covered(r.id, r.parentRunId))
            c.experimentRuns << r;
    // The baseline: the run named, else the first covered run (its first trace for diffs).
    int64_t baseline = -1;
    if (!options.baseline.isEmpty()) {
        if (const QString e = lookup({ options.baseline }, &ids); !e.isEmpty()) {
            out.error = QStringLiteral("--baseline: ") + e;
            return out;
        }
        baseline = ids.front();
    }
    // A baseline that is an experiment run leaves the traces' baseline at the first trace run, and the
    // other way round.
    const bool traceBaseline
        = std::any_of(traceRuns.begin(), traceRuns.end(), [&](const RunInfo &r) { return r.id == baseline; });
    const bool trialBaseline = std::any_of(experimentRuns.begin(), experimentRuns.end(),
        [&](const ExperimentRunInfo &r) { return r.id == baseline && r.parentRunId < 0; });
    for (const RunInfo &r : traceBaseline ? traceRuns : c.traceRuns)
        if (c.baselineTrace < 0 && (!traceBaseline || r.id == baseline)) {
            c.baselineTrace = r.traces.front().id;
            if (!covered(r.id, -1)) // a baseline outside --runs is compared with all the same
                c.traces.insert(c.traces.begin(), r.traces.front());
        }
    // Without --runs, the experiment sections compare the runs that logged metrics (a sweep's trials)
    // when two or more did: a serving benchmark or a lifecycle log beside them logs none, and has
    // sections of its own.
    const auto logsMetrics = [](const ExperimentRunInfo &r) { return r.parentRunId < 0 && r.scalarTags > 0; };
    c.metricRunsOnly = options.runs.isEmpty()
        && std::count_if(c.experimentRuns.begin(), c.experimentRuns.end(), logsMetrics) >= 2;
    for (const ExperimentRunInfo &r : experimentRuns)
        if (c.baselineRun < 0 && r.parentRunId < 0
            && (trialBaseline ? r.id == baseline
                              : covered(r.id, -1) && (!c.metricRunsOnly || logsMetrics(r))))
            c.baselineRun = r.id;

    m.title = options.title;
    m.author = options.author;
    m.date = (options.date.isValid() ? options.date : reportDate()).toString(QStringLiteral("yyyy-MM-dd"));
    m.workspace = QFileInfo(workspacePath).fileName();
    for (const RunInfo &r : c.traceRuns)
        m.runs << QStringLiteral("%1 %2 (%3 %4)")
                      .arg(r.id)
                      .arg(r.name)
                      .arg(r.traces.size())
                      .arg(r.traces.size() == 1 ? QStringLiteral("trace") : QStringLiteral("traces"));
    for (const ExperimentRunInfo &r : c.experimentRuns)
        if (r.parentRunId < 0)
            m.runs << QStringLiteral("%1 %2 (experiment run)").arg(r.id).arg(r.name);
    for (const TraceInfo &t : c.traces)
        m.traces << QStringLiteral("%1 %2 (run %3, %4)")
                        .arg(t.id)
                        .arg(c.traceName(t.id))
                        .arg(t.runId)
                        .arg(t.format);

    const int total = int(c.traces.size()) + int(sections.size()) + 1;
    int done = 0;
    auto step = [&](const QString &stage) {
        if (progress)
            progress(done++, total, stage);
        return !(cancelled && cancelled());
    };
    for (const TraceInfo &t : c.traces) {
        if (!step(QStringLiteral("Analysing %1").arg(c.traceName(t.id))))
            break;
        (void)c.doctor(t.id);
    }
    if (step(QStringLiteral("Executive summary")))
        m.summary = summaryOf(c, cancelled);
    for (const QString &id : sections) {
        if (!step(QStringLiteral("Section: %1").arg(reportSectionTitle(id))))
            break;
        if (id == QLatin1String("summary"))
            continue; // always first
        const auto def = std::find_if(
            registry().begin(), registry().end(), [&](const ReportSectionDef &d) { return d.id == id; });
        if (def == registry().end()) {
            m.appendix
                << QStringLiteral("%1: not available in this build/workspace.").arg(reportSectionTitle(id));
            continue;
        }
        if (const QString why = def->missing(c); !why.isEmpty()) {
            m.appendix << QStringLiteral("%1: left out, %2.").arg(def->title, why);
            continue;
        }
        ReportSection s = def->build(c);
        s.id = def->id;
        s.title = def->title;
        m.sections.push_back(std::move(s));
    }
    if (cancelled && cancelled()) {
        out.error = QStringLiteral("cancelled");
        return out;
    }
    if (progress)
        progress(total, total, QStringLiteral("Done"));
    // The summary's lines that need analyses not in this build.
    for (const QString &id : reservedReportSectionIds())
        m.appendix << QStringLiteral(
            "Executive summary: no %1 line, %2 not available in this build/workspace.")
                          .arg(id == QLatin1String("goodput") ? QStringLiteral("goodput")
                                                              : QStringLiteral("objectives passed/broken"),
                              id == QLatin1String("goodput") ? QStringLiteral("goodput is")
                                                             : QStringLiteral("serving objectives are"));
    return out;
}

} // namespace plumb
