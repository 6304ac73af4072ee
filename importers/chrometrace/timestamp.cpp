// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/timestamp.h"

#include "text/textnumbers.h"

#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

std::optional<int64_t> parseMicrosToNs(std::string_view s)
{
    while (!s.empty() && isSpace(s.back())) {
        s.remove_suffix(1);
    }
    while (!s.empty() && isSpace(s.front())) {
        s.remove_prefix(1);
    }
    if (s.empty()) {
        return std::nullopt;
    }
    size_t i = 0;
    bool negative = false;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        ++i;
    }
    // The magnitude, unsigned: -2^63 ns (INT64_MIN) has no positive int64.
    uint64_t whole = 0;
    bool wholeOverflow = false;
    int digits = 0;
    while (i < s.size() && isDigit(s[i])) {
        wholeOverflow |= __builtin_mul_overflow(whole, uint64_t(10), &whole)
            || __builtin_add_overflow(whole, uint64_t(s[i] - '0'), &whole);
        ++digits;
        ++i;
    }
    uint64_t frac = 0;
    int fracDigits = 0;
    bool roundUp = false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i])) {
            if (fracDigits < 3) {
                frac = frac * 10 + uint64_t(s[i] - '0');
            } else if (fracDigits == 3) {
                roundUp = s[i] >= '5';
            }
            ++fracDigits;
            ++i;
        }
    }
    if (digits == 0 && fracDigits == 0) {
        return std::nullopt;
    }
    if (i < s.size()) {
        if (s[i] != 'e' && s[i] != 'E') {
            return std::nullopt;
        }
        // from_chars: the same grammar as strtod, without the locale's decimal point or a leading '+'.
        const auto v = parseNumber<double>(s.substr(s[0] == '+' ? 1 : 0));
        if (!v || !std::isfinite(*v) || std::fabs(*v) > 9.2e15) {
            return std::nullopt;
        }
        return std::llround(*v * 1000.0);
    }
    for (int d = fracDigits; d < 3; ++d) {
        frac *= 10;
    }
    uint64_t ns = 0;
    if (wholeOverflow || __builtin_mul_overflow(whole, uint64_t(1000), &ns)
        || __builtin_add_overflow(ns, frac + (roundUp ? 1 : 0), &ns)) {
        return std::nullopt;
    }
    const uint64_t limit = uint64_t(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
    if (ns > limit) {
        return std::nullopt;
    }
    return negative ? int64_t(0 - ns) : int64_t(ns);
}

} // namespace plumb
