// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace plumb {

// Helpers for the JSON text importers write into the workspace (args, metadata): it must be valid
// JSON and valid UTF-8 whatever bytes the input held, so that SQLite's json functions accept it.

// Appends `s` as a quoted JSON string: quotes, backslashes and control characters escaped, bytes
// that are not UTF-8 replaced by U+FFFD.
void appendJsonString(std::string &out, std::string_view s);

// Length of the valid UTF-8 sequence starting at p[i] (a byte >= 0x80, i < n), or 0.
[[nodiscard]] size_t utf8SequenceLength(const unsigned char *p, size_t i, size_t n);
[[nodiscard]] bool isValidUtf8(std::string_view s);
// Replaces every byte that does not start a valid UTF-8 sequence by U+FFFD; returns how many.
size_t sanitizeUtf8(std::string &s);

} // namespace plumb
