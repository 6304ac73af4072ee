// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chrometrace/jsonstream.h"
#include "chrometrace/traceevent.h"
#include "chrometrace/traceeventdispatcher.h"

#include <simdjson.h>

#include <QString>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace plumb {
class DiagnosticLog;
class ImportContext;
class TraceSink;
} // namespace plumb

namespace plumb::chrometrace {

// Reads a Chrome trace's structure: the object form (top-level fields in whatever order they come,
// before or after traceEvents, kept as metadata) or the bare array form, each tolerating a file cut
// short. The traceEvents array is cut at element boundaries into ~0.5 MiB chunks that simdjson
// On-Demand parses, so memory stays flat for any file size; after a parse error in a chunk, its
// remaining events are parsed one by one (invalid UTF-8 repaired), so one bad event costs one event.
// Each event goes to the TraceEventDispatcher.
//
// Two threads share the array: a framer cuts the chunks from the input and runs simdjson's first stage
// (the structural index) over each, a few chunks ahead; this thread, the import's busiest, parses their
// events and dispatches them. Everything the framer notices (stray commas, the end of the array or of
// the input) travels in its chunk and is reported here, in the order a single thread would.
class ChromeTraceReader {
public:
    explicit ChromeTraceReader(ImportContext &ctx);

    void run();

private:
    // Something about the array's syntax the framer noticed, reported before its chunk's events.
    struct FramingNote {
        enum class Kind { ExtraComma, MissingComma } kind;
        int64_t offset;
    };
    // How the framer's last chunk ends the array.
    enum class End { None, Closed, EndOfInput, ValueTruncated, ValueTooLarge, Failed };
    struct Chunk {
        std::vector<char> bytes; // "[" elem "," elem ... "]" + padding
        std::vector<int64_t> offsets; // decompressed byte offset of each element
        std::vector<uint32_t> starts; // element start within bytes
        std::vector<FramingNote> notes;
        int64_t progress = 0; // the input's compressed offset when the chunk was cut
        simdjson::ondemand::parser parser; // its first stage ran over `bytes`
        simdjson::ondemand::document doc;
        simdjson::error_code indexed = simdjson::SUCCESS;
        End end = End::None;
        int64_t endOffset = 0;
        std::exception_ptr error; // End::Failed: what reading the input threw
        void clear();
    };
    class ChunkPipe;

    void readTopLevelObject();
    bool readEventsArray(bool arrayForm); // false when the input ended inside it
    void frameEvents(ChunkPipe &pipe); // on the framer thread
    void parseChunk(Chunk &chunk);
    void parseChunkElementsSingly(const Chunk &chunk, size_t from);
    // Reads one event object; false on a JSON error (nothing was written for it).
    bool parseOne(simdjson::ondemand::object obj, int64_t offset);
    [[nodiscard]] static QString at(int64_t offset) { return QStringLiteral("byte %1").arg(offset); }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    TraceSink &m_sink;
    JsonStream m_stream;
    simdjson::ondemand::parser m_parser; // for events parsed one by one
    std::string m_metadata = "{";
    bool m_sawEvents = false;
    int64_t m_eventsSeen = 0;
    TraceEvent m_event;
    TraceEventDispatcher m_dispatcher;
};

} // namespace plumb::chrometrace
