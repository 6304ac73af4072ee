// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace plumb {

class InputFile;

// A sliding window over a decompressed input, for cutting a large JSON document into its top-level
// pieces without parsing it. Positions are offsets in the decompressed stream.
class JsonStream {
public:
    explicit JsonStream(InputFile &in);

    // Next non-whitespace byte without consuming it; -1 at end of input.
    int peek();
    void consume(size_t n = 1) { m_pos += n; }
    [[nodiscard]] int64_t offset() const { return m_base + int64_t(m_pos); }
    [[nodiscard]] bool atEnd();

    enum class Scan { Complete, Truncated, TooLarge };
    // Scans one JSON value starting at the current position (after peek()). On Complete, `value`
    // views the value's bytes, valid until the next call; the value is consumed.
    Scan scanValue(std::string_view &value);
    // Reads a JSON string token (for object keys); returns its raw content without quotes.
    Scan scanString(std::string_view &content);

    // A value longer than this is refused (TooLarge), so a corrupt file cannot exhaust memory.
    static constexpr size_t kMaxValueBytes = size_t(256) << 20;

private:
    bool fill(); // compacts and reads more; false at end of input
    Scan scanContainer(std::string_view &value); // scanValue() of an object or array

    InputFile &m_in;
    std::vector<char> m_buf;
    size_t m_pos = 0;
    size_t m_end = 0;
    int64_t m_base = 0; // stream offset of m_buf[0]
    bool m_eof = false;
};

} // namespace plumb
