// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/corrlinks.h"
#include "ingest/protowire.h"
#include "xplane/eventmetatable.h"
#include "xplane/statdecoder.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plumb {

class DiagnosticLog;
class ImportContext;
class TraceSink;

// Maps one XSpace, read from the import's input, to one trace (XPlaneImporter's comment says how):
// walks the XSpace's fields, reads each XPlane in place (its metadata through StatDecoder and
// EventMetaTable), makes its process, its lines' tracks and their slices, and at the end the
// trace's flows, base time and metadata ("planes", hostnames, the profiler's errors and warnings).
//
// Malformed input throws ProtoWire::Error or SpaceStream::Truncated; a file with no plane, or
// only unnamed empty ones, throws ImportError.
class SpaceReader {
public:
    explicit SpaceReader(ImportContext &ctx);

    void run();

    static constexpr uint64_t kMaxPlaneBytes = uint64_t(1) << 32; // protobuf writers stop at 2 GiB

private:
    enum class PlaneKind { Host, Gpu, Device, Other };
    // Category names shared with the Chrome-trace importer, so analyses see one vocabulary.
    enum class Cat { Kernel, Memcpy, Memset, Runtime, Driver, CpuOp, Python, Count };

    void setSessionJob(const QString &path);
    void readPlane(const std::string &bytes, int64_t base);
    void readLine(ProtoWire::Span line, int64_t lineIndex);
    int64_t ensureProcess();
    void finishSpace();

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    TraceSink &m_sink;
    QString m_fileName;
    int64_t m_catIds[size_t(Cat::Count)];

    // The plane being read.
    std::string_view m_planeName;
    int64_t m_planeId = 0;
    int64_t m_planeIndex = 0;
    PlaneKind m_planeKind = PlaneKind::Other;
    int64_t m_deviceIndex = kNoValue;
    int64_t m_process = kNoValue;
    StatDecoder m_stats;
    EventMetaTable m_eventMetas;
    int64_t m_planeEvents = 0;

    // Whole file.
    int64_t m_planes = 0;
    int64_t m_namedPlanes = 0;
    int64_t m_events = 0;
    int64_t m_sinceCheckpoint = 0;
    std::string m_planesJson; // "planes" of the trace metadata
    CorrLinkCounter m_links; // launch -> GPU op links, the trace's flows
    std::vector<std::string> m_errors, m_warnings, m_hostnames;

    // Scratch, reused.
    std::vector<ProtoWire::Span> m_eventStats;
    std::string m_own, m_args, m_planeBuf;
};

} // namespace plumb
