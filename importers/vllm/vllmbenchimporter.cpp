// SPDX-License-Identifier: GPL-3.0-or-later
#include "vllm/vllmbenchimporter.h"

#include "common/jsondocument.h"
#include "common/jsonsniff.h"

#include "analysis/serving.h"
#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "serving/servingsink.h"
#include "tabular/tabularlayout.h"
#include "text/textnumbers.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTimeZone>

#include <simdjson.h>

#include <cmath>
#include <string>

namespace plumb {

namespace {

namespace dom = simdjson::dom;

constexpr int64_t kMaxBytes = int64_t(2)
    << 30; // detailed results of a few hundred thousand requests are tens of MB
constexpr int64_t kCheckpointRequests = 1 << 14;
constexpr double kPercentileTolerance = 0.005;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

int64_t secondsToNs(double s)
{
    return std::isfinite(s) ? int64_t(std::llround(s * 1e9)) : -1;
}

// The file's "date" (vLLM: %Y%m%d-%H%M%S, local time without a zone), read as UTC; 0 when absent.
int64_t dateNs(dom::object root)
{
    std::string_view date;
    if (root["date"].get_string().get(date) != simdjson::SUCCESS)
        return 0;
    QDateTime t = QDateTime::fromString(qs(date), QStringLiteral("yyyyMMdd-HHmmss"));
    if (!t.isValid())
        t = QDateTime::fromString(qs(date), Qt::ISODate);
    if (!t.isValid())
        return 0;
    t.setTimeZone(QTimeZone::utc());
    return scaledNs(t.toMSecsSinceEpoch(), 1000000).value_or(0);
}

} // namespace

int VllmBenchImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    Q_UNUSED(fileName);
    if (firstJsonByte(head) != '{')
        return 0;
    const auto has = [&](const char *key) { return headHas(head, key); };
    const bool summary
        = has("\"request_throughput\"") && (has("\"completed\"") || has("\"total_input_tokens\""));
    const bool detailed = has("\"ttfts\"") && has("\"input_lens\"");
    return summary ? 90 : detailed ? 80 : 0;
}

void VllmBenchImporter::read(ImportContext &ctx) const
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    dom::parser parser;
    // A benchmark whose requests all failed has NaN means (older vLLM), written as the bare word NaN.
    const dom::element rootElement = parseJsonInput(ctx, parser, kMaxBytes);
    dom::object root;
    if (rootElement.get_object().get(root) != simdjson::SUCCESS)
        throw ImportError(QStringLiteral("%1 is not a JSON object; nothing was imported").arg(file));

    MetricSink &metrics = ctx.metricSink();
    const QFileInfo info(in.path());
    const int64_t run = metrics.openRun(
        QStringLiteral("vllm-bench:") + info.absoluteFilePath(), info.fileName(), info.absoluteFilePath());
    const int64_t date = dateNs(root);

    // Setup and summary: scalars as params; the reported percentiles kept for the check below.
    std::vector<std::pair<std::string, double>> reported;
    std::string_view model, backend;
    for (auto [key, value] : root) {
        setJsonParam(metrics, run, qs(key), value);
        double number = 0;
        std::string_view s;
        if (jsonNumber(value, number) && key.size() > 3 && key.substr(key.size() - 3) == "_ms")
            reported.emplace_back(std::string(key), number);
        else if (value.get_string().get(s) == simdjson::SUCCESS && key == "model_id")
            model = s;
        else if (value.get_string().get(s) == simdjson::SUCCESS
            && (key == "backend" || (key == "endpoint_type" && backend.empty())))
            backend = s;
    }
    if (!backend.empty())
        metrics.setRunGroup(run, qs(backend));

    // Per-request arrays.
    const auto array = [&](const char *name, dom::array &out) {
        return root[name].get_array().get(out) == simdjson::SUCCESS;
    };
    dom::array inputLens, outputLens, ttfts, itls, latencies, startTimes, errors;
    const bool hasIn = array("input_lens", inputLens), hasOut = array("output_lens", outputLens),
               hasTtft = array("ttfts", ttfts), hasItl = array("itls", itls),
               hasLat = array("latencies", latencies), hasStart = array("start_times", startTimes),
               hasErrors = array("errors", errors);
    size_t n = SIZE_MAX;
    size_t longest = 0;
    for (const auto &[has, a] :
        { std::pair { hasIn, &inputLens }, { hasOut, &outputLens }, { hasTtft, &ttfts }, { hasItl, &itls },
            { hasLat, &latencies }, { hasStart, &startTimes }, { hasErrors, &errors } })
        if (has) {
            n = std::min(n, a->size());
            longest = std::max(longest, a->size());
        }
    if (n == SIZE_MAX) {
        ctx.diagnostics().report(Severity::Warning, QStringLiteral("no-requests"), {},
            QStringLiteral(
                "The result has no per-request arrays (ttfts, latencies...): only its summary was "
                "imported, as params of the run. Save results with --save-detailed to get requests."));
        ctx.recordsRead = 0;
        return;
    }
    if (longest != n)
        ctx.diagnostics().report(Severity::Warning, QStringLiteral("array-lengths"), {},
            QStringLiteral(
                "The per-request arrays have different lengths (%1 to %2); the first %1 requests were "
                "imported.")
                .arg(n)
                .arg(longest));
    if (!hasStart)
        ctx.diagnostics().report(Severity::Info, QStringLiteral("no-start-times"), {},
            QStringLiteral(
                "The result has no start_times: the requests' start times are unknown, so they have no "
                "time windows and no throughput of their own (the file's request_throughput is a param)."));
    if (hasStart && date == 0)
        ctx.diagnostics().report(Severity::Info, QStringLiteral("no-date"), {},
            QStringLiteral(
                "The result has no date: request starts are seconds from the first request, on 1970-01-01."));

    double firstStart = 0;
    if (hasStart && n > 0) {
        // In order, not by index: at(i) walks the array from its start (40,000 requests took 1.1 s).
        firstStart = INFINITY;
        size_t i = 0;
        for (dom::element e : startTimes) {
            if (i++ == n)
                break;
            double s = 0;
            if (jsonNumber(e, s))
                firstStart = std::min(firstStart, s);
        }
    }
    ServingSink &sink = ctx.servingSink();
    std::vector<int64_t> itl;
    std::vector<float> ttftMs, latencyMs, itlMs;
    int64_t failed = 0;
    // Iterating an array by index is O(i) in simdjson's DOM: walk them together instead.
    auto inIt = hasIn ? inputLens.begin() : dom::array::iterator(),
         outIt = hasOut ? outputLens.begin() : dom::array::iterator(),
         ttftIt = hasTtft ? ttfts.begin() : dom::array::iterator(),
         itlIt = hasItl ? itls.begin() : dom::array::iterator(),
         latIt = hasLat ? latencies.begin() : dom::array::iterator(),
         startIt = hasStart ? startTimes.begin() : dom::array::iterator(),
         errIt = hasErrors ? errors.begin() : dom::array::iterator();
    for (size_t i = 0; i < n; ++i) {
        if ((i + 1) % kCheckpointRequests == 0)
            ctx.checkpoint();
        ServingRequest r;
        double v = 0;
        if (hasErrors) {
            std::string_view e;
            const dom::element err = *errIt;
            r.ok = err.is_null() || (err.get_string().get(e) == simdjson::SUCCESS && e.empty());
            if (!r.ok) {
                r.status = e.empty() ? std::string_view("error") : e;
                ++failed;
            }
        }
        if (hasIn && jsonNumber(*inIt, v))
            r.inputTokens = int64_t(v);
        if (hasStart && jsonNumber(*startIt, v))
            r.startNs = date + secondsToNs(v - firstStart);
        if (r.ok) {
            if (hasOut && jsonNumber(*outIt, v))
                r.outputTokens = int64_t(v);
            if (hasTtft && jsonNumber(*ttftIt, v)) {
                r.ttftNs = secondsToNs(v);
                ttftMs.push_back(float(v * 1e3));
            }
            if (hasLat && jsonNumber(*latIt, v)) {
                r.latencyNs = secondsToNs(v);
                latencyMs.push_back(float(v * 1e3));
            }
            dom::array gaps;
            if (hasItl && (*itlIt).get_array().get(gaps) == simdjson::SUCCESS) {
                itl.clear();
                for (dom::element g : gaps)
                    if (jsonNumber(g, v)) {
                        itl.push_back(secondsToNs(v));
                        itlMs.push_back(float(v * 1e3));
                    }
                r.itlNs = itl.data();
                r.itlCount = itl.size();
            }
        }
        r.model = model;
        r.endpoint = backend;
        if (r.startNs != ServingRequest::kUnknownTime)
            metrics.noteRunTime(run, r.startNs);
        sink.add(run, r);
        for (auto *it : { &inIt, &outIt, &ttftIt, &itlIt, &latIt, &startIt, &errIt })
            if (*it != dom::array::iterator())
                ++*it;
    }
    ctx.recordsRead = int64_t(n);

    // The file's own percentiles against its requests'.
    const auto check = [&](const char *metric, std::vector<float> &values) {
        if (values.empty())
            return;
        std::sort(values.begin(), values.end());
        for (const auto &[key, value] : reported) {
            const std::string suffix = std::string("_") + metric + "_ms";
            if (key.size() <= suffix.size()
                || key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
                continue;
            const std::string stat = key.substr(0, key.size() - suffix.size());
            double p = -1;
            if (stat == "median")
                p = 50;
            else if (stat.size() > 1 && stat[0] == 'p')
                p = QString::fromStdString(stat.substr(1)).toDouble();
            if (p < 0)
                continue;
            const double ours = percentileSorted(values.data(), values.size(), p);
            if (std::fabs(ours - value) > kPercentileTolerance * std::max(std::fabs(value), 1e-3)
                && !ctx.diagnostics().bump(QStringLiteral("summary-differs")))
                ctx.diagnostics().report(Severity::Warning, QStringLiteral("summary-differs"),
                    QStringLiteral("member %1").arg(QString::fromStdString(key)),
                    QStringLiteral("The file's %1 (%2) differs from the percentile of its requests (%3).")
                        .arg(QString::fromStdString(key))
                        .arg(value)
                        .arg(ours));
        }
    };
    check("ttft", ttftMs);
    check("e2el", latencyMs);
    check("itl", itlMs);
    if (failed > 0)
        ctx.diagnostics().report(Severity::Info, QStringLiteral("failed-requests"), {},
            QStringLiteral("%1 of %2 requests failed (their errors are kept as the request's status).")
                .arg(failed)
                .arg(n));
}

} // namespace plumb
