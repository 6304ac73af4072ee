// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "serving/servingsink.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class DiagnosticLog;
class ImportContext;
class MetricSink;
struct TabularLayout;

// The rows of a request log (a CSV/JSONL log whose layout has a latency or TTFT column, see
// TabularLayout::isRequestLog()) as serving requests: a run per value of the run column (as for
// metric logs, grouped under the file's name), else the file's run; the time column is the request's
// start; durations in their column's unit; the status column says success: an `error` column
// succeeds when empty, a `success`/`ok` column when true, an HTTP code when 2xx or 3xx, text when
// ok/success/completed/done/true; an empty status cell is a success. A cell that holds no number
// where one is expected leaves that field unknown and is counted in diagnostics (line, column).
class RequestLogWriter {
public:
    RequestLogWriter(ImportContext &ctx, TabularLayout &layout);
    void refreshColumns();
    void row(const std::vector<std::string_view> &cells, int64_t line);
    void finish();

private:
    int64_t runOf(std::string_view value);
    int64_t duration(const std::vector<std::string_view> &cells, int c, int64_t line);
    int64_t count(const std::vector<std::string_view> &cells, int c, int64_t line);
    bool succeeded(std::string_view status) const;
    void bad(int64_t line, int c, std::string_view cell);

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    MetricSink &m_metrics;
    ServingSink &m_sink;
    TabularLayout &m_layout;
    QString m_path, m_dir, m_baseName;
    int64_t m_continuedFrom = 0;
    int m_run = -1, m_time = -1, m_latency = -1, m_ttft = -1, m_itl = -1, m_in = -1, m_out = -1,
        m_status = -1, m_model = -1, m_endpoint = -1;
    enum class StatusKind { Text, ErrorMessage, Flag } m_statusKind = StatusKind::Text;
    std::unordered_map<std::string, int64_t> m_runs;
    int64_t m_rows = 0;
};

} // namespace plumb
