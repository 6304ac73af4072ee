// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace plumb {

// One objective of an objectives file, parsed. The expression grammar (README, "Objectives"):
//
//   objective  := quantity OP number [unit] [over DURATION windows] [during HH:MM-HH:MM]
//   quantity   := STAT(FIELD)                 p50 p90 p95 p99 pNN mean min max of a request field:
//                                             latency_ms ttft_ms itl_ms tpot_ms input_tokens output_tokens
//               | psi(FIELD) | js(FIELD)      distribution shift of a field from the baseline run
//               | NAME                        error_rate, request_throughput, output_throughput, requests,
//                                             a registered quantity (runtime_goodput...), or a metric's
//                                             last value; last(NAME) mean(NAME) min(NAME) max(NAME) too
//               | NAME regression vs baseline relative increase from the baseline run (drop: decrease)
//   OP         := < <= > >=
//   unit       := % (the number / 100) | ms | s | us (durations, converted to the field's ms)
//   DURATION   := N s|m|h                     windows aligned on the clock (5m: :00, :05, ...)
//   during     := a UTC time-of-day range, wrapping past midnight when the end is before the start
struct ObjectiveSpec {
    enum class Kind { RequestStat, Drift, Named, Change };
    enum class Op { Less, LessEqual, Greater, GreaterEqual };

    QString name; // as given, else the expression
    QString text; // the expression
    int line = 0, column = 0; // of the expression in the file, 1-based
    Kind kind = Kind::Named;
    QString
        stat; // RequestStat: "p90", "mean", "min", "max"; Drift: "psi" or "js"; Named: "" (last), "mean"...
    double percentile = -1; // RequestStat with a pNN stat
    QString field; // RequestStat/Drift: the request field; Named/Change: the quantity's name
    bool increase = true; // Change: regression (true) or drop (false)
    Op op = Op::Less;
    double threshold = 0; // in the quantity's own unit (fractions for %)
    bool percent = false; // the threshold was written with %
    int64_t windowNs = 0; // > 0: evaluated per window of this length, every window must hold
    int fromMinute = -1, toMinute = -1; // during: UTC minutes since midnight, [from, to)
    QString model, endpoint; // only these requests (item keys `model:` and `endpoint:`)

    [[nodiscard]] bool holds(double value) const;
    [[nodiscard]] QString opText() const;
};

struct ObjectivesFile {
    QString baseline; // run (id or name) named by the file's `baseline:`
    QString run; // run (id or name) named by the file's `run:`
    std::vector<ObjectiveSpec> objectives;
};

// Where and what went wrong in an objectives file.
struct ObjectivesError {
    int line = 0, column = 0; // 1-based
    QString message;
    [[nodiscard]] QString text(const QString &fileName) const; // "file:line:column: message"
};

// Parses an objectives file, YAML or JSON (read alike, by YamlDocument). Top level: a map with
// `objectives:` (a list) and optionally `baseline:` and `run:`, or the list alone. Each item is an
// expression, or a map with `objective:` and optionally `name:`, `model:`, `endpoint:`. An expression is
// written on one line (positions in it are columns on that line).
[[nodiscard]] std::optional<ObjectivesFile> parseObjectives(const QByteArray &text, ObjectivesError &error);
// One expression alone (`column` = where it starts, for messages).
[[nodiscard]] std::optional<ObjectiveSpec> parseObjectiveExpression(
    const QString &text, int line, int column, ObjectivesError &error);

// The request fields objectives can name: latency_ms ttft_ms itl_ms tpot_ms input_tokens output_tokens.
[[nodiscard]] bool isRequestField(const QString &field);
[[nodiscard]] bool isDurationField(const QString &field);

} // namespace plumb
