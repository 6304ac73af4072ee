// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace plumb {

// "1,5,7": integer ids for an SQL IN list (nothing to escape). "-1", an id nothing has, when there are
// none, so that "IN (...)" stays valid and matches no row.
template <typename Ids> [[nodiscard]] std::string sqlIdList(const Ids &ids)
{
    std::string s;
    for (const int64_t id : ids) {
        if (!s.empty())
            s += ',';
        s += std::to_string(id);
    }
    return s.empty() ? std::string("-1") : s;
}

} // namespace plumb
