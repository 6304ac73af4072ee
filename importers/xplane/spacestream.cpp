// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/spacestream.h"

#include "ingest/inputfile.h"
#include "ingest/protowire.h"

#include <algorithm>
#include <cstring>

namespace plumb {

namespace {
constexpr size_t kReadChunk = 1 << 20; // the window over the input
} // namespace

SpaceStream::SpaceStream(InputFile &in)
    : m_in(in)
{
    m_buf.resize(kReadChunk);
}

uint64_t SpaceStream::varint()
{
    const int64_t start = m_offset;
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (!fill(1)) {
            throw Truncated { start, 1, m_offset };
        }
        const auto b = static_cast<unsigned char>(m_buf[m_pos++]);
        ++m_offset;
        v |= uint64_t(b & 0x7f) << shift;
        if (b < 0x80) {
            return v;
        }
    }
    throw ProtoWire::Error { start, "a varint longer than 10 bytes" };
}

void SpaceStream::read(std::string &out, uint64_t n)
{
    const int64_t start = m_offset;
    out.resize(size_t(n));
    size_t done = std::min<size_t>(m_len - m_pos, size_t(n));
    std::memcpy(out.data(), m_buf.data() + m_pos, done);
    m_pos += done;
    while (done < n) {
        const int64_t got = m_in.read(out.data() + done, int64_t(n - done));
        if (got <= 0) {
            throw Truncated { start, n, start + int64_t(done) };
        }
        done += size_t(got);
    }
    m_offset += int64_t(n);
}

void SpaceStream::skip(uint64_t n)
{
    const int64_t start = m_offset;
    uint64_t left = n;
    while (left > 0) {
        if (!fill(1)) {
            throw Truncated { start, n, m_offset };
        }
        const size_t step = std::min<uint64_t>(left, m_len - m_pos);
        m_pos += step;
        m_offset += int64_t(step);
        left -= step;
    }
}

// Makes `n` bytes available from m_pos; false when the input ends first.
bool SpaceStream::fill(size_t n)
{
    if (m_len - m_pos >= n) {
        return true;
    }
    std::memmove(m_buf.data(), m_buf.data() + m_pos, m_len - m_pos);
    m_len -= m_pos;
    m_pos = 0;
    while (m_len < n) {
        const int64_t got = m_in.read(m_buf.data() + m_len, int64_t(m_buf.size() - m_len));
        if (got <= 0) {
            return false;
        }
        m_len += size_t(got);
    }
    return true;
}

} // namespace plumb
