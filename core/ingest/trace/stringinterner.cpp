// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/stringinterner.h"

#include "ingest/trace/stringpool.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"

namespace plumb {

StringInterner::StringInterner(SqliteDb &db, TraceWriter &writer, StringPool *pool)
    : m_writer(writer)
    , m_pool(pool)
    , m_nextStringId(db.queryInt("SELECT max(id) FROM string", 0) + 1)
    , m_nextArgsId(db.queryInt("SELECT max(id) FROM args", 0) + 1)
{
    if (!m_pool) {
        SqliteStmt st(db, "SELECT id, str FROM string");
        while (st.step()) {
            m_strings.emplace(std::string(st.columnView(1)), st.columnInt(0));
        }
    }
    m_argsIds.reserve(1 << 16); // skips the rehashes of a growing table on args-heavy traces
}

int64_t StringInterner::intern(std::string_view str)
{
    auto it = m_strings.find(str);
    if (it != m_strings.end()) {
        return it->second;
    }
    bool write = true;
    const int64_t id = m_pool ? m_pool->intern(str, &write) : m_nextStringId++;
    m_strings.emplace(std::string(str), id);
    if (write) {
        m_writer.batch().strings.emplace_back(id, std::string(str));
    }
    return id;
}

int64_t StringInterner::internArgs(std::string_view json)
{
    if (json.empty() || json == "{}") {
        return kNoValue;
    }
    auto it = m_argsIds.find(json);
    if (it != m_argsIds.end()) {
        return it->second;
    }
    if (m_argsIdsBytes + json.size() > kMaxArgsDedupeBytes) {
        m_argsIds.clear();
        m_argsIdsBytes = 0;
    }
    const int64_t id = m_nextArgsId++;
    m_argsIds.emplace(std::string(json), id);
    m_argsIdsBytes += json.size() + 64; // the string and the node around it
    m_writer.batch().args.emplace_back(id, std::string(json));
    return id;
}

} // namespace plumb
