// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace plumb {

// Helpers for the JSON text importers write into the workspace (args, metadata): it must be valid
// JSON and valid UTF-8 whatever bytes the input held, so that SQLite's json functions accept it.

// Appends `s` as a quoted JSON string: quotes, backslashes and control characters escaped, bytes
// that are not UTF-8 replaced by U+FFFD.
void appendJsonString(std::string &out, std::string_view s);

// Appends the integer `v` in decimal.
template <typename T> void appendJsonInt(std::string &out, T v)
{
    char b[24];
    const auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, r.ptr);
}

// Appends `ns` as microseconds with exactly three decimals, as Chrome traces write time exact to the
// nanosecond: 1234567 -> "1234.567", -5 -> "-0.005". The unsigned form takes CUPTI's timestamps whole.
void appendJsonMicros(std::string &out, int64_t ns);
void appendJsonMicros(std::string &out, uint64_t ns);

// Appends `v` in the shortest form that reads back the same; 0 for a NaN or an infinity (JSON has none).
void appendJsonDouble(std::string &out, double v);

// Calls fn(key as written, with its quotes; value as written) for each member of a JSON object given
// as text (minified or not); stops at the first thing it cannot read.
void forEachJsonMember(
    std::string_view object, const std::function<void(std::string_view key, std::string_view value)> &fn);

// Length of the valid UTF-8 sequence starting at p[i] (a byte >= 0x80, i < n), or 0.
[[nodiscard]] size_t utf8SequenceLength(const unsigned char *p, size_t i, size_t n);
[[nodiscard]] bool isValidUtf8(std::string_view s);
// Replaces every byte that does not start a valid UTF-8 sequence by U+FFFD; returns how many.
size_t sanitizeUtf8(std::string &s);

} // namespace plumb
