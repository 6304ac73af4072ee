// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace plumb {

// Splits CSV text into records per RFC 4180, reading its input in chunks: fields separated by one
// delimiter byte (',' ';' or tab), a field in double quotes may hold delimiters, line ends and
// doubled quotes (""), records end at LF or CRLF (a lone CR inside an unquoted field is kept). A
// UTF-8 byte order mark at the start is dropped, and so are lines that hold nothing at all.
//
// Fields are views valid until the next call of next(): into the read buffer for plain fields, into
// a scratch buffer for quoted ones. recordLine() and recordOffset() say where the record starts (a
// quoted line end makes one record span several lines), for diagnostics.
class CsvReader {
public:
    // Reads up to `max` bytes into `out`; returns the count, 0 at the end of the input.
    using ReadFn = std::function<int64_t(char *out, int64_t max)>;

    CsvReader(ReadFn read, char delimiter);
    // Over bytes already in memory (a file's head, a test).
    CsvReader(std::string_view text, char delimiter);

    // The next record's fields; false at the end of the input.
    bool next(std::vector<std::string_view> &fields);

    [[nodiscard]] int64_t recordLine() const { return m_recordLine; } // 1-based
    [[nodiscard]] int64_t recordOffset() const { return m_recordOffset; } // bytes from the start
    // The last record ended with the input inside a quoted field (an unbalanced quote).
    [[nodiscard]] bool unterminatedQuote() const { return m_unterminated; }
    // The last record was cut by the end of the input, not by a line end.
    [[nodiscard]] bool lastRecordUnterminated() const { return m_noLineEnd; }
    [[nodiscard]] int64_t bytesRead() const { return m_consumedBefore + int64_t(m_pos); }

private:
    bool refill();

    ReadFn m_read;
    char m_delimiter;
    std::string m_buf;
    size_t m_pos = 0; // start of the next record in m_buf
    bool m_eof = false;
    bool m_started = false; // BOM checked
    int64_t m_consumedBefore = 0; // bytes dropped from m_buf's front
    int64_t m_line = 1; // line of m_pos
    int64_t m_recordLine = 0;
    int64_t m_recordOffset = 0;
    bool m_unterminated = false;
    bool m_noLineEnd = false;
    std::string m_scratch;
    struct Span {
        size_t begin, length;
        bool scratch;
    };
    std::vector<Span> m_spans;
};

} // namespace plumb
