// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/flowtracker.h"

#include "ingest/diagnosticlog.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"

namespace plumb {

FlowTracker::FlowTracker(TraceWriter &writer, TraceStats &stats, int64_t firstFlowId)
    : m_writer(writer)
    , m_stats(stats)
    , m_nextFlowId(firstFlowId)
{
}

void FlowTracker::emitFlow(int64_t cat, int64_t key, const FlowEnd *src, const FlowEnd *dst)
{
    m_writer.batch().flows.push_back(
        TraceBatch::FlowRow { m_nextFlowId++, cat, key, src ? src->track : kNoValue, src ? src->ts : kNoValue,
            dst ? dst->track : kNoValue, dst ? dst->ts : kNoValue });
    ++m_stats.flows;
    m_writer.pushIfFull();
}

void FlowTracker::flowStart(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
{
    const FlowEnd here { track, tsNs, true };
    auto [it, inserted] = m_pending.try_emplace(FlowKey { catId, key }, here);
    if (inserted) {
        return;
    }
    if (!it->second.isStart) {
        emitFlow(catId, key, &here, &it->second); // the end came first in the file
        m_pending.erase(it);
    } else {
        emitFlow(catId, key, &it->second, nullptr); // two starts: the first one dangles
        ++m_danglingFlows;
        it->second = here;
    }
}

void FlowTracker::flowEnd(int64_t catId, int64_t key, int64_t track, int64_t tsNs)
{
    const FlowEnd here { track, tsNs, false };
    auto [it, inserted] = m_pending.try_emplace(FlowKey { catId, key }, here);
    if (inserted) {
        return;
    }
    if (it->second.isStart) {
        emitFlow(catId, key, &it->second, &here);
        m_pending.erase(it);
    } else {
        emitFlow(catId, key, nullptr, &it->second);
        ++m_danglingFlows;
        it->second = here;
    }
}

void FlowTracker::finish(DiagnosticLog &diagnostics)
{
    for (const auto &[key, end] : m_pending) {
        emitFlow(key.cat, key.key, end.isStart ? &end : nullptr, end.isStart ? nullptr : &end);
        ++m_danglingFlows;
    }
    m_pending.clear();
    if (m_danglingFlows) {
        diagnostics.report(Severity::Info, QStringLiteral("dangling-flow"), {},
            QStringLiteral("Flow events with only one end (for example a launch whose kernel was not "
                           "captured); kept with the other end empty."),
            m_danglingFlows);
    }
}

void FlowTracker::applyRelocations(SqliteDb &db, int64_t traceId)
{
    for (const auto &r : m_relocations) {
        for (const char *sql :
            { "UPDATE flow SET src_track = ? WHERE trace_id = ? AND src_track = ? AND cat_id = ?",
                "UPDATE flow SET dst_track = ? WHERE trace_id = ? AND dst_track = ? AND cat_id = ?" }) {
            SqliteStmt st(db, sql);
            st.bind(1, r.to).bind(2, traceId).bind(3, r.from).bind(4, r.cat).run();
        }
    }
}

} // namespace plumb
