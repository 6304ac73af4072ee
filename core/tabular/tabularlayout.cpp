// SPDX-License-Identifier: GPL-3.0-or-later
#include "tabular/tabularlayout.h"

#include "ingest/inputfile.h"
#include "tabular/csvreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace plumb {

namespace {

constexpr size_t kMaxSampleRows = 2000;
constexpr int kCsvConfidence = 60;
constexpr int kJsonlConfidence = 55;
constexpr int kStepBonus = 10;

const char *const kRoleNames[] = { "ignore", "run", "step", "time", "key", "value", "metric", "param",
    "latency", "ttft", "itl", "tokens_in", "tokens_out", "status", "model", "endpoint" };
constexpr int kRoleCount = int(std::size(kRoleNames));

// Names compared lowercased, with spaces and dashes read as underscores.
QString normalised(const QString &name)
{
    QString n = name.trimmed().toLower();
    n.replace(QLatin1Char(' '), QLatin1Char('_')).replace(QLatin1Char('-'), QLatin1Char('_'));
    return n;
}

bool nameIn(const QString &n, std::initializer_list<const char *> names)
{
    for (const char *c : names)
        if (n == QLatin1String(c))
            return true;
    return false;
}

// Step names in order of preference.
const std::initializer_list<const char *> kStepNames
    = { "step", "global_step", "_step", "trainer/global_step", "train/global_step", "steps", "iteration",
          "iter", "it", "iterations", "batch", "update", "updates" };
const std::initializer_list<const char *> kEpochNames = { "epoch", "epochs" };
const std::initializer_list<const char *> kRunNames
    = { "run", "run_id", "run_uuid", "runid", "run_name", "trial", "trial_id", "trial_name" };
const std::initializer_list<const char *> kKeyNames
    = { "key", "metric", "metric_name", "metric_key", "tag", "name", "series" };
const std::initializer_list<const char *> kValueNames = { "value", "metric_value", "val", "y" };
const std::initializer_list<const char *> kTimeNames
    = { "time", "timestamp", "wall_time", "walltime", "wall_clock", "_timestamp", "datetime", "date",
          "created_at", "logged_at", "ts", "time_s", "time_ms", "time_us", "time_ns", "timestamp_s",
          "timestamp_ms", "timestamp_us", "timestamp_ns", "wall_time_ns", "wall_ns" };

// Request logs of LLM serving: column names by role, compared without a unit suffix (_ms, _s...).
const std::initializer_list<const char *> kLatencyNames = { "latency", "e2e_latency", "e2el", "e2e",
    "request_latency", "response_time", "end_to_end_latency", "total_latency", "duration", "elapsed" };
const std::initializer_list<const char *> kTtftNames
    = { "ttft", "time_to_first_token", "first_token", "first_token_latency", "first_token_time" };
const std::initializer_list<const char *> kItlNames
    = { "itl", "tpot", "inter_token_latency", "time_per_output_token", "mean_itl", "mean_tpot" };
const std::initializer_list<const char *> kInputTokenNames = { "input_tokens", "prompt_tokens", "prompt_len",
    "input_len", "tokens_in", "num_prompt_tokens", "prompt_length", "input_length", "num_input_tokens" };
const std::initializer_list<const char *> kOutputTokenNames
    = { "output_tokens", "completion_tokens", "output_len", "tokens_out", "generated_tokens",
          "num_output_tokens", "output_length", "num_generated_tokens" };
const std::initializer_list<const char *> kStatusNames
    = { "status", "status_code", "http_status", "http_code", "error", "success", "ok", "outcome", "result" };
const std::initializer_list<const char *> kModelNames = { "model", "model_name", "model_id", "served_model" };
const std::initializer_list<const char *> kEndpointNames
    = { "endpoint", "route", "api", "url", "deployment" };

// A unit the column's name spells out ("timestamp_ms", "time (us)").
std::optional<TimeUnit> unitInName(const QString &n)
{
    for (const auto &[suffix, unit] : std::initializer_list<std::pair<const char *, TimeUnit>> {
             { "ns", TimeUnit::Nanoseconds }, { "us", TimeUnit::Microseconds },
             { "ms", TimeUnit::Milliseconds }, { "s", TimeUnit::Seconds } }) {
        const QLatin1String s(suffix);
        if (n.endsWith(QLatin1Char('_') + s) || n.endsWith(QLatin1Char('(') + s + QLatin1Char(')')))
            return unit;
    }
    return std::nullopt;
}

// The name without a unit suffix ("latency_ms" -> "latency", "ttft (s)" -> "ttft").
QString withoutUnit(const QString &n)
{
    for (const char *suffix : { "_ns", "_us", "_ms", "_s", "(ns)", "(us)", "(ms)", "(s)" })
        if (n.endsWith(QLatin1String(suffix))) {
            QString base = n.left(n.size() - qsizetype(std::strlen(suffix)));
            while (base.endsWith(QLatin1Char('_')))
                base.chop(1);
            return base;
        }
    return n;
}

struct ColumnStats {
    int64_t nonEmpty = 0;
    int64_t numeric = 0;
    int64_t integral = 0;
    int64_t iso = 0;
    std::set<std::string> distinctText; // of non-numeric cells, up to 2
    std::vector<double> numbers;
};

using Table = std::vector<std::vector<std::string>>;

ColumnStats statsOf(const Table &rows, size_t col)
{
    ColumnStats s;
    for (const auto &row : rows) {
        if (col >= row.size())
            continue;
        const std::string_view cell = tabular::trimmed(row[col]);
        if (cell.empty())
            continue;
        ++s.nonEmpty;
        if (const auto v = tabular::parseDouble(cell)) {
            ++s.numeric;
            s.numbers.push_back(*v);
            if (tabular::parseInteger(cell))
                ++s.integral;
        } else {
            if (tabular::parseIso8601(cell))
                ++s.iso;
            if (s.distinctText.size() < 2)
                s.distinctText.insert(std::string(cell));
        }
    }
    return s;
}

// The unit of an epoch time column from its values' magnitude; nullopt when they are no epoch times.
std::optional<TimeUnit> epochUnit(const ColumnStats &s, std::optional<TimeUnit> named)
{
    if (s.numbers.empty() || s.numeric != s.nonEmpty)
        return std::nullopt;
    std::vector<double> v = s.numbers;
    std::nth_element(v.begin(), v.begin() + ptrdiff_t(v.size() / 2), v.end());
    const double median = std::fabs(v[v.size() / 2]);
    const double scale[] = { 1, 1e3, 1e6, 1e9 };
    const TimeUnit units[]
        = { TimeUnit::Seconds, TimeUnit::Milliseconds, TimeUnit::Microseconds, TimeUnit::Nanoseconds };
    if (named) { // a unit in the name: epoch times only when they land after 1973
        const double seconds = median / scale[int(*named)];
        return seconds >= 1e8 && seconds < 1e11 ? named : std::nullopt;
    }
    for (int u = 0; u < 4; ++u)
        if (median >= 1e8 * scale[u] && median < 1e11 * scale[u])
            return units[u];
    return std::nullopt;
}

// A request log of LLM serving: a numeric latency or TTFT column, at least one more of latency, TTFT,
// ITL, tokens in or out, or status, and no step column (a training log that times its steps is a
// metric log). Model and endpoint columns are then taken too. Durations without a unit in their name
// are milliseconds. The run and time columns are found as in a metric log; other columns are ignored.
template <typename NumericFn>
bool assignRequestLogRoles(TabularLayout &layout, const std::vector<QString> &norm, NumericFn numericMostly)
{
    const int n = int(norm.size());
    for (const QString &name : norm)
        if (nameIn(name, kStepNames) || nameIn(name, kEpochNames))
            return false;
    const auto find = [&](std::initializer_list<const char *> names, bool numeric, bool stripUnit) {
        for (const char *name : names)
            for (int c = 0; c < n; ++c)
                if (layout.columns[size_t(c)].role == ColumnRole::Ignore
                    && (stripUnit ? withoutUnit(norm[size_t(c)]) : norm[size_t(c)]) == QLatin1String(name)
                    && (!numeric || numericMostly(c)))
                    return c;
        return -1;
    };
    const int latency = find(kLatencyNames, true, true);
    const int ttft = find(kTtftNames, true, true);
    if (latency < 0 && ttft < 0)
        return false;
    const int itl = find(kItlNames, true, true);
    const int in = find(kInputTokenNames, true, false);
    const int out = find(kOutputTokenNames, true, false);
    const int status = find(kStatusNames, false, false);
    const int model = find(kModelNames, false, false);
    const int endpoint = find(kEndpointNames, false, false);
    int others = (latency >= 0) + (ttft >= 0) - 1;
    for (const int c : { itl, in, out, status })
        others += c >= 0;
    if (others < 1)
        return false;
    const auto set = [&](int c, ColumnRole r) {
        if (c < 0)
            return;
        auto &col = layout.columns[size_t(c)];
        col.role = r;
        if (r == ColumnRole::Latency || r == ColumnRole::Ttft || r == ColumnRole::Itl)
            col.timeUnit = unitInName(norm[size_t(c)]).value_or(TimeUnit::Milliseconds);
    };
    set(latency, ColumnRole::Latency);
    set(ttft, ColumnRole::Ttft);
    set(itl, ColumnRole::Itl);
    set(in, ColumnRole::InputTokens);
    set(out, ColumnRole::OutputTokens);
    set(status, ColumnRole::Status);
    set(model, ColumnRole::Model);
    set(endpoint, ColumnRole::Endpoint);
    return true;
}

void assignRoles(TabularLayout &layout, const QStringList &names, const Table &rows)
{
    const int n = int(names.size());
    layout.columns.assign(size_t(n), {});
    std::vector<ColumnStats> stats;
    std::vector<QString> norm;
    for (int c = 0; c < n; ++c) {
        layout.columns[size_t(c)].name = names[c];
        stats.push_back(statsOf(rows, size_t(c)));
        norm.push_back(normalised(names[c]));
    }
    const auto numericMostly = [&](int c) {
        return stats[size_t(c)].numeric > 0 && stats[size_t(c)].numeric * 2 >= stats[size_t(c)].nonEmpty;
    };
    const auto firstNamed = [&](std::initializer_list<const char *> list, auto &&ok) {
        for (const char *name : list)
            for (int c = 0; c < n; ++c)
                if (layout.columns[size_t(c)].role == ColumnRole::Ignore
                    && norm[size_t(c)] == QLatin1String(name) && ok(c))
                    return c;
        return -1;
    };
    const auto set = [&](int c, ColumnRole r) {
        if (c >= 0)
            layout.columns[size_t(c)].role = r;
    };

    const bool requestLog = assignRequestLogRoles(layout, norm, numericMostly);

    // Long form: a text key column and a numeric value column.
    const int key = requestLog ? -1 : firstNamed(kKeyNames, [&](int c) {
        return stats[size_t(c)].numeric == 0 && stats[size_t(c)].nonEmpty > 0;
    });
    const int value = key >= 0 ? firstNamed(kValueNames, numericMostly) : -1;
    if (key >= 0 && value >= 0) {
        set(key, ColumnRole::Key);
        set(value, ColumnRole::Value);
    }
    set(firstNamed(kRunNames, [&](int c) { return stats[size_t(c)].nonEmpty > 0; }), ColumnRole::Run);
    const auto integral = [&](int c) {
        return stats[size_t(c)].nonEmpty > 0 && stats[size_t(c)].integral == stats[size_t(c)].nonEmpty;
    };
    int step = firstNamed(kStepNames, integral);
    if (step < 0)
        step = firstNamed(kEpochNames, integral); // Keras: one row per epoch
    set(step, ColumnRole::Step);

    int time = -1;
    for (int c = 0; c < n && time < 0; ++c) {
        const ColumnStats &s = stats[size_t(c)];
        if (layout.columns[size_t(c)].role != ColumnRole::Ignore || s.nonEmpty == 0)
            continue;
        const bool named = nameIn(norm[size_t(c)], kTimeNames)
            || norm[size_t(c)].startsWith(QLatin1String("timestamp"))
            || norm[size_t(c)].startsWith(QLatin1String("wall_time"));
        if (s.iso == s.nonEmpty) {
            time = c;
            layout.columns[size_t(c)].timeUnit = TimeUnit::Iso8601;
        } else if (named) {
            if (const auto unit = epochUnit(s, unitInName(norm[size_t(c)]))) {
                time = c;
                layout.columns[size_t(c)].timeUnit = *unit;
            }
        }
    }
    set(time, ColumnRole::WallTime);

    if (requestLog) { // every other column is ignored
        layout.confidence += 2 * kStepBonus; // over a metric log's reading of the same columns
        return;
    }
    const bool longForm = layout.isLongForm();
    for (int c = 0; c < n; ++c) {
        auto &col = layout.columns[size_t(c)];
        if (col.role != ColumnRole::Ignore)
            continue;
        const ColumnStats &s = stats[size_t(c)];
        if (s.nonEmpty == 0 || numericMostly(c))
            col.role = longForm ? ColumnRole::Ignore : ColumnRole::Metric; // empty: logged later, rarely
        else if (s.distinctText.size() == 1 && s.numeric == 0)
            col.role = ColumnRole::Param;
    }

    // Claimed only with a metric-log layout.
    int metrics = 0;
    bool metricName = false;
    for (const auto &c : layout.columns)
        if (c.role == ColumnRole::Metric) {
            ++metrics;
            metricName = metricName || TabularLayout::looksLikeMetricName(c.name);
        }
    if (!longForm && metrics == 0) {
        layout.reason = QStringLiteral("no column holds numbers");
        layout.confidence = 0;
    } else if (!longForm && step < 0 && time < 0 && !metricName) {
        layout.reason = QStringLiteral("no step, time or metric-named column");
        layout.confidence = 0;
    } else if (step >= 0 || longForm) {
        layout.confidence += kStepBonus;
    }
}

bool isNumberText(std::string_view s)
{
    return tabular::parseDouble(s).has_value();
}

TabularLayout detectCsv(std::string_view text, bool complete)
{
    TabularLayout best;
    best.reason = QStringLiteral("no header with two columns or more");
    size_t bestColumns = 0;
    for (const char d : { ',', ';', '\t' }) {
        CsvReader reader(text, d);
        std::vector<std::string_view> fields;
        Table rows;
        QStringList header;
        bool haveHeader = false;
        while (rows.size() < kMaxSampleRows && reader.next(fields)) {
            if (!complete && (reader.lastRecordUnterminated() || reader.unterminatedQuote()))
                break; // cut by the end of the head
            if (!haveHeader) {
                haveHeader = true;
                for (size_t i = 0; i < fields.size(); ++i) {
                    const std::string_view f = tabular::trimmed(fields[i]);
                    header << (f.empty() ? QStringLiteral("column %1").arg(i + 1)
                                         : QString::fromUtf8(f.data(), qsizetype(f.size())));
                }
                continue;
            }
            rows.emplace_back(fields.begin(), fields.end());
        }
        if (header.size() < 2 || size_t(header.size()) <= bestColumns || rows.empty())
            continue;
        size_t matching = 0;
        for (const auto &r : rows)
            matching += r.size() == size_t(header.size());
        if (matching * 2 < rows.size())
            continue;
        TabularLayout l;
        l.format = TabularLayout::Format::Csv;
        l.delimiter = d;
        bool numericHeader = false;
        for (const QString &h : header) {
            const QByteArray u = h.toUtf8();
            numericHeader = numericHeader || isNumberText(std::string_view(u.constData(), size_t(u.size())));
        }
        if (numericHeader) {
            l.reason = QStringLiteral("its first line holds numbers: no header");
        } else {
            l.confidence = kCsvConfidence;
            assignRoles(l, header, rows);
        }
        bestColumns = size_t(header.size());
        best = l;
    }
    return best;
}

void flatten(const QJsonObject &o, const QString &prefix, QStringList &names, std::vector<std::string> &cells)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString name = prefix + it.key();
        const QJsonValue v = it.value();
        if (v.isObject()) {
            flatten(v.toObject(), name + QLatin1Char('/'), names, cells);
            continue;
        }
        qsizetype c = names.indexOf(name);
        if (c < 0) {
            names << name;
            c = names.size() - 1;
        }
        if (size_t(c) >= cells.size())
            cells.resize(size_t(c) + 1);
        if (v.isDouble())
            cells[size_t(c)] = tabular::formatNumber(v.toDouble()).toStdString();
        else if (v.isString())
            cells[size_t(c)] = v.toString().toStdString();
        else if (v.isBool())
            cells[size_t(c)] = v.toBool() ? "true" : "false";
        else if (v.isArray())
            cells[size_t(c)] = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).toStdString();
    }
}

// Members of other JSON-lines formats: trace events, OpenLineage run events.
bool foreignJson(const QJsonObject &o)
{
    for (const char *k : { "traceEvents", "ph", "eventType", "schemaURL", "producer", "displayTimeUnit",
             "deviceProperties", "traceName", "distributedInfo" })
        if (o.contains(QLatin1String(k)))
            return true;
    return false;
}

TabularLayout detectJsonl(std::string_view text, bool complete)
{
    TabularLayout l;
    QStringList names;
    Table rows;
    size_t pos = 0;
    while (pos < text.size() && rows.size() < kMaxSampleRows) {
        size_t end = text.find('\n', pos);
        const bool lastWithoutEnd = end == std::string_view::npos;
        if (lastWithoutEnd) {
            if (!complete)
                break; // cut by the end of the head
            end = text.size();
        }
        const std::string_view line = tabular::trimmed(text.substr(pos, end - pos));
        pos = end + 1;
        if (line.empty())
            continue;
        std::string quoted;
        const std::string_view json
            = tabular::quoteNonFiniteWords(line, quoted) ? std::string_view(quoted) : line;
        QJsonParseError err;
        const QJsonDocument doc
            = QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &err);
        if ((err.error != QJsonParseError::NoError || !doc.isObject()) && lastWithoutEnd && !rows.empty())
            break; // a last line still being written, as the importer leaves it
        if (err.error != QJsonParseError::NoError || !doc.isObject()) {
            l.reason = QStringLiteral("line %1 is not a JSON object").arg(rows.size() + 1);
            return l;
        }
        const QJsonObject o = doc.object();
        if (foreignJson(o)) {
            l.reason = QStringLiteral("JSON objects of another format (trace events, lineage events)");
            return l;
        }
        rows.emplace_back();
        flatten(o, QString(), names, rows.back());
    }
    if (rows.size() < 2) {
        l.reason = QStringLiteral("fewer than two JSON lines");
        return l;
    }
    l.format = TabularLayout::Format::Jsonl;
    l.confidence = kJsonlConfidence;
    assignRoles(l, names, rows);
    return l;
}

} // namespace

QString roleName(ColumnRole r)
{
    return QLatin1String(kRoleNames[int(r)]);
}

std::optional<ColumnRole> roleFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (int i = 0; i < int(std::size(kRoleNames)); ++i)
        if (n == QLatin1String(kRoleNames[i]))
            return ColumnRole(i);
    if (n == QLatin1String("wall_time") || n == QLatin1String("wall-time"))
        return ColumnRole::WallTime;
    return std::nullopt;
}

QString timeUnitName(TimeUnit u)
{
    switch (u) {
    case TimeUnit::Seconds:
        return QStringLiteral("s");
    case TimeUnit::Milliseconds:
        return QStringLiteral("ms");
    case TimeUnit::Microseconds:
        return QStringLiteral("us");
    case TimeUnit::Nanoseconds:
        return QStringLiteral("ns");
    case TimeUnit::Iso8601:
        return QStringLiteral("iso8601");
    }
    return {};
}

bool TabularOverrides::isEmpty() const
{
    return stepColumn.isEmpty() && timeColumn.isEmpty() && runColumn.isEmpty() && keyColumn.isEmpty()
        && valueColumn.isEmpty() && roles.empty();
}

int TabularLayout::indexOf(ColumnRole role) const
{
    for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i].role == role)
            return int(i);
    return -1;
}

int TabularLayout::indexOf(const QString &name) const
{
    for (size_t i = 0; i < columns.size(); ++i)
        if (columns[i].name == name)
            return int(i);
    return -1;
}

QString TabularLayout::problem() const
{
    int count[kRoleCount] = {};
    for (const auto &c : columns)
        ++count[int(c.role)];
    for (int r = int(ColumnRole::Run); r < kRoleCount; ++r)
        if (count[r] > 1 && ColumnRole(r) != ColumnRole::Metric && ColumnRole(r) != ColumnRole::Param)
            return QStringLiteral("%1 columns have the role %2; at most one may")
                .arg(count[r])
                .arg(roleName(ColumnRole(r)));
    if (isRequestLog()) {
        if (count[int(ColumnRole::Key)] + count[int(ColumnRole::Value)] > 0)
            return QStringLiteral("a request log (latency or ttft column) has no key or value columns");
        return {};
    }
    if ((count[int(ColumnRole::Key)] == 1) != (count[int(ColumnRole::Value)] == 1))
        return QStringLiteral("a long-form log needs both a key column and a value column");
    if (count[int(ColumnRole::Key)] == 0 && count[int(ColumnRole::Metric)] == 0)
        return QStringLiteral("no column is a metric (or a key with a value)");
    return {};
}

QString TabularLayout::apply(const TabularOverrides &o)
{
    QStringList unknown;
    // A single-role column named by the user takes the role from the column that had it.
    const auto give = [&](const QString &name, ColumnRole role) {
        if (name.isEmpty())
            return;
        const int c = indexOf(name);
        if (c < 0) {
            unknown << name;
            return;
        }
        for (auto &col : columns)
            if (col.role == role)
                col.role = role == ColumnRole::Key || role == ColumnRole::Value ? ColumnRole::Ignore
                                                                                : ColumnRole::Metric;
        columns[size_t(c)].role = role;
    };
    give(o.runColumn, ColumnRole::Run);
    give(o.stepColumn, ColumnRole::Step);
    give(o.timeColumn, ColumnRole::WallTime);
    if (!o.keyColumn.isEmpty() || !o.valueColumn.isEmpty()) {
        give(o.keyColumn, ColumnRole::Key);
        give(o.valueColumn, ColumnRole::Value);
        for (auto &col : columns) // long form: one value per row
            if (col.role == ColumnRole::Metric)
                col.role = ColumnRole::Ignore;
    }
    for (const auto &[name, role] : o.roles) {
        const int c = indexOf(name);
        if (c < 0)
            unknown << name;
        else
            columns[size_t(c)].role = role;
    }
    // A time column named by the user: its unit from its name or, as detected, from its values
    // (the importer falls back to ISO-8601 text or seconds when the cells say so).
    for (auto &col : columns)
        if (col.role == ColumnRole::WallTime)
            if (const auto u = unitInName(normalised(col.name)))
                col.timeUnit = *u;
    for (auto &col : columns) // a request log's durations: the unit in the name, else ms
        if (col.role == ColumnRole::Latency || col.role == ColumnRole::Ttft || col.role == ColumnRole::Itl)
            col.timeUnit = unitInName(normalised(col.name)).value_or(TimeUnit::Milliseconds);
    if (unknown.isEmpty())
        return {};
    QStringList known;
    for (const auto &c : columns)
        known << c.name;
    return QStringLiteral("no column named %1 (the columns are %2)")
        .arg(unknown.join(QStringLiteral(", ")), known.join(QStringLiteral(", ")));
}

TabularOverrides TabularLayout::asOverrides() const
{
    TabularOverrides o;
    for (const auto &c : columns)
        o.roles.emplace_back(c.name, c.role);
    return o;
}

bool TabularLayout::looksLikeMetricName(const QString &name)
{
    const QString n = normalised(name);
    static const QRegularExpression separators(QStringLiteral("[_/.:]"));
    const QStringList words = n.split(separators, Qt::SkipEmptyParts);
    for (const char *word : { "loss", "acc", "accuracy", "perplexity", "ppl", "lr", "learning_rate", "f1",
             "auc", "precision", "recall", "mse", "mae", "rmse", "reward", "score", "throughput", "latency",
             "tokens", "samples_per_second", "samples_per_sec", "grad_norm", "bleu", "rouge", "map", "iou",
             "dice", "error", "err", "mfu", "tflops", "memory", "top1", "top5", "wer", "cer", "return" }) {
        // A whole word of the name, or a long word anywhere in it ("val_loss_epoch", "trainloss").
        const QLatin1String w(word);
        if ((w.size() >= 4 && n.contains(w)) || words.contains(w))
            return true;
    }
    return false;
}

TabularLayout TabularLayout::detect(QByteArrayView head, bool complete)
{
    std::string_view text(head.data(), size_t(head.size()));
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    // Binary content (a NUL in the head) is no text log.
    if (text.find('\0') != std::string_view::npos) {
        TabularLayout l;
        l.reason = QStringLiteral("binary content");
        return l;
    }
    if (text[first] == '{')
        return detectJsonl(text.substr(first), complete);
    if (text[first] == '[')
        return {};
    return detectCsv(text, complete);
}

TabularPreview previewTabular(const QString &path, int maxRows)
{
    TabularPreview p;
    constexpr int64_t kHead = 64 * 1024;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        p.error = QStringLiteral("cannot read %1").arg(path);
        return p;
    }
    const bool gzip = f.peek(2) == QByteArrayLiteral("\x1f\x8b");
    const int64_t size = f.size();
    f.close();
    const QByteArray head = InputFile::peek(path, kHead);
    p.layout = TabularLayout::detect(head, !gzip && size <= kHead);
    const std::string_view text(head.constData(), size_t(head.size()));
    if (p.layout.format == TabularLayout::Format::Csv) {
        CsvReader reader(text, p.layout.delimiter);
        std::vector<std::string_view> fields;
        bool header = true;
        while (int(p.rows.size()) < maxRows && reader.next(fields)) {
            if (header) {
                header = false;
                continue;
            }
            QStringList row;
            for (const auto f : fields)
                row << QString::fromUtf8(f.data(), qsizetype(f.size()));
            p.rows.push_back(row);
        }
    } else if (p.layout.format == TabularLayout::Format::Jsonl) {
        QStringList names;
        for (const auto &c : p.layout.columns)
            names << c.name;
        size_t pos = 0;
        while (int(p.rows.size()) < maxRows && pos < text.size()) {
            size_t end = text.find('\n', pos);
            if (end == std::string_view::npos)
                end = text.size();
            const QByteArray line = QByteArray(text.data() + pos, qsizetype(end - pos)).trimmed();
            pos = end + 1;
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            if (!doc.isObject())
                continue;
            std::vector<std::string> cells;
            QStringList seen = names;
            flatten(doc.object(), QString(), seen, cells);
            QStringList row;
            for (qsizetype c = 0; c < names.size(); ++c)
                row << (size_t(c) < cells.size() ? QString::fromStdString(cells[size_t(c)]) : QString());
            p.rows.push_back(row);
        }
    }
    return p;
}

} // namespace plumb
