#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace plumb {

// The whole of `text` as a number (std::from_chars: no locale, no leading space, no trailing junk);
// nullopt otherwise. T is an integer or floating-point type.
template<typename T>
[[nodiscard]] std::optional<T> parseNumber(std::string_view text)
{
    T value {};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace plumb
