// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/tfrecordreader.h"

#include "ingest/inputfile.h"
#include "tfevents/crc32c.h"

#include <algorithm>
#include <cstring>

namespace plumb {

namespace {
constexpr size_t kChunk = size_t(64) << 10; // heap-sized: reused from file to file, not fresh pages
constexpr size_t kHeaderBytes = 12;
constexpr size_t kFooterBytes = 4;

uint32_t load32(const char *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4); // little-endian hosts (x86-64, aarch64), as the format is
    return v;
}
} // namespace

TfRecordReader::TfRecordReader(InputFile &input)
    : m_input(input)
    , m_bufOffset(input.offset())
{
    m_buf.resize(kChunk);
}

bool TfRecordReader::headerValid(const char *header, uint64_t &length)
{
    std::memcpy(&length, header, 8);
    return maskCrc32c(crc32c(header, 8)) == load32(header + 8);
}

// Makes `need` bytes available from m_pos; false when the input ends first.
bool TfRecordReader::fill(size_t need)
{
    if (m_end - m_pos >= need)
        return true;
    if (m_pos > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
        m_bufOffset += int64_t(m_pos);
        m_end -= m_pos;
        m_pos = 0;
    }
    if (m_buf.size() < need)
        m_buf.resize(std::max(need, m_buf.size() * 2));
    while (m_end < need && !m_eof) {
        const size_t room = m_buf.size() - m_end;
        const int64_t n = m_input.read(m_buf.data() + m_end, int64_t(room));
        if (n <= 0)
            m_eof = true;
        else
            m_end += size_t(n);
    }
    return m_end - m_pos >= need;
}

void TfRecordReader::discard(uint64_t n)
{
    while (n > 0) {
        if (m_pos == m_end && !fill(1))
            return;
        const uint64_t take = std::min<uint64_t>(n, m_end - m_pos);
        m_pos += size_t(take);
        n -= take;
    }
}

TfRecordReader::Status TfRecordReader::next(std::string_view &data)
{
    if (m_done)
        return Status::End;
    m_recordOffset = m_bufOffset + int64_t(m_pos);
    if (!fill(kHeaderBytes)) {
        m_done = true;
        m_recordLength = 0;
        m_tailBytes = int64_t(m_end - m_pos);
        return m_end == m_pos ? Status::End : Status::TruncatedTail;
    }
    const char *h = m_buf.data() + m_pos;
    if (!headerValid(h, m_recordLength)) {
        m_done = true;
        return Status::BadLength;
    }
    if (m_recordLength > kMaxRecordBytes) {
        m_pos += kHeaderBytes;
        discard(m_recordLength); // then the footer: the sum would wrap for a length near 2^64
        discard(kFooterBytes);
        if (m_eof && m_pos == m_end) {
            m_done = true;
            m_tailBytes = position() - m_recordOffset;
            return Status::TruncatedTail;
        }
        return Status::TooLarge;
    }
    const size_t total = kHeaderBytes + size_t(m_recordLength) + kFooterBytes;
    if (!fill(total)) {
        m_done = true;
        m_tailBytes = int64_t(m_end - m_pos);
        return Status::TruncatedTail;
    }
    const char *d = m_buf.data() + m_pos + kHeaderBytes;
    const bool ok = maskCrc32c(crc32c(d, size_t(m_recordLength))) == load32(d + m_recordLength);
    m_pos += total;
    if (!ok)
        return Status::BadDataCrc;
    data = std::string_view(d, size_t(m_recordLength));
    return Status::Record;
}

} // namespace plumb
