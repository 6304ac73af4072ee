// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/jsonstream.h"

#include "ingest/inputfile.h"

#include <cstring>

namespace plumb {

namespace {
constexpr size_t kReadBytes = size_t(1) << 20;

inline bool isWs(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
} // namespace

JsonStream::JsonStream(InputFile &in)
    : m_in(in)
{
    m_buf.resize(2 * kReadBytes);
}

bool JsonStream::fill()
{
    if (m_eof)
        return false;
    if (m_pos > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
        m_base += int64_t(m_pos);
        m_end -= m_pos;
        m_pos = 0;
    }
    if (m_buf.size() - m_end < kReadBytes)
        m_buf.resize(std::max(m_buf.size() * 2, m_end + kReadBytes));
    const int64_t n = m_in.read(m_buf.data() + m_end, int64_t(m_buf.size() - m_end));
    if (n <= 0) {
        m_eof = true;
        return false;
    }
    m_end += size_t(n);
    return true;
}

int JsonStream::peek()
{
    for (;;) {
        while (m_pos < m_end && isWs(m_buf[m_pos]))
            ++m_pos;
        if (m_pos < m_end)
            return static_cast<unsigned char>(m_buf[m_pos]);
        if (!fill())
            return -1;
    }
}

bool JsonStream::atEnd()
{
    return peek() < 0;
}

JsonStream::Scan JsonStream::scanValue(std::string_view &value)
{
    // State survives refills: `at` is relative to m_pos, which fill() moves to 0 with the data.
    size_t at = 0;
    int depth = 0;
    bool inString = false;
    const char first = m_buf[m_pos];
    const bool container = first == '{' || first == '[';
    if (first == '"') {
        std::string_view s;
        const Scan r = scanString(s);
        if (r == Scan::Complete)
            value = std::string_view(s.data() - 1, s.size() + 2);
        return r;
    }
    for (;;) {
        const char *p = m_buf.data() + m_pos + at;
        const char *end = m_buf.data() + m_end;
        if (container) {
            while (p < end) {
                if (inString) {
                    // Jump to the next quote (memchr is vectorised); it ends the string unless an odd
                    // number of backslashes precedes it.
                    const auto *q = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
                    if (!q) {
                        // Resume a few bytes back so an escape split across refills is seen whole.
                        p = std::max(p, end - 1);
                        break;
                    }
                    const char *b = q;
                    while (b > m_buf.data() + m_pos && b[-1] == '\\')
                        --b;
                    p = q + 1;
                    if (((q - b) & 1) == 0)
                        inString = false;
                    continue;
                }
                const char c = *p;
                if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    ++depth;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0) {
                        ++p;
                        const size_t len = size_t(p - (m_buf.data() + m_pos));
                        value = std::string_view(m_buf.data() + m_pos, len);
                        m_pos += len;
                        return Scan::Complete;
                    }
                }
                ++p;
            }
        } else {
            if (at == 0 && p < end)
                ++p; // the first byte is always part of the value: a stray '}' is read (and refused), not
                     // looped on
            while (p < end && *p != ',' && *p != ']' && *p != '}' && !isWs(*p))
                ++p;
            if (p < end) {
                const size_t len = size_t(p - (m_buf.data() + m_pos));
                value = std::string_view(m_buf.data() + m_pos, len);
                m_pos += len;
                return Scan::Complete;
            }
        }
        at = size_t(p - (m_buf.data() + m_pos));
        if (at > kMaxValueBytes)
            return Scan::TooLarge;
        if (!fill()) {
            if (!container && at > 0) {
                value = std::string_view(m_buf.data() + m_pos, at);
                m_pos += at;
                return Scan::Complete;
            }
            return Scan::Truncated;
        }
    }
}

JsonStream::Scan JsonStream::scanString(std::string_view &content)
{
    size_t at = 1; // past the opening quote
    for (;;) {
        const char *p = m_buf.data() + m_pos + at;
        const char *end = m_buf.data() + m_end;
        while (p < end) {
            if (*p == '\\') {
                if (p + 1 >= end)
                    break;
                p += 2;
                continue;
            }
            if (*p == '"') {
                const char *start = m_buf.data() + m_pos + 1;
                content = std::string_view(start, size_t(p - start));
                m_pos += size_t(p - start) + 2;
                return Scan::Complete;
            }
            ++p;
        }
        at = size_t(p - (m_buf.data() + m_pos));
        if (at > kMaxValueBytes)
            return Scan::TooLarge;
        if (!fill())
            return Scan::Truncated;
    }
}

} // namespace plumb
