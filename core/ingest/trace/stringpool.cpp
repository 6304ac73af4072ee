// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/stringpool.h"

#include "store/sqlitedb.h"

#include <algorithm>

namespace plumb {

StringPool::StringPool(SqliteDb &workspace)
{
    SqliteStmt st(workspace, "SELECT id, str FROM string");
    while (st.step()) {
        m_ids.emplace(std::string(st.columnView(1)), st.columnInt(0));
        m_next = std::max(m_next, st.columnInt(0) + 1);
    }
    m_firstNew = m_next;
}

int64_t StringPool::intern(std::string_view str, bool *newToWorkspace)
{
    std::lock_guard lock(m_mutex);
    auto it = m_ids.find(str);
    if (it == m_ids.end()) {
        it = m_ids.emplace(std::string(str), m_next++).first;
    }
    *newToWorkspace = it->second >= m_firstNew;
    return it->second;
}

} // namespace plumb
