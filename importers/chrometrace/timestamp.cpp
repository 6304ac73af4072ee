// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/timestamp.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace plumb {

std::optional<int64_t> parseMicrosToNs(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    if (s.empty())
        return std::nullopt;
    size_t i = 0;
    bool negative = false;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        ++i;
    }
    int64_t whole = 0;
    int digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (++digits > 16) // > 9.2e15 µs would overflow int64 ns
            return std::nullopt;
        whole = whole * 10 + (s[i] - '0');
        ++i;
    }
    int64_t frac = 0;
    int fracDigits = 0;
    bool roundUp = false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            if (fracDigits < 3)
                frac = frac * 10 + (s[i] - '0');
            else if (fracDigits == 3)
                roundUp = s[i] >= '5';
            ++fracDigits;
            ++i;
        }
    }
    if (digits == 0 && fracDigits == 0)
        return std::nullopt;
    if (i < s.size()) {
        if (s[i] != 'e' && s[i] != 'E')
            return std::nullopt;
        const std::string copy(s);
        char *end = nullptr;
        const double v = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() + copy.size() || !std::isfinite(v) || std::fabs(v) > 9.2e15)
            return std::nullopt;
        return std::llround(v * 1000.0);
    }
    for (int d = fracDigits; d < 3; ++d)
        frac *= 10;
    int64_t ns = whole * 1000 + frac + (roundUp ? 1 : 0);
    return negative ? -ns : ns;
}

} // namespace plumb
