// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace plumb::test {

// Writes protobuf wire format by hand, for fixtures of the readers that decode it (ProtoWire and what
// is built on it): each call appends to `out` and returns the writer, so a message reads as a chain,
// `ProtoWriter().key(1, 0).varint(150).out`. Fixed-width values are written in the host's byte order,
// little-endian as the wire format on every host Plumb builds for.
struct ProtoWriter {
    std::string out;

    ProtoWriter &varint(uint64_t v)
    {
        while (v >= 0x80) {
            out.push_back(char((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out.push_back(char(v));
        return *this;
    }
    // A field's key; the field number is 64-bit so that a test can write one past protobuf's limit.
    ProtoWriter &key(uint64_t field, uint32_t wireType) { return varint(field << 3 | wireType); }
    ProtoWriter &fixed64(uint64_t v)
    {
        out.append(reinterpret_cast<const char *>(&v), 8);
        return *this;
    }
    ProtoWriter &fixed32(uint32_t v)
    {
        out.append(reinterpret_cast<const char *>(&v), 4);
        return *this;
    }
    ProtoWriter &float64(double d)
    {
        out.append(reinterpret_cast<const char *>(&d), 8);
        return *this;
    }
    ProtoWriter &bytes(std::string_view b)
    {
        varint(b.size());
        out.append(b);
        return *this;
    }
};

} // namespace plumb::test
