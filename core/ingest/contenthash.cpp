// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/contenthash.h"

#include <cstring>

namespace plumb {

namespace {
constexpr uint64_t P1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t P2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t P3 = 0x165667B19E3779F9ULL;
constexpr uint64_t P4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t P5 = 0x27D4EB2F165667C5ULL;

inline uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}
inline uint64_t read64(const unsigned char *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8); // little-endian hosts only (x86-64, arm64)
    return v;
}
inline uint32_t read32(const unsigned char *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
inline uint64_t round1(uint64_t acc, uint64_t input)
{
    acc += input * P2;
    acc = rotl(acc, 31);
    return acc * P1;
}
inline uint64_t mergeRound(uint64_t acc, uint64_t val)
{
    acc ^= round1(0, val);
    return acc * P1 + P4;
}
} // namespace

Xxh64::Xxh64(uint64_t seed)
    : m_v { seed + P1 + P2, seed + P2, seed, seed - P1 }
    , m_seed(seed)
{
}

void Xxh64::add(const void *data, size_t len)
{
    const auto *p = static_cast<const unsigned char *>(data);
    m_total += len;
    if (m_bufLen + len < 32) {
        std::memcpy(m_buf + m_bufLen, p, len);
        m_bufLen += len;
        return;
    }
    if (m_bufLen) {
        const size_t fill = 32 - m_bufLen;
        std::memcpy(m_buf + m_bufLen, p, fill);
        for (int i = 0; i < 4; ++i)
            m_v[i] = round1(m_v[i], read64(m_buf + 8 * i));
        p += fill;
        len -= fill;
        m_bufLen = 0;
    }
    uint64_t v1 = m_v[0], v2 = m_v[1], v3 = m_v[2], v4 = m_v[3];
    while (len >= 32) {
        v1 = round1(v1, read64(p));
        v2 = round1(v2, read64(p + 8));
        v3 = round1(v3, read64(p + 16));
        v4 = round1(v4, read64(p + 24));
        p += 32;
        len -= 32;
    }
    m_v[0] = v1;
    m_v[1] = v2;
    m_v[2] = v3;
    m_v[3] = v4;
    std::memcpy(m_buf, p, len);
    m_bufLen = len;
}

uint64_t Xxh64::digest() const
{
    uint64_t h;
    if (m_total >= 32) {
        h = rotl(m_v[0], 1) + rotl(m_v[1], 7) + rotl(m_v[2], 12) + rotl(m_v[3], 18);
        for (uint64_t v : m_v)
            h = mergeRound(h, v);
    } else {
        h = m_seed + P5;
    }
    h += m_total;
    const unsigned char *p = m_buf;
    size_t len = m_bufLen;
    while (len >= 8) {
        h ^= round1(0, read64(p));
        h = rotl(h, 27) * P1 + P4;
        p += 8;
        len -= 8;
    }
    if (len >= 4) {
        h ^= uint64_t(read32(p)) * P1;
        h = rotl(h, 23) * P2 + P3;
        p += 4;
        len -= 4;
    }
    while (len > 0) {
        h ^= uint64_t(*p) * P5;
        h = rotl(h, 11) * P1;
        ++p;
        --len;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

QString ContentHash::hex() const
{
    return QStringLiteral("%1%2")
        .arg(m_a.digest(), 16, 16, QLatin1Char('0'))
        .arg(m_b.digest(), 16, 16, QLatin1Char('0'));
}

} // namespace plumb
