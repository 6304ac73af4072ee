// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/jsonfragments.h"

#include "text/textnumbers.h"

#include <algorithm>
#include <charconv>

namespace plumb::chrometrace {

namespace {

constexpr bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

std::optional<int64_t> toInt(std::string_view s)
{
    return parseNumber<int64_t>(s);
}

std::optional<double> toDouble(std::string_view s)
{
    return parseNumber<double>(s);
}

void appendMinified(std::string &out, std::string_view raw)
{
    // Runs are appended whole: outside strings up to the next quote or whitespace, a string up to and
    // including its closing quote (an escape hides the byte after it).
    const char *p = raw.data();
    const size_t n = raw.size();
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && p[j] != '"' && !isJsonSpace(p[j])) {
            ++j;
        }
        out.append(p + i, j - i);
        if (j == n) {
            return;
        }
        if (p[j] != '"') { // whitespace between tokens: dropped
            i = j + 1;
            continue;
        }
        size_t k = j + 1;
        while (k < n) {
            if (p[k] == '\\') {
                k += 2;
            } else if (p[k++] == '"') {
                break;
            }
        }
        k = std::min(k, n);
        out.append(p + j, k - j);
        i = k;
    }
}

std::string unescapeJson(std::string_view raw)
{
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (c != '\\' || i + 1 >= raw.size()) {
            out.push_back(c);
            continue;
        }
        c = raw[++i];
        switch (c) {
        case 'n':
            out.push_back('\n');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'u': {
            if (i + 4 >= raw.size() + 0 && i + 4 > raw.size() - 1 + 1) {
                break;
            }
            uint32_t cp = 0;
            std::from_chars(raw.data() + i + 1, raw.data() + i + 5, cp, 16);
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < raw.size() + 1 && raw.substr(i + 1, 2) == "\\u") {
                uint32_t lo = 0;
                std::from_chars(raw.data() + i + 3, raw.data() + i + 7, lo, 16);
                if (lo >= 0xdc00 && lo < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    i += 6;
                }
            }
            if (cp < 0x80) {
                out.push_back(char(cp));
            } else if (cp < 0x800) {
                out.push_back(char(0xc0 | (cp >> 6)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            } else if (cp < 0x10000) {
                out.push_back(char(0xe0 | (cp >> 12)));
                out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            } else {
                out.push_back(char(0xf0 | (cp >> 18)));
                out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
                out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            }
            break;
        }
        default:
            out.push_back(c);
            break;
        }
    }
    return out;
}

} // namespace plumb::chrometrace
