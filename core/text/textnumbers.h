// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace plumb {

// The whole of `text` as a number (std::from_chars: no locale, no leading space, no trailing junk);
// nullopt otherwise. T is an integer or floating-point type.
template <typename T> [[nodiscard]] std::optional<T> parseNumber(std::string_view text)
{
    T value {};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// `count` units of `unitNs` nanoseconds each (1'000'000 for epoch milliseconds) in nanoseconds;
// nullopt when that does not fit int64, which no real time does (past the years 1677-2262): a file
// that says so is wrong, and its value is refused rather than wrapped round.
[[nodiscard]] inline std::optional<int64_t> scaledNs(int64_t count, int64_t unitNs)
{
    int64_t ns = 0;
    if (__builtin_mul_overflow(count, unitNs, &ns))
        return std::nullopt;
    return ns;
}

} // namespace plumb
