// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/sqlitedb.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace plumb {

// An export's strings (names, categories) and args JSON by id, read from the workspace on demand and
// kept while they fit (then the cache starts again): formatted once however many events share them.
class ExportStrings {
public:
    explicit ExportStrings(SqliteDb &db);
    struct Args {
        std::string inner; // the members, without the braces
        bool hasDevice = false;
        bool hasStream = false;
    };
    // The string as a quoted JSON string.
    const std::string &quoted(int64_t id);
    const Args &args(int64_t id);

private:
    SqliteStmt m_names, m_args;
    std::unordered_map<int64_t, std::string> m_nameMap;
    std::unordered_map<int64_t, Args> m_argsMap;
    size_t m_argsBytes = 0;
};

} // namespace plumb
