// SPDX-License-Identifier: GPL-3.0-or-later
// The cell parsers of tabularlayout.h (namespace tabular): cell text to doubles, integers and wall
// times (epoch numbers in a unit, ISO 8601), exact to the nanosecond, and numbers back to text.
#include "tabular/tabularlayout.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace plumb {

namespace {

// Digits of a non-negative decimal with an optional fraction, as ns in `unit`; exact for any digit count.
std::optional<int64_t> decimalNs(std::string_view s, int64_t perUnit)
{
    bool negative = false;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    const size_t dot = s.find('.');
    const std::string_view whole = s.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
    if (whole.empty() && frac.empty())
        return std::nullopt;
    int64_t w = 0;
    if (!whole.empty()) {
        const auto r = std::from_chars(whole.data(), whole.data() + whole.size(), w);
        if (r.ec != std::errc() || r.ptr != whole.data() + whole.size())
            return std::nullopt;
    }
    if (w > INT64_MAX / perUnit)
        return std::nullopt;
    int64_t ns = w * perUnit;
    int64_t place = perUnit / 10;
    for (const char c : frac) {
        if (c < '0' || c > '9')
            return std::nullopt;
        ns += (c - '0') * place;
        place /= 10;
    }
    return negative ? -ns : ns;
}

int digits(std::string_view s, size_t at, size_t count)
{
    if (at + count > s.size())
        return -1;
    int v = 0;
    for (size_t i = at; i < at + count; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    // Howard Hinnant's algorithm: days since 1970-01-01 in the proleptic Gregorian calendar.
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

} // namespace

namespace tabular {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<double> parseDouble(std::string_view s)
{
    s = trimmed(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    if (s.empty())
        return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size())
        return v;
    if (r.ec == std::errc::result_out_of_range && r.ptr == s.data() + s.size())
        return s.front() == '-' ? -HUGE_VAL : HUGE_VAL; // from_chars leaves v alone; strtod says inf
    return std::nullopt;
}

bool isNonFiniteWord(std::string_view s)
{
    return s == "NaN" || s == "Infinity" || s == "-Infinity";
}

bool quoteNonFiniteWords(std::string_view json, std::string &out)
{
    if (json.find("NaN") == std::string_view::npos && json.find("Infinity") == std::string_view::npos)
        return false;
    std::string result;
    result.reserve(json.size() + 16);
    bool inString = false, found = false;
    auto boundary = [](char c) {
        return c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == ' ' || c == '\t'
            || c == '\r' || c == '\n';
    };
    for (size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            result += c;
            if (c == '\\' && i + 1 < json.size())
                result += json[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            result += c;
            continue;
        }
        // A bare word: at a token boundary on both sides.
        size_t matched = 0;
        if ((c == 'N' || c == 'I' || c == '-') && (i == 0 || boundary(json[i - 1])))
            for (const std::string_view word : { "NaN", "Infinity", "-Infinity" })
                if (json.substr(i, word.size()) == word
                    && (i + word.size() == json.size() || boundary(json[i + word.size()])))
                    matched = word.size();
        if (matched == 0) {
            result += c;
            continue;
        }
        result += '"';
        result += json.substr(i, matched);
        result += '"';
        i += matched - 1;
        found = true;
    }
    if (!found)
        return false;
    out = std::move(result);
    return true;
}

std::optional<int64_t> parseInteger(std::string_view s)
{
    s = trimmed(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size())
        return v;
    const auto d = parseDouble(s);
    if (!d || !std::isfinite(*d) || *d != std::trunc(*d) || std::fabs(*d) > 9e18)
        return std::nullopt;
    return int64_t(*d);
}

std::optional<int64_t> parseWallNs(std::string_view s, TimeUnit unit)
{
    s = trimmed(s);
    if (s.empty())
        return std::nullopt;
    if (unit == TimeUnit::Iso8601)
        return parseIso8601(s);
    static constexpr int64_t kPerUnit[] = { 1000000000, 1000000, 1000, 1 };
    const int64_t per = kPerUnit[int(unit)];
    if (s.find_first_of("eE") == std::string_view::npos) {
        if (unit == TimeUnit::Nanoseconds) {
            if (const auto i = parseInteger(s))
                return *i;
        }
        if (const auto ns = decimalNs(s, per))
            return ns;
    }
    const auto d = parseDouble(s);
    if (!d || !std::isfinite(*d) || std::fabs(*d * double(per)) > 9.2e18)
        return std::nullopt;
    return int64_t(std::llround(*d * double(per)));
}

std::optional<int64_t> parseIso8601(std::string_view s)
{
    s = trimmed(s);
    const int y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2);
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || s[4] != '-' || s[7] != '-')
        return std::nullopt;
    const int64_t days = daysFromCivil(y, unsigned(mo), unsigned(d));
    if (days < -106740
        || days > 106740) // int64 ns from 1970 reach 1677-09 to 2262-04 (less a margin for the rest)
        return std::nullopt;
    int64_t ns = days * 86400 * 1000000000LL;
    size_t i = 10;
    if (i < s.size() && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
        const int h = digits(s, i + 1, 2), mi = digits(s, i + 4, 2);
        if (h < 0 || h > 24 || mi < 0 || mi > 59 || s[i + 3] != ':')
            return std::nullopt;
        ns += (int64_t(h) * 3600 + mi * 60) * 1000000000LL;
        i += 6;
        if (i < s.size() && s[i] == ':') {
            const int sec = digits(s, i + 1, 2);
            if (sec < 0 || sec > 60)
                return std::nullopt;
            ns += int64_t(sec) * 1000000000LL;
            i += 3;
            if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
                int64_t place = 100000000;
                ++i;
                while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
                    ns += (s[i] - '0') * place;
                    place /= 10;
                    ++i;
                }
            }
        }
        if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
            ++i;
        } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
            const int sign = s[i] == '-' ? -1 : 1;
            const int oh = digits(s, i + 1, 2);
            if (oh < 0)
                return std::nullopt;
            i += 3;
            int om = 0;
            if (i < s.size() && s[i] == ':')
                ++i;
            if (i < s.size()) {
                om = digits(s, i, 2);
                if (om < 0)
                    return std::nullopt;
                i += 2;
            }
            ns -= sign * (int64_t(oh) * 3600 + om * 60) * 1000000000LL;
        }
    }
    if (i != s.size())
        return std::nullopt;
    return ns;
}

QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    // Shortest round trip; plain digits for exponents -4..15 (0.0001, not 1e-04), as the
    // TensorBoard importer writes params.
    char buf[400];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, size_t(r.ptr - buf));
    const int exp = std::atoi(sci.data() + sci.find('e') + 1);
    if (exp >= -4 && exp < 16)
        r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    else
        r = std::to_chars(buf, buf + sizeof buf, v);
    return QString::fromLatin1(buf, qsizetype(r.ptr - buf));
}

} // namespace tabular

} // namespace plumb
