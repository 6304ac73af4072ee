// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace plumb {

class Workspace;

struct SourceInfo {
    int64_t id = 0;
    QString path;
    QString name;
    QString format;
    QString status;
    int64_t sizeBytes = 0;
    int64_t events = 0;
    int64_t skipped = 0;
    int64_t diagnostics = 0;
    int64_t importedAtNs = 0;
    int64_t importMs = 0;
};

struct TraceInfo {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t sourceId = 0;
    QString name;
    QString format;
    int64_t rank = -1; // -1 when the trace does not say
    int64_t worldSize = -1;
    int64_t startNs = 0;
    int64_t endNs = 0;
    std::optional<int64_t> baseTimeNs; // add to startNs/endNs for wall-clock time, when the file says
    int64_t events = 0;
    int64_t slices = 0;
    int64_t kernels = 0;
    int64_t gpuOps = 0;
    int64_t flows = 0;
    int64_t counters = 0;
    int64_t tracks = 0;
    int64_t gpuStreams = 0;
    QString devices; // summariseDevices(): "NVIDIA A100 x8", "/device:GPU:0-7"
    QString deviceType; // trace.device_type: "cuda", "rocm", "mtia", "xpu"...; empty when unknown
};

// A trace's device names (in device order) as one line: identical names counted ("NVIDIA A100-SXM4-80GB
// x4"), names that differ only in a trailing index after a separator folded into ranges
// ("/device:GPU:0-7", "/device:GPU:0-3,6"; a model number as in "Tesla V100" is no index), the rest
// listed, comma-separated in order of first appearance.
[[nodiscard]] QString summariseDevices(const QStringList &names);

struct RunInfo {
    int64_t id = 0;
    QString name;
    QList<TraceInfo> traces;

    // From the first event's start to the last event's end over its traces, on wall-clock time when
    // every trace gives it, on their own clocks when none does; with some of each, the longest trace's
    // (their clocks cannot be lined up). 0 without events.
    [[nodiscard]] int64_t spanNs() const;
};

struct DiagnosticRow {
    int64_t id = 0;
    int64_t sourceId = 0;
    QString sourceName;
    QString severity;
    QString code;
    QString location;
    QString message;
    int64_t count = 0;
};

struct WorkspaceSummary {
    QString path;
    int64_t fileBytes = 0;
    int schemaVersion = 0;
    int64_t sources = 0;
    int64_t runs = 0;
    int64_t traces = 0;
    int64_t slices = 0;
    QString lastImport; // name of the most recently imported source
};

// Read-only queries behind `plumb ls`, the workspace browser and the diagnostics panel.
class WorkspaceReader {
public:
    explicit WorkspaceReader(Workspace &workspace);

    [[nodiscard]] WorkspaceSummary summary();
    [[nodiscard]] QList<SourceInfo> sources();
    [[nodiscard]] QList<RunInfo> runs();
    [[nodiscard]] QList<DiagnosticRow> diagnostics(int64_t sourceId = -1);

private:
    Workspace &m_ws;
};

} // namespace plumb
