// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace plumb {

// A field-by-field reader of the protobuf wire format over one message already in memory, for the
// hot paths of the binary importers (an XPlane's lines and events, a TensorBoard Event and its
// Summary.Values) where building message objects would cost more than the decoding. Strings and
// nested messages come back as views into the buffer, so nothing is copied: read a nested message
// with a reader of its own over the view. Every position is an absolute byte offset in the input
// (`base` is the offset of the buffer's first byte).
//
// Every read is bounds-checked against the end of the message; malformed input throws
// ProtoWire::Error, which names what was wrong and the offset of the field's key: a varint cut
// short or longer than 10 bytes, a length (or a fixed32/fixed64) past the end of the message, field
// number 0 or past 2^29-1, a wire type protobuf does not write (groups, 6, 7) met by skip(), and, through
// expect(), a field of the wrong wire type. A 10-byte varint keeps its low 64 bits, as protobuf does.
//
// The reads are inline; only the throwing is out of line (protowire.cpp).
class ProtoWire {
public:
    enum WireType : uint32_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };
    static constexpr uint64_t kMaxFieldNumber = (uint64_t(1) << 29) - 1; // protobuf's own limit

    struct Error {
        int64_t offset; // absolute byte offset of the key of the offending field
        const char *what; // a phrase: "a varint cut short"
    };

    // A length-delimited value and the absolute offset of its first byte.
    struct Span {
        std::string_view bytes;
        int64_t offset;
    };

    explicit ProtoWire(std::string_view bytes, int64_t base = 0)
        : m_begin(bytes.data())
        , m_p(bytes.data())
        , m_end(bytes.data() + bytes.size())
        , m_fieldStart(bytes.data())
        , m_base(base)
    {
    }

    [[nodiscard]] bool atEnd() const { return m_p >= m_end; }
    // Absolute offset of the next unread byte.
    [[nodiscard]] int64_t offset() const { return m_base + (m_p - m_begin); }
    // Absolute offset of the key of the field last returned by next().
    [[nodiscard]] int64_t fieldOffset() const { return m_base + (m_fieldStart - m_begin); }

    // Reads the next key; false at the end of the message. The wire type is returned unchecked:
    // read the value with the matching call, or pass it to skip(), which refuses the ones protobuf
    // does not write.
    bool next(uint32_t &field, uint32_t &wireType)
    {
        if (m_p >= m_end) {
            return false;
        }
        m_fieldStart = m_p;
        const uint64_t key = varint();
        // Field numbers are 1 .. 2^29-1: a larger one is refused rather than cut to 32 bits, where
        // it would pose as a small field number.
        if (key >> 3 > kMaxFieldNumber) {
            fail("a field number past 2^29-1");
        }
        field = uint32_t(key >> 3);
        wireType = uint32_t(key & 7);
        if (field == 0) {
            fail("field number 0");
        }
        return true;
    }

    // Throws `what` unless the field just read has wire type `want`.
    void expect(uint32_t wireType, uint32_t want, const char *what) const
    {
        if (wireType != want) {
            fail(what);
        }
    }

    uint64_t varint()
    {
        // One byte is the common case (keys, small ids, lengths, steps).
        if (m_p < m_end && static_cast<unsigned char>(*m_p) < 0x80) {
            return static_cast<unsigned char>(*m_p++);
        }
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_p >= m_end) {
                fail("a varint cut short");
            }
            const auto b = static_cast<unsigned char>(*m_p++);
            v |= uint64_t(b & 0x7f) << shift;
            if (b < 0x80) {
                return v;
            }
        }
        fail("a varint longer than 10 bytes");
    }

    // A length-delimited value: a string, bytes, a nested message or a packed repeated field.
    std::string_view bytes()
    {
        const uint64_t n = varint();
        if (n > uint64_t(m_end - m_p)) {
            fail("a length that runs past the end of its message");
        }
        const std::string_view v(m_p, size_t(n));
        m_p += n;
        return v;
    }

    // bytes(), with where they start: for a nested message read later by a reader of its own.
    Span span()
    {
        const std::string_view b = bytes();
        return { b, offset() - int64_t(b.size()) };
    }

    uint64_t fixed64()
    {
        if (m_end - m_p < 8) {
            fail("a fixed64 cut short");
        }
        uint64_t v;
        std::memcpy(&v, m_p, 8); // little-endian hosts (x86-64, aarch64), as the wire format
        m_p += 8;
        return v;
    }

    uint32_t fixed32()
    {
        if (m_end - m_p < 4) {
            fail("a fixed32 cut short");
        }
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

    // Passes over a value of the given wire type.
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

    // Throws Error { fieldOffset(), what }.
    [[noreturn]] void fail(const char *what) const { raise(fieldOffset(), what); }

private:
    // Out of line and given plain values, so that the reader never has its address taken and its
    // pointers can stay in registers on the hot path.
    [[noreturn]] static void raise(int64_t offset, const char *what);

    const char *m_begin;
    const char *m_p; // next unread byte; m_begin <= m_p <= m_end
    const char *m_end;
    const char *m_fieldStart; // key of the field last returned by next()
    int64_t m_base; // absolute offset of m_begin
};

} // namespace plumb
