// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>
#include <vector>

namespace plumb {

// Numbered schema migrations: entry i moves a workspace from user_version i to i+1.
// Never edit a migration that has shipped; append a new one.
[[nodiscard]] const std::vector<std::string_view> &schemaMigrations();

// The indexes that are not part of a table's clustering key. Bulk loads into an empty workspace
// drop the flow indexes first and build them after the load (measured faster than maintaining them
// row by row). Slices are found by correlation id through slice_corr_tile, written by TraceSink.
[[nodiscard]] std::string_view secondaryIndexesSql();
[[nodiscard]] std::string_view dropSecondaryIndexesSql();

} // namespace plumb
