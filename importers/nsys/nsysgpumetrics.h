// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>

namespace plumb {
class TraceSink;
} // namespace plumb

namespace plumb::nsys {

class NsysSchema;
struct NsysCursor;

// GPU metrics (GPU_METRICS, nsys --gpu-metrics-devices): per sampled GPU (typeId) a process of its own
// below the GPUs' rows ("GPU metrics: <GPU name>"), and in it one counter track per metric (metricId),
// named from TARGET_INFO_GPU_METRICS ("metric N" when the export does not name it).
class NsysGpuMetrics {
public:
    NsysGpuMetrics(NsysSchema &schema, TraceSink &sink);

    // The metrics' and the samplers' names, before the first sample.
    void readNames();
    void handle(NsysCursor &c);

private:
    NsysSchema &m_schema;
    TraceSink &m_sink;
    // Names by (typeId, metricId), type names by typeId, counter tracks by the same key.
    std::map<std::pair<int64_t, int64_t>, std::string> m_metricNames;
    std::map<int64_t, std::string> m_metricTypeNames;
    std::map<std::pair<int64_t, int64_t>, int64_t> m_metricTracks;
    std::map<int64_t, int64_t> m_metricProcesses;
    std::unordered_set<std::string> m_metricProcessNames;
};

} // namespace plumb::nsys
