// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace plumb {

class SqliteDb;
class StringPool;
class TraceWriter;

// Interns the strings (names, categories) and args JSON of one trace import: maps each distinct text
// onto a row id of the string or args table, and hands every new row to the writer's batch. Ids come
// from the workspace's next free id, or from a parallel import's StringPool (then only the strings
// the workspace lacks are written). Args dedupe is best effort: the map is emptied past
// kMaxArgsDedupeBytes, and an args set seen again after that gets a second row.
class StringInterner {
public:
    static constexpr size_t kMaxArgsDedupeBytes = size_t(64) << 20; // args JSON kept for deduplication

    // Without a pool, the workspace's strings are read so that a string it has keeps its id.
    StringInterner(SqliteDb &db, TraceWriter &writer, StringPool *pool);

    [[nodiscard]] int64_t intern(std::string_view str);
    // Interned args JSON; kNoValue for an empty object.
    [[nodiscard]] int64_t internArgs(std::string_view json);

private:
    // Transparent hashing: look strings up by string_view without building a std::string.
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    using StringMap = std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>>;

    TraceWriter &m_writer;
    StringPool *m_pool;
    int64_t m_nextStringId;
    int64_t m_nextArgsId;
    StringMap m_strings;
    StringMap m_argsIds; // args JSON -> id
    size_t m_argsIdsBytes = 0; // estimated memory of m_argsIds
};

} // namespace plumb
