// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/trialtable.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <limits>
#include <tuple>

namespace plumb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool hasAny(const QStringList &words, std::initializer_list<const char *> list)
{
    for (const QString &w : words)
        for (const char *l : list)
            if (w == QLatin1String(l))
                return true;
    return false;
}

bool startsAny(const QStringList &words, std::initializer_list<const char *> list)
{
    for (const QString &w : words)
        for (const char *l : list)
            if (w.startsWith(QLatin1String(l)))
                return true;
    return false;
}

// The last path component of a run name ("trial_a/validation" -> "validation").
QString folderName(const QString &name)
{
    const qsizetype slash = name.lastIndexOf(u'/');
    return slash < 0 ? name : name.mid(slash + 1);
}

} // namespace

MetricDirection metricDirection(const QString &key)
{
    static const QRegularExpression separators(QStringLiteral("[^a-z0-9]+"));
    // Words, with camelCase split too ("valLoss" -> "val", "loss").
    QString spaced;
    for (qsizetype i = 0; i < key.size(); ++i) {
        if (i > 0 && key[i].isUpper() && key[i - 1].isLower())
            spaced += u' ';
        spaced += key[i];
    }
    const QStringList words = spaced.toLower().split(separators, Qt::SkipEmptyParts);
    // Rates: "per" followed by a time unit, or rate words.
    for (qsizetype i = 0; i + 1 < words.size(); ++i)
        if (words[i] == QLatin1String("per")
            && hasAny(
                { words[i + 1] }, { "s", "sec", "second", "seconds", "ms", "step", "hour", "minute", "min" }))
            return MetricDirection::HigherIsBetter;
    if (hasAny(words,
            { "throughput", "qps", "tps", "rps", "fps", "goodput", "mfu", "speed", "speedup", "bandwidth" })
        || key.endsWith(QLatin1String("/s")) || key.endsWith(QLatin1String("/sec")))
        return MetricDirection::HigherIsBetter;
    if (startsAny(words, { "loss", "error" })
        || hasAny(words,
            { "err", "errors", "perplexity", "ppl", "mse", "mae", "rmse", "mape", "nll", "wer", "cer", "bpc",
                "bpd", "regret", "fid", "divergence", "kl" }))
        return MetricDirection::LowerIsBetter;
    if (startsAny(words, { "acc", "f1", "auc", "score", "precision", "recall", "bleu", "rouge" })
        || hasAny(words,
            { "map", "iou", "miou", "dice", "r2", "top1", "top5", "reward", "return", "ndcg", "mrr", "hit",
                "hits", "psnr", "ssim", "correct", "exact", "em" }))
        return MetricDirection::HigherIsBetter;
    if (startsAny(words, { "latency", "duration", "time", "elapsed" })
        || hasAny(words,
            { "ttft", "itl", "tpot", "ms", "us", "ns", "sec", "secs", "seconds", "runtime", "wall", "memory",
                "mem", "cost" }))
        return MetricDirection::LowerIsBetter;
    return MetricDirection::Unknown;
}

double seriesValue(const SeriesSummary &series, MetricStatistic statistic, MetricDirection direction)
{
    if (!series.hasValues)
        return kNaN;
    if (statistic == MetricStatistic::Last)
        return series.lastValue;
    switch (direction) {
    case MetricDirection::LowerIsBetter:
        return series.minValue;
    case MetricDirection::HigherIsBetter:
        return series.maxValue;
    case MetricDirection::Unknown:
        break;
    }
    return kNaN;
}

QString runLabel(const ExperimentRunInfo &run)
{
    return QStringLiteral("%1 %2").arg(run.id).arg(run.name);
}

QStringList TrialTable::metricKeys() const
{
    QSet<QString> keys;
    for (const auto &m : metrics)
        for (auto it = m.cbegin(); it != m.cend(); ++it)
            keys.insert(it.key());
    QStringList out(keys.cbegin(), keys.cend());
    out.sort();
    return out;
}

QStringList TrialTable::paramKeys() const
{
    QSet<QString> keys;
    for (const auto &p : params)
        for (auto it = p.cbegin(); it != p.cend(); ++it)
            keys.insert(it.key());
    QStringList out(keys.cbegin(), keys.cend());
    out.sort();
    return out;
}

QString TrialTable::defaultMetric() const
{
    // A metric measured on held-out data (val_loss, eval/accuracy, test_acc), which a sweep is judged
    // by, rather than the training loss.
    static const QRegularExpression heldOut(
        QStringLiteral("(^|[^a-z])(val|valid|validation|eval|evaluation|test)([^a-z]|$)"),
        QRegularExpression::CaseInsensitiveOption);
    QString best;
    std::tuple<int, bool, bool> bestScore { 0, false, false }; // runs with a value, known direction, held out
    for (const QString &key : metricKeys()) {
        int runsWith = 0;
        for (int i = 0; i < size(); ++i)
            runsWith += !std::isnan(metricValue(i, key, MetricStatistic::Last));
        const bool known = metricDirection(key) != MetricDirection::Unknown;
        const std::tuple<int, bool, bool> score { runsWith, known, known && heldOut.match(key).hasMatch() };
        if (runsWith > 0 && score > bestScore) {
            best = key;
            bestScore = score;
        }
    }
    return best;
}

double TrialTable::metricValue(int run, const QString &key, MetricStatistic statistic) const
{
    if (run < 0 || run >= size())
        return kNaN;
    const auto it = metrics[size_t(run)].constFind(key);
    if (it == metrics[size_t(run)].cend())
        return kNaN;
    const double v = seriesValue(*it, statistic, metricDirection(key));
    return std::isfinite(v) ? v : kNaN;
}

TrialTable readTrialTable(Workspace &workspace, const QList<int64_t> &runIds)
{
    ExperimentReader reader(workspace);
    const QList<ExperimentRunInfo> all = reader.runs();
    QHash<int64_t, int> byId;
    for (int i = 0; i < all.size(); ++i)
        byId.insert(all[i].id, i);
    TrialTable t;
    QHash<int64_t, int> index; // run id -> row in t
    for (int64_t id : runIds)
        if (byId.contains(id) && !index.contains(id)) {
            index.insert(id, t.size());
            t.runs << all[byId.value(id)];
        }
    t.params.resize(size_t(t.size()));
    t.metrics.resize(size_t(t.size()));
    if (t.runs.isEmpty())
        return t;
    // The runs beneath each asked-for run, unless asked for themselves too.
    QHash<int64_t, int> childOf; // child run id -> row of its trial
    QHash<int64_t, QString> prefix;
    for (const auto &r : all)
        if (r.parentRunId >= 0 && index.contains(r.parentRunId) && !index.contains(r.id)) {
            childOf.insert(r.id, index.value(r.parentRunId));
            prefix.insert(r.id, folderName(r.name) + u'/');
        }
    QList<int64_t> ids;
    for (const auto &r : t.runs)
        ids << r.id;
    for (auto it = childOf.cbegin(); it != childOf.cend(); ++it)
        ids << it.key();
    for (RunParam &p : reader.params(ids))
        if (index.contains(p.runId))
            t.params[size_t(index.value(p.runId))].insert(p.key, p);
    for (SeriesSummary &s : reader.series(ids)) {
        if (s.histogram)
            continue;
        if (index.contains(s.runId)) {
            t.metrics[size_t(index.value(s.runId))].insert(s.key, s);
        } else if (childOf.contains(s.runId)) {
            const QString key = prefix.value(s.runId) + s.key;
            t.metrics[size_t(childOf.value(s.runId))].insert(key, s);
        }
    }
    return t;
}

} // namespace plumb
