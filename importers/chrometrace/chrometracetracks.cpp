// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/chrometracetracks.h"

#include "chrometrace/jsonfragments.h"
#include "ingest/tracesink.h"

namespace plumb::chrometrace {

ChromeTraceTracks::ChromeTraceTracks(TraceSink &sink)
    : m_sink(sink)
{
}

int64_t ChromeTraceTracks::trackFor(const Label &pid, const Label &tid)
{
    const std::string_view p = pid.present ? pid.text : std::string_view("0");
    std::string_view t = tid.present ? tid.text : std::string_view("0");
    // Older Kineto writes GPU streams as "stream 7" in some events and 7 in others: one stream.
    if (t.size() > 7 && t.substr(0, 7) == "stream " && toInt(trim(t.substr(7)))) {
        t = trim(t.substr(7));
    }
    if (m_lastTrack >= 0 && p == m_lastPid && t == m_lastTid) {
        return m_lastTrack;
    }
    m_lastPid.assign(p);
    m_lastTid.assign(t);
    m_lastTrack = m_sink.thread(m_sink.process(p), t);
    return m_lastTrack;
}

int64_t ChromeTraceTracks::process(const Label &pid)
{
    return m_sink.process(pid.present ? pid.text : std::string_view("0"));
}

int64_t ChromeTraceTracks::apiTrack(int64_t thread)
{
    const int64_t track = m_sink.companionTrack(thread, TrackKind::CudaApi);
    m_apiTracks.emplace(thread, track);
    return track;
}

bool ChromeTraceTracks::applyMetadata(const TraceEvent &e)
{
    const int64_t process = this->process(e.pid);
    const ArgField *a = nullptr;
    if (e.name == "process_name" && (a = e.arg("name")) && a->kind == ArgKind::String) {
        m_sink.setProcessName(process, unescapeJson(a->raw.substr(1, a->raw.size() - 2)));
    } else if (e.name == "thread_name" && (a = e.arg("name")) && a->kind == ArgKind::String) {
        m_sink.setTrackName(trackFor(e.pid, e.tid), unescapeJson(a->raw.substr(1, a->raw.size() - 2)));
    } else if (e.name == "process_sort_index" && (a = e.arg("sort_index")) && a->kind == ArgKind::Int) {
        m_sink.setProcessSortIndex(process, toInt(a->raw).value_or(0));
    } else if (e.name == "thread_sort_index" && (a = e.arg("sort_index")) && a->kind == ArgKind::Int) {
        m_sink.setTrackSortIndex(trackFor(e.pid, e.tid), toInt(a->raw).value_or(0));
    } else if (e.name == "process_labels" && (a = e.arg("labels")) && a->kind == ArgKind::String) {
        const std::string labels = unescapeJson(a->raw.substr(1, a->raw.size() - 2));
        m_sink.setProcessLabels(process, labels);
        // Kineto labels device processes "GPU n": that is what makes them devices.
        if (labels.rfind("GPU ", 0) == 0) {
            m_sink.setProcessKind(
                process, ProcessKind::Gpu, toInt(std::string_view(labels).substr(4)).value_or(kNoValue));
        }
    } else {
        return false;
    }
    return true;
}

void ChromeTraceTracks::relocateLaunchFlowEnds()
{
    const int64_t ac2g = m_sink.intern("ac2g");
    for (const auto &[thread, api] : m_apiTracks) {
        if (!m_gpuTracks.count(thread)) {
            m_sink.relocateFlowEnds(thread, api, ac2g);
        }
    }
}

} // namespace plumb::chrometrace
