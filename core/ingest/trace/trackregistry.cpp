// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/trackregistry.h"

#include "store/sqlitedb.h"
#include "text/textnumbers.h"

namespace plumb {

namespace {

std::string_view kindName(TrackKind k)
{
    switch (k) {
    case TrackKind::Thread:
        return "thread";
    case TrackKind::GpuStream:
        return "gpu_stream";
    case TrackKind::Counter:
        return "counter";
    case TrackKind::Global:
        return "global";
    case TrackKind::CudaApi:
        return "cuda_api";
    case TrackKind::GpuAnnotation:
        return "gpu_annotation";
    case TrackKind::CpuSamples:
        return "cpu_samples";
    case TrackKind::OnCpu:
        return "on_cpu";
    }
    return "thread";
}

std::string_view processKindName(ProcessKind k)
{
    switch (k) {
    case ProcessKind::Cpu:
        return "cpu";
    case ProcessKind::Gpu:
        return "gpu";
    case ProcessKind::Other:
        return "other";
    }
    return "cpu";
}

void bindNullable(SqliteStmt &st, int index, int64_t v)
{
    if (v == kNoValue) {
        st.bindNull(index);
    } else {
        st.bind(index, v);
    }
}

void bindText(SqliteStmt &st, int index, const std::string &s)
{
    if (s.empty()) {
        st.bindNull(index);
    } else {
        st.bind(index, std::string_view(s));
    }
}

} // namespace

TrackRegistry::TrackRegistry(int64_t firstProcessId, int64_t firstTrackId)
    : m_processBase(firstProcessId)
    , m_trackBase(firstTrackId)
{
}

int64_t TrackRegistry::process(std::string_view label)
{
    auto it = m_processByLabel.find(label);
    if (it != m_processByLabel.end()) {
        return it->second;
    }
    const std::string key(label);
    const int64_t id = m_processBase + int64_t(m_processes.size());
    ProcessState p;
    p.label = key;
    if (auto n = parseNumber<int64_t>(label)) {
        p.pid = *n;
    } else {
        p.kind = ProcessKind::Other;
    }
    m_processes.push_back(std::move(p));
    m_processByLabel.emplace(key, id);
    return id;
}

void TrackRegistry::setProcessKind(int64_t process, ProcessKind kind, int64_t deviceIndex)
{
    auto &p = processState(process);
    p.kind = kind;
    if (deviceIndex != kNoValue) {
        p.deviceIndex = deviceIndex;
    }
}

int64_t TrackRegistry::newTrack(int64_t process, TrackKind kind, std::string_view label)
{
    const int64_t id = m_trackBase + int64_t(m_tracks.size());
    TrackState t;
    t.process = process;
    t.kind = kind;
    t.label.assign(label);
    if (kind != TrackKind::Counter && kind != TrackKind::Global) {
        if (auto n = parseNumber<int64_t>(label)) {
            t.tid = *n;
        }
    }
    m_tracks.push_back(std::move(t));
    return id;
}

int64_t TrackRegistry::thread(int64_t process, std::string_view tidLabel)
{
    thread_local std::string key;
    key.assign("t:");
    key.append(std::to_string(process));
    key.push_back(':');
    key.append(tidLabel);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end()) {
        return it->second;
    }
    const int64_t id = newTrack(process, TrackKind::Thread, tidLabel);
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TrackRegistry::companionTrack(int64_t track, TrackKind kind)
{
    std::string key = "k:" + std::to_string(track) + ':' + std::to_string(int(kind));
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end()) {
        return it->second;
    }
    const TrackState &parent = trackState(track);
    const int64_t process = parent.process;
    const std::string label = parent.label;
    const int64_t tid = parent.tid;
    const int64_t id = newTrack(process, kind, label);
    trackState(id).tid = tid;
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TrackRegistry::counterTrack(int64_t process, std::string_view name)
{
    std::string key = "c:" + std::to_string(process) + ':' + std::string(name);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end()) {
        return it->second;
    }
    const int64_t id = newTrack(process, TrackKind::Counter, {});
    trackState(id).name.assign(name);
    m_trackByKey.emplace(key, id);
    return id;
}

int64_t TrackRegistry::globalTrack(std::string_view name)
{
    std::string key = "g:" + std::string(name);
    auto it = m_trackByKey.find(key);
    if (it != m_trackByKey.end()) {
        return it->second;
    }
    const int64_t id = newTrack(kNoValue, TrackKind::Global, {});
    trackState(id).name.assign(name);
    m_trackByKey.emplace(key, id);
    return id;
}

void TrackRegistry::setTrackGpuStream(int64_t track, int64_t stream)
{
    auto &t = trackState(track);
    t.kind = TrackKind::GpuStream;
    t.stream = stream;
}

QString TrackRegistry::location(int64_t track, int64_t ts) const
{
    const auto &t = trackState(track);
    const QString pid = t.process == kNoValue
        ? QString()
        : QString::fromStdString(m_processes[size_t(t.process - m_processBase)].label);
    return QStringLiteral("pid %1 tid %2, ts %3 ns").arg(pid, QString::fromStdString(t.label)).arg(ts);
}

void TrackRegistry::writeRows(
    SqliteDb &db, int64_t traceId, const std::function<SliceCounts(int64_t track)> &counts) const
{
    SqliteStmt proc(db,
        "INSERT INTO process(id, trace_id, pid, label, name, kind, device_index, sort_index, "
        "labels) VALUES (?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; i < m_processes.size(); ++i) {
        const auto &p = m_processes[i];
        proc.bind(1, m_processBase + int64_t(i)).bind(2, traceId);
        bindNullable(proc, 3, p.pid);
        proc.bind(4, std::string_view(p.label));
        bindText(proc, 5, p.name);
        proc.bind(6, processKindName(p.kind));
        bindNullable(proc, 7, p.deviceIndex);
        bindNullable(proc, 8, p.sortIndex);
        bindText(proc, 9, p.labels);
        proc.run();
    }

    SqliteStmt track(db,
        "INSERT INTO track(id, trace_id, process_id, kind, tid, label, name, stream, "
        "sort_index, slice_count, max_depth, max_dur_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; i < m_tracks.size(); ++i) {
        const auto &t = m_tracks[i];
        const int64_t id = m_trackBase + int64_t(i);
        const SliceCounts c = counts(id);
        track.bind(1, id).bind(2, traceId);
        bindNullable(track, 3, t.process);
        track.bind(4, kindName(t.kind));
        bindNullable(track, 5, t.tid);
        bindText(track, 6, t.label);
        bindText(track, 7, t.name);
        bindNullable(track, 8, t.stream);
        bindNullable(track, 9, t.sortIndex);
        track.bind(10, c.slices).bind(11, c.maxDepth).bind(12, c.maxDurNs);
        track.run();
    }
}

} // namespace plumb
