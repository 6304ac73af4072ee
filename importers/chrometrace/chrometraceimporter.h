// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Chrome Trace Event Format as written by the PyTorch profiler (Kineto) and other tools.
//
// Maps a file to one trace: `pid` -> process (GPU devices are the pids of kernel/memcpy/memset events),
// `tid` -> thread track (or a GPU stream track), X and B/E -> slices, i/I/R -> zero-length slices,
// C -> one counter track per series, s/t/f -> flow ends paired by (category, id), M -> process and
// thread names and sort order. Top-level fields (deviceProperties, distributedInfo, baseTimeNanoseconds,
// the rest as JSON metadata) are read in whatever order they come, before or after traceEvents.
//
// Streaming: the traceEvents array is cut at element boundaries into ~0.5 MiB chunks that simdjson
// On-Demand parses, so memory stays flat for any file size. Timestamps (µs with up to 3 decimals in
// Kineto) are parsed from their text into int64 ns; never through a double.
class ChromeTraceImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("chrometrace"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("Chrome trace / PyTorch profiler");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] bool writesOneTrace() const override { return true; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
