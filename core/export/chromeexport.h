// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace plumb {

class Workspace;

// Why an export could not be written (the output cannot be created, a disk filled up), in a
// sentence for the command line. Workspace read errors stay SqlError.
class ExportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ChromeExportOptions {
    // A window, in ns after the trace's first event (trace.start_ns): the slices that start in
    // [fromNs, toNs) are written, the counter samples in it, the flows whose ends all are.
    int64_t fromNs = INT64_MIN;
    int64_t toNs = INT64_MAX;
    // gzip the output (as .json.gz); otherwise plain JSON.
    bool gzip = false;
};

struct ChromeExportStats {
    int64_t traces = 0;
    int64_t events = 0; // every trace event written, metadata included
    int64_t slices = 0; // X events
    int64_t gpuOps = 0; // of those: kernels, memcpy, memset on GPU streams
    int64_t flows = 0; // flows written (pairs, or single ends the workspace holds alone)
    int64_t counters = 0; // C events
    int64_t bytes = 0; // bytes written (compressed, for .json.gz)
};

// Writes imported traces as Chrome / Kineto trace JSON that Perfetto UI, chrome://tracing and
// Holistic Trace Analysis read, and Plumb's own chrometrace importer reads back as the same trace:
//
// - processes and tracks become pids and tids ("M" process_name, process_labels ("GPU n" for a
//   device), thread_name, sort indexes); a label that reads as an integer is kept as the pid or
//   tid, any other gets a number of its own; a thread's CUDA API track and a stream's annotation
//   track share their owner's tid, as Kineto writes them;
// - slices become "X" events with their category and args; the columns promoted out of args go back
//   under Kineto's keys (correlation, External id, Sequence number, Ev Idx, Record function id), and
//   GPU ops get `device` and `stream` args when theirs lack them;
// - a launch (a CPU thread's slice with a correlation id) and the GPU-side work with the same id in
//   the window get an "ac2g" flow, "s" right after the launch and "f" (bp "e") right after each op,
//   id = the correlation id; flow rows go out as "s"/"f" pairs with their category and id;
// - counters become "C" events {"value": v}; steps found by stepMarkers() in a trace without
//   ProfilerStep#N slices become ProfilerStep#N user annotations on a thread "Steps";
// - top level: a Chrome trace's own top-level fields (deviceProperties...), else the devices' properties,
//   distributedInfo (rank, world_size) and baseTimeNanoseconds where known.
//
// Timestamps are microseconds with three decimals, exact to the nanosecond. Events are read per
// track in (track, ts) key order and merged by start time, so the output is time-ordered and memory
// stays flat (per launch, 8 bytes of correlation id to match flows) whatever the trace's size.
class ChromeExporter {
public:
    explicit ChromeExporter(Workspace &ws);

    // Writes trace `traceId` to `path`. Throws ExportError (output), SqlError (workspace).
    ChromeExportStats exportTrace(int64_t traceId, const QString &path, const ChromeExportOptions &options);
    // Writes `traceIds` into one file, each trace's processes apart (pids renumbered, names prefixed
    // "Rank N: "), as Perfetto shows several ranks side by side.
    ChromeExportStats exportTraces(
        const std::vector<int64_t> &traceIds, const QString &path, const ChromeExportOptions &options);
    // Writes the traces of run `runId` (those of `ranks` when not empty), by rank: one file per rank in
    // the folder `path` (rankFileName(), what Holistic Trace Analysis reads), or with `singleFile` all in
    // the file `path` (exportTraces()). Throws ExportError for a rank the run lacks, a run without a
    // trace, or a folder that cannot be made.
    ChromeExportStats exportRun(int64_t runId, const std::vector<int64_t> &ranks, const QString &path,
        bool singleFile, const ChromeExportOptions &options);

private:
    Workspace &m_ws;
};

// The file name of a rank's trace in a run's export folder: "rank-3.json.gz" ("trace-12.json.gz"
// for a trace without a rank), without ".gz" when `gzip` is false.
[[nodiscard]] QString rankFileName(int64_t rank, int64_t traceId, bool gzip);

// Parses "--from"/"--to" values: integer nanoseconds ("1500000"), or milliseconds with an "ms"
// suffix and up to six decimals ("1.5ms"). False when `text` is neither.
[[nodiscard]] bool parseExportTime(const QString &text, int64_t &ns);

} // namespace plumb
