// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace plumb {

// What a column of a metric log holds.
enum class ColumnRole {
    Ignore, // not imported
    Run, // names the run a row belongs to
    Step, // the step of every value in the row
    WallTime, // the wall-clock time of the row (epoch s/ms/us/ns, or ISO-8601)
    Key, // long form: the metric's name
    Value, // long form: the metric's value
    Metric, // wide form: a metric series of its own, named by the column
    Param, // a setting of the run (constant per run)
    // Request logs of LLM serving (a log with a latency or TTFT column and another of these):
    Latency, // end-to-end latency of the request (unit from the name: _s, _ms, _us, _ns; default ms)
    Ttft, // time to first token (unit as Latency)
    Itl, // inter-token latency or time per output token of the request (unit as Latency)
    InputTokens, // prompt length in tokens
    OutputTokens, // generated tokens
    Status, // HTTP status, ok/error text, success flag, or an error message (empty = success)
    Model, // the model served
    Endpoint, // the endpoint or route called
};

enum class TimeUnit { Seconds, Milliseconds, Microseconds, Nanoseconds, Iso8601 };

[[nodiscard]] QString roleName(ColumnRole r); // "step", "metric"...
[[nodiscard]] std::optional<ColumnRole> roleFromName(const QString &name);
[[nodiscard]] QString timeUnitName(TimeUnit u); // "s", "ms", "us", "ns", "iso8601"

// Column roles a user gave (plumb import --step-column ..., the import dialog), by column name.
// Empty strings mean "as detected".
struct TabularOverrides {
    QString stepColumn;
    QString timeColumn;
    QString runColumn;
    QString keyColumn; // long form: with valueColumn
    QString valueColumn;
    std::vector<std::pair<QString, ColumnRole>> roles; // applied last, in order
    [[nodiscard]] bool isEmpty() const;
};

// The layout of a CSV or JSONL metric log: its dialect and each column's role, detected from the
// header and the values of the first rows (detect()), then possibly corrected by the user (apply()).
//
// Detection (documented in the README): a column named like a run id is the run; one named like a
// step (step, global_step, _step, iteration, ...) with integer values the step, else an integer
// `epoch` (Keras); one named like a time (timestamp, wall_time, _timestamp, ...) holding epoch
// seconds/ms/us/ns (told apart by magnitude) or ISO-8601 text the wall time; a key/metric/tag/name
// column of text with a value column of numbers makes the log long form; every other mostly-numeric
// column is a metric; a text column with one value in the sampled rows is a param of the run; the
// rest are ignored. A log is claimed only when it has a header, at least one metric (or key and
// value), and a step, a time, a long form or a column named like a metric (loss, acc, lr, ...).
struct TabularLayout {
    enum class Format { None, Csv, Jsonl };
    struct Column {
        QString name; // JSONL: nested members joined with '/'
        ColumnRole role = ColumnRole::Ignore;
        TimeUnit timeUnit = TimeUnit::Seconds; // for WallTime; for Latency, Ttft and Itl their unit
    };

    Format format = Format::None;
    char delimiter = ','; // CSV: ',', ';' or '\t'
    std::vector<Column> columns;
    int confidence = 0; // for Importer::sniff(): 0 = not a metric log
    QString reason; // when confidence is 0: why not, for messages

    [[nodiscard]] int indexOf(ColumnRole role) const; // first column with the role, or -1
    [[nodiscard]] int indexOf(const QString &name) const; // -1 when absent
    [[nodiscard]] bool isLongForm() const { return indexOf(ColumnRole::Key) >= 0; }
    // A request log of LLM serving: its rows are requests (ServingSink), not metric points.
    [[nodiscard]] bool isRequestLog() const
    {
        return indexOf(ColumnRole::Latency) >= 0 || indexOf(ColumnRole::Ttft) >= 0;
    }
    // "" when the roles make sense (at most one run/step/time/key/value column, key with value, a
    // metric or a key), else what is wrong.
    [[nodiscard]] QString problem() const;
    // Applies `o`; returns "" or what could not be applied (an unknown column name).
    QString apply(const TabularOverrides &o);
    // The roles as overrides that reproduce them exactly (the dialog's result).
    [[nodiscard]] TabularOverrides asOverrides() const;

    // From the first bytes of a file. `complete`: `head` is the whole file (its last line is whole).
    [[nodiscard]] static TabularLayout detect(QByteArrayView head, bool complete);
    // loss, val_acc, learning_rate, tokens_per_sec...: names that only metrics have.
    [[nodiscard]] static bool looksLikeMetricName(const QString &name);
};

// The first rows of a metric log as text, with its detected layout: what the import dialog shows.
struct TabularPreview {
    TabularLayout layout;
    std::vector<QStringList> rows; // cells in column order; JSONL members missing from a line are ""
    QString error; // the file could not be read
};
[[nodiscard]] TabularPreview previewTabular(const QString &path, int maxRows);

// Cell parsing shared by detection and the importer.
namespace tabular {
[[nodiscard]] std::string_view trimmed(std::string_view s);
// A number: decimal or exponent form, nan, inf, infinity (any case, with a sign); surrounding spaces ok.
[[nodiscard]] std::optional<double> parseDouble(std::string_view s);
// Python's json module (and so most training scripts' JSON lines) writes NaN, Infinity and -Infinity
// as bare words, which JSON has not: `out` gets `json` with them quoted ("NaN"), for a JSON parser to
// read and parseDouble() to turn back into numbers. False, and `out` untouched, when there are none.
bool quoteNonFiniteWords(std::string_view json, std::string &out);
// One of the words quoteNonFiniteWords() quotes.
[[nodiscard]] bool isNonFiniteWord(std::string_view s);
// An integer, or a float with an integral value ("3.0").
[[nodiscard]] std::optional<int64_t> parseInteger(std::string_view s);
// Epoch nanoseconds from a cell in `unit`; nullopt when it is not one.
[[nodiscard]] std::optional<int64_t> parseWallNs(std::string_view s, TimeUnit unit);
// YYYY-MM-DD[T ]hh:mm[:ss[.frac]][Z|+hh[:mm]|-hh[:mm]] (no zone: UTC) as epoch ns.
[[nodiscard]] std::optional<int64_t> parseIso8601(std::string_view s);
// Shortest text that reads back as `v` ("0.0001", "3", "1e-08", "nan", "inf").
[[nodiscard]] QString formatNumber(double v);
} // namespace tabular

} // namespace plumb
