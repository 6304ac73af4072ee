// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chrometrace/jsonstream.h"
#include "chrometrace/traceevent.h"
#include "chrometrace/traceeventdispatcher.h"

#include <simdjson.h>

#include <QString>

#include <cstdint>
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
class ChromeTraceReader {
public:
    explicit ChromeTraceReader(ImportContext &ctx);

    void run();

private:
    // Where an element of a chunk came from, for diagnostics.
    struct Chunk {
        std::vector<char> bytes; // "[" elem "," elem ... "]" + padding
        std::vector<int64_t> offsets; // decompressed byte offset of each element
        std::vector<uint32_t> starts; // element start within bytes
        void clear()
        {
            bytes.clear();
            offsets.clear();
            starts.clear();
        }
    };

    void readTopLevelObject();
    bool readEventsArray(bool arrayForm); // false when the input ended inside it
    void flushChunk();
    void parseChunkElementsSingly(size_t from);
    // Reads one event object; false on a JSON error (nothing was written for it).
    bool parseOne(simdjson::ondemand::object obj, int64_t offset);
    [[nodiscard]] static QString at(int64_t offset) { return QStringLiteral("byte %1").arg(offset); }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    TraceSink &m_sink;
    JsonStream m_stream;
    simdjson::ondemand::parser m_parser;
    Chunk m_chunk;
    std::string m_metadata = "{";
    bool m_sawEvents = false;
    int64_t m_eventsSeen = 0;
    TraceEvent m_event;
    TraceEventDispatcher m_dispatcher;
};

} // namespace plumb::chrometrace
