// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/jsonstream.h"

#include "ingest/inputfile.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace plumb {

namespace {
constexpr size_t kReadBytes = size_t(1) << 20;

inline bool isWs(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

constexpr size_t kBlockBytes = 64;
constexpr size_t kNotFound = ~size_t(0);

// Bit i of each mask describes byte i of a 64-byte block.
struct BlockMasks {
    uint64_t quote; // '"'
    uint64_t backslash;
    uint64_t open; // '{' or '['
    uint64_t close; // '}' or ']'
};

#if defined(__SSE2__)
inline uint64_t eqMask(__m128i v0, __m128i v1, __m128i v2, __m128i v3, __m128i c)
{
    const auto m = [c](__m128i v) { return uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)))); };
    return m(v0) | m(v1) << 16 | m(v2) << 32 | m(v3) << 48;
}

// SSE2 is part of x86-64 itself, so this needs no run-time dispatch.
inline BlockMasks classifyBlock(const char *p)
{
    const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16));
    const __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 32));
    const __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 48));
    // '{' | 0x20 == '{' and '[' | 0x20 == '{'; no other byte maps to '{' (the same for '}' and ']').
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i l0 = _mm_or_si128(v0, lower), l1 = _mm_or_si128(v1, lower);
    const __m128i l2 = _mm_or_si128(v2, lower), l3 = _mm_or_si128(v3, lower);
    return BlockMasks { eqMask(v0, v1, v2, v3, _mm_set1_epi8('"')),
        eqMask(v0, v1, v2, v3, _mm_set1_epi8('\\')), eqMask(l0, l1, l2, l3, _mm_set1_epi8('{')),
        eqMask(l0, l1, l2, l3, _mm_set1_epi8('}')) };
}
#else
inline BlockMasks classifyBlock(const char *p)
{
    BlockMasks m {};
    for (size_t i = 0; i < kBlockBytes; ++i) {
        const char c = p[i];
        const uint64_t bit = uint64_t(1) << i;
        m.quote |= c == '"' ? bit : 0;
        m.backslash |= c == '\\' ? bit : 0;
        m.open |= c == '{' || c == '[' ? bit : 0;
        m.close |= c == '}' || c == ']' ? bit : 0;
    }
    return m;
}
#endif

// Bit i of the result is the XOR of bits 0..i: with the quotes as input, the bytes from an opening
// quote up to (not including) its closing quote.
inline uint64_t prefixXor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// The byte-by-byte walk over `n` bytes, carrying the same state as the block walk; returns the length
// up to and including the bracket that closes the value, or kNotFound.
size_t scanBytes(const char *p, size_t n, int64_t &depth, uint64_t &inString, bool &escaped)
{
    for (size_t i = 0; i < n; ++i) {
        const char c = p[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = 0;
        } else if (c == '"') {
            inString = ~uint64_t(0);
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return kNotFound;
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
    const char first = m_buf[m_pos];
    if (first == '"') {
        std::string_view s;
        const Scan r = scanString(s);
        if (r == Scan::Complete)
            value = std::string_view(s.data() - 1, s.size() + 2);
        return r;
    }
    if (first == '{' || first == '[')
        return scanContainer(value);
    // A scalar: up to the next delimiter. State survives refills: `at` is relative to m_pos, which
    // fill() moves to 0 with the data.
    size_t at = 0;
    for (;;) {
        const char *p = m_buf.data() + m_pos + at;
        const char *end = m_buf.data() + m_end;
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
        at = size_t(p - (m_buf.data() + m_pos));
        if (at > kMaxValueBytes)
            return Scan::TooLarge;
        if (!fill()) {
            if (at > 0) {
                value = std::string_view(m_buf.data() + m_pos, at);
                m_pos += at;
                return Scan::Complete;
            }
            return Scan::Truncated;
        }
    }
}

JsonStream::Scan JsonStream::scanContainer(std::string_view &value)
{
    // 64 bytes at a time: masks of the quotes and brackets, the string interiors from the quotes by a
    // prefix XOR, then only the brackets outside strings are visited one by one. A block holding a
    // backslash (rare in traces) is walked byte by byte, so an escape is read exactly as the JSON
    // grammar reads it: only inside a string, where it hides the byte after it.
    // State survives refills: `at` is relative to m_pos, which fill() moves to 0 with the data.
    size_t at = 0;
    int64_t depth = 0;
    uint64_t inString = 0; // all ones while the previous block ended inside a string
    bool escaped = false; // the previous block ended inside a string on an unpaired backslash
    auto complete = [&](size_t len) {
        value = std::string_view(m_buf.data() + m_pos, len);
        m_pos += len;
        return Scan::Complete;
    };
    for (;;) {
        while (m_end - m_pos - at >= kBlockBytes) {
            const char *block = m_buf.data() + m_pos + at;
            const BlockMasks m = classifyBlock(block);
            if (m.backslash == 0 && !escaped) {
                const uint64_t interior = prefixXor(m.quote) ^ inString;
                inString = uint64_t(int64_t(interior) >> 63);
                uint64_t brackets = (m.open | m.close) & ~interior;
                while (brackets) {
                    const int bit = __builtin_ctzll(brackets);
                    if ((m.open >> bit) & 1) {
                        ++depth;
                    } else if (--depth == 0) {
                        return complete(at + size_t(bit) + 1);
                    }
                    brackets &= brackets - 1;
                }
            } else {
                const size_t end = scanBytes(block, kBlockBytes, depth, inString, escaped);
                if (end != kNotFound)
                    return complete(at + end);
            }
            at += kBlockBytes;
        }
        if (at > kMaxValueBytes)
            return Scan::TooLarge;
        if (!fill()) {
            // The last, partial block of the input.
            const size_t end
                = scanBytes(m_buf.data() + m_pos + at, m_end - m_pos - at, depth, inString, escaped);
            if (end != kNotFound)
                return complete(at + end);
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
