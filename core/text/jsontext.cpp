// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/jsontext.h"

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

} // namespace plumb
