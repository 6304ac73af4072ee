// SPDX-License-Identifier: GPL-3.0-or-later
#include "tabular/csvreader.h"

#include <algorithm>

namespace plumb {

namespace {
constexpr int64_t kChunkBytes = 256 * 1024;
constexpr std::string_view kBom("\xEF\xBB\xBF");
} // namespace

CsvReader::CsvReader(ReadFn read, char delimiter)
    : m_read(std::move(read))
    , m_delimiter(delimiter)
{
}

CsvReader::CsvReader(std::string_view text, char delimiter)
    : m_delimiter(delimiter)
    , m_buf(text)
    , m_eof(true)
{
}

bool CsvReader::refill()
{
    if (m_eof)
        return false;
    m_buf.erase(0, m_pos);
    m_consumedBefore += int64_t(m_pos);
    m_pos = 0;
    // Grow with the record being read, so that one long record costs O(n), not O(n^2) rescans.
    const int64_t want = std::max<int64_t>(kChunkBytes, int64_t(m_buf.size()));
    const size_t old = m_buf.size();
    m_buf.resize(old + size_t(want));
    const int64_t got = m_read(m_buf.data() + old, want);
    m_buf.resize(old + size_t(std::max<int64_t>(got, 0)));
    if (got <= 0)
        m_eof = true;
    return got > 0;
}

bool CsvReader::next(std::vector<std::string_view> &fields)
{
    fields.clear();
    if (!m_started) {
        while (m_buf.size() - m_pos < kBom.size() && refill()) { }
        if (std::string_view(m_buf).substr(m_pos, kBom.size()) == kBom) {
            m_pos += kBom.size();
        }
        m_started = true;
    }
    const char d = m_delimiter;
    for (;;) {
        const char *buf = m_buf.data();
        const size_t n = m_buf.size();
        size_t i = m_pos;
        // Lines that hold nothing are not records.
        if (i < n && (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < n && buf[i + 1] == '\n'))) {
            m_pos = i + (buf[i] == '\n' ? 1 : 2);
            ++m_line;
            continue;
        }
        if (i == n || (buf[i] == '\r' && i + 1 == n)) {
            if (refill())
                continue;
            if (m_pos >= m_buf.size() || (m_buf.size() - m_pos == 1 && m_buf[m_pos] == '\r'))
                return false;
        }
        m_scratch.clear();
        m_spans.clear();
        int64_t lines = 0;
        bool needMore = false, unterminated = false, noLineEnd = false;
        for (;;) { // one field per pass
            if (i < n && buf[i] == '"') {
                const size_t start = m_scratch.size();
                ++i;
                bool closed = false;
                while (i < n) {
                    const char c = buf[i];
                    if (c == '"') {
                        if (i + 1 == n && !m_eof)
                            break; // a doubled quote or the closing one: the next byte says
                        if (i + 1 < n && buf[i + 1] == '"') {
                            m_scratch += '"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        closed = true;
                        break;
                    }
                    if (c == '\n')
                        ++lines;
                    m_scratch += c;
                    ++i;
                }
                if (!closed && !m_eof) {
                    needMore = true;
                    break;
                }
                unterminated = unterminated || !closed;
                // Bytes between the closing quote and the delimiter (not RFC 4180) are kept.
                while (i < n && buf[i] != d && buf[i] != '\n') {
                    if (buf[i] == '\r' && (i + 1 == n || buf[i + 1] == '\n'))
                        break;
                    m_scratch += buf[i++];
                }
                if (i < n && buf[i] == '\r')
                    ++i;
                m_spans.push_back({ start, m_scratch.size() - start, true });
            } else {
                const size_t start = i;
                while (i < n && buf[i] != d && buf[i] != '\n')
                    ++i;
                if (i == n && !m_eof) {
                    needMore = true;
                    break;
                }
                size_t end = i;
                if (end > start && buf[end - 1] == '\r' && (i == n || buf[i] == '\n'))
                    --end;
                m_spans.push_back({ start, end - start, false });
            }
            if (i >= n) {
                if (!m_eof) {
                    needMore = true;
                    break;
                }
                noLineEnd = true;
                break;
            }
            if (buf[i] == d) {
                ++i;
                continue;
            }
            ++i; // '\n'
            ++lines;
            break;
        }
        if (needMore) {
            if (!refill())
                m_eof = true;
            continue;
        }
        m_recordLine = m_line;
        m_recordOffset = m_consumedBefore + int64_t(m_pos);
        m_line += lines;
        m_pos = i;
        m_unterminated = unterminated;
        m_noLineEnd = noLineEnd;
        fields.reserve(m_spans.size());
        for (const Span &s : m_spans)
            fields.emplace_back(s.scratch ? std::string_view(m_scratch).substr(s.begin, s.length)
                                          : std::string_view(m_buf).substr(s.begin, s.length));
        return true;
    }
}

} // namespace plumb
