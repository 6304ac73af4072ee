// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exportstrings.h"

#include "text/jsontext.h"

namespace plumb {

namespace {

constexpr size_t kMaxCachedNames = 1 << 17; // names kept (then the cache starts again)
constexpr size_t kMaxCachedArgsBytes = 32u << 20; // args JSON kept

} // namespace

ExportStrings::ExportStrings(SqliteDb &db)
    : m_names(db, "SELECT str FROM string WHERE id = ?")
    , m_args(db, "SELECT json FROM args WHERE id = ?")
{
}

const std::string &ExportStrings::quoted(int64_t id)
{
    auto it = m_nameMap.find(id);
    if (it != m_nameMap.end())
        return it->second;
    if (m_nameMap.size() >= kMaxCachedNames)
        m_nameMap.clear();
    m_names.reset();
    m_names.bind(1, id);
    std::string s;
    appendJsonString(s, m_names.step() ? m_names.columnView(0) : std::string_view());
    return m_nameMap.emplace(id, std::move(s)).first->second;
}

const ExportStrings::Args &ExportStrings::args(int64_t id)
{
    auto it = m_argsMap.find(id);
    if (it != m_argsMap.end())
        return it->second;
    if (m_argsBytes >= kMaxCachedArgsBytes) {
        m_argsMap.clear();
        m_argsBytes = 0;
    }
    m_args.reset();
    m_args.bind(1, id);
    Args a;
    if (m_args.step()) {
        std::string_view json = m_args.columnView(0);
        const size_t open = json.find('{'), close = json.rfind('}');
        if (open != std::string_view::npos && close != std::string_view::npos && close > open)
            a.inner.assign(json.substr(open + 1, close - open - 1));
        forEachJsonMember(json, [&](std::string_view key, std::string_view) {
            a.hasDevice |= key == "\"device\"";
            a.hasStream |= key == "\"stream\"";
        });
    }
    m_argsBytes += a.inner.size() + 64;
    return m_argsMap.emplace(id, std::move(a)).first->second;
}

} // namespace plumb
