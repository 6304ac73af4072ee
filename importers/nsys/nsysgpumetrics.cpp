// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysgpumetrics.h"

#include "ingest/tracesink.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysschema.h"
#include "store/foreignsqlitedb.h"

namespace plumb::nsys {

NsysGpuMetrics::NsysGpuMetrics(NsysSchema &schema, TraceSink &sink)
    : m_schema(schema)
    , m_sink(sink)
{
}

void NsysGpuMetrics::readNames()
{
    if (!m_schema.hasColumns("TARGET_INFO_GPU_METRICS", { "metricId", "metricName" })) {
        return; // the samples are then named by their ids
    }
    const bool typed = m_schema.hasColumns("TARGET_INFO_GPU_METRICS", { "typeId" });
    ForeignSqliteDb::Stmt st(m_schema.db(),
        std::string("SELECT ") + (typed ? "typeId" : "0") + ", metricId, metricName, "
            + (m_schema.hasColumns("TARGET_INFO_GPU_METRICS", { "typeName" }) ? "typeName" : "NULL")
            + " FROM TARGET_INFO_GPU_METRICS",
        "TARGET_INFO_GPU_METRICS");
    while (st.step()) {
        const int64_t type = st.integer(0);
        m_metricNames[{ typed ? type : kNoValue, st.integer(1) }] = std::string(st.text(2));
        if (!st.isNull(3)) {
            m_metricTypeNames.emplace(type, std::string(st.text(3)));
        }
    }
}

void NsysGpuMetrics::handle(NsysCursor &c)
{
    const int64_t type = c.get(TypeId, 0);
    const int64_t metric = c.get(MetricId, 0);
    auto track = m_metricTracks.find({ type, metric });
    if (track == m_metricTracks.end()) {
        auto process = m_metricProcesses.find(type);
        if (process == m_metricProcesses.end()) {
            // One process per sampled GPU, below the GPUs' own rows, labelled by its name (shown alone;
            // numbered when two samplers share a name, as the GPUs of one model do).
            auto typeName = m_metricTypeNames.find(type);
            const std::string base = typeName != m_metricTypeNames.end() && !typeName->second.empty()
                ? "GPU metrics: " + typeName->second
                : std::string("GPU metrics");
            std::string name = base;
            for (int n = 2; m_metricProcessNames.count(name); ++n) {
                name = base + " (" + std::to_string(n) + ")";
            }
            m_metricProcessNames.insert(name);
            const int64_t id = m_sink.process(name);
            m_sink.setProcessName(id, name);
            m_sink.setProcessKind(id, ProcessKind::Other);
            m_sink.setProcessSortIndex(id, 2000000 + int64_t(m_metricProcesses.size()));
            process = m_metricProcesses.emplace(type, id).first;
        }
        auto name = m_metricNames.find({ type, metric });
        if (name == m_metricNames.end()) {
            name = m_metricNames.find({ kNoValue, metric });
        }
        const std::string metricName
            = name != m_metricNames.end() ? name->second : "metric " + std::to_string(metric);
        track = m_metricTracks
                    .emplace(std::make_pair(type, metric), m_sink.counterTrack(process->second, metricName))
                    .first;
    }
    m_sink.addCounter(track->second, c.start, c.isNull(Value) ? 0.0 : c.st->real(c.col[Value]));
}

} // namespace plumb::nsys
