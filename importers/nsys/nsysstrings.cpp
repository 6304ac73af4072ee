// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysstrings.h"

#include "ingest/diagnosticlog.h"
#include "ingest/tracesink.h"

namespace plumb::nsys {

namespace {

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel".
std::string_view stripVersionSuffix(std::string_view name)
{
    const size_t at = name.rfind("_v");
    if (at == std::string_view::npos || at == 0 || at + 2 >= name.size()) {
        return name;
    }
    for (size_t i = at + 2; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') {
            return name;
        }
    }
    return name.substr(0, at);
}

} // namespace

NsysStrings::NsysStrings(ForeignSqliteDb &db, TraceSink &sink, DiagnosticLog &diag)
    : m_sink(sink)
    , m_diag(diag)
    , m_lookup(db, "SELECT value FROM StringIds WHERE id = ?", "StringIds")
{
}

std::string_view NsysStrings::lookup(int64_t id)
{
    m_lookup.reset();
    m_lookup.bind(1, id);
    if (m_lookup.step()) {
        m_scratch.assign(m_lookup.text(0));
    } else {
        m_scratch = "[string " + std::to_string(id) + "]";
        m_diag.report(Severity::Warning, QStringLiteral("unknown-string-id"),
            QStringLiteral("StringIds id %1").arg(id),
            QStringLiteral("A name refers to a StringIds id that the export does not have; it is shown "
                           "as [string N]."));
    }
    return m_scratch;
}

int64_t NsysStrings::nameOf(int64_t stringId)
{
    auto it = m_names.find(stringId);
    if (it != m_names.end()) {
        return it->second;
    }
    const int64_t id = m_sink.intern(lookup(stringId));
    m_names.emplace(stringId, id);
    return id;
}

int64_t NsysStrings::apiNameOf(int64_t stringId)
{
    auto it = m_apiNames.find(stringId);
    if (it != m_apiNames.end()) {
        return it->second;
    }
    const int64_t id = m_sink.intern(stripVersionSuffix(lookup(stringId)));
    m_apiNames.emplace(stringId, id);
    return id;
}

// Read once: stacks share their frames.
const std::string &NsysStrings::frameText(int64_t stringId, bool module)
{
    auto &cache = module ? m_moduleNames : m_functionNames;
    auto it = cache.find(stringId);
    if (it == cache.end()) {
        std::string_view text = lookup(stringId);
        if (module && text.rfind('/') != std::string_view::npos) {
            text.remove_prefix(text.rfind('/') + 1);
        }
        it = cache.emplace(stringId, std::string(text)).first;
    }
    return it->second;
}

} // namespace plumb::nsys
