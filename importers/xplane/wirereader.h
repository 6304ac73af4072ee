// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace plumb {

// A field-by-field reader of the protobuf wire format over bytes already in memory (one XPlane at
// a time), for the hot path where building message objects would cost more than the decoding.
// Strings come back as views into the buffer, so nothing is copied. Every position it reports is
// an absolute byte offset in the input (`base` is the offset of the buffer's first byte).
//
// Malformed input throws WireError: a varint longer than 10 bytes, a length that runs past the
// enclosing message, a wire type protobuf never writes (groups, 6, 7).
class WireReader {
public:
    enum WireType : uint32_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

    struct WireError {
        int64_t offset; // absolute byte offset of the offending field
        const char *what;
    };

    WireReader(std::string_view bytes, int64_t base)
        : m_begin(bytes.data())
        , m_p(bytes.data())
        , m_end(bytes.data() + bytes.size())
        , m_fieldStart(bytes.data())
        , m_base(base)
    {
    }

    [[nodiscard]] bool atEnd() const { return m_p >= m_end; }
    [[nodiscard]] int64_t offset() const { return m_base + (m_p - m_begin); }

    // Reads the next key; returns false at the end of the message.
    bool next(uint32_t &field, uint32_t &wireType)
    {
        if (m_p >= m_end)
            return false;
        m_fieldStart = m_p;
        const uint64_t key = varint();
        field = uint32_t(key >> 3);
        wireType = uint32_t(key & 7);
        if (field == 0)
            fail("field number 0");
        return true;
    }
    // Offset of the key of the field last returned by next().
    [[nodiscard]] int64_t fieldOffset() const { return m_base + (m_fieldStart - m_begin); }

    uint64_t varint()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_p >= m_end)
                fail("a varint cut short");
            const auto b = static_cast<unsigned char>(*m_p++);
            v |= uint64_t(b & 0x7f) << shift;
            if (b < 0x80)
                return v;
        }
        fail("a varint longer than 10 bytes");
    }

    std::string_view bytes()
    {
        const uint64_t n = varint();
        if (n > uint64_t(m_end - m_p))
            fail("a length that runs past the end of its message");
        std::string_view v(m_p, size_t(n));
        m_p += n;
        return v;
    }

    uint64_t fixed64()
    {
        if (m_end - m_p < 8)
            fail("a fixed64 cut short");
        uint64_t v;
        std::memcpy(&v, m_p, 8); // little-endian hosts only (x86-64, aarch64)
        m_p += 8;
        return v;
    }

    uint32_t fixed32()
    {
        if (m_end - m_p < 4)
            fail("a fixed32 cut short");
        uint32_t v;
        std::memcpy(&v, m_p, 4);
        m_p += 4;
        return v;
    }

    void skip(uint32_t wireType)
    {
        switch (wireType) {
        case Varint:
            varint();
            return;
        case Fixed64:
            fixed64();
            return;
        case LengthDelimited:
            bytes();
            return;
        case Fixed32:
            fixed32();
            return;
        default:
            fail("a wire type protobuf does not write (3, 4, 6 or 7)");
        }
    }

    [[noreturn]] void fail(const char *what) const { throw WireError { fieldOffset(), what }; }

private:
    const char *m_begin;
    const char *m_p;
    const char *m_end;
    const char *m_fieldStart;
    int64_t m_base;
};

} // namespace plumb
