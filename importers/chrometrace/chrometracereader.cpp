// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/chrometracereader.h"

#include "chrometrace/toplevelfields.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/tracesink.h"
#include "text/jsontext.h"

#include <QFileInfo>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

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

void ChromeTraceReader::Chunk::clear()
{
    bytes.clear();
    offsets.clear();
    starts.clear();
    notes.clear();
    indexed = simdjson::SUCCESS;
    end = End::None;
    endOffset = 0;
    error = nullptr;
}

// The chunks between the framer and the parsing thread: at most kChunks exist, so the framer runs
// at most two ahead and memory stays flat; each is handed back for reuse (its parser keeps its buffers).
class ChromeTraceReader::ChunkPipe {
public:
    static constexpr size_t kChunks = 3;

    // The framer's next empty chunk; null once the parsing thread stopped.
    std::unique_ptr<Chunk> takeEmpty()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_stopped || !m_empty.empty() || m_created < kChunks; });
        if (m_stopped)
            return nullptr;
        if (m_empty.empty()) {
            ++m_created;
            return std::make_unique<Chunk>();
        }
        std::unique_ptr<Chunk> c = std::move(m_empty.back());
        m_empty.pop_back();
        return c;
    }
    void putFilled(std::unique_ptr<Chunk> c)
    {
        {
            const std::lock_guard lock(m_mutex);
            if (m_stopped)
                return;
            m_filled.push_back(std::move(c));
        }
        m_changed.notify_all();
    }
    // The next filled chunk, in the framer's order.
    std::unique_ptr<Chunk> takeFilled()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return !m_filled.empty(); });
        std::unique_ptr<Chunk> c = std::move(m_filled.front());
        m_filled.pop_front();
        return c;
    }
    void giveBack(std::unique_ptr<Chunk> c)
    {
        c->clear();
        {
            const std::lock_guard lock(m_mutex);
            m_empty.push_back(std::move(c));
        }
        m_changed.notify_all();
    }
    void stop()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_stopped = true;
        }
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::unique_ptr<Chunk>> m_filled;
    std::vector<std::unique_ptr<Chunk>> m_empty;
    size_t m_created = 0;
    bool m_stopped = false;
};

bool ChromeTraceReader::readEventsArray(bool arrayForm)
{
    m_sawEvents = true;
    ChunkPipe pipe;
    std::thread framer([this, &pipe] { frameEvents(pipe); });
    // However this thread leaves (an error, a cancel), the framer stops and is joined before the
    // stream is read here again.
    struct Join {
        ChunkPipe &pipe;
        std::thread &thread;
        ~Join()
        {
            pipe.stop();
            thread.join();
        }
    } join { pipe, framer };
    for (;;) {
        std::unique_ptr<Chunk> chunk = pipe.takeFilled();
        parseChunk(*chunk);
        const End end = chunk->end;
        const int64_t offset = chunk->endOffset;
        const std::exception_ptr error = chunk->error;
        pipe.giveBack(std::move(chunk));
        switch (end) {
        case End::None:
            continue;
        case End::Closed:
            return true;
        case End::EndOfInput:
            if (!arrayForm) {
                m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(offset),
                    QStringLiteral("The file ends inside traceEvents (it was cut short); the %1 events "
                                   "before the cut were imported.")
                        .arg(m_eventsSeen));
            } else {
                m_diag.report(Severity::Info, QStringLiteral("unterminated-array"), at(offset),
                    QStringLiteral("The event array has no closing ']' (allowed by the format for "
                                   "streaming writers)."));
            }
            return false;
        case End::ValueTooLarge:
            throw ImportError(
                QStringLiteral("an event larger than 256 MiB: the file is corrupt"), at(offset));
        case End::ValueTruncated:
            m_diag.skipped(QStringLiteral("truncated"), at(offset),
                QStringLiteral("The file was cut short inside an event at byte %1; the %2 events "
                               "before the cut were imported and the partial one was skipped.")
                    .arg(offset)
                    .arg(m_eventsSeen));
            ++m_ctx.recordsRead;
            return false;
        case End::Failed:
            std::rethrow_exception(error);
        }
    }
}

void ChromeTraceReader::frameEvents(ChunkPipe &pipe)
{
    std::unique_ptr<Chunk> chunk = pipe.takeEmpty();
    // Hands the chunk over, indexed; false when it ends the array or the parsing thread stopped.
    auto seal = [&](End end, int64_t endOffset) {
        if (!chunk->offsets.empty()) {
            auto &bytes = chunk->bytes;
            bytes.push_back(']');
            const size_t len = bytes.size();
            bytes.resize(len + simdjson::SIMDJSON_PADDING, '\0');
            chunk->indexed = chunk->parser.iterate(bytes.data(), len, bytes.size()).get(chunk->doc);
        }
        chunk->end = end;
        chunk->endOffset = endOffset;
        chunk->progress = m_ctx.input().compressedOffset();
        pipe.putFilled(std::move(chunk));
        if (end != End::None)
            return false;
        chunk = pipe.takeEmpty();
        return chunk != nullptr;
    };
    if (!chunk)
        return;
    try {
        bool expectComma = false;
        for (;;) {
            const int c = m_stream.peek();
            if (c < 0) {
                seal(End::EndOfInput, m_stream.offset());
                return;
            }
            if (c == ']') {
                m_stream.consume();
                seal(End::Closed, m_stream.offset());
                return;
            }
            if (c == ',') {
                m_stream.consume();
                if (!expectComma)
                    chunk->notes.push_back({ FramingNote::Kind::ExtraComma, m_stream.offset() - 1 });
                expectComma = false;
                continue;
            }
            if (expectComma)
                chunk->notes.push_back({ FramingNote::Kind::MissingComma, m_stream.offset() });
            const int64_t offset = m_stream.offset();
            std::string_view value;
            const auto r = m_stream.scanValue(value);
            if (r == JsonStream::Scan::TooLarge) {
                seal(End::ValueTooLarge, offset);
                return;
            }
            if (r == JsonStream::Scan::Truncated) {
                seal(End::ValueTruncated, offset);
                return;
            }
            expectComma = true;
            auto &bytes = chunk->bytes;
            bytes.push_back(bytes.empty() ? '[' : ',');
            chunk->starts.push_back(uint32_t(bytes.size()));
            chunk->offsets.push_back(offset);
            bytes.insert(bytes.end(), value.begin(), value.end());
            if (bytes.size() >= kChunkBytes && !seal(End::None, 0))
                return;
        }
    } catch (...) {
        // As on one thread: what was read of the unfinished chunk is not parsed; the error is raised
        // after the chunks before it. (No chunk in hand: the throw came from taking the next one.)
        if (!chunk)
            chunk = std::make_unique<Chunk>();
        chunk->clear();
        chunk->end = End::Failed;
        chunk->error = std::current_exception();
        pipe.putFilled(std::move(chunk));
    }
}

void ChromeTraceReader::parseChunk(Chunk &chunk)
{
    for (const FramingNote &n : chunk.notes) {
        if (n.kind == FramingNote::Kind::ExtraComma)
            m_diag.report(Severity::Info, QStringLiteral("extra-comma"), at(n.offset),
                QStringLiteral("Extra or trailing commas between events were ignored."));
        else
            m_diag.report(Severity::Warning, QStringLiteral("missing-comma"), at(n.offset),
                QStringLiteral("Events not separated by a comma; read as separate events."));
    }
    if (chunk.offsets.empty())
        return;
    size_t done = 0;
    od::array arr;
    bool failed = chunk.indexed != simdjson::SUCCESS || chunk.doc.get_array().get(arr) != simdjson::SUCCESS;
    if (!failed) {
        for (auto elem : arr) {
            od::object obj;
            if (elem.get_object().get(obj) != simdjson::SUCCESS || !parseOne(obj, chunk.offsets[done])) {
                failed = true;
                break;
            }
            if (++done == chunk.offsets.size()) {
                break;
            }
        }
        if (!failed && done < chunk.offsets.size()) {
            failed = true;
        }
    }
    if (failed) {
        parseChunkElementsSingly(chunk, done);
    }
    m_ctx.checkpoint(chunk.progress);
}

// Slow path after a parse error in a chunk: each remaining element on its own, so one bad event
// costs one event. Invalid UTF-8 is repaired rather than dropping the event.
void ChromeTraceReader::parseChunkElementsSingly(const Chunk &chunk, size_t from)
{
    const auto &bytes = chunk.bytes;
    for (size_t i = from; i < chunk.offsets.size(); ++i) {
        const size_t start = chunk.starts[i];
        const size_t end = i + 1 < chunk.starts.size() ? chunk.starts[i + 1] - 1
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
            if (!err && parseOne(obj, chunk.offsets[i])) {
                break;
            }
            one.resize(len);
            if (attempt == 0 && (err == simdjson::UTF8_ERROR || err == simdjson::SUCCESS)) {
                // SUCCESS here means parseOne failed on a field; retry only for encoding problems.
                if (err == simdjson::UTF8_ERROR && sanitizeUtf8(one) > 0) {
                    m_diag.report(Severity::Warning, QStringLiteral("invalid-utf8"), at(chunk.offsets[i]),
                        QStringLiteral("Text that is not valid UTF-8 was replaced by U+FFFD."));
                    continue;
                }
            }
            ++m_eventsSeen;
            ++m_ctx.recordsRead;
            ++m_sink.stats().events;
            m_diag.skipped(QStringLiteral("malformed-event"), at(chunk.offsets[i]),
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
