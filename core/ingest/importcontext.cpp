// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/importcontext.h"

#include "ingest/importerror.h"
#include "ingest/lineagesink.h"
#include "ingest/metricsink.h"
#include "ingest/tracesink.h"
#include "serving/servingsink.h"

#include <stdexcept>

namespace plumb {

ImportContext::ImportContext(SqliteDb &db, InputFile &input, int64_t sourceId, const QString &format,
    const std::atomic_bool *cancel, ProgressFn progress)
    : m_db(db)
    , m_input(input)
    , m_sourceId(sourceId)
    , m_format(format)
    , m_cancel(cancel)
    , m_progress(std::move(progress))
{
}

ImportContext::~ImportContext() = default;

TraceSink &ImportContext::traceSink()
{
    if (m_metricSink)
        throw std::logic_error("an importer wrote through both sinks");
    if (!m_traceSink)
        m_traceSink
            = std::make_unique<TraceSink>(m_db, m_diagnostics, m_sourceId, m_input.path(), m_format, m_pool);
    return *m_traceSink;
}

MetricSink &ImportContext::metricSink()
{
    if (m_traceSink || m_pool)
        throw std::logic_error(
            "an importer wrote through both sinks, or a parallel trace import wrote metrics");
    if (!m_metricSink)
        m_metricSink = std::make_unique<MetricSink>(m_db, m_diagnostics);
    return *m_metricSink;
}

LineageSink &ImportContext::lineageSink()
{
    if (m_pool)
        throw std::logic_error("a parallel trace import wrote lineage");
    if (!m_lineageSink)
        m_lineageSink = std::make_unique<LineageSink>(m_db, m_sourceId);
    return *m_lineageSink;
}

ServingSink &ImportContext::servingSink()
{
    if (!m_servingSink)
        m_servingSink = std::make_unique<ServingSink>(m_db, m_sourceId);
    return *m_servingSink;
}

void ImportContext::checkpoint()
{
    checkpoint(m_input.compressedOffset());
}

void ImportContext::checkpoint(int64_t compressedOffset)
{
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
        throw ImportCancelled();
    if (m_progress)
        m_progress(compressedOffset, m_input.size());
}

void ImportContext::finish()
{
    if (m_servingSink) // first: its writer thread gives the connection back
        m_servingSink->finish();
    if (m_traceSink)
        m_traceSink->finish();
    if (m_metricSink)
        m_metricSink->finish();
}

} // namespace plumb
