// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace plumb {

// Parses a Trace Event timestamp or duration (microseconds, as JSON number text such as
// "4458676522690.655", or the same inside a string) into integer nanoseconds, rounding beyond the third
// decimal half away from zero. Exact for any value with at most 3 decimals, unlike a double, which loses
// nanoseconds on epoch-based microsecond values. Exponent forms fall back to a double.
[[nodiscard]] std::optional<int64_t> parseMicrosToNs(std::string_view text);

} // namespace plumb
