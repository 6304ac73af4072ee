// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plumb::chrometrace {

// Small operations on JSON text as the Trace Event reader sees it (raw tokens cut out of the input,
// never a DOM): trailing whitespace off a token, a value copied without its whitespace, a string
// token's content decoded, a number token read.

// `s` without trailing spaces, tabs, CR or LF.
[[nodiscard]] std::string_view trim(std::string_view s);
// The whole of `s` as an integer or a double (no locale, no junk); nullopt otherwise.
[[nodiscard]] std::optional<int64_t> toInt(std::string_view s);
[[nodiscard]] std::optional<double> toDouble(std::string_view s);
// Appends `raw` (JSON text) without the whitespace outside strings.
void appendMinified(std::string &out, std::string_view raw);
// Decodes a JSON string token's content (without quotes) into UTF-8.
[[nodiscard]] std::string unescapeJson(std::string_view raw);

} // namespace plumb::chrometrace
