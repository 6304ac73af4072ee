// SPDX-License-Identifier: GPL-3.0-or-later
#include "hftrainer/hftrainerimporter.h"

#include "common/jsondocument.h"
#include "common/jsonsniff.h"
#include "common/logfolder.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "tabular/tabularlayout.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <simdjson.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

namespace plumb {

namespace {

namespace dom = simdjson::dom;

constexpr int64_t kMaxBytes = int64_t(1) << 30; // a log_history of millions of entries

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The Trainer's own TensorBoard and W&B callbacks (transformers.integrations.rewrite_logs).
std::string seriesKey(std::string_view key)
{
    if (key.substr(0, 5) == "eval_")
        return "eval/" + std::string(key.substr(5));
    if (key.substr(0, 5) == "test_")
        return "test/" + std::string(key.substr(5));
    return "train/" + std::string(key);
}

// A checkpoint-N folder's state belongs to the output folder above it.
QString runFolder(const QString &file)
{
    QDir dir = QFileInfo(file).absoluteDir();
    static const QRegularExpression checkpoint(QStringLiteral("^checkpoint-\\d+$"));
    if (checkpoint.match(dir.dirName()).hasMatch() && dir.cdUp())
        return dir.absolutePath();
    return QFileInfo(file).absolutePath();
}

} // namespace

int HfTrainerImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    if (firstJsonByte(head) != '{' || !headHas(head, "\"log_history\""))
        return 0;
    if (fileName == QLatin1String("trainer_state.json"))
        return 95;
    // Renamed or copied: the state's own members, which sort_keys puts before and around log_history.
    return headHas(head, "\"global_step\"") && headHas(head, "\"max_steps\"") ? 70 : 0;
}

void HfTrainerImporter::read(ImportContext &ctx) const
{
    InputFile &in = ctx.input();
    const QString file = in.fileName();
    dom::parser parser;
    const dom::element rootElement = parseJsonInput(ctx, parser, kMaxBytes);
    dom::object root;
    dom::array history;
    if (rootElement.get_object().get(root) != simdjson::SUCCESS
        || root["log_history"].get_array().get(history) != simdjson::SUCCESS)
        throw ImportError(QStringLiteral(
            "%1 has no log_history list: not a Hugging Face trainer state; nothing was imported")
                              .arg(file));

    MetricSink &sink = ctx.metricSink();
    const FolderRun fr = folderRun(runFolder(in.path()));
    const int64_t run = sink.openRun(fr.key, fr.name, fr.path);
    DiagnosticLog &diag = ctx.diagnostics();

    struct Series {
        int64_t handle;
        int64_t skip; // stored by an earlier file (a checkpoint before this one)
    };
    std::unordered_map<std::string, Series> series;
    int64_t entryNo = 0, added = 0, before = 0;
    for (dom::element entryElement : history) {
        ++entryNo;
        dom::object entry;
        dom::element stepElement;
        double stepValue = 0;
        if (entryElement.get_object().get(entry) != simdjson::SUCCESS
            || entry["step"].get(stepElement) != simdjson::SUCCESS || !jsonNumber(stepElement, stepValue)
            || !std::isfinite(stepValue)) {
            diag.skipped(QStringLiteral("entry-without-step"),
                QStringLiteral("log_history entry %1").arg(entryNo),
                QStringLiteral("A log_history entry is not an object with a step; it was skipped."));
            continue;
        }
        const auto step = int64_t(stepValue);
        for (auto [key, value] : entry) {
            double v = 0;
            if (key == "step" || !jsonNumber(value, v))
                continue; // texts (a model checkpoint's path, say) are no metric
            const std::string name = seriesKey(key);
            auto it = series.find(name);
            if (it == series.end()) {
                const int64_t handle = sink.series(run, name, SeriesKind::Scalar);
                it = series.emplace(name, Series { handle, sink.pointsBefore(handle) }).first;
            }
            if (it->second.skip > 0) {
                --it->second.skip;
                ++before;
                continue;
            }
            if (sink.addScalar(it->second.handle, step, 0, v) && !diag.bump(QStringLiteral("step-restart")))
                diag.report(Severity::Info, QStringLiteral("step-restart"),
                    QStringLiteral("log_history entry %1").arg(entryNo),
                    QStringLiteral("A metric's step went back (training started again from an earlier step): "
                                   "both segments are kept."));
            ++added;
        }
        if (entryNo % 4096 == 0)
            ctx.checkpoint();
    }
    if (before > 0)
        diag.report(Severity::Info, QStringLiteral("points-imported-before"), {},
            QStringLiteral("%1 values of this run's history were already stored from another of its trainer "
                           "states (an earlier checkpoint) and were not stored again.")
                .arg(before),
            before);

    // The state's scalars from the newest file only: an earlier checkpoint imported after a later one
    // must not set global_step back.
    int64_t params = 0;
    if (added > 0 || before == 0) {
        for (auto [key, value] : root) {
            if (dom::object trial;
                key == "trial_params" && value.get_object().get(trial) == simdjson::SUCCESS) {
                for (auto [k, v] : trial)
                    params += setJsonParam(sink, run, qs(k), v);
                continue;
            }
            // not log_history and stateful_callbacks, nor a null (no best model yet)
            params += setJsonParam(sink, run, QStringLiteral("trainer/") + qs(key), value);
        }
        const QJsonObject md { { QStringLiteral("hf_trainer_state"),
            QFileInfo(in.path()).absoluteFilePath() } };
        sink.mergeRunMetadata(run, QJsonDocument(md).toJson(QJsonDocument::Compact));
    }
    if (entryNo == 0)
        diag.report(Severity::Info, QStringLiteral("empty-history"), {},
            QStringLiteral(
                "The trainer state's log_history is empty (saved before the first log): no metrics."));
    ctx.recordsRead = added + params;
}

} // namespace plumb
