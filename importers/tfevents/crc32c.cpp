// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace plumb {

namespace {

constexpr uint32_t kPoly = 0x82f63b78u; // reflected Castagnoli polynomial

using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables makeTables()
{
    Tables t {};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
        t[0][i] = c;
    }
    for (size_t s = 1; s < 8; ++s)
        for (uint32_t i = 0; i < 256; ++i)
            t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    return t;
}

constexpr Tables kTables = makeTables();

uint32_t crcTable(const unsigned char *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    while (n >= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8); // little-endian hosts
        v ^= crc;
        crc = kTables[7][v & 0xff] ^ kTables[6][(v >> 8) & 0xff] ^ kTables[5][(v >> 16) & 0xff]
            ^ kTables[4][(v >> 24) & 0xff] ^ kTables[3][(v >> 32) & 0xff] ^ kTables[2][(v >> 40) & 0xff]
            ^ kTables[1][(v >> 48) & 0xff] ^ kTables[0][v >> 56];
        p += 8;
        n -= 8;
    }
    while (n--)
        crc = (crc >> 8) ^ kTables[0][(crc ^ *p++) & 0xff];
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crcSse42(const unsigned char *p, size_t n, uint32_t crc)
{
    uint64_t c = ~crc;
    while (n >= 8) {
        uint64_t v;
        std::memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    auto c32 = uint32_t(c);
    while (n--)
        c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}

const bool kHaveSse42 = [] {
    __builtin_cpu_init(); // static initialisers may run before the runtime's own
    return __builtin_cpu_supports("sse4.2") != 0;
}();
#endif

} // namespace

uint32_t crc32c(const void *data, size_t size, uint32_t crc)
{
    const auto *p = static_cast<const unsigned char *>(data);
#if defined(__x86_64__)
    if (kHaveSse42)
        return crcSse42(p, size, crc);
#endif
    return crcTable(p, size, crc);
}

uint32_t crc32cPortable(const void *data, size_t size, uint32_t crc)
{
    return crcTable(static_cast<const unsigned char *>(data), size, crc);
}

} // namespace plumb
