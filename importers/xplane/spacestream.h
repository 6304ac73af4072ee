// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plumb {

class InputFile;

// Reads the XSpace's own top-level fields (keys, varints, whole planes) from the input stream, so
// that the file is never in memory at once: a plane's bytes are copied into a caller's buffer that
// is reused from plane to plane, and everything else passes through a 1 MiB window.
//
// Input that ends inside a field throws Truncated; an over-long varint throws ProtoWire::Error.
class SpaceStream {
public:
    // The first place where the input stopped making sense; turned into an ImportError by the importer.
    struct Truncated {
        int64_t startOffset; // where the field that runs past the end begins
        uint64_t needed; // bytes it says it has
        int64_t endOffset; // where the input ended
    };

    explicit SpaceStream(InputFile &in);

    // Byte offset of the next unread byte in the (decompressed) input.
    [[nodiscard]] int64_t offset() const { return m_offset; }
    bool atEnd() { return !fill(1); }

    uint64_t varint();
    // The next `n` bytes into `out` (resized to `n`).
    void read(std::string &out, uint64_t n);
    void skip(uint64_t n);

private:
    bool fill(size_t n);

    InputFile &m_in;
    std::vector<char> m_buf;
    size_t m_pos = 0, m_len = 0; // unread bytes are m_buf[m_pos, m_len)
    int64_t m_offset = 0; // input offset of m_buf[m_pos]
};

} // namespace plumb
