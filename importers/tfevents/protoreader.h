// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace plumb {

// A field-by-field reader of the protobuf wire format over one message in memory, for the
// per-point path of the event file importer (an Event, its Summary.Values, a scalar's TensorProto),
// where building message objects would cost more than the decoding. Strings and nested messages
// come back as views into the buffer.
//
// Malformed input throws ProtoReader::Error: a varint longer than 10 bytes, a length past the end
// of the message, a wire type protobuf does not write (groups, 6, 7).
class ProtoReader {
public:
    enum WireType : uint32_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

    struct Error {
        const char *what;
    };

    explicit ProtoReader(std::string_view bytes)
        : m_p(bytes.data())
        , m_end(bytes.data() + bytes.size())
    {
    }

    [[nodiscard]] bool atEnd() const { return m_p >= m_end; }

    // The next key; false at the end of the message.
    bool next(uint32_t &field, uint32_t &wireType)
    {
        if (m_p >= m_end)
            return false;
        const uint64_t key = varint();
        field = uint32_t(key >> 3);
        wireType = uint32_t(key & 7);
        if (field == 0)
            throw Error { "field number 0" };
        return true;
    }

    uint64_t varint()
    {
        // One byte is the common case (small steps, tags, lengths).
        if (m_p < m_end && static_cast<unsigned char>(*m_p) < 0x80)
            return static_cast<unsigned char>(*m_p++);
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_p >= m_end)
                throw Error { "a varint cut short" };
            const auto b = static_cast<unsigned char>(*m_p++);
            v |= uint64_t(b & 0x7f) << shift;
            if (b < 0x80)
                return v;
        }
        throw Error { "a varint longer than 10 bytes" };
    }

    std::string_view bytes()
    {
        const uint64_t n = varint();
        if (n > uint64_t(m_end - m_p))
            throw Error { "a length past the end of its message" };
        std::string_view v(m_p, size_t(n));
        m_p += n;
        return v;
    }

    uint64_t fixed64()
    {
        if (m_end - m_p < 8)
            throw Error { "a fixed64 cut short" };
        uint64_t v;
        std::memcpy(&v, m_p, 8); // little-endian hosts (x86-64, aarch64), as the wire format
        m_p += 8;
        return v;
    }

    uint32_t fixed32()
    {
        if (m_end - m_p < 4)
            throw Error { "a fixed32 cut short" };
        uint32_t v;
        std::memcpy(&v, m_p, 4);
        m_p += 4;
        return v;
    }

    double float64()
    {
        const uint64_t bits = fixed64();
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }

    float float32()
    {
        const uint32_t bits = fixed32();
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
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
            throw Error { "a wire type protobuf does not write (3, 4, 6 or 7)" };
        }
    }

private:
    const char *m_p;
    const char *m_end;
};

} // namespace plumb
