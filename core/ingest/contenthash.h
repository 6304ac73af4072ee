// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>

namespace plumb {

// Streaming XXH64 (the published xxHash 64-bit algorithm), run twice with different seeds to give a
// 128-bit content fingerprint. Used to recognise a file that was already imported: it runs at memory
// speed, where a cryptographic hash would cost a second or more per GB on the import's critical path.
// Not for security: nothing trusts it against deliberate collisions.
class Xxh64 {
public:
    explicit Xxh64(uint64_t seed = 0);
    void add(const void *data, size_t len);
    [[nodiscard]] uint64_t digest() const;

private:
    uint64_t m_v[4];
    uint64_t m_seed;
    uint64_t m_total = 0;
    unsigned char m_buf[32];
    size_t m_bufLen = 0;
};

class ContentHash {
public:
    void add(const void *data, size_t len)
    {
        m_a.add(data, len);
        m_b.add(data, len);
    }
    // 32 hex digits.
    [[nodiscard]] QString hex() const;

private:
    Xxh64 m_a { 0 };
    Xxh64 m_b { 0x9E3779B97F4A7C15ULL };
};

} // namespace plumb
