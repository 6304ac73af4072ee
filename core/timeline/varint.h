// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace plumb::varint {

// LEB128 varints, zigzag for signed values, and raw doubles: the encoding of the timeline's summary
// tiles (a tile of 1024 buckets is a few kB).

inline void put(std::vector<unsigned char> &out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<unsigned char>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<unsigned char>(v));
}

inline uint64_t zigzag(int64_t v)
{
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}

inline void putSigned(std::vector<unsigned char> &out, int64_t v)
{
    put(out, zigzag(v));
}

constexpr size_t kMaxBytes = 10; // the longest varint of a uint64_t

// Appends varints to `out` through a pointer into room made for `values` of them at once, and trims
// the rest when it goes: for the import's hot loops, where put()'s check per byte showed.
class Appender {
public:
    Appender(std::vector<unsigned char> &out, size_t values)
        : m_out(out)
    {
        const size_t size = out.size();
        out.resize(size + values * kMaxBytes);
        m_p = out.data() + size;
        m_end = out.data() + out.size();
    }
    ~Appender() { m_out.resize(size_t(m_p - m_out.data())); }
    Appender(const Appender &) = delete;
    Appender &operator=(const Appender &) = delete;

    void put(uint64_t v)
    {
        if (size_t(m_end - m_p) < kMaxBytes)
            throw std::logic_error("varint::Appender: more values than room was made for");
        while (v >= 0x80) {
            *m_p++ = static_cast<unsigned char>(v | 0x80);
            v >>= 7;
        }
        *m_p++ = static_cast<unsigned char>(v);
    }
    void putSigned(int64_t v) { put(zigzag(v)); }

private:
    std::vector<unsigned char> &m_out;
    unsigned char *m_p;
    unsigned char *m_end;
};

inline void putDouble(std::vector<unsigned char> &out, double v)
{
    unsigned char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.insert(out.end(), bytes, bytes + sizeof v);
}

// Reads what the put functions wrote; throws std::runtime_error past the end (a corrupt tile).
struct Reader {
    const unsigned char *p;
    const unsigned char *end;

    uint64_t get()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p == end)
                throw std::runtime_error("truncated timeline summary tile");
            const unsigned char b = *p++;
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        throw std::runtime_error("bad varint in timeline summary tile");
    }
    int64_t getSigned()
    {
        const uint64_t v = get();
        return int64_t(v >> 1) ^ -int64_t(v & 1);
    }
    double getDouble()
    {
        double v;
        if (size_t(end - p) < sizeof v)
            throw std::runtime_error("truncated timeline summary tile");
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
        return v;
    }
};

} // namespace plumb::varint
