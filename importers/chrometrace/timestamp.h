// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace plumb {

// Parses a Trace Event timestamp or duration (microseconds, as JSON number text such as
// "4458676522690.655", or the same inside a string) into integer nanoseconds, rounding beyond the third
// decimal half away from zero (decided by the fourth decimal). Exact for any value with at most 3
// decimals, unlike a double, which loses nanoseconds on epoch-based microsecond values.
//
// Accepted: an optional '-' or '+', digits (leading zeros allowed) with an optional '.' and decimals
// (".5" and "5." too), surrounded by optional spaces, tabs, CR or LF. Exponent forms ("1.5e3") are read
// through a double (no locale) and rounded half away from zero, up to 9.2e15 µs. Anything else, and any
// value whose nanoseconds do not fit int64 (beyond ±9223372036854775.807 µs), is nullopt: never wrapped.
[[nodiscard]] std::optional<int64_t> parseMicrosToNs(std::string_view text);

} // namespace plumb
