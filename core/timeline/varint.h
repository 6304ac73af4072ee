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

inline void putSigned(std::vector<unsigned char> &out, int64_t v)
{
    put(out, (uint64_t(v) << 1) ^ uint64_t(v >> 63));
}

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
