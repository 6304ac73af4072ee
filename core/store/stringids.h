// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace plumb {

class SqliteDb;

// The ids of these texts in the workspace's string table (those it holds): how an analysis matches
// names by id instead of comparing text on every row.
[[nodiscard]] std::unordered_set<int64_t> stringIdsOf(SqliteDb &db, const std::vector<std::string> &texts);

} // namespace plumb
