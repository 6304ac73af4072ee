// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace plumb {

class InputFile;

// Reads TFRecord framing from an input stream: each record is
//   uint64 length (little-endian), uint32 masked CRC-32C of those 8 bytes,
//   `length` bytes of data, uint32 masked CRC-32C of the data.
//
// A record whose data CRC is wrong is reported (BadDataCrc) and passed over: its length was
// vouched for, so the next record is found. A header whose CRC is wrong leaves no way to find the
// next record: BadLength, and the stream ends there. Input that ends inside a record is what a
// writer that is still appending (or was killed) leaves behind: TruncatedTail, then End.
class TfRecordReader {
public:
    enum class Status { Record, End, BadDataCrc, BadLength, TruncatedTail, TooLarge };

    explicit TfRecordReader(InputFile &input);

    // The next record; `data` stays valid until the next call.
    Status next(std::string_view &data);

    // Byte offset (in the decompressed stream) after the last record or damage passed over.
    [[nodiscard]] int64_t position() const { return m_bufOffset + int64_t(m_pos); }
    // Byte offset (in the decompressed stream) of the header of the record last returned.
    [[nodiscard]] int64_t recordOffset() const { return m_recordOffset; }
    // Length the last header gave (also for BadDataCrc and TruncatedTail).
    [[nodiscard]] uint64_t recordLength() const { return m_recordLength; }
    // After TruncatedTail: the bytes of the incomplete record.
    [[nodiscard]] int64_t tailBytes() const { return m_tailBytes; }

    // Length field check of a header held in memory (12 bytes): for sniffing.
    [[nodiscard]] static bool headerValid(const char *header, uint64_t &length);

    // Records longer than this are passed over unread (TooLarge): summaries are small, and this
    // bounds the buffer whatever a corrupt-but-CRC-valid header says.
    static constexpr uint64_t kMaxRecordBytes = uint64_t(1) << 30;

private:
    bool fill(size_t need);
    void discard(uint64_t n);

    InputFile &m_input;
    std::vector<char> m_buf;
    size_t m_pos = 0; // next unread byte in m_buf
    size_t m_end = 0; // end of valid bytes in m_buf
    int64_t m_bufOffset = 0; // stream offset of m_buf[0]
    bool m_eof = false;
    bool m_done = false;
    int64_t m_recordOffset = 0;
    uint64_t m_recordLength = 0;
    int64_t m_tailBytes = 0;
};

} // namespace plumb
