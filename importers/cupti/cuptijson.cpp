// SPDX-License-Identifier: GPL-3.0-or-later
#include "cupti/cuptijson.h"

#include "ingest/rangeprojection.h"
#include "text/jsontext.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace plumb::cupti {

uint32_t StringTable::intern(std::string_view s)
{
    if (s.empty())
        return 0;
    if (auto it = m_index.find(s); it != m_index.end())
        return it->second;
    const auto id = uint32_t(m_strings.size());
    const std::string &stored = m_strings.emplace_back(s);
    m_index.emplace(std::string_view(stored), id);
    return id;
}

const char *memcpyKindName(uint8_t copyKind)
{
    // CUpti_ActivityMemcpyKind, in Kineto's spelling.
    static const char *const names[]
        = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };
    return copyKind < std::size(names) ? names[copyKind] : "Unknown";
}

const char *memoryKindName(uint16_t memoryKind)
{
    // CUpti_ActivityMemoryKind, in Kineto's spelling.
    static const char *const names[] = { "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed",
        "Device Static", "Managed Static" };
    return memoryKind < std::size(names) ? names[memoryKind] : "Unknown";
}

std::string memcpyName(uint8_t copyKind, uint8_t srcKind, uint8_t dstKind)
{
    return std::string("Memcpy ") + memcpyKindName(copyKind) + " (" + memoryKindName(srcKind) + " -> "
        + memoryKindName(dstKind) + ")";
}

std::string memsetName(uint16_t memoryKind)
{
    return std::string("Memset (") + memoryKindName(memoryKind) + ")";
}

const char *syncName(SyncType type)
{
    switch (type) {
    case SyncType::EventSynchronize:
        return "Event Sync";
    case SyncType::StreamWaitEvent:
        return "Stream Wait Event";
    case SyncType::StreamSynchronize:
        return "Stream Sync";
    case SyncType::ContextSynchronize:
        return "Context Sync";
    case SyncType::Unknown:
        break;
    }
    return "Unknown Sync";
}

namespace {

constexpr size_t kChunkBytes = 1 << 20; // written out whenever the buffer passes this
constexpr int64_t kGpuSortIndexBase = 5000000; // Kineto's sort index for device processes

// Streams events into the file through a bounded buffer.
class EventWriter {
public:
    explicit EventWriter(std::FILE *f)
        : m_file(f)
    {
        m_buf.reserve(kChunkBytes + 64 * 1024);
    }

    std::string &buf() { return m_buf; }
    [[nodiscard]] uint64_t events() const { return m_events; }
    [[nodiscard]] bool ok() const { return m_ok; }

    // Opens `{"ph":..,"cat":..,"name":..,"pid":..,"tid":..` ; the caller adds the rest and close().
    void open(char ph, std::string_view cat, std::string_view name, int64_t pid, int64_t tid)
    {
        m_buf += m_events == 0 ? "\n{\"ph\":\"" : ",\n{\"ph\":\"";
        m_buf.push_back(ph);
        m_buf += '"';
        if (!cat.empty()) {
            m_buf += ",\"cat\":";
            appendJsonString(m_buf, cat);
        }
        m_buf += ",\"name\":";
        appendJsonString(m_buf, name);
        m_buf += ",\"pid\":";
        appendJsonInt(m_buf, pid);
        m_buf += ",\"tid\":";
        appendJsonInt(m_buf, tid);
    }
    void span(uint64_t startNs, uint64_t endNs)
    {
        m_buf += ",\"ts\":";
        appendJsonMicros(m_buf, startNs);
        m_buf += ",\"dur\":";
        appendJsonMicros(m_buf, endNs > startNs ? endNs - startNs : 0);
    }
    void ts(uint64_t ns)
    {
        m_buf += ",\"ts\":";
        appendJsonMicros(m_buf, ns);
    }
    // Args: the first arg() opens the object, close() ends it.
    template <typename T> void arg(const char *key, T value)
    {
        argKey(key);
        appendJsonInt(m_buf, value);
    }
    void argString(const char *key, std::string_view value)
    {
        argKey(key);
        appendJsonString(m_buf, value);
    }
    void argDims(const char *key, const int32_t (&v)[3])
    {
        argKey(key);
        m_buf += '[';
        appendJsonInt(m_buf, v[0]);
        m_buf += ", ";
        appendJsonInt(m_buf, v[1]);
        m_buf += ", ";
        appendJsonInt(m_buf, v[2]);
        m_buf += ']';
    }
    void close()
    {
        m_buf += m_inArgs ? "}}" : "}";
        m_inArgs = false;
        ++m_events;
        if (m_buf.size() >= kChunkBytes)
            flush();
    }
    void flush()
    {
        if (!m_buf.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size())
            m_ok = false;
        m_buf.clear();
    }

private:
    void argKey(const char *key)
    {
        m_buf += m_inArgs ? ",\"" : ",\"args\":{\"";
        m_inArgs = true;
        m_buf += key;
        m_buf += "\":";
    }

    std::FILE *m_file;
    std::string m_buf;
    uint64_t m_events = 0;
    bool m_inArgs = false;
    bool m_ok = true;
};

struct PairedRange {
    const MarkerRecord *start;
    uint64_t endNs; // 0: never ended
};

void writeFlow(EventWriter &w, char ph, uint32_t corr, int64_t pid, int64_t tid, uint64_t tsNs)
{
    w.open(ph, "ac2g", "ac2g", pid, tid);
    w.buf() += ",\"id\":";
    appendJsonInt(w.buf(), corr);
    w.ts(tsNs);
    if (ph == 'f')
        w.buf() += ",\"bp\":\"e\"";
    w.close();
}

void writeGpuCommon(EventWriter &w, uint32_t device, uint32_t context, uint32_t stream, uint32_t corr)
{
    w.arg("device", device);
    w.arg("context", context);
    w.arg("stream", stream);
    w.arg("correlation", corr);
}

} // namespace

bool writeChromeTrace(std::FILE *out, const CollectedTrace &t, const WriteOptions &o, WriteStats *stats)
{
    WriteStats local;
    WriteStats &st = stats ? *stats : local;
    st = {};
    const StringTable &str = t.strings;

    // NVTX ranges: pair start and end records by marker id.
    std::vector<PairedRange> ranges;
    std::vector<const MarkerRecord *> instants;
    {
        std::unordered_map<uint32_t, size_t> open; // marker id -> index in ranges
        for (const MarkerRecord &m : t.markers) {
            if (m.flags & MarkerRecord::Instant) {
                instants.push_back(&m);
            } else if (m.flags & MarkerRecord::Start) {
                open[m.id] = ranges.size();
                ranges.push_back({ &m, 0 });
            } else if (m.flags & MarkerRecord::End) {
                auto it = open.find(m.id);
                if (it == open.end()) {
                    ++st.orphanRangeEnds;
                    continue;
                }
                PairedRange &r = ranges[it->second];
                r.endNs = m.timestampNs > r.start->timestampNs ? m.timestampNs : r.start->timestampNs;
                open.erase(it);
            }
        }
        st.unfinishedRanges = open.size();
    }

    // Launch flows: the API call each GPU op's correlation id points at, runtime preferred.
    std::unordered_set<uint32_t> gpuCorr;
    gpuCorr.reserve(t.kernels.size() + t.memcpys.size() + t.memsets.size());
    for (const auto &k : t.kernels)
        gpuCorr.insert(k.correlationId);
    for (const auto &m : t.memcpys)
        gpuCorr.insert(m.correlationId);
    for (const auto &m : t.memsets)
        gpuCorr.insert(m.correlationId);
    std::unordered_map<uint32_t, size_t> launcher; // correlation id -> index in apiCalls
    for (size_t i = 0; i < t.apiCalls.size(); ++i) {
        const ApiCall &a = t.apiCalls[i];
        if (a.correlationId == 0 || !gpuCorr.count(a.correlationId))
            continue;
        auto [it, added] = launcher.emplace(a.correlationId, i);
        if (!added && a.domain == ApiDomain::Runtime && t.apiCalls[it->second].domain != ApiDomain::Runtime)
            it->second = i;
    }

    // NVTX ranges projected onto the streams their launches fed, as Kineto writes gpu_user_annotation:
    // a range spans its GPU ops on each stream (core/rangeprojection.h).
    std::vector<RangeProjection::Span> projected;
    std::vector<size_t> projectedRange; // the projection's range index -> index in ranges
    {
        RangeProjection projection(int64_t(launcher.size()));
        auto threadOf = [](uint32_t pid, uint32_t tid) { return int64_t(pid) << 32 | tid; };
        std::vector<size_t> byThread(ranges.size());
        std::iota(byThread.begin(), byThread.end(), size_t(0));
        auto rangeKey = [&](size_t i) {
            const MarkerRecord &m = *ranges[i].start;
            return std::tuple(threadOf(m.processId, m.threadId), m.timestampNs, ~ranges[i].endNs);
        };
        std::sort(
            byThread.begin(), byThread.end(), [&](size_t x, size_t y) { return rangeKey(x) < rangeKey(y); });
        for (const size_t i : byThread) {
            const MarkerRecord &m = *ranges[i].start;
            if (projection.addRange(
                    threadOf(m.processId, m.threadId), int64_t(m.timestampNs), int64_t(ranges[i].endNs))
                >= 0)
                projectedRange.push_back(i);
        }
        if (projection.hasRanges()) {
            std::vector<std::tuple<int64_t, uint64_t, uint32_t>> calls; // thread, start, correlation id
            calls.reserve(launcher.size());
            for (const auto &[corr, index] : launcher) {
                const ApiCall &a = t.apiCalls[index];
                calls.emplace_back(threadOf(a.processId, a.threadId), a.startNs, corr);
            }
            std::sort(calls.begin(), calls.end());
            for (const auto &[thread, start, corr] : calls)
                projection.addLaunch(corr, thread, int64_t(start));
            auto lane = [](uint32_t device, uint32_t stream) { return int64_t(device) << 32 | stream; };
            for (const auto &k : t.kernels)
                projection.addOp(
                    k.correlationId, lane(k.deviceId, k.streamId), int64_t(k.startNs), int64_t(k.endNs));
            for (const auto &m : t.memcpys)
                projection.addOp(
                    m.correlationId, lane(m.deviceId, m.streamId), int64_t(m.startNs), int64_t(m.endNs));
            for (const auto &m : t.memsets)
                projection.addOp(
                    m.correlationId, lane(m.deviceId, m.streamId), int64_t(m.startNs), int64_t(m.endNs));
            projected = projection.spans();
        }
    }

    std::unordered_map<uint32_t, uint32_t> contextDevice;
    for (const auto &c : t.contexts)
        contextDevice[c.contextId] = c.deviceId;
    // A context the collector never saw created (enabled too late) is placed on device 0.
    auto deviceOfContext = [&](uint32_t ctx) {
        auto it = contextDevice.find(ctx);
        return it == contextDevice.end() ? 0u : it->second;
    };

    // Header. Everything above traceEvents is known now, so it goes first, where a sniffer looks.
    EventWriter w(out);
    std::string &b = w.buf();
    b += "{\"schemaVersion\":1,\"plumbCupti\":{\"version\":1,\"droppedRecords\":";
    appendJsonInt(b, t.droppedRecords);
    b += ",\"clock\":";
    appendJsonString(b, o.clock);
    b += ",\"bufferBytes\":";
    appendJsonInt(b, o.bufferBytes);
    b += ",\"unfinishedRanges\":";
    appendJsonInt(b, st.unfinishedRanges);
    b += ",\"orphanRangeEnds\":";
    appendJsonInt(b, st.orphanRangeEnds);
    b += "},\"deviceProperties\":[";
    for (size_t i = 0; i < t.devices.size(); ++i) {
        const DeviceInfo &d = t.devices[i];
        b += i ? ",\n{\"id\":" : "\n{\"id\":";
        appendJsonInt(b, d.id);
        b += ",\"name\":";
        appendJsonString(b, d.name);
        const std::pair<const char *, uint64_t> fields[] = {
            { "totalGlobalMem", d.totalGlobalMem },
            { "computeMajor", d.computeMajor },
            { "computeMinor", d.computeMinor },
            { "maxThreadsPerBlock", d.maxThreadsPerBlock },
            { "maxThreadsPerMultiprocessor", d.maxThreadsPerMultiprocessor },
            { "regsPerBlock", d.regsPerBlock },
            { "regsPerMultiprocessor", d.regsPerMultiprocessor },
            { "warpSize", d.warpSize },
            { "sharedMemPerBlock", d.sharedMemPerBlock },
            { "sharedMemPerMultiprocessor", d.sharedMemPerMultiprocessor },
            { "numSms", d.numSms },
        };
        for (const auto &[key, value] : fields) {
            b += ",\"";
            b += key;
            b += "\":";
            appendJsonInt(b, value);
        }
        b += '}';
    }
    b += "],\"baseTimeNanoseconds\":0,\"displayTimeUnit\":\"ms\",\"traceEvents\":[";

    // Metadata: names for every process, thread, device and stream that has events.
    std::set<uint32_t> cpuPids { o.processId };
    std::set<std::pair<uint32_t, uint32_t>> cpuThreads;
    std::set<uint32_t> devices;
    std::set<std::pair<uint32_t, int64_t>> streams;
    for (const auto &a : t.apiCalls) {
        cpuPids.insert(a.processId);
        cpuThreads.emplace(a.processId, a.threadId);
    }
    for (const auto &m : t.markers) {
        cpuPids.insert(m.processId);
        cpuThreads.emplace(m.processId, m.threadId);
    }
    for (const auto &k : t.kernels)
        streams.emplace(k.deviceId, k.streamId);
    for (const auto &m : t.memcpys)
        streams.emplace(m.deviceId, m.streamId);
    for (const auto &m : t.memsets)
        streams.emplace(m.deviceId, m.streamId);
    for (const auto &s : t.syncs)
        streams.emplace(deviceOfContext(s.contextId), int32_t(s.streamId));
    for (const auto &[dev, stream] : streams)
        devices.insert(dev);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> threadNames, streamNames;
    for (const auto &n : t.names)
        (n.kind == ObjectName::Kind::Thread ? threadNames : streamNames)[{ n.a, n.b }] = n.nameId;

    for (uint32_t pid : cpuPids) {
        w.open('M', {}, "process_name", pid, 0);
        w.argString("name",
            pid == o.processId && !o.processName.empty() ? o.processName : "process " + std::to_string(pid));
        w.close();
    }
    for (const auto &[pid, tid] : cpuThreads) {
        auto it = threadNames.find({ pid, tid });
        w.open('M', {}, "thread_name", pid, tid);
        w.argString("name", it != threadNames.end() ? str.at(it->second) : "thread " + std::to_string(tid));
        w.close();
    }
    for (uint32_t dev : devices) {
        const std::string label = "GPU " + std::to_string(dev);
        w.open('M', {}, "process_name", dev, 0);
        w.argString("name", label);
        w.close();
        w.open('M', {}, "process_labels", dev, 0);
        w.argString("labels", label);
        w.close();
        w.open('M', {}, "process_sort_index", dev, 0);
        w.arg("sort_index", kGpuSortIndexBase + int64_t(dev));
        w.close();
    }
    for (const auto &[dev, stream] : streams) {
        auto it = stream >= 0 ? streamNames.find({ dev, uint32_t(stream) }) : streamNames.end();
        w.open('M', {}, "thread_name", dev, stream);
        w.argString("name",
            it != streamNames.end() ? str.at(it->second)
                : stream >= 0       ? "stream " + std::to_string(stream)
                                    : std::string("context-wide synchronisation"));
        w.close();
    }

    // Events go out in start order, CPU then GPU, so a reader finds every track already sorted
    // (CUPTI delivers API calls as they end, a nested driver call before its runtime call).
    enum class Kind : uint8_t { Api, Range, Instant, GpuRange, Kernel, Memcpy, Memset, Sync };
    struct Ref {
        uint64_t startNs;
        uint32_t index;
        Kind kind;
    };
    std::vector<Ref> order;
    auto sortAndEmit = [&](auto &&emit) {
        std::stable_sort(
            order.begin(), order.end(), [](const Ref &x, const Ref &y) { return x.startNs < y.startNs; });
        for (const Ref &r : order)
            emit(r);
        order.clear();
        order.shrink_to_fit();
    };

    order.reserve(t.apiCalls.size() + ranges.size() + instants.size());
    for (size_t i = 0; i < t.apiCalls.size(); ++i)
        order.push_back({ t.apiCalls[i].startNs, uint32_t(i), Kind::Api });
    for (size_t i = 0; i < ranges.size(); ++i)
        order.push_back({ ranges[i].start->timestampNs, uint32_t(i), Kind::Range });
    for (size_t i = 0; i < instants.size(); ++i)
        order.push_back({ instants[i]->timestampNs, uint32_t(i), Kind::Instant });
    sortAndEmit([&](const Ref &r) {
        if (r.kind == Kind::Api) {
            // A CUDA API call, a launch followed by its flow start.
            const ApiCall &a = t.apiCalls[r.index];
            w.open('X', a.domain == ApiDomain::Runtime ? "cuda_runtime" : "cuda_driver", str.at(a.nameId),
                a.processId, a.threadId);
            w.span(a.startNs, a.endNs);
            w.arg("cbid", a.cbid);
            w.arg("correlation", a.correlationId);
            if (a.returnValue != 0)
                w.arg("return value", a.returnValue);
            w.close();
            auto it = launcher.find(a.correlationId);
            if (it != launcher.end() && it->second == r.index) {
                writeFlow(w, 's', a.correlationId, a.processId, a.threadId, a.startNs);
                ++st.flows;
            }
        } else if (r.kind == Kind::Range) {
            const PairedRange &range = ranges[r.index];
            const MarkerRecord &m = *range.start;
            w.open('X', "user_annotation", str.at(m.nameId), m.processId, m.threadId);
            w.span(m.timestampNs, range.endNs ? range.endNs : m.timestampNs);
            if (m.domainId)
                w.argString("domain", str.at(m.domainId));
            if (!range.endNs)
                w.argString("unfinished", "range had no end record");
            w.close();
        } else {
            const MarkerRecord &m = *instants[r.index];
            w.open('i', "user_annotation", str.at(m.nameId), m.processId, m.threadId);
            w.ts(m.timestampNs);
            w.buf() += ",\"s\":\"t\"";
            if (m.domainId)
                w.argString("domain", str.at(m.domainId));
            w.close();
        }
    });

    // GPU: kernels, copies, sets, each followed by its flow end; synchronisation.
    auto flowEnd = [&](uint32_t corr, uint32_t dev, uint32_t stream, uint64_t startNs) {
        if (launcher.count(corr))
            writeFlow(w, 'f', corr, dev, stream, startNs);
    };
    order.reserve(projected.size() + t.kernels.size() + t.memcpys.size() + t.memsets.size() + t.syncs.size());
    // Projections first: at the same start, a range before the op it holds, an outer range first.
    for (size_t i = 0; i < projected.size(); ++i)
        order.push_back({ uint64_t(projected[i].start), uint32_t(i), Kind::GpuRange });
    for (size_t i = 0; i < t.kernels.size(); ++i)
        order.push_back({ t.kernels[i].startNs, uint32_t(i), Kind::Kernel });
    for (size_t i = 0; i < t.memcpys.size(); ++i)
        order.push_back({ t.memcpys[i].startNs, uint32_t(i), Kind::Memcpy });
    for (size_t i = 0; i < t.memsets.size(); ++i)
        order.push_back({ t.memsets[i].startNs, uint32_t(i), Kind::Memset });
    for (size_t i = 0; i < t.syncs.size(); ++i)
        order.push_back({ t.syncs[i].startNs, uint32_t(i), Kind::Sync });
    sortAndEmit([&](const Ref &r) {
        switch (r.kind) {
        case Kind::GpuRange: {
            const RangeProjection::Span &p = projected[r.index];
            const MarkerRecord &m = *ranges[projectedRange[size_t(p.range)]].start;
            w.open('X', "gpu_user_annotation", str.at(m.nameId), uint32_t(p.lane >> 32), uint32_t(p.lane));
            w.span(uint64_t(p.start), uint64_t(p.end));
            w.arg("GPU ops", p.ops);
            w.close();
            break;
        }
        case Kind::Kernel: {
            const KernelOp &k = t.kernels[r.index];
            w.open('X', "kernel", str.at(k.nameId), k.deviceId, k.streamId);
            w.span(k.startNs, k.endNs);
            writeGpuCommon(w, k.deviceId, k.contextId, k.streamId, k.correlationId);
            w.arg("registers per thread", k.registersPerThread);
            w.arg("shared memory", int64_t(k.staticSharedMemory) + k.dynamicSharedMemory);
            w.arg("static shared memory", k.staticSharedMemory);
            w.arg("dynamic shared memory", k.dynamicSharedMemory);
            w.argDims("grid", k.grid);
            w.argDims("block", k.block);
            w.close();
            flowEnd(k.correlationId, k.deviceId, k.streamId, k.startNs);
            break;
        }
        case Kind::Memcpy: {
            const MemcpyOp &m = t.memcpys[r.index];
            w.open('X', "gpu_memcpy", memcpyName(m.copyKind, m.srcKind, m.dstKind), m.deviceId, m.streamId);
            w.span(m.startNs, m.endNs);
            writeGpuCommon(w, m.deviceId, m.contextId, m.streamId, m.correlationId);
            w.arg("bytes", m.bytes);
            w.argString("copy kind", memcpyKindName(m.copyKind));
            w.argString("src kind", memoryKindName(m.srcKind));
            w.argString("dst kind", memoryKindName(m.dstKind));
            w.arg("async", int(m.async));
            w.close();
            flowEnd(m.correlationId, m.deviceId, m.streamId, m.startNs);
            break;
        }
        case Kind::Memset: {
            const MemsetOp &m = t.memsets[r.index];
            w.open('X', "gpu_memset", memsetName(m.memoryKind), m.deviceId, m.streamId);
            w.span(m.startNs, m.endNs);
            writeGpuCommon(w, m.deviceId, m.contextId, m.streamId, m.correlationId);
            w.arg("bytes", m.bytes);
            w.arg("value", m.value);
            w.arg("async", int(m.async));
            w.close();
            flowEnd(m.correlationId, m.deviceId, m.streamId, m.startNs);
            break;
        }
        case Kind::Sync: {
            const SyncOp &s = t.syncs[r.index];
            const uint32_t dev = deviceOfContext(s.contextId);
            const int64_t stream = int32_t(s.streamId); // the invalid id reads as -1, as in Kineto
            w.open('X', "cuda_sync", syncName(s.type), dev, stream);
            w.span(s.startNs, s.endNs);
            w.arg("device", dev);
            w.arg("context", s.contextId);
            w.arg("stream", stream);
            w.arg("correlation", s.correlationId);
            if (s.cudaEventId != SyncOp::kInvalidId)
                w.arg("cuda event", s.cudaEventId);
            w.close();
            break;
        }
        default:
            break;
        }
    });

    b += "\n]}\n";
    st.events = w.events();
    w.flush();
    return w.ok() && std::fflush(out) == 0;
}

bool writeChromeTraceFile(const std::string &path, const CollectedTrace &trace, const WriteOptions &options,
    std::string *error, WriteStats *stats)
{
    const std::string partial = path + ".partial";
    std::FILE *f = std::fopen(partial.c_str(), "wb");
    if (!f) {
        if (error)
            *error = "cannot create " + partial + ": " + std::strerror(errno);
        return false;
    }
    const bool written = writeChromeTrace(f, trace, options, stats);
    const int savedErrno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
        if (error)
            *error = "cannot write " + partial + ": " + std::strerror(written ? errno : savedErrno);
        std::remove(partial.c_str());
        return false;
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
        if (error)
            *error = "cannot rename " + partial + " to " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace plumb::cupti
