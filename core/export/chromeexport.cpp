// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/chromeexport.h"

#include "analysis/devicebackend.h"
#include "export/exportoutput.h"
#include "export/exportstrings.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "text/jsontext.h"
#include "timeline/timelinedata.h"
#include "timeline/timelinequery.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

namespace {

constexpr int64_t kNone = INT64_MIN;

struct ProcessOut {
    int64_t id = 0;
    int64_t pid = 0;
    std::string name;
    std::string labels;
    bool gpu = false;
    int64_t device = kNone;
    int64_t sortIndex = kNone;
};

struct TrackOut {
    int64_t id = 0;
    size_t process = 0; // index into the processes
    int64_t pid = 0;
    int64_t tid = 0;
    std::string kind;
    std::string name;
    int64_t stream = kNone;
    int64_t sortIndex = kNone;
    bool counter = false;
    bool isStream = false; // a GPU stream (kind gpu_stream)
    bool launchSide = false; // a CPU thread or its CUDA API track: launches carry corr here
    bool gpu = false; // a track of a GPU process
    bool owner = true; // names its tid (a companion track shares its owner's)
};

// Correlation ids that link a launch to GPU-side work, both in the window: sorted, with a bit per
// id saying whether its "s" was written (one per id, at the first launch holding it).
class CorrMatches {
public:
    void read(SqliteDb &db, int64_t traceId, int64_t from, int64_t to, const std::string &opCats)
    {
        SqliteStmt launches(db,
            "SELECT s.corr FROM slice s JOIN track k ON k.id = s.track_id "
            "LEFT JOIN process p ON p.id = k.process_id "
            "WHERE k.trace_id = ?1 AND k.kind IN ('thread', 'cuda_api') AND coalesce(p.kind, '') <> 'gpu' "
            "AND s.corr IS NOT NULL AND s.ts >= ?2 AND s.ts < ?3");
        launches.bind(1, traceId).bind(2, from).bind(3, to);
        while (launches.step())
            m_corrs.push_back(launches.columnInt(0));
        std::sort(m_corrs.begin(), m_corrs.end());
        m_corrs.erase(std::unique(m_corrs.begin(), m_corrs.end()), m_corrs.end());
        std::vector<bool> used(m_corrs.size());
        if (!m_corrs.empty() && !opCats.empty()) {
            SqliteStmt ops(db,
                "SELECT s.corr FROM slice s JOIN track k ON k.id = s.track_id "
                "JOIN process p ON p.id = k.process_id "
                "WHERE k.trace_id = ?1 AND p.kind = 'gpu' AND s.corr IS NOT NULL AND s.ts >= ?2 AND s.ts < "
                "?3 "
                "AND s.cat_id IN ("
                    + opCats + ")");
            ops.bind(1, traceId).bind(2, from).bind(3, to);
            while (ops.step())
                if (const size_t i = index(ops.columnInt(0)); i != kMissing)
                    used[i] = true;
        }
        size_t kept = 0;
        for (size_t i = 0; i < m_corrs.size(); ++i)
            if (used[i])
                m_corrs[kept++] = m_corrs[i];
        m_corrs.resize(kept);
        m_corrs.shrink_to_fit();
        m_started.assign(kept, false);
    }
    [[nodiscard]] bool matched(int64_t corr) const { return index(corr) != kMissing; }
    // True the first time for a matched id.
    [[nodiscard]] bool start(int64_t corr)
    {
        const size_t i = index(corr);
        if (i == kMissing || m_started[i])
            return false;
        m_started[i] = true;
        return true;
    }

private:
    static constexpr size_t kMissing = SIZE_MAX;
    [[nodiscard]] size_t index(int64_t corr) const
    {
        auto it = std::lower_bound(m_corrs.begin(), m_corrs.end(), corr);
        return it != m_corrs.end() && *it == corr ? size_t(it - m_corrs.begin()) : kMissing;
    }
    std::vector<int64_t> m_corrs;
    std::vector<bool> m_started;
};

// One file's worth of traces, written event by event.
class Writer {
public:
    Writer(Workspace &ws, ExportOutput &out, ChromeExportStats &stats)
        : m_db(ws.db())
        , m_ws(ws)
        , m_out(out)
        , m_stats(stats)
        , m_strings(ws.db())
    {
    }

    struct TraceRow {
        int64_t id = 0;
        std::string format;
        int64_t rank = kNone;
        int64_t worldSize = kNone;
        int64_t baseTimeNs = kNone;
        int64_t startNs = 0;
        std::string metadata;
    };

    TraceRow traceRow(int64_t traceId)
    {
        SqliteStmt st(m_db,
            "SELECT format, rank, world_size, base_time_ns, coalesce(start_ns, 0), metadata FROM trace "
            "WHERE id = ?");
        st.bind(1, traceId);
        if (!st.step())
            throw ExportError("no trace " + std::to_string(traceId) + " in the workspace");
        TraceRow t;
        t.id = traceId;
        t.format.assign(st.columnView(0));
        t.rank = st.columnIsNull(1) ? kNone : st.columnInt(1);
        t.worldSize = st.columnIsNull(2) ? kNone : st.columnInt(2);
        t.baseTimeNs = st.columnIsNull(3) ? kNone : st.columnInt(3);
        t.startNs = st.columnInt(4);
        if (!st.columnIsNull(5))
            t.metadata.assign(st.columnView(5));
        return t;
    }

    // The top-level fields before "traceEvents" of a file holding `t` (the first trace, for one file
    // of several: then no distributedInfo).
    void header(const TraceRow &t, bool single)
    {
        std::string &o = m_out.text;
        o += '{';
        bool first = true;
        auto member = [&](std::string_view key) {
            if (!first)
                o += ",\n";
            first = false;
            o += key;
            o += ':';
        };
        bool hasDevices = false, hasDistributed = false, hasSchema = false;
        // Another format's metadata is its importer's own (Nsight's EXPORT_* fields, XPlane's planes).
        if (!single && t.format == "chrometrace")
            forEachJsonMember(t.metadata, [&](std::string_view key, std::string_view value) {
                if (key == "\"traceEvents\"" || key == "\"baseTimeNanoseconds\"")
                    return;
                hasDevices |= key == "\"deviceProperties\"";
                hasDistributed |= key == "\"distributedInfo\"";
                hasSchema |= key == "\"schemaVersion\"";
                member(key);
                o += value;
            });
        if (!hasSchema) {
            member("\"schemaVersion\"");
            o += '1';
        }
        if (!hasDevices) {
            SqliteStmt d(m_db,
                "SELECT properties FROM device WHERE trace_id = ? AND properties IS NOT NULL ORDER BY "
                "device_index");
            d.bind(1, t.id);
            bool any = false;
            while (d.step()) {
                if (!any)
                    member("\"deviceProperties\"");
                o += any ? ",\n" : "[\n";
                any = true;
                o += d.columnView(0);
            }
            if (any)
                o += ']';
        }
        if (!single && !hasDistributed && t.rank != kNone) {
            member("\"distributedInfo\"");
            o += "{\"rank\":";
            appendJsonInt(o, t.rank);
            if (t.worldSize != kNone) {
                o += ",\"world_size\":";
                appendJsonInt(o, t.worldSize);
            }
            o += '}';
        }
        if (t.baseTimeNs != kNone) {
            member("\"baseTimeNanoseconds\"");
            appendJsonInt(o, t.baseTimeNs);
        }
        member("\"traceEvents\"");
        o += '[';
    }

    void footer() { m_out.text += "\n]}\n"; }

    // Every event of trace `t` in the window. `shiftNs` is added to every timestamp (to align ranks
    // in one file); `renumber` gives each process the next pid of the file, named with `prefix`.
    void traceEvents(const TraceRow &t, const ChromeExportOptions &options, int64_t shiftNs, bool renumber,
        const std::string &prefix)
    {
        m_shiftNs = shiftNs;
        const int64_t from = options.fromNs == INT64_MIN ? INT64_MIN : satAdd(t.startNs, options.fromNs);
        const int64_t to = options.toNs == INT64_MAX ? INT64_MAX : satAdd(t.startNs, options.toNs);
        readTracks(t, renumber);
        metadataEvents(prefix);
        stepEvents(t, from, to);

        std::string opCats;
        // Every backend's device-op and sync categories (analysis/devicebackend.h), as the file wrote them.
        for (std::string_view cat : categoriesWithRoles({ CategoryRole::Kernel, CategoryRole::Memcpy,
                 CategoryRole::Memset, CategoryRole::Graph, CategoryRole::Sync })) {
            const int64_t id = m_db.queryInt(
                "SELECT coalesce((SELECT id FROM string WHERE str = '" + std::string(cat) + "'), -1)");
            if (id < 0)
                continue;
            if (!opCats.empty())
                opCats += ',';
            opCats += std::to_string(id);
            m_opCats.insert(id);
            const CategoryRole role = categoryRole(cat);
            if (role != CategoryRole::Graph && role != CategoryRole::Sync)
                m_gpuOpCats.insert(id);
        }
        CorrMatches corrs;
        corrs.read(m_db, t.id, from, to, opCats);

        // Memory counters that the importer makes from [memory] instants, which are exported.
        const bool skipMemoryCounters = t.format == "chrometrace";

        struct Cursor {
            SqliteStmt st;
            size_t track;
            int64_t ts;
        };
        std::vector<Cursor> cursors;
        cursors.reserve(m_tracks.size());
        for (size_t i = 0; i < m_tracks.size(); ++i) {
            const TrackOut &k = m_tracks[i];
            if (k.counter && skipMemoryCounters && k.name.rfind("Memory allocated, ", 0) == 0)
                continue;
            SqliteStmt st(m_db,
                k.counter ? "SELECT ts, value FROM counter WHERE track_id = ?1 AND ts >= ?2 AND ts < ?3 "
                            "ORDER BY ts, id"
                          : "SELECT ts, dur, name_id, cat_id, corr, ext_id, seq_nr, ev_idx, rf_id, args_id "
                            "FROM slice WHERE track_id = ?1 AND ts >= ?2 AND ts < ?3 ORDER BY ts, id");
            st.bind(1, k.id).bind(2, from).bind(3, to);
            if (st.step()) {
                const int64_t ts = st.columnInt(0);
                cursors.push_back({ std::move(st), i, ts });
            }
        }
        // A heap of cursor indexes, earliest first (ties: track order, so the output is stable).
        auto later = [&](size_t a, size_t b) {
            return cursors[a].ts != cursors[b].ts ? cursors[a].ts > cursors[b].ts
                                                  : cursors[a].track > cursors[b].track;
        };
        std::vector<size_t> heap(cursors.size());
        for (size_t i = 0; i < heap.size(); ++i)
            heap[i] = i;
        std::make_heap(heap.begin(), heap.end(), later);
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), later);
            Cursor &c = cursors[heap.back()];
            const TrackOut &k = m_tracks[c.track];
            if (k.counter)
                counterEvent(k, c.ts, c.st.columnDouble(1));
            else
                sliceEvent(k, c.st, c.ts, corrs);
            m_out.maybeFlush();
            if (c.st.step()) {
                c.ts = c.st.columnInt(0);
                std::push_heap(heap.begin(), heap.end(), later);
            } else {
                heap.pop_back();
            }
        }
        flowRows(t.id, from, to);
        ++m_stats.traces;
        m_opCats.clear();
        m_gpuOpCats.clear();
    }

private:
    static int64_t satAdd(int64_t a, int64_t b)
    {
        int64_t r = 0;
        if (__builtin_add_overflow(a, b, &r))
            return b < 0 ? INT64_MIN : INT64_MAX;
        return r;
    }

    void beginEvent()
    {
        m_out.text += m_firstEvent ? "\n" : ",\n";
        m_firstEvent = false;
        ++m_stats.events;
    }

    void readTracks(const TraceRow &t, bool renumber)
    {
        m_processes.clear();
        m_tracks.clear();
        m_trackIndex.clear();
        std::unordered_map<int64_t, size_t> processIndex;
        std::unordered_set<int64_t> usedPids;
        {
            SqliteStmt st(m_db,
                "SELECT id, pid, label, name, labels, kind, device_index, sort_index FROM process "
                "WHERE trace_id = ? ORDER BY id");
            st.bind(1, t.id);
            while (st.step()) {
                ProcessOut p;
                p.id = st.columnInt(0);
                p.pid = st.columnIsNull(1) ? kNone : st.columnInt(1);
                p.name.assign(st.columnIsNull(3) ? st.columnView(2) : st.columnView(3));
                p.labels.assign(st.columnView(4));
                p.gpu = st.columnView(5) == "gpu";
                p.device = st.columnIsNull(6) ? kNone : st.columnInt(6);
                p.sortIndex = st.columnIsNull(7) ? kNone : st.columnInt(7);
                if (p.labels.empty() && p.gpu && p.device != kNone)
                    p.labels = "GPU " + std::to_string(p.device);
                processIndex.emplace(p.id, m_processes.size());
                m_processes.push_back(std::move(p));
            }
        }
        // A process for the tracks of none (global instants).
        const size_t globalProcess = m_processes.size();
        m_processes.push_back({});
        m_processes.back().id = kNone;
        m_processes.back().name = "Global";
        if (renumber) {
            for (ProcessOut &p : m_processes)
                p.pid = m_nextPid++;
        } else {
            for (ProcessOut &p : m_processes)
                if (p.pid != kNone && !usedPids.insert(p.pid).second)
                    p.pid = kNone;
            int64_t next = 1;
            for (ProcessOut &p : m_processes)
                if (p.pid == kNone) {
                    while (usedPids.count(next))
                        ++next;
                    p.pid = next;
                    usedPids.insert(next);
                }
        }

        struct Raw {
            int64_t processId;
            std::string label;
            bool hasLabel;
            int64_t tid;
        };
        std::vector<Raw> raw;
        {
            SqliteStmt st(m_db,
                "SELECT id, process_id, kind, tid, label, name, stream, sort_index FROM track "
                "WHERE trace_id = ? ORDER BY id");
            st.bind(1, t.id);
            while (st.step()) {
                TrackOut k;
                k.id = st.columnInt(0);
                const int64_t processId = st.columnIsNull(1) ? kNone : st.columnInt(1);
                auto pit = processIndex.find(processId);
                k.process = pit == processIndex.end() ? globalProcess : pit->second;
                k.pid = m_processes[k.process].pid;
                k.kind.assign(st.columnView(2));
                k.name.assign(st.columnView(5));
                k.stream = st.columnIsNull(6) ? kNone : st.columnInt(6);
                k.sortIndex = st.columnIsNull(7) ? kNone : st.columnInt(7);
                k.counter = k.kind == "counter";
                k.isStream = k.kind == "gpu_stream";
                k.gpu = m_processes[k.process].gpu;
                k.launchSide = (k.kind == "thread" || k.kind == "cuda_api") && !k.gpu;
                raw.push_back({ processId, std::string(st.columnView(4)), !st.columnIsNull(4),
                    st.columnIsNull(3) ? kNone : st.columnInt(3) });
                m_trackIndex.emplace(k.id, m_tracks.size());
                m_tracks.push_back(std::move(k));
            }
        }
        // tids: the tracks of one (process, label) share one (a thread and its companions); a numeric
        // tid is kept where it is free in its process, the others get the next free numbers.
        std::unordered_map<std::string, int64_t> byKey;
        std::unordered_map<int64_t, std::unordered_set<int64_t>> usedTids; // by pid
        auto keyOf = [&](size_t i) {
            return raw[i].hasLabel ? std::to_string(raw[i].processId) + ':' + raw[i].label
                                   : "#" + std::to_string(m_tracks[i].id);
        };
        std::vector<bool> assigned(m_tracks.size());
        for (int pass = 0; pass < 2; ++pass) {
            for (size_t i = 0; i < m_tracks.size(); ++i) {
                TrackOut &k = m_tracks[i];
                if (k.counter || assigned[i])
                    continue;
                const std::string key = keyOf(i);
                if (auto it = byKey.find(key); it != byKey.end()) {
                    k.tid = it->second;
                    k.owner = false;
                    assigned[i] = true;
                    continue;
                }
                std::unordered_set<int64_t> &used = usedTids[k.pid];
                int64_t tid = raw[i].tid;
                if (pass == 0) {
                    if (tid == kNone || used.count(tid))
                        continue;
                } else {
                    tid = 1;
                    while (used.count(tid))
                        ++tid;
                }
                used.insert(tid);
                byKey.emplace(key, tid);
                k.tid = tid;
                assigned[i] = true;
            }
        }
        // The owner of a shared tid is its thread or stream track when there is one.
        for (TrackOut &k : m_tracks)
            if (!k.counter && !k.owner && (k.kind == "thread" || k.kind == "gpu_stream"))
                for (TrackOut &o : m_tracks)
                    if (o.owner && !o.counter && o.pid == k.pid && o.tid == k.tid && &o != &k) {
                        o.owner = false;
                        k.owner = true;
                    }
    }

    // One "M" event: {"ph":"M","name":NAME,"pid":..,"tid":..,"args":{KEY:VALUE}}; `value` is JSON text.
    void metadataEvent(const char *name, int64_t pid, int64_t tid, const char *key, std::string_view value)
    {
        std::string &o = m_out.text;
        beginEvent();
        o += "{\"ph\":\"M\",\"name\":\"";
        o += name;
        o += "\",\"pid\":";
        appendJsonInt(o, pid);
        o += ",\"tid\":";
        appendJsonInt(o, tid);
        o += ",\"args\":{\"";
        o += key;
        o += "\":";
        o += value;
        o += "}}";
    }
    static std::string jsonString(std::string_view s)
    {
        std::string out;
        appendJsonString(out, s);
        return out;
    }
    static std::string jsonInt(int64_t v)
    {
        std::string out;
        appendJsonInt(out, v);
        return out;
    }

    void metadataEvents(const std::string &prefix)
    {
        std::unordered_set<int64_t> usedProcesses;
        for (const TrackOut &k : m_tracks)
            usedProcesses.insert(k.pid);
        for (const ProcessOut &p : m_processes) {
            if (p.id == kNone && !usedProcesses.count(p.pid))
                continue;
            metadataEvent("process_name", p.pid, 0, "name", jsonString(prefix + p.name));
            if (!p.labels.empty())
                metadataEvent("process_labels", p.pid, 0, "labels", jsonString(p.labels));
            if (p.sortIndex != kNone)
                metadataEvent("process_sort_index", p.pid, 0, "sort_index", jsonInt(p.sortIndex));
        }
        for (const TrackOut &k : m_tracks) {
            if (k.counter || !k.owner)
                continue;
            if (!k.name.empty())
                metadataEvent("thread_name", k.pid, k.tid, "name", jsonString(k.name));
            if (k.sortIndex != kNone)
                metadataEvent("thread_sort_index", k.pid, k.tid, "sort_index", jsonInt(k.sortIndex));
        }
    }

    // Steps the analyses find (NVTX ranges, XPlane Steps lines) as PyTorch's ProfilerStep#N, on a
    // thread of their own, unless the trace has ProfilerStep#N slices already.
    void stepEvents(const TraceRow &t, int64_t from, int64_t to)
    {
        const std::vector<StepMarker> markers = stepMarkers(m_ws, timelineTracks(m_ws, t.id));
        if (markers.empty())
            return;
        for (const StepMarker &m : markers)
            if (m.name.startsWith(QLatin1String("ProfilerStep#")))
                return;
        int64_t pid = kNone;
        for (const ProcessOut &p : m_processes)
            if (!p.gpu && p.id != kNone) {
                pid = p.pid;
                break;
            }
        if (pid == kNone)
            pid = m_processes.back().pid; // the "Global" process
        int64_t tid = 1;
        for (const TrackOut &k : m_tracks)
            if (k.pid == pid)
                tid = std::max(tid, k.tid + 1);
        metadataEvent("thread_name", pid, tid, "name", "\"Steps\"");
        std::string &o = m_out.text;
        for (const StepMarker &m : markers) {
            if (m.startNs < from || m.startNs >= to)
                continue;
            beginEvent();
            o += "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#";
            appendJsonInt(o, m.number);
            o += "\",\"pid\":";
            appendJsonInt(o, pid);
            o += ",\"tid\":";
            appendJsonInt(o, tid);
            o += ",\"ts\":";
            appendJsonMicros(o, m.startNs + m_shiftNs);
            o += ",\"dur\":";
            appendJsonMicros(o, std::max<int64_t>(m.endNs - m.startNs, 0));
            o += '}';
            ++m_stats.slices;
        }
    }

    void counterEvent(const TrackOut &k, int64_t ts, double value)
    {
        std::string &o = m_out.text;
        beginEvent();
        o += "{\"ph\":\"C\",\"name\":";
        appendJsonString(o, k.name);
        o += ",\"pid\":";
        appendJsonInt(o, k.pid);
        o += ",\"ts\":";
        appendJsonMicros(o, ts + m_shiftNs);
        o += ",\"args\":{\"value\":";
        appendJsonDouble(o, value);
        o += "}}";
        ++m_stats.counters;
    }

    void sliceEvent(const TrackOut &k, const SqliteStmt &st, int64_t ts, CorrMatches &corrs)
    {
        std::string &o = m_out.text;
        const int64_t cat = st.columnIsNull(3) ? kNone : st.columnInt(3);
        const int64_t corr = st.columnIsNull(4) ? kNone : st.columnInt(4);
        beginEvent();
        o += "{\"ph\":\"X\"";
        if (cat != kNone) {
            o += ",\"cat\":";
            o += m_strings.quoted(cat);
        }
        o += ",\"name\":";
        o += m_strings.quoted(st.columnInt(2));
        o += ",\"pid\":";
        appendJsonInt(o, k.pid);
        o += ",\"tid\":";
        appendJsonInt(o, k.tid);
        o += ",\"ts\":";
        appendJsonMicros(o, ts + m_shiftNs);
        o += ",\"dur\":";
        appendJsonMicros(o, st.columnInt(1));
        bool any = false;
        auto key = [&](std::string_view name) {
            o += any ? "," : ",\"args\":{";
            any = true;
            o += name;
        };
        static constexpr std::string_view kPromoted[] = { "\"correlation\":", "\"External id\":",
            "\"Sequence number\":", "\"Ev Idx\":", "\"Record function id\":" };
        for (int c = 4; c <= 8; ++c)
            if (!st.columnIsNull(c)) {
                key(kPromoted[c - 4]);
                appendJsonInt(o, st.columnInt(c));
            }
        bool hasDevice = false, hasStream = false;
        if (!st.columnIsNull(9)) {
            const ExportStrings::Args &a = m_strings.args(st.columnInt(9));
            if (!a.inner.empty()) {
                key(a.inner);
                hasDevice = a.hasDevice;
                hasStream = a.hasStream;
            }
        }
        const bool gpuOp = k.isStream;
        if (gpuOp) {
            const ProcessOut &p = m_processes[k.process];
            if (!hasDevice && p.device != kNone) {
                key("\"device\":");
                appendJsonInt(o, p.device);
            }
            if (!hasStream && k.stream != kNone) {
                key("\"stream\":");
                appendJsonInt(o, k.stream);
            }
        }
        if (any)
            o += '}';
        o += '}';
        ++m_stats.slices;
        if (gpuOp && m_gpuOpCats.count(cat))
            ++m_stats.gpuOps;
        if (corr == kNone)
            return;
        if (k.launchSide ? corrs.start(corr) : k.gpu && m_opCats.count(cat) && corrs.matched(corr)) {
            beginEvent();
            o += k.launchSide ? "{\"ph\":\"s\"" : "{\"ph\":\"f\",\"bp\":\"e\"";
            o += ",\"id\":";
            appendJsonInt(o, corr);
            o += ",\"pid\":";
            appendJsonInt(o, k.pid);
            o += ",\"tid\":";
            appendJsonInt(o, k.tid);
            o += ",\"ts\":";
            appendJsonMicros(o, ts + m_shiftNs);
            o += ",\"cat\":\"ac2g\",\"name\":\"ac2g\"}";
            if (k.launchSide)
                ++m_stats.flows;
        }
    }

    void flowRows(int64_t traceId, int64_t from, int64_t to)
    {
        SqliteStmt st(m_db,
            "SELECT id, cat_id, flow_key, src_track, src_ts, dst_track, dst_ts FROM flow WHERE trace_id = ? "
            "ORDER BY id");
        st.bind(1, traceId);
        std::string &o = m_out.text;
        auto inWindow = [&](int col) {
            return st.columnIsNull(col) || (st.columnInt(col) >= from && st.columnInt(col) < to);
        };
        while (st.step()) {
            if (!inWindow(4) || !inWindow(6))
                continue;
            const std::string cat
                = st.columnIsNull(1) ? std::string("\"flow\"") : m_strings.quoted(st.columnInt(1));
            // Ids of their own, apart from the correlation ids of the ac2g flows.
            const int64_t id = st.columnIsNull(2) ? (int64_t(1) << 62) + st.columnInt(0) : st.columnInt(2);
            bool wrote = false;
            for (int end = 0; end < 2; ++end) {
                const int trackCol = end == 0 ? 3 : 5;
                if (st.columnIsNull(trackCol) || st.columnIsNull(trackCol + 1))
                    continue;
                auto it = m_trackIndex.find(st.columnInt(trackCol));
                if (it == m_trackIndex.end())
                    continue;
                const TrackOut &k = m_tracks[it->second];
                beginEvent();
                o += end == 0 ? "{\"ph\":\"s\"" : "{\"ph\":\"f\",\"bp\":\"e\"";
                o += ",\"id\":";
                appendJsonInt(o, id);
                o += ",\"pid\":";
                appendJsonInt(o, k.pid);
                o += ",\"tid\":";
                appendJsonInt(o, k.tid);
                o += ",\"ts\":";
                appendJsonMicros(o, st.columnInt(trackCol + 1) + m_shiftNs);
                o += ",\"cat\":";
                o += cat;
                o += ",\"name\":";
                o += cat;
                o += '}';
                wrote = true;
            }
            m_stats.flows += wrote;
            m_out.maybeFlush();
        }
    }

    SqliteDb &m_db;
    Workspace &m_ws;
    ExportOutput &m_out;
    ChromeExportStats &m_stats;
    ExportStrings m_strings;
    std::vector<ProcessOut> m_processes;
    std::vector<TrackOut> m_tracks;
    std::unordered_map<int64_t, size_t> m_trackIndex;
    std::unordered_set<int64_t> m_opCats; // GPU-side work a launch flow ends at
    std::unordered_set<int64_t> m_gpuOpCats; // kernel, memcpy, memset
    int64_t m_shiftNs = 0;
    int64_t m_nextPid = 1;
    bool m_firstEvent = true;
};

} // namespace

ChromeExporter::ChromeExporter(Workspace &ws)
    : m_ws(ws)
{
}

ChromeExportStats ChromeExporter::exportTrace(
    int64_t traceId, const QString &path, const ChromeExportOptions &options)
{
    ChromeExportStats stats;
    ExportOutput out(path, options.gzip);
    Writer w(m_ws, out, stats);
    const Writer::TraceRow t = w.traceRow(traceId);
    w.header(t, false);
    w.traceEvents(t, options, 0, false, {});
    w.footer();
    stats.bytes = out.commit();
    return stats;
}

ChromeExportStats ChromeExporter::exportTraces(
    const std::vector<int64_t> &traceIds, const QString &path, const ChromeExportOptions &options)
{
    ChromeExportStats stats;
    ExportOutput out(path, options.gzip);
    Writer w(m_ws, out, stats);
    std::vector<Writer::TraceRow> rows;
    rows.reserve(traceIds.size());
    for (int64_t id : traceIds)
        rows.push_back(w.traceRow(id));
    if (rows.empty())
        throw ExportError("no trace to export");
    w.header(rows.front(), true);
    const int64_t base = rows.front().baseTimeNs;
    for (const Writer::TraceRow &t : rows) {
        // Ranks whose files count from different base times are aligned on the first one's.
        const int64_t shift = base != kNone && t.baseTimeNs != kNone ? t.baseTimeNs - base : 0;
        const std::string prefix = t.rank != kNone ? "Rank " + std::to_string(t.rank) + ": "
                                                   : "Trace " + std::to_string(t.id) + ": ";
        w.traceEvents(t, options, shift, true, prefix);
    }
    w.footer();
    stats.bytes = out.commit();
    return stats;
}

ChromeExportStats ChromeExporter::exportRun(int64_t runId, const std::vector<int64_t> &ranks,
    const QString &path, bool singleFile, const ChromeExportOptions &options)
{
    struct RankTrace {
        int64_t traceId;
        int64_t rank;
    };
    std::vector<RankTrace> traces;
    SqliteStmt st(m_ws.db(),
        "SELECT id, coalesce(rank, -1) FROM trace WHERE run_id = ? ORDER BY rank IS NULL, rank, id");
    st.bind(1, runId);
    while (st.step())
        traces.push_back({ st.columnInt(0), st.columnInt(1) });
    if (!ranks.empty()) {
        std::vector<RankTrace> kept;
        for (int64_t r : ranks) {
            const size_t before = kept.size();
            for (const RankTrace &t : traces)
                if (t.rank == r)
                    kept.push_back(t);
            if (kept.size() == before)
                throw ExportError(
                    QStringLiteral("run %1 has no trace of rank %2").arg(runId).arg(r).toStdString());
        }
        traces = std::move(kept);
    }
    if (traces.empty())
        throw ExportError(QStringLiteral("run %1 has no trace to export (plumb ls lists the traces)")
                              .arg(runId)
                              .toStdString());
    if (singleFile) {
        std::vector<int64_t> ids;
        ids.reserve(traces.size());
        for (const RankTrace &t : traces)
            ids.push_back(t.traceId);
        return exportTraces(ids, path, options);
    }
    if (!QDir().mkpath(path) || !QFileInfo(path).isDir())
        throw ExportError(
            QStringLiteral("cannot write %1: it cannot be made a folder").arg(path).toStdString());
    ChromeExportStats total;
    QSet<QString> names;
    for (const RankTrace &t : traces) {
        QString name = rankFileName(t.rank, t.traceId, options.gzip);
        if (names.contains(name)) // two traces of one rank (several hosts): the second by its id
            name = rankFileName(-1, t.traceId, options.gzip);
        names.insert(name);
        const ChromeExportStats s = exportTrace(t.traceId, QDir(path).filePath(name), options);
        total.traces += s.traces;
        total.events += s.events;
        total.slices += s.slices;
        total.gpuOps += s.gpuOps;
        total.flows += s.flows;
        total.counters += s.counters;
        total.bytes += s.bytes;
    }
    return total;
}

QString rankFileName(int64_t rank, int64_t traceId, bool gzip)
{
    const QString ext = gzip ? QStringLiteral(".json.gz") : QStringLiteral(".json");
    return rank != kNone && rank >= 0 ? QStringLiteral("rank-%1").arg(rank) + ext
                                      : QStringLiteral("trace-%1").arg(traceId) + ext;
}

bool parseExportTime(const QString &text, int64_t &ns)
{
    QString t = text.trimmed();
    int64_t scale = 1;
    int maxDecimals = 0;
    if (t.endsWith(QLatin1String("ms"))) {
        scale = 1000000;
        maxDecimals = 6;
        t.chop(2);
    } else if (t.endsWith(QLatin1String("ns"))) {
        t.chop(2);
    }
    bool negative = false;
    if (t.startsWith(QLatin1Char('-'))) {
        negative = true;
        t.remove(0, 1);
    }
    const qsizetype dot = t.indexOf(QLatin1Char('.'));
    const QString whole = dot < 0 ? t : t.left(dot);
    const QString frac = dot < 0 ? QString() : t.mid(dot + 1);
    if ((whole.isEmpty() && frac.isEmpty()) || frac.size() > maxDecimals || (dot >= 0 && maxDecimals == 0))
        return false;
    for (const QString &part : { whole, frac })
        for (QChar c : part)
            if (c < QLatin1Char('0') || c > QLatin1Char('9'))
                return false;
    bool ok = true;
    const int64_t w = whole.isEmpty() ? 0 : whole.toLongLong(&ok);
    if (!ok)
        return false;
    int64_t f = 0;
    if (!frac.isEmpty()) {
        f = frac.toLongLong(&ok);
        for (qsizetype i = frac.size(); i < maxDecimals; ++i)
            f *= 10;
    }
    int64_t v = 0;
    if (!ok || __builtin_mul_overflow(w, scale, &v) || __builtin_add_overflow(v, f, &v))
        return false;
    ns = negative ? -v : v;
    return true;
}

} // namespace plumb
