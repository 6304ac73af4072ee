// SPDX-License-Identifier: GPL-3.0-or-later
#include "tabular/requestlogwriter.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "tabular/tabularlayout.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>

namespace plumb {

namespace {

constexpr int64_t kCheckpointRows = 1 << 14;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool equalsLower(std::string_view s, std::initializer_list<const char *> words)
{
    for (const char *w : words) {
        const std::string_view v(w);
        if (v.size() == s.size()
            && std::equal(v.begin(), v.end(), s.begin(), [](char a, char b) { return a == (b | 0x20); }))
            return true;
    }
    return false;
}

} // namespace

RequestLogWriter::RequestLogWriter(ImportContext &ctx, TabularLayout &layout)
    : m_ctx(ctx)
    , m_diag(ctx.diagnostics())
    , m_metrics(ctx.metricSink())
    , m_sink(ctx.servingSink())
    , m_layout(layout)
    , m_continuedFrom(ctx.input().startOffset())
{
    const QFileInfo info(ctx.input().path());
    m_path = info.absoluteFilePath();
    m_dir = info.absolutePath();
    m_baseName = info.completeBaseName();
    refreshColumns();
}

void RequestLogWriter::refreshColumns()
{
    m_run = m_layout.indexOf(ColumnRole::Run);
    m_time = m_layout.indexOf(ColumnRole::WallTime);
    m_latency = m_layout.indexOf(ColumnRole::Latency);
    m_ttft = m_layout.indexOf(ColumnRole::Ttft);
    m_itl = m_layout.indexOf(ColumnRole::Itl);
    m_in = m_layout.indexOf(ColumnRole::InputTokens);
    m_out = m_layout.indexOf(ColumnRole::OutputTokens);
    m_status = m_layout.indexOf(ColumnRole::Status);
    m_model = m_layout.indexOf(ColumnRole::Model);
    m_endpoint = m_layout.indexOf(ColumnRole::Endpoint);
    m_statusKind = StatusKind::Text;
    if (m_status >= 0) {
        const QString n = m_layout.columns[size_t(m_status)].name.trimmed().toLower();
        if (n.startsWith(QLatin1String("error")))
            m_statusKind = StatusKind::ErrorMessage;
        else if (n == QLatin1String("success") || n == QLatin1String("ok") || n == QLatin1String("succeeded"))
            m_statusKind = StatusKind::Flag;
    }
}

int64_t RequestLogWriter::runOf(std::string_view value)
{
    const auto it = m_runs.find(std::string(value));
    if (it != m_runs.end())
        return it->second;
    m_sink.quiesce(); // opening a run uses the connection, which the sink's writer holds
    int64_t id;
    if (m_run < 0) {
        id = m_metrics.openRun(QStringLiteral("tabular:") + m_path,
            QDir(m_dir).dirName() + QLatin1Char('/') + QFileInfo(m_path).fileName(), m_dir);
    } else {
        const QString name = value.empty() ? QStringLiteral("(no run)") : qs(value);
        id = m_metrics.openRun(
            QStringLiteral("tabular:") + m_path + QLatin1Char('#') + name, name, QString());
        m_metrics.setRunGroup(id, m_baseName);
    }
    m_runs.emplace(std::string(value), id);
    return id;
}

void RequestLogWriter::bad(int64_t line, int c, std::string_view cell)
{
    if (m_diag.bump(QStringLiteral("bad-cell")))
        return;
    QString where = m_continuedFrom > 0
        ? QStringLiteral("line %1 after byte %2")
              .arg(line)
              .arg(QLocale(QLocale::English).toString(qlonglong(m_continuedFrom)))
        : QStringLiteral("line %1").arg(line);
    where += QStringLiteral(", column %1").arg(m_layout.columns[size_t(c)].name);
    m_diag.report(Severity::Warning, QStringLiteral("bad-cell"), where,
        QStringLiteral("A request's cell holds no usable number (\"%1\"); such fields were left unknown.")
            .arg(qs(cell)));
}

int64_t RequestLogWriter::duration(const std::vector<std::string_view> &cells, int c, int64_t line)
{
    if (c < 0 || size_t(c) >= cells.size())
        return -1;
    const std::string_view cell = tabular::trimmed(cells[size_t(c)]);
    if (cell.empty())
        return -1;
    const auto ns = tabular::parseWallNs(cell, m_layout.columns[size_t(c)].timeUnit);
    if (!ns || *ns < 0) {
        bad(line, c, cell);
        return -1;
    }
    return *ns;
}

int64_t RequestLogWriter::count(const std::vector<std::string_view> &cells, int c, int64_t line)
{
    if (c < 0 || size_t(c) >= cells.size())
        return -1;
    const std::string_view cell = tabular::trimmed(cells[size_t(c)]);
    if (cell.empty())
        return -1;
    const auto v = tabular::parseInteger(cell);
    if (!v || *v < 0) {
        bad(line, c, cell);
        return -1;
    }
    return *v;
}

bool RequestLogWriter::succeeded(std::string_view s) const
{
    if (s.empty())
        return true;
    switch (m_statusKind) {
    case StatusKind::ErrorMessage:
        return equalsLower(s, { "none", "null", "ok" });
    case StatusKind::Flag:
        return equalsLower(s, { "true", "1", "yes", "ok" });
    case StatusKind::Text:
        break;
    }
    if (const auto code = tabular::parseInteger(s))
        return *code >= 200 && *code < 400;
    return equalsLower(s,
        { "ok", "success", "succeeded", "successful", "completed", "complete", "done", "finished", "true",
            "pass", "passed", "200 ok" });
}

void RequestLogWriter::row(const std::vector<std::string_view> &cells, int64_t line)
{
    if (++m_rows % kCheckpointRows == 0)
        m_ctx.checkpoint();
    const auto cell = [&](int c) {
        return c >= 0 && size_t(c) < cells.size() ? tabular::trimmed(cells[size_t(c)]) : std::string_view();
    };
    const int64_t run = runOf(cell(m_run));
    ServingRequest r;
    if (!cell(m_time).empty()) {
        const TimeUnit unit = m_layout.columns[size_t(m_time)].timeUnit;
        auto w = tabular::parseWallNs(cell(m_time), unit);
        if (!w && unit != TimeUnit::Iso8601)
            w = tabular::parseIso8601(cell(m_time));
        if (w) {
            r.startNs = *w;
            m_metrics.noteRunTime(run, *w);
        } else {
            bad(line, m_time, cell(m_time));
        }
    }
    r.latencyNs = duration(cells, m_latency, line);
    r.ttftNs = duration(cells, m_ttft, line);
    const int64_t itl = duration(cells, m_itl, line);
    if (itl >= 0) {
        r.itlNs = &itl;
        r.itlCount = 1;
    }
    r.inputTokens = count(cells, m_in, line);
    r.outputTokens = count(cells, m_out, line);
    r.status = cell(m_status);
    r.ok = succeeded(r.status);
    if (m_statusKind == StatusKind::Flag && r.ok)
        r.status = {}; // "true" says nothing more than ok
    r.model = cell(m_model);
    r.endpoint = cell(m_endpoint);
    m_sink.add(run, r);
}

void RequestLogWriter::finish()
{
    m_ctx.recordsRead = m_rows;
}

} // namespace plumb
