// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/stringids.h"

#include "store/sqlitedb.h"

namespace plumb {

std::unordered_set<int64_t> stringIdsOf(SqliteDb &db, const std::vector<std::string> &texts)
{
    std::unordered_set<int64_t> ids;
    SqliteStmt st(db, "SELECT id FROM string WHERE str = ?");
    for (const std::string &text : texts) {
        st.bind(1, std::string_view(text));
        while (st.step())
            ids.insert(st.columnInt(0));
        st.reset();
    }
    return ids;
}

} // namespace plumb
