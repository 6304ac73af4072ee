// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/objectivecheck.h"

#include "analysis/goodput.h"

#include "analysis/serving.h"
#include "analysis/stepbreakdown.h"
#include "store/experimentreader.h"
#include "store/runselection.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace plumb {

namespace {

// The p-th percentile of `v` (numpy linear), reordering it: O(n) selection instead of a sort.
double selectPercentile(std::vector<float> &v, double p)
{
    if (v.empty())
        return kNaN;
    const double rank = p / 100.0 * double(v.size() - 1);
    const size_t lo = size_t(std::floor(rank));
    std::nth_element(v.begin(), v.begin() + ptrdiff_t(lo), v.end());
    const double a = double(v[lo]);
    if (lo + 1 >= v.size())
        return a;
    const double b = double(*std::min_element(v.begin() + ptrdiff_t(lo) + 1, v.end()));
    return a + (b - a) * (rank - double(lo));
}

double statOf(std::vector<float> &v, const ObjectiveSpec &s)
{
    if (v.empty())
        return kNaN;
    if (s.percentile >= 0)
        return selectPercentile(v, s.percentile);
    if (s.stat == QLatin1String("min"))
        return double(*std::min_element(v.begin(), v.end()));
    if (s.stat == QLatin1String("max"))
        return double(*std::max_element(v.begin(), v.end()));
    double sum = 0;
    for (const float x : v)
        sum += double(x);
    return sum / double(v.size());
}

// A request field's values over `indices` (successful requests for durations), into `v` (reused
// from objective to objective: a fresh 40 MB vector per objective spent more time in page faults
// than in the statistics).
void fieldValues(const ServingRequests &r, const std::vector<uint32_t> &indices, const QString &field,
    std::vector<float> &v)
{
    v.clear();
    v.reserve(indices.size());
    if (field == QLatin1String("latency_ms") || field == QLatin1String("ttft_ms")) {
        const auto &col = field == QLatin1String("latency_ms") ? r.latencyMs : r.ttftMs;
        for (const uint32_t i : indices)
            if (!std::isnan(col[i]))
                v.push_back(col[i]);
    } else if (field == QLatin1String("itl_ms")) {
        for (const uint32_t i : indices)
            for (uint64_t k = r.itlBegin(i); k < r.itlEnd(i); ++k)
                v.push_back(r.itlMs[k]);
    } else if (field == QLatin1String("tpot_ms")) {
        for (const uint32_t i : indices)
            if (r.ok[i] && !std::isnan(r.latencyMs[i]) && !std::isnan(r.ttftMs[i]) && r.outputTokens[i] >= 2)
                v.push_back((r.latencyMs[i] - r.ttftMs[i]) / float(r.outputTokens[i] - 1));
    } else {
        const bool input = field == QLatin1String("input_tokens");
        const auto &col = input ? r.inputTokens : r.outputTokens;
        for (const uint32_t i : indices)
            if (col[i] >= 0 && (input || r.ok[i]))
                v.push_back(float(col[i]));
    }
}

// error_rate, request_throughput, output_throughput, requests over `indices`; `spanNs` > 0 for a window.
double servingQuantity(
    const ServingRequests &r, const std::vector<uint32_t> &indices, const QString &name, int64_t spanNs)
{
    if (name == QLatin1String("requests"))
        return double(indices.size());
    int64_t errors = 0, ok = 0;
    double tokens = 0;
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const uint32_t i : indices) {
        if (!r.ok[i]) {
            ++errors;
        } else {
            ++ok;
            tokens += std::max(0, r.outputTokens[i]);
        }
        if (r.startNs[i] != ServingRequests::kUnknownStart) {
            first = std::min(first, r.startNs[i]);
            last = std::max(last,
                r.startNs[i] + (std::isnan(r.latencyMs[i]) ? 0 : int64_t(double(r.latencyMs[i]) * 1e6)));
        }
    }
    if (name == QLatin1String("error_rate"))
        return indices.empty() ? kNaN : double(errors) / double(indices.size());
    const int64_t span = spanNs > 0 ? spanNs : (first < last ? last - first : 0);
    if (span <= 0)
        return kNaN;
    return (name == QLatin1String("request_throughput") ? double(ok) : tokens) / (double(span) / 1e9);
}

bool isServingName(const QString &n)
{
    return n == QLatin1String("error_rate") || n == QLatin1String("request_throughput")
        || n == QLatin1String("output_throughput") || n == QLatin1String("requests");
}

QString unitOfField(const QString &field)
{
    if (field.endsWith(QLatin1String("_ms")))
        return QStringLiteral("ms");
    if (field.endsWith(QLatin1String("_tokens")))
        return QStringLiteral("tokens");
    return {};
}

class Evaluator {
public:
    Evaluator(Workspace &ws, const QuantityTable &q)
        : m_ws(ws)
        , m_quantities(q)
    {
    }

    int64_t resolveRun(const QString &text)
    {
        const RunSelection s = selectRuns(workspaceRuns(m_ws), { text });
        if (!s.ok())
            throw CheckInputError(s.error);
        return s.ids.front();
    }

    QString runName(int64_t id)
    {
        SqliteStmt st(m_ws.db(), "SELECT name FROM run WHERE id = ?");
        st.bind(1, id);
        return st.step() ? st.columnText(0) : QString();
    }

    const ServingRequests &requests(int64_t run, bool withItl)
    {
        auto it = m_requests.find(run);
        if (it == m_requests.end() || (withItl && !it->second.second)) {
            auto r = std::make_unique<ServingRequests>(readServingRequests(m_ws, { run }, withItl));
            it = m_requests.insert_or_assign(run, std::make_pair(std::move(r), withItl)).first;
        }
        return *it->second.first;
    }

    // The newest run with serving requests other than `exclude`, or -1.
    int64_t newestServingRun(int64_t exclude)
    {
        if (!m_servingRuns)
            m_servingRuns = servingRuns(m_ws);
        for (const auto &r : *m_servingRuns)
            if (r.runId != exclude)
                return r.runId;
        return -1;
    }

    // A metric's value in `run` (-1: the newest run that logged it): last value, or mean/min/max of
    // its points. Sets `usedRun`.
    std::optional<double> metric(const QString &name, const QString &stat, int64_t run, int64_t &usedRun,
        int64_t &points, QString &key)
    {
        ExperimentReader reader(m_ws);
        const std::vector<SeriesSummary> series
            = reader.series(run >= 0 ? QList<int64_t> { run } : QList<int64_t> {});
        const SeriesSummary *best = nullptr;
        for (const auto &s : series) {
            if (s.histogram || !(s.key == name || s.key.endsWith(QLatin1Char('/') + name)))
                continue;
            if (!best || s.runId > best->runId || (s.runId == best->runId && s.key == name))
                best = &s;
        }
        if (!best)
            return std::nullopt;
        usedRun = best->runId;
        key = best->key;
        points = best->points;
        if (stat.isEmpty())
            return best->lastValue;
        std::vector<float> v;
        for (const auto &p : reader.scalarPoints(best->runId, best->keyId))
            if (std::isfinite(p.value))
                v.push_back(float(p.value));
        ObjectiveSpec s;
        s.stat = stat;
        return statOf(v, s);
    }

    // A named quantity of `run`: registered, else a metric.
    std::optional<double> named(const QString &name, const QString &stat, int64_t run, QString &why,
        int64_t &usedRun, int64_t &points, QString &unit, QString *registered = nullptr)
    {
        if (const QuantityTable::Entry *e = m_quantities.find(name); e && stat.isEmpty()) {
            usedRun = run;
            unit = e->unit;
            points = 1;
            if (registered)
                *registered = e->description;
            return e->resolve(m_ws, run, why);
        }
        QString key;
        if (const auto v = metric(name, stat, run, usedRun, points, key))
            return v;
        why = run >= 0
            ? QStringLiteral("run %1 has no serving quantity, registered quantity or metric named %2")
                  .arg(runName(run), name)
            : QStringLiteral(
                "no serving quantity, registered quantity or metric in the workspace is named %1")
                  .arg(name);
        return std::nullopt;
    }

    ObjectiveResult evaluate(const ObjectiveSpec &s, int64_t chosenRun, int64_t baseline)
    {
        ObjectiveResult r;
        r.spec = s;
        r.fraction
            = s.percent || s.field == QLatin1String("error_rate") || s.kind == ObjectiveSpec::Kind::Change;
        const auto noData = [&](const QString &why) {
            r.status = ObjectiveStatus::NoData;
            r.detail = why;
            return r;
        };
        const auto decide = [&](double value) {
            r.value = value;
            const bool less = s.op == ObjectiveSpec::Op::Less || s.op == ObjectiveSpec::Op::LessEqual;
            r.margin = less ? s.threshold - value : value - s.threshold;
            r.status = s.holds(value) ? ObjectiveStatus::Pass : ObjectiveStatus::Fail;
        };

        if (s.kind == ObjectiveSpec::Kind::Named && !isServingName(s.field)) {
            QString why, unit, registered;
            int64_t used = -1, points = 0;
            const auto v = named(s.field, s.stat, chosenRun, why, used, points, unit, &registered);
            if (!v)
                return noData(why);
            if (std::isnan(*v))
                return noData(QStringLiteral("%1 is NaN in run %2").arg(s.field, runName(used)));
            // A registered quantity in "fraction" is a share (0..1), shown as a percentage.
            r.fraction = r.fraction || unit == QLatin1String("fraction");
            r.unit = unit == QLatin1String("fraction") ? QString() : unit;
            r.samples = points;
            decide(*v);
            if (!registered.isEmpty())
                r.detail
                    = used >= 0 ? QStringLiteral("%1, run %2").arg(registered, runName(used)) : registered;
            else
                r.detail = QStringLiteral("%1 of run %2")
                               .arg(s.stat.isEmpty() ? QStringLiteral("last value") : s.stat, runName(used));
            return r;
        }
        if (s.kind == ObjectiveSpec::Kind::Change) {
            if (baseline < 0)
                return noData(
                    QStringLiteral("needs a baseline run: --baseline RUN, or baseline: in the file"));
            QString why, unit;
            int64_t usedCur = -1, usedBase = -1, points = 0;
            const int64_t current = chosenRun >= 0 ? chosenRun : newestRunOtherThan(baseline);
            if (current < 0)
                return noData(QStringLiteral("no run besides the baseline to compare with it"));
            const auto cur = named(s.field, QString(), current, why, usedCur, points, unit);
            if (!cur)
                return noData(why);
            const auto base = named(s.field, QString(), baseline, why, usedBase, points, unit);
            if (!base)
                return noData(why);
            if (!(*base != 0) || std::isnan(*base) || std::isnan(*cur))
                return noData(
                    QStringLiteral("%1 of the baseline is %2: no relative change").arg(s.field).arg(*base));
            const double change = (*cur - *base) / std::fabs(*base);
            decide(s.increase ? change : -change);
            r.samples = 2;
            r.detail = QStringLiteral("%1: %2 in run %3 vs %4 in baseline %5")
                           .arg(s.field)
                           .arg(*cur, 0, 'g', 4)
                           .arg(runName(current))
                           .arg(*base, 0, 'g', 4)
                           .arg(runName(baseline));
            return r;
        }

        // Request objectives.
        const int64_t run = chosenRun >= 0 ? chosenRun : newestServingRun(baseline);
        if (run < 0)
            return noData(QStringLiteral(
                "no run with serving requests%1 (import a vLLM benchmark result or a request log)")
                              .arg(baseline >= 0 ? QStringLiteral(" besides the baseline") : QString()));
        const bool itl = s.field == QLatin1String("itl_ms");
        const ServingRequests &req = requests(run, itl);
        ServingFilter f;
        f.model = s.model;
        f.endpoint = s.endpoint;
        f.fromMinute = s.fromMinute;
        f.toMinute = s.toMinute;
        const std::vector<uint32_t> &indices = selection(run, req, f);
        const QString where
            = QStringLiteral("run %1%2%3")
                  .arg(runName(run),
                      s.model.isEmpty() && s.endpoint.isEmpty() ? QString()
                                                                : QStringLiteral(", ")
                              + QStringList({ s.model, s.endpoint }).join(QLatin1Char(' ')).trimmed(),
                      s.fromMinute >= 0 ? QStringLiteral(", during %1")
                                              .arg(s.text.section(QStringLiteral("during"), 1).trimmed())
                                        : QString());
        if (indices.empty())
            return noData(QStringLiteral("no requests in %1").arg(where));
        r.unit = s.kind == ObjectiveSpec::Kind::Drift ? QString()
            : isServingName(s.field)
            ? (s.field == QLatin1String("request_throughput")       ? QStringLiteral("req/s")
                    : s.field == QLatin1String("output_throughput") ? QStringLiteral("tok/s")
                                                                    : QString())
            : unitOfField(s.field);
        if (s.kind == ObjectiveSpec::Kind::Drift) {
            if (baseline < 0)
                return noData(
                    QStringLiteral("needs a baseline run: --baseline RUN, or baseline: in the file"));
            const ServingRequests &base = requests(baseline, itl);
            const std::vector<uint32_t> &baseIdx = selection(baseline, base, f);
            std::vector<float> &bv = m_scratch2, &cv = m_scratch;
            fieldValues(base, baseIdx, s.field, bv);
            fieldValues(req, indices, s.field, cv);
            if (bv.empty() || cv.empty())
                return noData(QStringLiteral("no %1 values in %2")
                                  .arg(s.field, bv.empty() ? QStringLiteral("the baseline") : where));
            const Drift d = distributionShift(bv, cv);
            decide(s.stat == QLatin1String("psi") ? d.psi : d.jsDistance);
            r.samples = int64_t(cv.size());
            r.detail = QStringLiteral("%1 of %2 in %3 (%4 values) vs baseline %5 (%6 values), %7 bins")
                           .arg(s.stat == QLatin1String("psi") ? QStringLiteral("PSI")
                                                               : QStringLiteral("JS distance"),
                               s.field, where)
                           .arg(cv.size())
                           .arg(runName(baseline))
                           .arg(bv.size())
                           .arg(d.bins.size());
            return r;
        }
        const auto valueOver = [&](const std::vector<uint32_t> &idx, int64_t spanNs, int64_t &samples) {
            if (isServingName(s.field)) {
                samples = int64_t(idx.size());
                return servingQuantity(req, idx, s.field, spanNs);
            }
            fieldValues(req, idx, s.field, m_scratch);
            samples = int64_t(m_scratch.size());
            return statOf(m_scratch, s);
        };
        if (s.windowNs <= 0) {
            const double v = valueOver(indices, 0, r.samples);
            if (std::isnan(v))
                return noData(QStringLiteral("no %1 values in %2").arg(s.field, where));
            decide(v);
            r.detail = isServingName(s.field)
                ? QStringLiteral("%1 requests of %2").arg(indices.size()).arg(where)
                : QStringLiteral("%1 values from %2 requests of %3")
                      .arg(r.samples)
                      .arg(indices.size())
                      .arg(where);
            return r;
        }
        const bool less = s.op == ObjectiveSpec::Op::Less || s.op == ObjectiveSpec::Op::LessEqual;
        std::map<int64_t, std::vector<uint32_t>> byWindow;
        for (const uint32_t i : indices) {
            const int64_t start = req.startNs[i];
            if (start == ServingRequests::kUnknownStart)
                continue;
            byWindow[start >= 0 ? start / s.windowNs : -((-start + s.windowNs - 1) / s.windowNs)].push_back(
                i);
        }
        bool any = false;
        double worst = 0;
        for (const auto &[w, idx] : byWindow) {
            ObjectiveWindow win;
            win.startNs = w * s.windowNs;
            win.endNs = win.startNs + s.windowNs;
            win.requests = int64_t(idx.size());
            int64_t samples = 0;
            win.value = valueOver(idx, s.windowNs, samples);
            if (std::isnan(win.value))
                continue;
            win.holds = s.holds(win.value);
            r.windowsBroken += win.holds ? 0 : 1;
            if (!any || (less ? win.value > worst : win.value < worst))
                worst = win.value;
            any = true;
            r.windows.push_back(win);
        }
        if (!any)
            return noData(QStringLiteral("no %1 values with known times in %2").arg(s.field, where));
        decide(worst);
        r.samples = int64_t(r.windows.size());
        r.detail = QStringLiteral("worst of %1 windows of %2; %3 broken")
                       .arg(r.windows.size())
                       .arg(where)
                       .arg(r.windowsBroken);
        return r;
    }

    // The requests `f` selects in `run`, computed once per run and filter (10M indices are 40 MB).
    const std::vector<uint32_t> &selection(int64_t run, const ServingRequests &req, const ServingFilter &f)
    {
        const QString key = QStringLiteral("%1|%2|%3|%4|%5")
                                .arg(run)
                                .arg(f.model, f.endpoint)
                                .arg(f.fromMinute)
                                .arg(f.toMinute);
        auto it = m_selections.find(key);
        if (it == m_selections.end())
            it = m_selections.emplace(key, selectRequests(req, f)).first;
        return it->second;
    }

    int64_t newestRunOtherThan(int64_t exclude)
    {
        SqliteStmt st(m_ws.db(), "SELECT id FROM run WHERE id <> ? ORDER BY id DESC LIMIT 1");
        st.bind(1, exclude);
        return st.step() ? st.columnInt(0) : -1;
    }

private:
    Workspace &m_ws;
    const QuantityTable &m_quantities;
    std::map<int64_t, std::pair<std::unique_ptr<ServingRequests>, bool>> m_requests;
    std::optional<std::vector<ServingRunInfo>> m_servingRuns;
    std::map<QString, std::vector<uint32_t>> m_selections;
    std::vector<float> m_scratch, m_scratch2; // a field's values, reused
};

} // namespace

void QuantityTable::add(
    const QString &name, const QString &description, const QString &unit, Resolver resolve)
{
    m_entries[name] = Entry { description, unit, std::move(resolve) };
}

const QuantityTable::Entry *QuantityTable::find(const QString &name) const
{
    const auto it = m_entries.find(name);
    return it == m_entries.end() ? nullptr : &it->second;
}

QuantityTable builtinQuantities()
{
    QuantityTable t;
    t.add(QStringLiteral("step_time"),
        QStringLiteral(
            "mean training step time of the run: its traces' steps on the CPU, else a step-time metric"),
        QStringLiteral("ms"), [](Workspace &ws, int64_t run, QString &why) -> std::optional<double> {
            if (run < 0) {
                why = QStringLiteral("step_time needs a run");
                return std::nullopt;
            }
            double sum = 0;
            int64_t steps = 0;
            {
                SqliteStmt st(ws.db(), "SELECT id FROM trace WHERE run_id = ? ORDER BY id");
                st.bind(1, run);
                std::vector<int64_t> traces;
                while (st.step())
                    traces.push_back(st.columnInt(0));
                for (const int64_t trace : traces)
                    for (const auto &step : stepBreakdowns(ws, trace, GpuOpMode::EveryOp)) {
                        sum += double(step.cpuEndNs - step.cpuStartNs) / 1e6;
                        ++steps;
                    }
            }
            if (steps > 0)
                return sum / double(steps);
            ExperimentReader reader(ws);
            for (const auto &s : reader.series({ run })) {
                const QString k = s.key.section(QLatin1Char('/'), -1);
                if (s.histogram
                    || !(k == QLatin1String("step_time") || k == QLatin1String("step_time_ms")
                        || k == QLatin1String("time_per_step")))
                    continue;
                double total = 0;
                int64_t n = 0;
                for (const auto &p : reader.scalarPoints(run, s.keyId))
                    if (std::isfinite(p.value)) {
                        total += p.value;
                        ++n;
                    }
                if (n > 0)
                    return total / double(n);
            }
            why = QStringLiteral("the run has no traces with steps and no step_time metric");
            return std::nullopt;
        });
    // Goodput figures (core/analysis/goodput.h) of the run, else of the newest job with a lifecycle
    // log (else with logged steps); computed once per run and workspace for all of them.
    auto reports = std::make_shared<std::map<std::pair<QString, int64_t>, GoodputReport>>();
    for (const QString &name : goodputQuantityNames()) {
        const QString unit = name.endsWith(QLatin1String("_s")) ? QStringLiteral("s")
            : name == QLatin1String("disruptions")              ? QString()
                                                                : QStringLiteral("fraction");
        t.add(name,
            QStringLiteral("%1 of the job (plumb goodput; the newest job when no run is named)").arg(name),
            unit, [name, reports](Workspace &ws, int64_t run, QString &why) -> std::optional<double> {
                if (run < 0) {
                    const std::vector<GoodputRun> runs = goodputRuns(ws);
                    if (runs.empty()) {
                        why = QStringLiteral("no run has a lifecycle log or logged steps");
                        return std::nullopt;
                    }
                    run = runs.front().id;
                }
                auto it = reports->find({ ws.path(), run });
                if (it == reports->end())
                    it = reports->emplace(std::make_pair(ws.path(), run), computeGoodput(ws, run)).first;
                const std::optional<double> v = goodputQuantity(it->second, name);
                if (!v)
                    why = QStringLiteral(
                        "run %1 has no %2 (no lifecycle events or steps, or no FLOPs for program goodput)")
                              .arg(run)
                              .arg(name);
                return v;
            });
    }
    return t;
}

QString objectiveStatusName(ObjectiveStatus s)
{
    switch (s) {
    case ObjectiveStatus::Pass:
        return QStringLiteral("pass");
    case ObjectiveStatus::Fail:
        return QStringLiteral("fail");
    case ObjectiveStatus::NoData:
        return QStringLiteral("no data");
    }
    return {};
}

QString formatObjectiveValue(const ObjectiveResult &r, double v)
{
    if (std::isnan(v))
        return QStringLiteral("-");
    if (r.fraction)
        return QString::number(v * 100, 'f', std::fabs(v) < 0.1 ? 2 : 1) + QLatin1Char('%');
    const QString n = std::fabs(v) >= 1000 ? QString::number(v, 'f', 0) : QString::number(v, 'g', 4);
    return r.unit.isEmpty() ? n : n + QLatin1Char(' ') + r.unit;
}

CheckReport evaluateObjectives(
    Workspace &ws, const ObjectivesFile &file, const CheckOptions &options, const QuantityTable &quantities)
{
    Evaluator ev(ws, quantities);
    CheckReport report;
    const QString runText = !options.run.isEmpty() ? options.run : file.run;
    const QString baseText = !options.baseline.isEmpty() ? options.baseline : file.baseline;
    if (!runText.isEmpty()) {
        report.runId = ev.resolveRun(runText);
        report.runName = ev.runName(report.runId);
    }
    if (!baseText.isEmpty()) {
        report.baselineRunId = ev.resolveRun(baseText);
        report.baselineName = ev.runName(report.baselineRunId);
    }
    // No run named: request objectives use the newest serving run (named in the report), metrics
    // the newest run that logged them.
    if (report.runId < 0)
        if (const int64_t serving = ev.newestServingRun(report.baselineRunId); serving >= 0)
            report.runName = ev.runName(serving);
    for (const ObjectiveSpec &s : file.objectives) {
        ObjectiveResult r = ev.evaluate(s, runText.isEmpty() ? -1 : report.runId, report.baselineRunId);
        switch (r.status) {
        case ObjectiveStatus::Pass:
            ++report.passed;
            break;
        case ObjectiveStatus::Fail:
            ++report.failed;
            break;
        case ObjectiveStatus::NoData:
            ++report.noData;
            break;
        }
        report.results.push_back(std::move(r));
    }
    return report;
}

} // namespace plumb
