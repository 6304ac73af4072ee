// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace plumb {

// The protobuf messages ML Metadata stores serialized in its property tables, read without their
// generated classes: a google.protobuf.Struct (a string_value "mlmd-struct::<base64>") becomes the
// JSON object it stands for, as protobuf's JSON mapping writes it; a google.protobuf.Any (a
// proto_value) gives its type_url. The wire format is read with ProtoWire. Bytes that are not such
// a message give nullopt (or an empty type_url), never part of a result: the caller shows the
// bytes instead.
//
// Unknown fields are skipped; the last of a repeated singular field wins, as in protobuf. A field
// number past 32 bits is an unknown field too (ProtoWire::next() would narrow it onto a small one).
class ProtoStruct {
public:
    // Structs and ListValues nested deeper than this (counting each Struct and each Value as one
    // level) are refused, not followed.
    static constexpr int kMaxDepth = 64;

    // A serialized google.protobuf.Struct as a JSON object; nullopt when the bytes are not one or
    // nest deeper than kMaxDepth.
    [[nodiscard]] static std::optional<std::string> toJson(std::string_view serialized);

    // The type_url (field 1) of a serialized google.protobuf.Any; empty when the bytes are not one.
    [[nodiscard]] static std::string_view anyTypeUrl(std::string_view serialized);

    // A double as a JSON number ("NaN", "Infinity", "-Infinity" as strings, as protobuf writes
    // them); a whole number keeps a ".0", so that it still reads as a double.
    static void appendDouble(std::string &out, double v);
};

} // namespace plumb
