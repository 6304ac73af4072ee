// SPDX-License-Identifier: GPL-3.0-or-later
#include "mlmd/protostruct.h"

#include "ingest/protowire.h"
#include "text/jsontext.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace plumb {

namespace {

// The next key of `r`, its field number kept to 64 bits (see the class comment); throws as
// ProtoWire::next() does on a varint cut short or field number 0.
void nextKey(ProtoWire &r, uint64_t &field, uint32_t &wireType)
{
    const int64_t at = r.offset();
    const uint64_t key = r.varint();
    field = key >> 3;
    wireType = uint32_t(key & 7);
    if (field == 0) {
        throw ProtoWire::Error { at, "field number 0" };
    }
}

void appendStruct(std::string &out, std::string_view bytes, int depth);

// A google.protobuf.Value as JSON: null, number, string, bool, object or array (the last field set
// wins, as in protobuf; none set is null).
void appendValue(std::string &out, std::string_view bytes, int depth)
{
    ProtoWire r(bytes);
    std::string value = "null";
    uint64_t field = 0;
    uint32_t wire = 0;
    while (!r.atEnd()) {
        nextKey(r, field, wire);
        if (field == 1 && wire == ProtoWire::Varint) {
            r.varint();
            value = "null";
        } else if (field == 2 && wire == ProtoWire::Fixed64) {
            const double d = r.float64();
            value.clear();
            ProtoStruct::appendDouble(value, d);
        } else if (field == 3 && wire == ProtoWire::LengthDelimited) {
            const std::string_view s = r.bytes();
            value.clear();
            appendJsonString(value, s);
        } else if (field == 4 && wire == ProtoWire::Varint) {
            value = r.varint() != 0 ? "true" : "false";
        } else if (field == 5 && wire == ProtoWire::LengthDelimited) {
            value.clear();
            appendStruct(value, r.bytes(), depth + 1);
        } else if (field == 6 && wire == ProtoWire::LengthDelimited) {
            const std::string_view list = r.bytes();
            if (depth >= ProtoStruct::kMaxDepth) {
                throw ProtoWire::Error { r.offset(), "a ListValue nested too deep" };
            }
            // ListValue: repeated Value values = 1.
            ProtoWire items(list);
            value = "[";
            bool first = true;
            while (!items.atEnd()) {
                nextKey(items, field, wire);
                if (field != 1 || wire != ProtoWire::LengthDelimited) {
                    items.skip(wire);
                    continue;
                }
                const std::string_view item = items.bytes();
                if (!first) {
                    value.push_back(',');
                }
                first = false;
                appendValue(value, item, depth + 1);
            }
            value.push_back(']');
        } else {
            r.skip(wire);
        }
    }
    out += value;
}

// A google.protobuf.Struct (map<string, Value> fields = 1) as a JSON object.
void appendStruct(std::string &out, std::string_view bytes, int depth)
{
    if (depth >= ProtoStruct::kMaxDepth) {
        throw ProtoWire::Error { 0, "a Struct nested too deep" };
    }
    ProtoWire r(bytes);
    out.push_back('{');
    bool first = true;
    uint64_t field = 0;
    uint32_t wire = 0;
    while (!r.atEnd()) {
        nextKey(r, field, wire);
        if (field != 1 || wire != ProtoWire::LengthDelimited) {
            r.skip(wire);
            continue;
        }
        // A map entry: key = 1, value = 2.
        ProtoWire e(r.bytes());
        std::string_view key, value;
        while (!e.atEnd()) {
            nextKey(e, field, wire);
            if ((field == 1 || field == 2) && wire == ProtoWire::LengthDelimited) {
                (field == 1 ? key : value) = e.bytes();
            } else {
                e.skip(wire);
            }
        }
        if (!first) {
            out.push_back(',');
        }
        first = false;
        appendJsonString(out, key);
        out.push_back(':');
        appendValue(out, value, depth + 1);
    }
    out.push_back('}');
}

} // namespace

std::optional<std::string> ProtoStruct::toJson(std::string_view serialized)
{
    std::string json;
    try {
        appendStruct(json, serialized, 0);
    } catch (const ProtoWire::Error &) {
        return std::nullopt;
    }
    return json;
}

std::string_view ProtoStruct::anyTypeUrl(std::string_view serialized)
{
    std::string_view url;
    try {
        ProtoWire r(serialized);
        uint64_t field = 0;
        uint32_t wire = 0;
        while (!r.atEnd()) {
            nextKey(r, field, wire);
            if (field == 1 && wire == ProtoWire::LengthDelimited) {
                url = r.bytes();
            } else {
                r.skip(wire);
            }
        }
    } catch (const ProtoWire::Error &) {
        return {};
    }
    return url;
}

void ProtoStruct::appendDouble(std::string &out, double v)
{
    if (std::isnan(v)) {
        out += "\"NaN\"";
        return;
    }
    if (std::isinf(v)) {
        out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        return;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    const std::string_view text(buf, size_t(r.ptr - buf));
    out += text;
    if (text.find_first_of(".eE") == std::string_view::npos) {
        out += ".0";
    }
}

} // namespace plumb
