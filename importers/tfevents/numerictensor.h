// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace plumb {

// Decodes a TensorFlow TensorProto of numbers (the payload of TF2 summaries) to its shape and its
// values as doubles: packed tensor_content of any numeric dtype (half and bfloat16 included), or
// the typed repeated fields (float_val, double_val, int_val, int64_val, bool_val, half_val,
// uint32_val, uint64_val), one typed value filling the whole shape as TensorFlow allows. The
// buffers are reused from value to value.
//
// decode() answers false, with a phrase in `why`, for a tensor that is not numbers or whose values
// do not match its shape; bytes that are not protobuf throw ProtoWire::Error.
class NumericTensor {
public:
    bool decode(std::string_view bytes, const char *&why);

    [[nodiscard]] int dtype() const { return m_dtype; }
    [[nodiscard]] const std::vector<int64_t> &dims() const { return m_dims; }
    [[nodiscard]] const std::vector<double> &values() const { return m_values; }

private:
    int m_dtype = 0; // TensorFlow DataType
    std::vector<int64_t> m_dims; // empty for a scalar
    std::vector<double> m_values; // row-major, the product of m_dims of them after a decode
    bool m_halfBits = false; // m_values hold half_val bit patterns until the dtype is known
};

} // namespace plumb
