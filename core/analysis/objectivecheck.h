// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "serving/objectivesfile.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;
struct ServingRequests;

// Named workspace quantities objectives can refer to beyond the built-in ones (serving quantities
// and metrics): a table the application fills (goodput registers runtime_goodput and the like).
// A resolver returns the quantity for a run (-1: the workspace as a whole, the newest data), or
// nullopt with `whyNot` set when the workspace cannot say.
class QuantityTable {
public:
    using Resolver = std::function<std::optional<double>(Workspace &ws, int64_t runId, QString &whyNot)>;
    struct Entry {
        QString description;
        QString unit;
        Resolver resolve;
    };
    void add(const QString &name, const QString &description, const QString &unit, Resolver resolve);
    [[nodiscard]] const Entry *find(const QString &name) const;
    [[nodiscard]] const std::map<QString, Entry> &entries() const { return m_entries; }

private:
    std::map<QString, Entry> m_entries;
};

// The quantities Plumb registers itself: step_time (mean CPU step of the run's traces, else the mean
// of a step-time metric), for `step_time regression vs baseline < 5%`, and the goodput figures
// (goodput, runtime_goodput, scheduling_goodput, program_goodput, badput.<bucket>...: see
// goodputQuantityNames()), for `runtime_goodput >= 0.9`.
[[nodiscard]] QuantityTable builtinQuantities();

enum class ObjectiveStatus { Pass, Fail, NoData };
[[nodiscard]] QString objectiveStatusName(ObjectiveStatus s); // "pass", "fail", "no data"

struct ObjectiveWindow {
    int64_t startNs = 0, endNs = 0;
    int64_t requests = 0;
    double value = 0;
    bool holds = true;
};

struct ObjectiveResult {
    ObjectiveSpec spec;
    ObjectiveStatus status = ObjectiveStatus::NoData;
    double value = 0; // measured; windowed: the worst window's
    // Headroom to the threshold in the quantity's unit: positive while the objective holds, negative
    // by how much it is broken (threshold - value for < and <=, value - threshold for > and >=).
    double margin = 0;
    QString unit; // "ms", "tokens", "" (fractions, shown as %), "req/s"...
    bool fraction = false; // value and threshold are fractions (shown as %)
    int64_t samples = 0; // requests (or windows, or points) the value came from
    std::vector<ObjectiveWindow> windows; // windowed objectives
    int64_t windowsBroken = 0;
    QString detail; // a sentence: what was measured on what, or why there is no data
};

struct CheckOptions {
    QString run; // the run to check (id or name); empty: the file's, else the newest
    QString baseline; // the baseline run (id or name); empty: the file's
};

struct CheckReport {
    int64_t runId = -1; // the run named (options or file); -1: none, each objective its newest
    QString runName; // the run named, else the newest run with serving requests
    int64_t baselineRunId = -1;
    QString baselineName;
    std::vector<ObjectiveResult> results;
    int passed = 0, failed = 0, noData = 0;
};

// Bad input beyond the file itself (an unknown run): the message says what to do.
class CheckInputError : public std::runtime_error {
public:
    explicit CheckInputError(const QString &m)
        : std::runtime_error(m.toStdString())
        , message(m)
    {
    }
    QString message;
};

// Evaluates every objective on the workspace. The run checked: CheckOptions::run, else the file's
// `run:`, else for request objectives the newest run with serving requests other than the baseline,
// and for metrics the newest run that logged the metric. Request statistics count the run's requests
// (the objective's model/endpoint, time of day); windowed objectives hold when every window with
// requests holds, and report the worst window. Drift and change objectives need a baseline run.
// Throws CheckInputError when a named run does not exist, SqlError on a workspace error.
[[nodiscard]] CheckReport evaluateObjectives(
    Workspace &ws, const ObjectivesFile &file, const CheckOptions &options, const QuantityTable &quantities);

// Formats a value of `r` with its unit ("142.3 ms", "0.8%", "12.0 req/s").
[[nodiscard]] QString formatObjectiveValue(const ObjectiveResult &r, double v);

} // namespace plumb
