// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/diagnosticlog.h"

namespace plumb {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Error:
        return QStringLiteral("error");
    }
    return {};
}

void DiagnosticLog::report(
    Severity severity, const QString &code, const QString &location, const QString &message, int64_t count)
{
    auto it = m_byCode.find(code);
    if (it != m_byCode.end()) {
        m_items[it->second].count += count;
        return;
    }
    m_byCode.emplace(code, m_items.size());
    m_items.push_back(Diagnostic { severity, code, location, message, count, false });
}

void DiagnosticLog::skipped(
    const QString &code, const QString &location, const QString &message, int64_t count)
{
    const bool isNew = !has(code);
    report(Severity::Warning, code, location, message, count);
    if (isNew)
        m_items.back().skipsRecords = true;
}

bool DiagnosticLog::bump(const QString &code, int64_t count)
{
    auto it = m_byCode.find(code);
    if (it == m_byCode.end())
        return false;
    m_items[it->second].count += count;
    return true;
}

std::vector<Diagnostic> DiagnosticLog::all() const
{
    return m_items;
}

int64_t DiagnosticLog::skippedRecords() const
{
    int64_t n = 0;
    for (const auto &d : m_items)
        if (d.skipsRecords)
            n += d.count;
    return n;
}

int64_t DiagnosticLog::count(Severity atLeast) const
{
    int64_t n = 0;
    for (const auto &d : m_items)
        if (int(d.severity) >= int(atLeast))
            ++n;
    return n;
}

int64_t DiagnosticLog::countOf(const QString &code) const
{
    auto it = m_byCode.find(code);
    return it == m_byCode.end() ? 0 : m_items[it->second].count;
}

} // namespace plumb
