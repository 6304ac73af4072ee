// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/chrometracereader.h"

#include "chrometrace/toplevelfields.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/tracesink.h"
#include "text/jsontext.h"

#include <QFileInfo>

namespace plumb::chrometrace {

namespace od = simdjson::ondemand;

namespace {

constexpr size_t kChunkBytes = 512 * 1024; // events parsed per simdjson document
constexpr size_t kMaxMetadataBytes = 64 << 20; // top-level fields other than traceEvents

} // namespace

ChromeTraceReader::ChromeTraceReader(ImportContext &ctx)
    : m_ctx(ctx)
    , m_diag(ctx.diagnostics())
    , m_sink(ctx.traceSink())
    , m_stream(ctx.input())
    , m_dispatcher(m_sink, m_diag)
{
    // Reading and fingerprinting a plain .json on a thread of their own, as a .gz file's inflating,
    // takes them off this one, the import's busiest.
    ctx.input().setReadAheadUncompressed(true);
    m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
}

void ChromeTraceReader::run()
{
    const int c = m_stream.peek();
    if (c == '[') {
        m_stream.consume();
        readEventsArray(true);
    } else if (c == '{') {
        m_stream.consume();
        readTopLevelObject();
    } else {
        throw ImportError(QStringLiteral("%1 is not a trace: expected '{' or '[' at the start")
                              .arg(m_ctx.input().fileName()),
            at(m_stream.offset()));
    }
    if (m_ctx.input().truncated()) {
        m_diag.report(
            Severity::Warning, QStringLiteral("truncated-gzip"), {}, m_ctx.input().truncationDetail());
    }
    if (!m_sawEvents) {
        throw ImportError(
            QStringLiteral("%1 has no traceEvents array: it is JSON, but not a Chrome/PyTorch trace")
                .arg(m_ctx.input().fileName()),
            at(m_stream.offset()));
    }
    applyTopLevelFields(m_metadata, m_sink, m_diag, &m_dispatcher.evidence());
    m_dispatcher.finish();
}

void ChromeTraceReader::readTopLevelObject()
{
    for (;;) {
        int c = m_stream.peek();
        if (c == ',') { // tolerate trailing or doubled commas
            m_stream.consume();
            continue;
        }
        if (c == '}') {
            m_stream.consume();
            break;
        }
        if (c < 0) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends before the top-level object is closed (it was cut "
                               "short); everything before the cut was imported."));
            return;
        }
        if (c != '"') {
            throw ImportError(
                QStringLiteral("unexpected character '%1' where a field name was expected").arg(QChar(c)),
                at(m_stream.offset()));
        }
        std::string_view keyView;
        if (m_stream.scanString(keyView) != JsonStream::Scan::Complete) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends inside a top-level field name (it was cut short)."));
            return;
        }
        const std::string key(keyView);
        if (m_stream.peek() != ':') {
            throw ImportError(QStringLiteral("expected ':' after \"%1\"").arg(QString::fromStdString(key)),
                at(m_stream.offset()));
        }
        m_stream.consume();
        c = m_stream.peek();
        if (key == "traceEvents") {
            if (c != '[') {
                throw ImportError(QStringLiteral("traceEvents is not an array"), at(m_stream.offset()));
            }
            m_stream.consume();
            if (!readEventsArray(false)) {
                return;
            }
            continue;
        }
        if (c < 0) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends inside the top-level field \"%1\" (it was cut short).")
                    .arg(QString::fromStdString(key)));
            return;
        }
        const int64_t valueOffset = m_stream.offset();
        std::string_view value;
        const auto r = m_stream.scanValue(value);
        if (r != JsonStream::Scan::Complete) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(valueOffset),
                r == JsonStream::Scan::TooLarge
                    ? QStringLiteral("The top-level field \"%1\" is larger than 256 MiB; the rest of "
                                     "the file was not read.")
                          .arg(QString::fromStdString(key))
                    : QStringLiteral("The file ends inside the top-level field \"%1\" (it was cut "
                                     "short).")
                          .arg(QString::fromStdString(key)));
            return;
        }
        if (value == "}" || value == "]" || value == ",") { // `"key": }`: no value at all
            m_diag.report(Severity::Warning, QStringLiteral("malformed-field"), at(valueOffset),
                QStringLiteral("The top-level field \"%1\" has no value; it was ignored.")
                    .arg(QString::fromStdString(key)));
            continue;
        }
        if (m_metadata.size() + value.size() > kMaxMetadataBytes) {
            m_diag.report(Severity::Warning, QStringLiteral("metadata-too-large"), at(valueOffset),
                QStringLiteral("Top-level fields beyond 64 MiB were not kept as trace metadata."));
            continue;
        }
        if (m_metadata.size() > 1) {
            m_metadata.push_back(',');
        }
        appendJsonString(m_metadata, key);
        m_metadata.push_back(':');
        m_metadata.append(value);
    }
}

bool ChromeTraceReader::readEventsArray(bool arrayForm)
{
    m_sawEvents = true;
    bool expectComma = false;
    for (;;) {
        const int c = m_stream.peek();
        if (c < 0) {
            flushChunk();
            if (!arrayForm) {
                m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                    QStringLiteral("The file ends inside traceEvents (it was cut short); the %1 events "
                                   "before the cut were imported.")
                        .arg(m_eventsSeen));
            } else {
                m_diag.report(Severity::Info, QStringLiteral("unterminated-array"), at(m_stream.offset()),
                    QStringLiteral("The event array has no closing ']' (allowed by the format for "
                                   "streaming writers)."));
            }
            return false;
        }
        if (c == ']') {
            m_stream.consume();
            flushChunk();
            return true;
        }
        if (c == ',') {
            m_stream.consume();
            if (!expectComma) {
                m_diag.report(Severity::Info, QStringLiteral("extra-comma"), at(m_stream.offset() - 1),
                    QStringLiteral("Extra or trailing commas between events were ignored."));
            }
            expectComma = false;
            continue;
        }
        if (expectComma) {
            m_diag.report(Severity::Warning, QStringLiteral("missing-comma"), at(m_stream.offset()),
                QStringLiteral("Events not separated by a comma; read as separate events."));
        }
        const int64_t offset = m_stream.offset();
        std::string_view value;
        const auto r = m_stream.scanValue(value);
        if (r == JsonStream::Scan::TooLarge) {
            flushChunk();
            throw ImportError(
                QStringLiteral("an event larger than 256 MiB: the file is corrupt"), at(offset));
        }
        if (r == JsonStream::Scan::Truncated) {
            flushChunk();
            m_diag.skipped(QStringLiteral("truncated"), at(offset),
                QStringLiteral("The file was cut short inside an event at byte %1; the %2 events "
                               "before the cut were imported and the partial one was skipped.")
                    .arg(offset)
                    .arg(m_eventsSeen));
            ++m_ctx.recordsRead;
            return false;
        }
        expectComma = true;
        auto &bytes = m_chunk.bytes;
        bytes.push_back(bytes.empty() ? '[' : ',');
        m_chunk.starts.push_back(uint32_t(bytes.size()));
        m_chunk.offsets.push_back(offset);
        bytes.insert(bytes.end(), value.begin(), value.end());
        if (bytes.size() >= kChunkBytes) {
            flushChunk();
        }
    }
}

void ChromeTraceReader::flushChunk()
{
    if (m_chunk.offsets.empty()) {
        return;
    }
    auto &bytes = m_chunk.bytes;
    bytes.push_back(']');
    const size_t len = bytes.size();
    bytes.resize(len + simdjson::SIMDJSON_PADDING, '\0');

    size_t done = 0;
    od::document doc;
    od::array arr;
    bool failed = m_parser.iterate(bytes.data(), len, bytes.size()).get(doc) != simdjson::SUCCESS
        || doc.get_array().get(arr) != simdjson::SUCCESS;
    if (!failed) {
        for (auto elem : arr) {
            od::object obj;
            if (elem.get_object().get(obj) != simdjson::SUCCESS || !parseOne(obj, m_chunk.offsets[done])) {
                failed = true;
                break;
            }
            if (++done == m_chunk.offsets.size()) {
                break;
            }
        }
        if (!failed && done < m_chunk.offsets.size()) {
            failed = true;
        }
    }
    if (failed) {
        parseChunkElementsSingly(done);
    }
    m_chunk.clear();
    m_ctx.checkpoint();
}

// Slow path after a parse error in a chunk: each remaining element on its own, so one bad event
// costs one event. Invalid UTF-8 is repaired rather than dropping the event.
void ChromeTraceReader::parseChunkElementsSingly(size_t from)
{
    const auto &bytes = m_chunk.bytes;
    for (size_t i = from; i < m_chunk.offsets.size(); ++i) {
        const size_t start = m_chunk.starts[i];
        const size_t end = i + 1 < m_chunk.starts.size() ? m_chunk.starts[i + 1] - 1
                                                         : bytes.size() - simdjson::SIMDJSON_PADDING - 1;
        std::string one(bytes.data() + start, end - start);
        for (int attempt = 0; attempt < 2; ++attempt) {
            const size_t len = one.size();
            one.resize(len + simdjson::SIMDJSON_PADDING, '\0');
            od::document doc;
            od::object obj;
            auto err = m_parser.iterate(one.data(), len, one.size()).get(doc);
            if (!err) {
                err = doc.get_object().get(obj);
            }
            if (!err && parseOne(obj, m_chunk.offsets[i])) {
                break;
            }
            one.resize(len);
            if (attempt == 0 && (err == simdjson::UTF8_ERROR || err == simdjson::SUCCESS)) {
                // SUCCESS here means parseOne failed on a field; retry only for encoding problems.
                if (err == simdjson::UTF8_ERROR && sanitizeUtf8(one) > 0) {
                    m_diag.report(Severity::Warning, QStringLiteral("invalid-utf8"), at(m_chunk.offsets[i]),
                        QStringLiteral("Text that is not valid UTF-8 was replaced by U+FFFD."));
                    continue;
                }
            }
            ++m_eventsSeen;
            ++m_ctx.recordsRead;
            ++m_sink.stats().events;
            m_diag.skipped(QStringLiteral("malformed-event"), at(m_chunk.offsets[i]),
                err == simdjson::SUCCESS ? QStringLiteral(
                    "An event could not be read (a field has the wrong type); it was skipped.")
                                         : QStringLiteral("An event is not valid JSON (%1); it was skipped.")
                                               .arg(QString::fromUtf8(simdjson::error_message(err))));
            break;
        }
    }
}

bool ChromeTraceReader::parseOne(od::object obj, int64_t offset)
{
    if (!m_event.parse(obj)) {
        return false;
    }
    ++m_eventsSeen;
    ++m_ctx.recordsRead;
    ++m_sink.stats().events;
    m_dispatcher.dispatch(m_event, offset);
    return true;
}

} // namespace plumb::chrometrace
