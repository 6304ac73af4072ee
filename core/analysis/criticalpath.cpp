// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/criticalpath.h"

#include "analysis/devicebackend.h"
#include "analysis/gpuops.h"
#include "analysis/hostanalysis.h"
#include "analysis/stepbreakdown.h"
#include "store/sqlidlist.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

QString criticalPathModeName(CriticalPathMode mode)
{
    return mode == CriticalPathMode::Hta ? QStringLiteral("hta") : QStringLiteral("plumb");
}

QString criticalPathBoundKey(CriticalPathBound bound)
{
    switch (bound) {
    case CriticalPathBound::Cpu:
        return QStringLiteral("cpu_bound");
    case CriticalPathBound::DataLoading:
        return QStringLiteral("data_loading");
    case CriticalPathBound::GpuCompute:
        return QStringLiteral("gpu_compute_bound");
    case CriticalPathBound::GpuCommunication:
        return QStringLiteral("gpu_communication_bound");
    case CriticalPathBound::GpuMemory:
        return QStringLiteral("gpu_memory_bound");
    case CriticalPathBound::KernelKernel:
        return QStringLiteral("gpu_kernel_kernel_overhead");
    case CriticalPathBound::Launch:
        return QStringLiteral("gpu_kernel_launch_overhead");
    case CriticalPathBound::None:
        break;
    }
    return {};
}

QString criticalPathBoundName(CriticalPathBound bound, const QString &device)
{
    switch (bound) {
    case CriticalPathBound::Cpu:
        return QStringLiteral("CPU");
    case CriticalPathBound::DataLoading:
        return QStringLiteral("data loading");
    case CriticalPathBound::GpuCompute:
        return device + QStringLiteral(" compute");
    case CriticalPathBound::GpuCommunication:
        return QStringLiteral("communication");
    case CriticalPathBound::GpuMemory:
        return QStringLiteral("memory copies");
    case CriticalPathBound::KernelKernel:
        return QStringLiteral("kernel-to-kernel gaps");
    case CriticalPathBound::Launch:
        return QStringLiteral("launch overhead");
    case CriticalPathBound::None:
        break;
    }
    return {};
}

LongestPath longestPath(const CriticalPathGraph &graph)
{
    LongestPath out;
    const size_t n = size_t(std::max(graph.nodeCount, 0));
    // Incoming edges by node (CSR), in the order they were added.
    std::vector<int32_t> inStart(n + 1, 0), outStart(n + 1, 0);
    for (const auto &e : graph.edges) {
        ++inStart[size_t(e.to) + 1];
        ++outStart[size_t(e.from) + 1];
    }
    for (size_t i = 0; i < n; ++i) {
        inStart[i + 1] += inStart[i];
        outStart[i + 1] += outStart[i];
    }
    std::vector<int32_t> inEdges(graph.edges.size()), outEdges(graph.edges.size());
    {
        std::vector<int32_t> inFill(inStart.begin(), inStart.end() - 1),
            outFill(outStart.begin(), outStart.end() - 1);
        for (int32_t i = 0; i < int32_t(graph.edges.size()); ++i) {
            inEdges[size_t(inFill[size_t(graph.edges[size_t(i)].to)]++)] = i;
            outEdges[size_t(outFill[size_t(graph.edges[size_t(i)].from)]++)] = i;
        }
    }
    // Kahn's topological order.
    std::vector<int32_t> indegree(n), order;
    order.reserve(n);
    for (size_t v = 0; v < n; ++v) {
        indegree[v] = inStart[v + 1] - inStart[v];
        if (indegree[v] == 0)
            order.push_back(int32_t(v));
    }
    for (size_t i = 0; i < order.size(); ++i) {
        const size_t v = size_t(order[i]);
        for (int32_t k = outStart[v]; k < outStart[v + 1]; ++k)
            if (--indegree[size_t(graph.edges[size_t(outEdges[size_t(k)])].to)] == 0)
                order.push_back(graph.edges[size_t(outEdges[size_t(k)])].to);
    }
    if (order.size() != n) {
        out.ok = false;
        return out;
    }
    // The longest distance to each node and the edge it came by (-1: a start).
    std::vector<int64_t> dist(n, 0);
    std::vector<int32_t> via(n, -1);
    int32_t best = -1;
    for (int32_t v : order) {
        for (int32_t k = inStart[size_t(v)]; k < inStart[size_t(v) + 1]; ++k) {
            const auto &e = graph.edges[size_t(inEdges[size_t(k)])];
            const int64_t d = dist[size_t(e.from)] + std::max<int64_t>(e.weightNs, 0);
            if (via[size_t(v)] < 0 || d > dist[size_t(v)]) {
                dist[size_t(v)] = d;
                via[size_t(v)] = inEdges[size_t(k)];
            }
        }
        if (best < 0 || dist[size_t(v)] > dist[size_t(best)])
            best = v;
    }
    if (best < 0)
        return out;
    out.lengthNs = dist[size_t(best)];
    for (int32_t v = best; via[size_t(v)] >= 0; v = graph.edges[size_t(via[size_t(v)])].from)
        out.edges.push_back(via[size_t(v)]);
    std::reverse(out.edges.begin(), out.edges.end());
    return out;
}

namespace {

using Bound = CriticalPathBound;

// HTA's blocking calls (its CPGraph.BLOCKING_SYNC_CALLS): their own time weighs nothing in its model.
// A model's list, not a backend's: Plumb's own mode takes every backend's sync calls instead.
// Plumb: an op that starts this long after its launch, its stream predecessor and any recorded wait
// waited for something else: another stream's op (below).
constexpr int64_t kImplicitWaitNs = 50'000;

constexpr std::string_view kHtaBlockingCalls[] = { "cudaDeviceSynchronize", "cudaStreamSynchronize",
    "cudaEventQuery", "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync" };

// HTA's kernel launches (its get_runtime_launch_events_query): the calls its queue lengths count.
constexpr std::string_view kHtaLaunchCalls[]
    = { "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync",
          "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel", "hipExtModuleLaunchKernel",
          "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream" };

// An event of the graph: a CPU slice or a device op, with its start and end nodes (2i, 2i + 1).
struct Event {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t trackId = 0;
    int64_t rawStartNs = 0; // slice.ts (for the overlay)
    int64_t rawEndNs = 0;
    int64_t nameId = 0;
    int depth = 0; // slice.depth
    Bound bound = Bound::Cpu; // what its own time is bound by
    int32_t exitEdge = -1; // CPU: the edge into its end node
    bool blocking = false;
};

// A device op of the whole trace (the queue lengths and the event look-ups need every one).
struct DeviceOp {
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t rawStartNs = 0;
    int64_t rawDur = 0;
    int64_t trackId = 0;
    int64_t nameId = 0;
    int64_t corr = -1;
    int depth = 0;
    Bound bound = Bound::GpuCompute;
    int32_t event = -1; // its graph event, -1 when it is not in the window
};

// A CPU-side call with a correlation id (whole trace): a launch, a sync call, an event record.
struct HostCall {
    int64_t ts = 0;
    int64_t threadKey = 0; // (process, tid) as one number
    int64_t nameId = 0;
    int32_t event = -1; // its graph event when in the window
};

// A synchronisation record (cuda_sync), or an event record on a stream (cuda_event).
struct SyncRecord {
    enum class Kind { ContextSync, StreamSync, EventSync, StreamWait, EventRecord, Other } kind = Kind::Other;
    int64_t sortNs = 0; // its end (HTA sorts syncs by their end among the ops' starts)
    int64_t trackId = 0;
    int64_t corr = -1;
    int64_t waitOnStream = -1;
    int64_t recordCorr = -1;
};

class Builder {
public:
    Builder(Workspace &ws, int64_t traceId, CriticalPathMode mode, int64_t fromNs, int64_t toNs)
        : m_db(ws.db())
        , m_traceId(traceId)
        , m_hta(mode == CriticalPathMode::Hta)
        , m_from(fromNs)
        , m_to(toNs)
        , m_nameStmt(m_db, "SELECT str FROM string WHERE id = ?")
    {
    }

    CriticalPath run()
    {
        readCategories();
        readHost();
        readDevice();
        buildCpu();
        buildDevice();
        if (!m_hta && !m_haveSyncRecords)
            inferSyncs();
        return solve();
    }

private:
    const std::string &name(int64_t id)
    {
        auto it = m_names.find(id);
        if (it != m_names.end())
            return it->second;
        m_nameStmt.reset();
        m_nameStmt.bind(1, id);
        std::string s = m_nameStmt.step() ? std::string(m_nameStmt.columnView(0)) : std::string();
        return m_names.emplace(id, std::move(s)).first->second;
    }
    int64_t start(int64_t ts) const { return m_hta ? htaStartNs(ts) : ts; }
    int64_t end(int64_t ts, int64_t dur) const
    {
        return m_hta ? std::max(htaStartNs(ts), htaEndNs(ts, dur)) : ts + dur;
    }

    void readCategories()
    {
        SqliteStmt st(m_db,
            "SELECT id, str FROM string WHERE str IN ("
                + sqlCategoryList({ CategoryRole::Kernel, CategoryRole::Memcpy, CategoryRole::Memset,
                    CategoryRole::Graph, CategoryRole::Runtime, CategoryRole::Driver, CategoryRole::Sync })
                + ", 'cpu_op', 'cuda_event')");
        while (st.step()) {
            const std::string_view s = st.columnView(1);
            const int64_t id = st.columnInt(0);
            if (s == "cpu_op")
                m_cpuOpCat = id;
            else if (s == "cuda_event")
                m_eventCats.insert(id);
            else if (const BackendCategory *c = backendCategory(s))
                m_cats.emplace(id, c);
        }
    }
    CategoryRole roleOf(int64_t cat) const
    {
        auto it = m_cats.find(cat);
        return it == m_cats.end() ? CategoryRole::None : it->second->role;
    }

    // Host slices: those in the window become events; calls with a correlation id (whole trace) are
    // kept for the launch, record and wait look-ups.
    void readHost()
    {
        SqliteStmt st(m_db,
            "SELECT s.track_id, k.process_id, k.label, s.ts, s.dur, s.name_id, coalesce(s.cat_id, -1), "
            "coalesce(s.corr, -1), s.depth FROM track k JOIN slice s ON s.track_id = k.id "
            "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api') AND (s.corr IS NOT NULL OR "
            "(s.ts >= ? AND s.ts <= ? AND s.dur > 0))");
        st.bind(1, m_traceId).bind(2, m_from - 1000).bind(3, m_to + 1000);
        std::map<std::pair<int64_t, std::string>, int64_t> threadKeys;
        while (st.step()) {
            const int64_t cat = st.columnInt(6);
            const CategoryRole role = roleOf(cat);
            if (role == CategoryRole::Sync)
                continue;
            const auto key = std::make_pair(st.columnInt(1), std::string(st.columnView(2)));
            const int64_t thread = threadKeys.emplace(key, int64_t(threadKeys.size())).first->second;
            const int64_t ts = st.columnInt(3), dur = st.columnInt(4);
            const int64_t s = start(ts);
            const bool node = dur > 0 && s >= m_from && s <= m_to
                && (!m_hta || cat == m_cpuOpCat || isHostCallRole(role));
            int32_t ev = -1;
            if (node) {
                Event e;
                e.startNs = s;
                // (Plumb: a CPU slice's time after the window, e.g. a Python frame running on into
                // the next step, is not the window's.)
                e.endNs = m_hta ? end(ts, dur) : std::min(ts + dur, m_to);
                e.rawStartNs = ts;
                e.rawEndNs = ts + dur;
                e.trackId = st.columnInt(0);
                e.nameId = st.columnInt(5);
                e.depth = int(st.columnInt(8));
                const std::string &n = name(e.nameId);
                if (m_hta)
                    e.blocking = std::find(std::begin(kHtaBlockingCalls), std::end(kHtaBlockingCalls), n)
                        != std::end(kHtaBlockingCalls);
                else
                    e.blocking = isHostCallRole(role) && (isSyncCall(n) || isMemcpyCall(n));
                ev = int32_t(m_events.size());
                m_events.push_back(e);
                m_threadOf.push_back(thread);
            }
            const int64_t corr = st.columnInt(7);
            if (corr >= 0 && isHostCallRole(role)) {
                auto [it, fresh] = m_calls.try_emplace(corr);
                if (fresh || s < it->second.ts)
                    it->second = HostCall { s, thread, st.columnInt(5), ev };
            }
        }
    }

    void readDevice()
    {
        std::vector<int64_t> cats;
        for (const auto &[id, c] : m_cats)
            if (isDeviceOpRole(c->role) || c->role == CategoryRole::Sync)
                cats.push_back(id);
        cats.insert(cats.end(), m_eventCats.begin(), m_eventCats.end());
        if (cats.empty())
            return;
        SqliteStmt st(m_db,
            "SELECT s.track_id, s.ts, s.dur, s.name_id, s.cat_id, coalesce(s.corr, -1), a.json, "
            "k.process_id, "
            "s.depth "
            "FROM track k JOIN slice s ON s.track_id = k.id LEFT JOIN args a ON a.id = s.args_id "
            "WHERE k.trace_id = ? AND s.cat_id IN ("
                + sqlIdList(cats) + ") ORDER BY s.ts");
        st.bind(1, m_traceId);
        while (st.step()) {
            const int64_t cat = st.columnInt(4);
            const int64_t ts = st.columnInt(1), dur = st.columnInt(2);
            auto it = m_cats.find(cat);
            if (it != m_cats.end() && isDeviceOpRole(it->second->role)) {
                DeviceOp op;
                op.rawStartNs = ts;
                op.rawDur = dur;
                op.startNs = start(ts);
                op.endNs = end(ts, dur);
                op.trackId = st.columnInt(0);
                op.nameId = st.columnInt(3);
                op.corr = st.columnInt(5);
                op.depth = int(st.columnInt(8));
                const std::string &n = name(op.nameId);
                const CategoryRole role = it->second->role;
                const BackendCategory &c = *it->second;
                const bool memoryNamed = std::any_of(c.memoryNamePrefixes.begin(), c.memoryNamePrefixes.end(),
                    [&](std::string_view p) { return std::string_view(n).substr(0, p.size()) == p; });
                if (m_hta ? n.rfind("nccl", 0) == 0
                          : (role == CategoryRole::Kernel && n.find("nccl") != std::string::npos))
                    op.bound = Bound::GpuCommunication;
                else if (!m_hta
                    && (role == CategoryRole::Memcpy || role == CategoryRole::Memset || memoryNamed))
                    op.bound = Bound::GpuMemory;
                m_ops.push_back(op);
                continue;
            }
            SyncRecord r;
            r.trackId = st.columnInt(0);
            r.corr = st.columnInt(5);
            r.sortNs = end(ts, dur);
            const QJsonObject args
                = QJsonDocument::fromJson(QByteArray(st.columnView(6).data(), int(st.columnView(6).size())))
                      .object();
            r.waitOnStream = args.value(QLatin1String("wait_on_stream")).toInteger(-1);
            r.recordCorr = args.value(QLatin1String("wait_on_cuda_event_record_corr_id")).toInteger(-1);
            const std::string &n = name(st.columnInt(3));
            if (m_eventCats.count(cat)) {
                r.kind = SyncRecord::Kind::EventRecord;
                m_recordTrack[r.corr] = r.trackId;
                continue;
            }
            m_haveSyncRecords = true;
            r.kind = n == "Context Sync"   ? SyncRecord::Kind::ContextSync
                : n == "Stream Sync"       ? SyncRecord::Kind::StreamSync
                : n == "Event Sync"        ? SyncRecord::Kind::EventSync
                : n == "Stream Wait Event" ? SyncRecord::Kind::StreamWait
                                           : SyncRecord::Kind::Other;
            m_processOfTrack[r.trackId] = st.columnInt(7);
            m_syncs.push_back(r);
        }
        // Stream tracks by (process, stream id), for wait_on_stream.
        SqliteStmt t(
            m_db, "SELECT id, process_id, stream FROM track WHERE trace_id = ? AND stream IS NOT NULL");
        t.bind(1, m_traceId);
        while (t.step()) {
            m_trackByStream[{ t.columnInt(1), t.columnInt(2) }] = t.columnInt(0);
            m_processOfTrack[t.columnInt(0)] = t.columnInt(1);
        }
    }

    int32_t addEdge(int32_t from, int32_t to, Bound bound, bool weightless = false)
    {
        const int64_t w = weightless ? 0 : std::max<int64_t>(nodeTs(to) - nodeTs(from), 0);
        m_graph.edges.push_back({ from, to, w, weightless ? Bound::None : bound });
        return int32_t(m_graph.edges.size()) - 1;
    }
    int64_t nodeTs(int32_t node) const
    {
        const Event &e = m_events[size_t(node / 2)];
        return node % 2 == 0 ? e.startNs : e.endNs;
    }
    static int32_t startNode(int32_t ev) { return 2 * ev; }
    static int32_t endNode(int32_t ev) { return 2 * ev + 1; }

    // Nesting and order on each CPU thread (HTA's depth-first walk of its call stacks).
    void buildCpu()
    {
        const size_t hostEvents = m_events.size();
        std::vector<int32_t> order(hostEvents);
        for (size_t i = 0; i < hostEvents; ++i)
            order[i] = int32_t(i);
        std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
            const Event &x = m_events[size_t(a)], &y = m_events[size_t(b)];
            if (m_threadOf[size_t(a)] != m_threadOf[size_t(b)])
                return m_threadOf[size_t(a)] < m_threadOf[size_t(b)];
            if (x.startNs != y.startNs)
                return x.startNs < y.startNs;
            if (x.endNs != y.endNs)
                return x.endNs > y.endNs;
            return x.trackId < y.trackId; // the thread's own track before its runtime calls
        });
        std::unordered_map<int64_t, bool> inputNames;
        std::vector<bool> input(hostEvents, false);
        size_t i = 0;
        while (i < order.size()) {
            const int64_t thread = m_threadOf[size_t(order[i])];
            std::vector<int32_t> stack;
            int32_t last = -1; // node
            int32_t lastTop = -1; // end node of the last outermost event
            auto boundOf = [&](int32_t ev) { return input[size_t(ev)] ? Bound::DataLoading : Bound::Cpu; };
            auto exitTop = [&]() {
                const int32_t ev = stack.back();
                stack.pop_back();
                // (start -> end: the event itself; end -> end: the event, its last child done.)
                const int32_t attributed = last % 2 == 0 ? last / 2 : ev;
                m_events[size_t(ev)].exitEdge
                    = addEdge(last, endNode(ev), boundOf(attributed), m_events[size_t(ev)].blocking && m_hta);
                if (stack.empty()) {
                    last = -1;
                    lastTop = endNode(ev);
                } else {
                    last = endNode(ev);
                }
            };
            for (; i < order.size() && m_threadOf[size_t(order[i])] == thread; ++i) {
                const int32_t ev = order[i];
                const Event &e = m_events[size_t(ev)];
                while (!stack.empty()
                    && (m_events[size_t(stack.back())].endNs <= e.startNs
                        || m_events[size_t(stack.back())].endNs < e.endNs))
                    exitTop();
                if (!m_hta) {
                    auto [it, fresh] = inputNames.try_emplace(e.nameId, false);
                    if (fresh)
                        it->second = classifyHostName(QString::fromStdString(name(e.nameId)))
                            == HostActivity::InputPipeline;
                    input[size_t(ev)] = it->second || (!stack.empty() && input[size_t(stack.back())]);
                }
                if (stack.empty() && lastTop >= 0)
                    addEdge(lastTop, startNode(ev), Bound::None, true);
                if (last >= 0) {
                    // start -> start: the enclosing event's time; end -> start: the parent's.
                    const int32_t attributed = last % 2 == 0 ? last / 2 : stack.back();
                    addEdge(last, startNode(ev), boundOf(attributed));
                }
                last = startNode(ev);
                stack.push_back(ev);
            }
            while (!stack.empty())
                exitTop();
        }
        m_hostEvents = hostEvents;
    }

    // Device ops launched from the window, and what each waited for.
    void buildDevice()
    {
        // Launches by stream (whole trace, by launch time): HTA's queue lengths, and the launch before
        // an event record / after a stream wait.
        struct Launch {
            int64_t ts;
            int64_t thread;
            size_t op;
        };
        std::unordered_map<int64_t, std::vector<Launch>> launchesByTrack;
        std::vector<int64_t> launchTs(m_ops.size(), INT64_MIN);
        for (size_t k = 0; k < m_ops.size(); ++k) {
            DeviceOp &op = m_ops[k];
            auto it = m_calls.find(op.corr);
            if (op.corr < 0 || it == m_calls.end())
                continue;
            const std::string &n = name(it->second.nameId);
            if (m_hta ? std::find(std::begin(kHtaLaunchCalls), std::end(kHtaLaunchCalls), n)
                        == std::end(kHtaLaunchCalls)
                      : !isLaunchCall(n) && !isMemcpyCall(n))
                continue;
            launchTs[k] = it->second.ts;
            launchesByTrack[op.trackId].push_back({ it->second.ts, it->second.threadKey, k });
        }
        for (auto &[track, v] : launchesByTrack)
            std::stable_sort(
                v.begin(), v.end(), [](const Launch &a, const Launch &b) { return a.ts < b.ts; });

        // HTA: the queue length of each op's stream after its launch, and after its own start.
        std::vector<int> queueAtLaunch(m_ops.size(), -1), queueAtStart(m_ops.size(), -1);
        if (m_hta)
            for (auto &[track, v] : launchesByTrack) {
                std::vector<size_t> byStart;
                for (const Launch &l : v)
                    byStart.push_back(l.op);
                std::stable_sort(byStart.begin(), byStart.end(),
                    [&](size_t a, size_t b) { return m_ops[a].startNs < m_ops[b].startNs; });
                int q = 0;
                size_t a = 0, b = 0;
                while (a < v.size() || b < byStart.size()) {
                    if (b >= byStart.size() || (a < v.size() && v[a].ts <= m_ops[byStart[b]].startNs)) {
                        queueAtLaunch[v[a++].op] = ++q;
                    } else {
                        queueAtStart[byStart[b++]] = --q;
                    }
                }
            }

        // HTA links a call to one device op (its index_correlation): of the ops of a CUDA graph
        // launch, which share the call's correlation id, it keeps one in the graph.
        std::unordered_map<int64_t, size_t> htaOpOfCall;
        if (m_hta)
            for (size_t k = 0; k < m_ops.size(); ++k)
                if (m_ops[k].corr >= 0)
                    htaOpOfCall[m_ops[k].corr] = k;

        // The ops in the graph: launched by a call that is an event of the window.
        for (size_t k = 0; k < m_ops.size(); ++k) {
            DeviceOp &op = m_ops[k];
            auto it = m_calls.find(op.corr);
            if (op.corr < 0 || it == m_calls.end() || it->second.event < 0)
                continue;
            if (m_hta && htaOpOfCall[op.corr] != k)
                continue;
            Event e;
            e.startNs = op.startNs;
            e.endNs = std::max(op.startNs, op.endNs);
            e.rawStartNs = op.rawStartNs;
            e.rawEndNs = op.rawStartNs + op.rawDur;
            e.trackId = op.trackId;
            e.nameId = op.nameId;
            e.depth = op.depth;
            e.bound = op.bound;
            op.event = int32_t(m_events.size());
            m_events.push_back(e);
        }

        // The op launched last on `track` before `ts` / first on `track` from `thread` after `ts`.
        auto launchBefore = [&](int64_t track, int64_t ts) -> int32_t {
            auto it = launchesByTrack.find(track);
            if (it == launchesByTrack.end())
                return -1;
            auto p = std::lower_bound(it->second.begin(), it->second.end(), ts,
                [](const Launch &l, int64_t t) { return l.ts < t; });
            return p == it->second.begin() ? -1 : m_ops[std::prev(p)->op].event;
        };
        auto launchAfter = [&](int64_t track, int64_t thread, int64_t ts) -> int32_t {
            auto it = launchesByTrack.find(track);
            if (it == launchesByTrack.end())
                return -1;
            auto p = std::upper_bound(it->second.begin(), it->second.end(), ts,
                [](int64_t t, const Launch &l) { return t < l.ts; });
            for (; p != it->second.end(); ++p)
                if (p->thread == thread)
                    return m_ops[p->op].event;
            return -1;
        };
        // The event an event record's producer op is: the last op launched on its stream before it.
        auto producer = [&](const SyncRecord &r) -> int32_t {
            auto call = m_calls.find(r.recordCorr);
            if (r.recordCorr < 0 || call == m_calls.end())
                return -1;
            int64_t track = -1;
            if (r.waitOnStream >= 0) {
                auto t = m_trackByStream.find({ m_processOfTrack[r.trackId], r.waitOnStream });
                if (t != m_trackByStream.end())
                    track = t->second;
            }
            if (track < 0) {
                auto t = m_recordTrack.find(r.recordCorr);
                if (t == m_recordTrack.end())
                    return -1;
                track = t->second;
            }
            return launchBefore(track, call->second.ts);
        };

        // Ops (by start) and sync records (by end), in one order.
        struct Item {
            int64_t ts;
            int32_t op; // index into m_ops, or -1
            int32_t sync; // index into m_syncs, or -1
        };
        std::vector<Item> items;
        for (size_t k = 0; k < m_ops.size(); ++k)
            if (m_ops[k].event >= 0)
                items.push_back({ m_ops[k].startNs, int32_t(k), -1 });
        for (size_t k = 0; k < m_syncs.size(); ++k)
            items.push_back({ m_syncs[k].sortNs, -1, int32_t(k) });
        std::stable_sort(
            items.begin(), items.end(), [](const Item &a, const Item &b) { return a.ts < b.ts; });

        // Plumb: the end of the op before each on its stream, in the graph or not.
        std::vector<int64_t> prevEndAnyOp(m_ops.size(), INT64_MIN);
        if (!m_hta) {
            std::unordered_map<int64_t, int64_t> lastEnd;
            for (size_t k = 0; k < m_ops.size(); ++k) {
                auto [it, fresh] = lastEnd.try_emplace(m_ops[k].trackId, INT64_MIN);
                prevEndAnyOp[k] = it->second;
                it->second = std::max(it->second, m_ops[k].endNs);
            }
        }
        // Plumb: the graph's ops by end, for implicit waits.
        std::vector<std::pair<int64_t, int32_t>> opsByEnd; // (end, op event)
        if (!m_hta)
            for (const DeviceOp &op : m_ops)
                if (op.event >= 0)
                    opsByEnd.emplace_back(m_events[size_t(op.event)].endNs, op.event);
        std::sort(opsByEnd.begin(), opsByEnd.end());

        std::unordered_map<int64_t, int32_t> lastOnTrack; // end node of the last op on each stream
        std::unordered_map<int32_t, int32_t> waitsOn; // op event -> the op event it waits for
        auto syncToCall = [&](int32_t gpuEnd, int64_t corr) {
            auto call = m_calls.find(corr);
            if (corr < 0 || call == m_calls.end() || call->second.event < 0)
                return;
            addSync(gpuEnd, call->second.event);
        };
        for (const Item &item : items) {
            if (item.sync >= 0) {
                const SyncRecord &r = m_syncs[size_t(item.sync)];
                switch (r.kind) {
                case SyncRecord::Kind::ContextSync:
                    for (const auto &[track, node] : lastOnTrack)
                        syncToCall(node, r.corr);
                    break;
                case SyncRecord::Kind::StreamSync:
                    if (auto it = lastOnTrack.find(r.trackId); it != lastOnTrack.end())
                        syncToCall(it->second, r.corr);
                    break;
                case SyncRecord::Kind::EventSync:
                    if (const int32_t src = producer(r); src >= 0)
                        syncToCall(endNode(src), r.corr);
                    break;
                case SyncRecord::Kind::StreamWait: {
                    const int32_t src = producer(r);
                    auto call = m_calls.find(r.corr);
                    if (src < 0 || call == m_calls.end())
                        break;
                    const int32_t dest = launchAfter(r.trackId, call->second.threadKey, call->second.ts);
                    if (dest >= 0)
                        waitsOn[dest] = src;
                    break;
                }
                default:
                    break;
                }
                continue;
            }
            const DeviceOp &op = m_ops[size_t(item.op)];
            const int32_t ev = op.event;
            addEdge(startNode(ev), endNode(ev), op.bound);
            const int32_t launch = m_calls[op.corr].event;
            const int64_t launchAt = nodeTs(startNode(launch));
            auto lastIt = lastOnTrack.find(op.trackId);
            const int32_t prev = lastIt == lastOnTrack.end() ? -1 : lastIt->second;
            auto waitIt = waitsOn.find(ev);
            const int32_t waitEnd = waitIt == waitsOn.end() ? -1 : endNode(waitIt->second);
            if (m_hta) {
                if (waitEnd >= 0)
                    addEdge(waitEnd, startNode(ev), Bound::None, true);
                if (queueAtLaunch[size_t(item.op)] == 1 && queueAtStart[size_t(item.op)] == 0
                    && (prev < 0 || nodeTs(prev) < launchAt) && (waitEnd < 0 || nodeTs(waitEnd) < launchAt))
                    addEdge(startNode(launch), startNode(ev), Bound::Launch);
                // The previous op on the stream, when it was still running at the launch. (An op
                // launched onto an idle stream that still waited, e.g. on an event, has no incoming
                // edge: HTA's published summaries agree with this, not with a gap to an op that ended
                // before the launch.)
                else if (prev >= 0 && (waitEnd < 0 || nodeTs(waitEnd) < nodeTs(prev))
                    && nodeTs(prev) >= launchAt)
                    addEdge(prev, startNode(ev), Bound::KernelKernel);
            } else {
                // What came last is what the op waited for (ties: its stream, then the wait).
                int32_t from = startNode(launch);
                Bound bound = Bound::Launch;
                if (waitEnd >= 0 && nodeTs(waitEnd) >= nodeTs(from)) {
                    from = waitEnd;
                    bound = Bound::KernelKernel;
                }
                if (prev >= 0 && nodeTs(prev) >= nodeTs(from)) {
                    from = prev;
                    bound = Bound::KernelKernel;
                }
                // Queued behind an op of the stream that is not in the graph (launched before the
                // window): what it waited for is outside the window; it starts a path of its own.
                if (prevEndAnyOp[size_t(item.op)] > nodeTs(from)) {
                    lastOnTrack[op.trackId] = endNode(ev);
                    continue;
                }
                // Long after all of those, with no record of a wait: an implicit cross-stream wait
                // (an event the trace does not show) on the op of another stream that ended last
                // before this one started, when it ended after them.
                if (!m_haveSyncRecords && op.startNs - nodeTs(from) > kImplicitWaitNs) {
                    auto p = std::upper_bound(
                        opsByEnd.begin(), opsByEnd.end(), std::make_pair(op.startNs, INT32_MAX));
                    for (int tries = 0; p != opsByEnd.begin() && tries < 8; ++tries) {
                        --p;
                        if (p->first <= nodeTs(from))
                            break;
                        if (m_events[size_t(p->second)].trackId != op.trackId) {
                            from = endNode(p->second);
                            bound = Bound::KernelKernel;
                            break;
                        }
                    }
                }
                addEdge(from, startNode(ev), bound);
            }
            lastOnTrack[op.trackId] = endNode(ev);
        }
    }

    // A device op's end -> a CPU call's end: the call returned after the op finished.
    void addSync(int32_t gpuEnd, int32_t callEvent)
    {
        if (m_hta) {
            addEdge(gpuEnd, endNode(callEvent), Bound::None, true);
            return;
        }
        // The time from the op's end to the call's return is the call's own (CPU); the wait before it
        // is the device's, so the call's own edge then weighs nothing.
        addEdge(gpuEnd, endNode(callEvent), Bound::Cpu);
        Event &call = m_events[size_t(callEvent)];
        if (call.exitEdge >= 0 && nodeTs(gpuEnd) > call.startNs)
            m_graph.edges[size_t(call.exitEdge)].weightNs = 0;
    }

    // Plumb's mode with no cuda_sync records: each sync call (and copy call) is joined to the latest
    // device op of the graph that ended inside it.
    void inferSyncs()
    {
        std::vector<std::pair<int64_t, int32_t>> byEnd; // (end, op event)
        for (const DeviceOp &op : m_ops)
            if (op.event >= 0)
                byEnd.emplace_back(m_events[size_t(op.event)].endNs, op.event);
        std::sort(byEnd.begin(), byEnd.end());
        for (size_t ev = 0; ev < m_hostEvents; ++ev) {
            const Event &call = m_events[ev];
            if (!call.blocking)
                continue;
            auto p = std::upper_bound(byEnd.begin(), byEnd.end(), std::make_pair(call.endNs, INT32_MAX));
            if (p == byEnd.begin())
                continue;
            --p;
            if (p->first > call.startNs)
                addSync(endNode(p->second), int32_t(ev));
        }
    }

    CriticalPath solve()
    {
        CriticalPath out;
        out.fromNs = m_from;
        out.toNs = m_to;
        m_graph.nodeCount = int32_t(2 * m_events.size());
        out.nodeCount = m_graph.nodeCount;
        out.edgeCount = int64_t(m_graph.edges.size());
        const LongestPath lp = longestPath(m_graph);
        if (!lp.ok) {
            out.note = QStringLiteral("the dependency graph has a cycle (timestamps out of order)");
            return out;
        }
        out.ok = true;
        out.lengthNs = lp.lengthNs;
        std::unordered_set<int32_t> onPath;
        for (int32_t k : lp.edges) {
            const auto &e = m_graph.edges[size_t(k)];
            if (e.bound != Bound::None)
                out.boundNs[size_t(e.bound)] += std::max<int64_t>(e.weightNs, 0);
            onPath.insert(e.from / 2);
            onPath.insert(e.to / 2);
        }
        for (int32_t ev : onPath) {
            const Event &e = m_events[size_t(ev)];
            out.slices.push_back({ e.trackId, e.rawStartNs, e.rawEndNs, e.depth });
        }
        std::sort(
            out.slices.begin(), out.slices.end(), [](const CriticalPathSlice &a, const CriticalPathSlice &b) {
                return a.trackId != b.trackId ? a.trackId < b.trackId : a.startNs < b.startNs;
            });
        return out;
    }

    SqliteDb &m_db;
    int64_t m_traceId;
    bool m_hta;
    int64_t m_from, m_to;
    SqliteStmt m_nameStmt;
    std::unordered_map<int64_t, std::string> m_names;
    std::unordered_map<int64_t, const BackendCategory *> m_cats;
    std::unordered_set<int64_t> m_eventCats;
    int64_t m_cpuOpCat = -2;

    std::vector<Event> m_events; // host events first, then device ops
    std::vector<int64_t> m_threadOf; // of each host event
    size_t m_hostEvents = 0;
    std::unordered_map<int64_t, HostCall> m_calls; // by correlation id
    std::vector<DeviceOp> m_ops;
    std::vector<SyncRecord> m_syncs;
    bool m_haveSyncRecords = false;
    std::unordered_map<int64_t, int64_t> m_recordTrack; // cuda_event: record corr -> stream track
    std::map<std::pair<int64_t, int64_t>, int64_t> m_trackByStream; // (process, stream) -> track
    std::unordered_map<int64_t, int64_t> m_processOfTrack;
    CriticalPathGraph m_graph;
};

} // namespace

CriticalPath criticalPath(Workspace &ws, int64_t traceId, const CriticalPathOptions &options)
{
    const bool hta = options.mode == CriticalPathMode::Hta;
    const std::vector<StepMarker> steps = traceSteps(ws, traceId);
    CriticalPath none;
    none.mode = options.mode;
    int64_t from = 0, to = 0;
    QString stepName;
    if (steps.empty()) {
        // No steps: the whole trace.
        SqliteStmt st(ws.db(), "SELECT start_ns, end_ns FROM trace WHERE id = ?");
        st.bind(1, traceId);
        if (!st.step() || st.columnIsNull(0)) {
            none.note = QStringLiteral("no such trace");
            return none;
        }
        from = st.columnInt(0);
        to = st.columnInt(1);
    } else {
        auto find = [&](const QString &name) {
            return std::find_if(
                steps.begin(), steps.end(), [&](const StepMarker &m) { return m.name == name; });
        };
        auto first = options.step.isEmpty() ? steps.begin() + (steps.size() > 1 ? 1 : 0) : find(options.step);
        auto last = options.lastStep.isEmpty() ? first : find(options.lastStep);
        if (first == steps.end() || last == steps.end()) {
            none.note = QStringLiteral("no step named %1")
                            .arg(first == steps.end() ? options.step : options.lastStep);
            return none;
        }
        if (last < first)
            std::swap(first, last);
        stepName = first == last ? first->name : first->name + QStringLiteral("..") + last->name;
        from = first->startNs;
        to = last->endNs;
    }
    const int64_t windowFrom = hta ? htaStartNs(from) : from;
    const int64_t windowTo = hta ? std::max(windowFrom, htaEndNs(to, 0)) : to;
    CriticalPath p = Builder(ws, traceId, options.mode, windowFrom, windowTo).run();
    p.mode = options.mode;
    p.step = stepName;
    return p;
}

QString criticalPathSentence(const CriticalPath &path, const QString &device)
{
    std::vector<std::pair<int64_t, int>> parts;
    for (int b = 0; b < kCriticalPathBoundCount; ++b)
        if (path.boundNs[size_t(b)] > 0)
            parts.emplace_back(path.boundNs[size_t(b)], b);
    std::stable_sort(
        parts.begin(), parts.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
    QStringList shares;
    for (const auto &[ns, b] : parts) {
        const double pct = path.pct(CriticalPathBound(b));
        if (pct >= 1.0)
            shares << QStringLiteral("%1 %2%")
                          .arg(criticalPathBoundName(CriticalPathBound(b), device))
                          .arg(qRound(pct));
    }
    QString s = QStringLiteral("critical path %1 ms").arg(double(path.lengthNs) / 1e6, 0, 'f', 1);
    if (!shares.isEmpty())
        s += QStringLiteral(": ") + shares.join(QStringLiteral(", "));
    return s;
}

} // namespace plumb
