// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/numerictensor.h"

#include "ingest/protowire.h"

#include <cmath>
#include <cstring>

namespace plumb {

namespace {

// TensorFlow DataType values (tfevents.proto)
enum DType : int {
    DtFloat = 1,
    DtDouble = 2,
    DtInt32 = 3,
    DtUint8 = 4,
    DtInt16 = 5,
    DtInt8 = 6,
    DtInt64 = 9,
    DtBool = 10,
    DtBfloat16 = 14,
    DtUint16 = 17,
    DtHalf = 19,
    DtUint32 = 22,
    DtUint64 = 23
};

double halfToDouble(uint32_t h)
{
    const int exp = int((h >> 10) & 0x1f);
    const int mant = int(h & 0x3ff);
    double v;
    if (exp == 0) {
        v = std::ldexp(double(mant), -24);
    } else if (exp == 31) {
        v = mant ? std::nan("") : INFINITY;
    } else {
        v = std::ldexp(double(mant + 1024), exp - 25);
    }
    return (h & 0x8000) ? -v : v;
}

double bfloat16ToDouble(uint32_t h)
{
    const uint32_t bits = (h & 0xffff) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

size_t elementBytes(int dtype)
{
    switch (dtype) {
    case DtFloat:
    case DtInt32:
    case DtUint32:
        return 4;
    case DtDouble:
    case DtInt64:
    case DtUint64:
        return 8;
    case DtInt16:
    case DtUint16:
    case DtHalf:
    case DtBfloat16:
        return 2;
    case DtInt8:
    case DtUint8:
    case DtBool:
        return 1;
    default:
        return 0;
    }
}

template <typename T> T load(const char *p)
{
    T v;
    std::memcpy(&v, p, sizeof v); // little-endian hosts, as tensor_content is
    return v;
}

double elementAt(const char *p, int dtype)
{
    switch (dtype) {
    case DtFloat:
        return load<float>(p);
    case DtDouble:
        return load<double>(p);
    case DtInt32:
        return load<int32_t>(p);
    case DtUint32:
        return load<uint32_t>(p);
    case DtInt64:
        return double(load<int64_t>(p));
    case DtUint64:
        return double(load<uint64_t>(p));
    case DtInt16:
        return load<int16_t>(p);
    case DtUint16:
        return load<uint16_t>(p);
    case DtHalf:
        return halfToDouble(load<uint16_t>(p));
    case DtBfloat16:
        return bfloat16ToDouble(load<uint16_t>(p));
    case DtInt8:
        return load<int8_t>(p);
    case DtUint8:
        return load<uint8_t>(p);
    case DtBool:
        return *p ? 1.0 : 0.0;
    default:
        return 0;
    }
}

} // namespace

bool NumericTensor::decode(std::string_view bytes, const char *&why)
{
    m_dtype = 0;
    m_dims.clear();
    m_values.clear();
    m_halfBits = false;
    std::string_view content;
    bool unknownRank = false;
    ProtoWire r(bytes);
    uint32_t f, wt;
    while (r.next(f, wt)) {
        switch (f) {
        case 1:
            r.expect(wt, ProtoWire::Varint, "a tensor dtype that is not a varint");
            m_dtype = int(r.varint());
            break;
        case 2: {
            r.expect(wt, ProtoWire::LengthDelimited, "a tensor shape that is not a message");
            ProtoWire shape(r.bytes());
            uint32_t sf, swt;
            while (shape.next(sf, swt)) {
                if (sf == 2 && swt == ProtoWire::LengthDelimited) {
                    ProtoWire dim(shape.bytes());
                    uint32_t df, dwt;
                    int64_t size = 0;
                    while (dim.next(df, dwt)) {
                        if (df == 1 && dwt == ProtoWire::Varint) {
                            size = int64_t(dim.varint());
                        } else {
                            dim.skip(dwt);
                        }
                    }
                    m_dims.push_back(size);
                } else if (sf == 3 && swt == ProtoWire::Varint) {
                    unknownRank = shape.varint() != 0;
                } else {
                    shape.skip(swt);
                }
            }
            break;
        }
        case 4:
            r.expect(wt, ProtoWire::LengthDelimited, "a tensor_content that is not bytes");
            content = r.bytes();
            break;
        case 5: // float_val
            if (wt == ProtoWire::LengthDelimited) {
                ProtoWire p(r.bytes());
                while (!p.atEnd()) {
                    m_values.push_back(p.float32());
                }
            } else if (wt == ProtoWire::Fixed32) {
                m_values.push_back(r.float32());
            } else {
                r.skip(wt);
            }
            break;
        case 6: // double_val
            if (wt == ProtoWire::LengthDelimited) {
                ProtoWire p(r.bytes());
                while (!p.atEnd()) {
                    m_values.push_back(p.float64());
                }
            } else if (wt == ProtoWire::Fixed64) {
                m_values.push_back(r.float64());
            } else {
                r.skip(wt);
            }
            break;
        case 7: // int_val (int32, negative ones sign-extended to 64 bits)
        case 10: // int64_val
        case 11: // bool_val
        case 13: // half_val (bit patterns)
        case 16: // uint32_val
        case 17: // uint64_val
        {
            auto convert = [f](uint64_t v) -> double {
                switch (f) {
                case 7:
                    return double(int32_t(uint32_t(v)));
                case 10:
                    return double(int64_t(v));
                case 11:
                    return v ? 1.0 : 0.0;
                case 13:
                    return double(uint32_t(v) & 0xffff);
                default:
                    return double(v);
                }
            };
            if (f == 13) {
                m_halfBits = true;
            }
            if (wt == ProtoWire::LengthDelimited) {
                ProtoWire p(r.bytes());
                while (!p.atEnd()) {
                    m_values.push_back(convert(p.varint()));
                }
            } else if (wt == ProtoWire::Varint) {
                m_values.push_back(convert(r.varint()));
            } else {
                r.skip(wt);
            }
            break;
        }
        default:
            r.skip(wt);
        }
    }
    if (unknownRank) {
        why = "a tensor of unknown rank";
        return false;
    }
    int64_t count = 1;
    for (const int64_t d : m_dims) {
        if (d < 0) {
            why = "a tensor with a dimension of unknown size";
            return false;
        }
        count *= d;
    }
    if (!content.empty()) {
        const size_t size = elementBytes(m_dtype);
        if (size == 0) {
            why = "a tensor whose element type is not a number";
            return false;
        }
        if (content.size() != size * size_t(count)) {
            why = "a tensor whose content does not match its shape";
            return false;
        }
        m_values.resize(size_t(count));
        for (int64_t i = 0; i < count; ++i) {
            m_values[size_t(i)] = elementAt(content.data() + size_t(i) * size, m_dtype);
        }
        return true;
    }
    if (m_halfBits) {
        for (double &v : m_values) {
            v = m_dtype == DtBfloat16 ? bfloat16ToDouble(uint32_t(v)) : halfToDouble(uint32_t(v));
        }
    }
    if (m_values.size() == 1 && count > 1) {
        m_values.resize(size_t(count), m_values.front()); // one typed value fills the shape
    }
    if (int64_t(m_values.size()) != count) {
        why = count == 1 && m_values.empty() ? "a tensor with no value"
                                             : "a tensor whose values do not match its shape";
        return false;
    }
    return true;
}

} // namespace plumb
