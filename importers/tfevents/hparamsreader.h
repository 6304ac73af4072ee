// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <string_view>

namespace plumb {

class DiagnosticLog;
class MetricSink;

// Maps the hparams plugin's data (HParamsPluginData, in a Summary.Value's plugin metadata) to the
// run: the session start's hparams become the run's params (numbers, strings, bools; lists and
// structs as JSON; a params file of the run wins over this copy), its group the run's group and
// its start time a run time; the session end sets the run's status (success, failure, running,
// unknown) and end time; the experiment (hparam domains, metric names) becomes the run's metadata
// "hparams_experiment". Unreadable data is a warning, never an error.
class HParamsReader {
public:
    // `run` opens the run on first use: data that holds nothing adds no run.
    HParamsReader(MetricSink &sink, DiagnosticLog &diag, std::function<int64_t()> run)
        : m_sink(sink)
        , m_diag(diag)
        , m_run(std::move(run))
    {
    }

    // Reads one plugin_data.content; `here` says where it was, for diagnostics.
    void read(std::string_view content, const QString &here);

private:
    MetricSink &m_sink;
    DiagnosticLog &m_diag;
    std::function<int64_t()> m_run;
    bool m_sessionEnded = false; // a session end was read: a later session start leaves the status
};

} // namespace plumb
