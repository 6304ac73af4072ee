// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace plumb {

class SqliteDb;

// String ids shared by the traces of one parallel import (see ImportRunner): each file is read into a
// scratch workspace of its own while the others are read, and copied into the workspace afterwards
// with its ids shifted; interned strings are the one id space that cannot be shifted (level-of-detail
// tiles hold them), so the files draw them from this pool, seeded with the workspace's strings.
// Thread-safe; a sink asks it once per distinct string.
class StringPool {
public:
    explicit StringPool(SqliteDb &workspace);
    // The id of `str`, and whether the workspace lacked it when the pool was made (then the sink
    // writes it into its scratch workspace, from where it is copied with the trace).
    [[nodiscard]] int64_t intern(std::string_view str, bool *newToWorkspace);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    std::mutex m_mutex;
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> m_ids;
    int64_t m_firstNew = 1;
    int64_t m_next = 1;
};

} // namespace plumb
