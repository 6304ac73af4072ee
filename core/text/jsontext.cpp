// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/jsontext.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace plumb {

namespace {
constexpr std::string_view kReplacement = "\xef\xbf\xbd"; // U+FFFD

inline bool isPlain(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}
} // namespace

size_t utf8SequenceLength(const unsigned char *p, size_t i, size_t n)
{
    const unsigned char c = p[i];
    const size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k)
        ok = (p[i + k] & 0xc0) == 0x80;
    if (ok && len == 2)
        ok = c >= 0xc2; // no overlong forms
    if (ok && len == 3) {
        const uint32_t cp = ((c & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6);
        ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff); // no overlong forms, no surrogates
    }
    if (ok && len == 4) {
        const uint32_t cp = ((c & 0x07u) << 18) | ((p[i + 1] & 0x3fu) << 12);
        ok = cp >= 0x10000 && cp <= 0x10ffff;
    }
    return ok ? len : 0;
}

bool isValidUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    for (size_t i = 0; i < s.size();) {
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const size_t len = utf8SequenceLength(p, i, s.size());
        if (len == 0)
            return false;
        i += len;
    }
    return true;
}

size_t sanitizeUtf8(std::string &s)
{
    if (isValidUtf8(s))
        return 0;
    std::string out;
    out.reserve(s.size() + 16);
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    size_t replaced = 0;
    for (size_t i = 0; i < s.size();) {
        const size_t len = p[i] < 0x80 ? 1 : utf8SequenceLength(p, i, s.size());
        if (len) {
            out.append(s, i, len);
            i += len;
        } else {
            out += kReplacement;
            ++replaced;
            ++i;
        }
    }
    s.swap(out);
    return replaced;
}

void appendJsonString(std::string &out, std::string_view s)
{
    out.push_back('"');
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned char c = p[i];
        if (isPlain(c)) {
            size_t j = i + 1;
            while (j < n && isPlain(p[j]))
                ++j;
            out.append(s.data() + i, j - i);
            i = j;
            continue;
        }
        if (c < 0x80) {
            switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default: {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
                out += buf;
            }
            }
            ++i;
            continue;
        }
        if (const size_t len = utf8SequenceLength(p, i, n)) {
            out.append(s.data() + i, len);
            i += len;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    out.push_back('"');
}

void appendJsonMicros(std::string &out, uint64_t ns)
{
    appendJsonInt(out, ns / 1000);
    const unsigned frac = unsigned(ns % 1000);
    const char d[4] = { '.', char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10) };
    out.append(d, 4);
}

void appendJsonMicros(std::string &out, int64_t ns)
{
    if (ns < 0)
        out.push_back('-');
    appendJsonMicros(out, ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns));
}

void appendJsonDouble(std::string &out, double v)
{
    if (!std::isfinite(v))
        v = 0;
    char b[32];
    const auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, r.ptr);
}

void forEachJsonMember(
    std::string_view obj, const std::function<void(std::string_view key, std::string_view value)> &fn)
{
    size_t i = obj.find('{');
    if (i == std::string_view::npos)
        return;
    ++i;
    auto skipSpace = [&] {
        while (i < obj.size() && (obj[i] == ' ' || obj[i] == '\n' || obj[i] == '\r' || obj[i] == '\t'))
            ++i;
    };
    auto skipString = [&] { // at the opening quote; leaves i after the closing one
        for (++i; i < obj.size(); ++i) {
            if (obj[i] == '\\')
                ++i;
            else if (obj[i] == '"') {
                ++i;
                return true;
            }
        }
        return false;
    };
    while (true) {
        skipSpace();
        if (i >= obj.size() || obj[i] != '"')
            return;
        const size_t keyStart = i;
        if (!skipString())
            return;
        const std::string_view key = obj.substr(keyStart, i - keyStart);
        skipSpace();
        if (i >= obj.size() || obj[i] != ':')
            return;
        ++i;
        skipSpace();
        const size_t valueStart = i;
        int depth = 0;
        while (i < obj.size()) {
            const char c = obj[i];
            if (c == '"') {
                if (!skipString())
                    return;
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if (c == '}' || c == ']') {
                if (depth == 0)
                    break;
                --depth;
            } else if (c == ',' && depth == 0)
                break;
            ++i;
        }
        if (i >= obj.size())
            return;
        size_t valueEnd = i;
        while (valueEnd > valueStart && (obj[valueEnd - 1] == ' ' || obj[valueEnd - 1] == '\n'))
            --valueEnd;
        fn(key, obj.substr(valueStart, valueEnd - valueStart));
        if (obj[i] == '}')
            return;
        ++i;
    }
}

} // namespace plumb
