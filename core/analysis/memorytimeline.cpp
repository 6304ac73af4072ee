// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/memorytimeline.h"

#include "store/eventslocation.h"
#include "store/sqlitedb.h"
#include "store/sqlitestate.h"
#include "store/workspace.h"

#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace plumb {

namespace {

constexpr uint32_t kNever = std::numeric_limits<uint32_t>::max();

// A JSON number as an integer: a real (1.5e9) truncated, an integer above 2^63 (an address) wrapped.
// `at` is left after it. False when there is no number at `at`.
bool readNumber(const char *&at, const char *end, int64_t &out)
{
    int64_t i = 0;
    const auto [p, ec] = std::from_chars(at, end, i);
    if (ec == std::errc() && (p == end || (*p != '.' && *p != 'e' && *p != 'E'))) {
        out = i;
        at = p;
        return true;
    }
    uint64_t u = 0;
    if (ec == std::errc::result_out_of_range)
        if (const auto r = std::from_chars(at, end, u); r.ec == std::errc()) {
            out = int64_t(u);
            at = r.ptr;
            return true;
        }
    double d = 0;
    if (const auto r = std::from_chars(at, end, d); r.ec == std::errc()) {
        out = int64_t(d);
        at = r.ptr;
        return true;
    }
    return false;
}

// PyTorch writes a memory instant's args in this order, and the importer keeps it: read in that order
// the fields need no key search. False (e untouched) at the first difference.
bool readMemoryArgsInOrder(std::string_view json, MemoryEvent &e)
{
    static constexpr std::string_view kKeys[] = { "{\"Total Reserved\":", ",\"Total Allocated\":",
        ",\"Bytes\":", ",\"Addr\":", ",\"Device Id\":", ",\"Device Type\":" };
    int64_t v[6] = {};
    const char *at = json.data();
    const char *end = at + json.size();
    for (int i = 0; i < 6; ++i) {
        if (size_t(end - at) < kKeys[i].size() || std::memcmp(at, kKeys[i].data(), kKeys[i].size()) != 0)
            return false;
        at += kKeys[i].size();
        const auto [p, ec] = std::from_chars(at, end, v[i]);
        if (ec != std::errc() || p == end || (*p != ',' && *p != '}'))
            return false;
        at = p;
    }
    e.totalReserved = v[0];
    e.totalAllocated = v[1];
    e.bytes = v[2];
    e.addr = v[3];
    e.device = v[5] == 0 ? -1 : v[4]; // Device Type 0: c10::DeviceType::CPU
    return true;
}

// The fields of a memory instant from its args, a flat JSON object as the importers write it (compact,
// keys quoted, no nesting for these), in one pass without building a document: a million memory
// instants are a million args rows. Unknown keys and values that are no numbers are passed over.
void readMemoryArgs(std::string_view json, MemoryEvent &e)
{
    int64_t type = 1;
    const char *at = json.data();
    const char *end = at + json.size();
    while (at < end) {
        // Keys and numbers are short: a loop beats memchr's set-up.
        const char *open = at;
        while (open < end && *open != '"')
            ++open;
        const char *close = open + 1;
        while (close < end && *close != '"')
            ++close;
        if (close >= end)
            break;
        const std::string_view key(open + 1, size_t(close - open - 1));
        at = close + 1;
        if (at >= end || *at != ':')
            continue; // a string value: its closing quote comes next
        ++at;
        int64_t *field = key == "Total Allocated" ? &e.totalAllocated
            : key == "Total Reserved"             ? &e.totalReserved
            : key == "Bytes"                      ? &e.bytes
            : key == "Addr"                       ? &e.addr
            : key == "Device Id"                  ? &e.device
            : key == "Device Type"                ? &type
                                                  : nullptr;
        if (field)
            readNumber(at, end, *field);
    }
    if (type == 0)
        e.device = -1; // c10::DeviceType::CPU
}

// One allocation while the events are replayed; seq numbers count the device's events.
struct AllocRecord {
    int64_t tsNs = 0;
    int64_t bytes = 0;
    int64_t addr = 0;
    int64_t trackId = 0;
    int64_t depth = -1;
    int64_t freedNs = -1;
    uint32_t allocSeq = 0;
    uint32_t freeSeq = kNever;
};

// Reduces a step series to at most a few points per time bucket: each bucket's first and last point
// and those where allocated is lowest and highest and reserved highest, in time order.
class SeriesReducer {
public:
    SeriesReducer(int64_t startNs, int64_t endNs, std::vector<MemoryPoint> &out)
        : m_startNs(startNs)
        , m_spanNs(std::max<int64_t>(endNs - startNs, 1))
        , m_out(out)
    {
    }
    void add(uint32_t seq, const MemoryPoint &p)
    {
        const int64_t bucket = std::clamp<int64_t>(
            int64_t((__int128(p.tsNs - m_startNs) * kMemoryChartBuckets) / m_spanNs), 0, kMemoryChartBuckets);
        if (bucket != m_bucket || m_n == 0) {
            flush();
            m_bucket = bucket;
            m_keep[First] = m_keep[Last] = m_keep[MinAlloc] = m_keep[MaxAlloc] = m_keep[MaxReserved]
                = { seq, p };
            m_n = 1;
            return;
        }
        m_keep[Last] = { seq, p };
        if (p.allocatedBytes < m_keep[MinAlloc].second.allocatedBytes)
            m_keep[MinAlloc] = { seq, p };
        if (p.allocatedBytes > m_keep[MaxAlloc].second.allocatedBytes)
            m_keep[MaxAlloc] = { seq, p };
        if (p.reservedBytes > m_keep[MaxReserved].second.reservedBytes)
            m_keep[MaxReserved] = { seq, p };
    }
    void flush()
    {
        if (m_n == 0)
            return;
        std::pair<uint32_t, MemoryPoint> k[Kept];
        std::copy(std::begin(m_keep), std::end(m_keep), k);
        std::sort(std::begin(k), std::end(k), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (int i = 0; i < Kept; ++i)
            if (i == 0 || k[i].first != k[i - 1].first)
                m_out.push_back(k[i].second);
        m_n = 0;
    }

private:
    enum { First, Last, MinAlloc, MaxAlloc, MaxReserved, Kept };
    int64_t m_startNs;
    int64_t m_spanNs;
    std::vector<MemoryPoint> &m_out;
    int64_t m_bucket = -1;
    int m_n = 0;
    std::pair<uint32_t, MemoryPoint> m_keep[Kept];
};

struct DeviceState {
    DeviceMemory out;
    uint32_t seq = 0;
    int64_t running = 0; // allocated from Bytes alone, for events without the allocator's totals
    uint32_t peakSeq = kNever;
    bool reservedKnown = false;
    std::unordered_map<int64_t, uint32_t> live; // address -> index in allocs
    std::vector<AllocRecord> allocs;
    std::unique_ptr<SeriesReducer> reducer;
};

MemoryAllocation allocation(const AllocRecord &r)
{
    return MemoryAllocation { r.tsNs, r.bytes, r.addr, r.freedNs, r.trackId, r.depth, {} };
}

bool largerFirst(const MemoryAllocation &a, const MemoryAllocation &b)
{
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.tsNs < b.tsNs;
}

} // namespace

QString memoryDeviceLabel(int64_t device)
{
    return device >= 0 ? QStringLiteral("GPU %1").arg(device) : QStringLiteral("CPU");
}

std::vector<DeviceMemory> memoryByDevice(std::vector<MemoryEvent> events)
{
    if (events.empty())
        return {};
    auto byTime = [](const MemoryEvent &a, const MemoryEvent &b) { return a.tsNs < b.tsNs; };
    if (!std::is_sorted(events.begin(), events.end(), byTime))
        std::stable_sort(events.begin(), events.end(), byTime);
    const int64_t startNs = events.front().tsNs;
    const int64_t endNs = events.back().tsNs;

    // A handful of devices: a flat list searched in order.
    std::vector<std::unique_ptr<DeviceState>> states;
    DeviceState *last = nullptr;
    // Reserved is known on a device once an event reports some (PyTorch's host allocator reports 0).
    for (const MemoryEvent &e : events) {
        if (!last || last->out.device != e.device) {
            last = nullptr;
            for (auto &s : states)
                if (s->out.device == e.device)
                    last = s.get();
            if (!last) {
                states.push_back(std::make_unique<DeviceState>());
                last = states.back().get();
                last->out.device = e.device;
                last->out.label = memoryDeviceLabel(e.device);
            }
        }
        last->reservedKnown = last->reservedKnown || e.totalReserved > 0;
    }

    for (auto &s : states)
        s->reducer = std::make_unique<SeriesReducer>(startNs, endNs, s->out.series);
    last = nullptr;
    for (const MemoryEvent &e : events) {
        if (!last || last->out.device != e.device)
            for (auto &s : states)
                if (s->out.device == e.device)
                    last = s.get();
        DeviceState &s = *last;
        DeviceMemory &d = s.out;
        const uint32_t seq = s.seq++;
        ++d.eventCount;
        if (e.bytes > 0) {
            ++d.allocationCount;
            const uint32_t index = uint32_t(s.allocs.size());
            s.allocs.push_back({ e.tsNs, e.bytes, e.addr, e.trackId, e.depth, -1, seq, kNever });
            auto [it, added] = s.live.try_emplace(e.addr, index);
            if (!added) { // allocated again without a free: the earlier one is gone
                AllocRecord &gone = s.allocs[it->second];
                gone.freeSeq = seq;
                gone.freedNs = e.tsNs;
                it->second = index;
            }
            s.running += e.bytes;
        } else if (e.bytes < 0) {
            ++d.freeCount;
            if (auto it = s.live.find(e.addr); it != s.live.end()) {
                AllocRecord &freed = s.allocs[it->second];
                freed.freeSeq = seq;
                freed.freedNs = e.tsNs;
                s.live.erase(it);
            } else {
                ++d.unmatchedFreeCount;
            }
            s.running = std::max<int64_t>(s.running + e.bytes, 0);
        }
        const int64_t allocated = e.totalAllocated >= 0 ? e.totalAllocated : s.running;
        const int64_t reserved = s.reservedKnown ? std::max<int64_t>(e.totalReserved, 0) : allocated;
        const bool first = s.peakSeq == kNever;
        if (first || allocated > d.peakAllocatedBytes) {
            s.peakSeq = seq;
            d.peakAllocatedBytes = allocated;
            d.peakNs = e.tsNs;
            d.reservedAtPeakBytes = reserved;
        }
        if (first || reserved > d.peakReservedBytes) {
            d.peakReservedBytes = reserved;
            d.peakReservedNs = e.tsNs;
        }
        if (first || reserved - allocated > d.maxUnusedReservedBytes) {
            d.maxUnusedReservedBytes = reserved - allocated;
            d.maxUnusedReservedNs = e.tsNs;
        }
        s.reducer->add(seq, { e.tsNs, allocated, reserved });
    }

    std::vector<DeviceMemory> out;
    out.reserve(states.size());
    for (auto &s : states) {
        s->reducer->flush();
        DeviceMemory &d = s->out;
        d.reservedReported = s->reservedKnown;
        for (const AllocRecord &r : s->allocs)
            if (r.allocSeq <= s->peakSeq && r.freeSeq > s->peakSeq) {
                d.liveAtPeak.push_back(allocation(r));
                d.liveAtPeakBytes += r.bytes;
            }
        std::sort(d.liveAtPeak.begin(), d.liveAtPeak.end(), largerFirst);
        d.allocatedBeforeCaptureBytes = std::max<int64_t>(d.peakAllocatedBytes - d.liveAtPeakBytes, 0);
        std::vector<uint32_t> order(s->allocs.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const size_t n = std::min<size_t>(order.size(), kLargestAllocations);
        std::partial_sort(
            order.begin(), order.begin() + ptrdiff_t(n), order.end(), [&](uint32_t a, uint32_t b) {
                const AllocRecord &x = s->allocs[a], &y = s->allocs[b];
                return x.bytes != y.bytes ? x.bytes > y.bytes : x.tsNs < y.tsNs;
            });
        for (size_t i = 0; i < n; ++i)
            d.largest.push_back(allocation(s->allocs[order[i]]));
        out.push_back(std::move(d));
    }
    // GPUs by index, then host memory.
    std::sort(out.begin(), out.end(), [](const DeviceMemory &a, const DeviceMemory &b) {
        return (a.device < 0) != (b.device < 0) ? a.device >= 0 : a.device < b.device;
    });
    return out;
}

namespace {

// Above this many slices in a trace, its memory instants are read in two parts of its time span at
// once, the later on a connection of its own (each part is a range of every track's (track, ts) key).
constexpr int64_t kSplitAboveSlices = 200000;

// The memory instants of the trace starting in [fromNs, toNs), by track then time. `capacity`: room to
// reserve (pages are touched only as events fill them; growing by copies would touch them twice).
std::vector<MemoryEvent> readMemoryInstants(
    SqliteDb &db, int64_t traceId, int64_t fromNs, int64_t toNs, size_t capacity)
{
    std::vector<MemoryEvent> events;
    events.reserve(capacity);
    // Ids bound as values: an IN (subquery) would be a probe of a temporary index per slice.
    SqliteStmt name(db, "SELECT id FROM string WHERE str = '[memory]'");
    if (!name.step())
        return events;
    const int64_t nameId = name.columnInt(0);
    std::vector<int64_t> tracks;
    SqliteStmt trackRows(db, "SELECT id FROM track WHERE trace_id = ? AND kind <> 'counter'");
    trackRows.bind(1, traceId);
    while (trackRows.step())
        tracks.push_back(trackRows.columnInt(0));
    SqliteStmt st(db,
        "SELECT s.ts, s.depth, a.json FROM slice s JOIN args a ON a.id = s.args_id "
        "WHERE s.track_id = ? AND s.ts >= ? AND s.ts < ? AND s.name_id = ?");
    for (const int64_t track : tracks) {
        st.bind(1, track).bind(2, fromNs).bind(3, toNs).bind(4, nameId);
        while (st.step()) {
            MemoryEvent e;
            e.trackId = track;
            e.tsNs = st.columnInt(0);
            e.depth = st.columnInt(1);
            if (const std::string_view json = st.columnView(2); !readMemoryArgsInOrder(json, e))
                readMemoryArgs(json, e);
            events.push_back(e);
        }
        st.reset();
    }
    return events;
}

// Nsight's CUDA memory usage as the importer stores it: a counter track per process and device of the
// bytes allocated ("Memory allocated, device N", "Memory allocated, CUDA host"). The processes of one
// device add up: each sample sets its track's value, and the device's total is the sum of them.
std::vector<DeviceMemory> readMemoryCounters(SqliteDb &db, int64_t traceId)
{
    SqliteStmt tracks(db,
        "SELECT id, name FROM track WHERE trace_id = ? AND kind = 'counter' AND name LIKE 'Memory allocated, "
        "%'");
    tracks.bind(1, traceId);
    std::vector<std::pair<int64_t, int64_t>> deviceTracks; // (track, device)
    while (tracks.step()) {
        const QString name = tracks.columnText(1);
        bool ok = false;
        const int64_t device = name.startsWith(QLatin1String("Memory allocated, device "))
            ? name.section(QLatin1Char(' '), -1).toLongLong(&ok)
            : -1;
        deviceTracks.emplace_back(tracks.columnInt(0), ok ? device : -1);
    }
    struct Sample {
        int64_t tsNs;
        size_t track; // index in deviceTracks
        int64_t bytes;
    };
    std::vector<Sample> samples;
    SqliteStmt values(db, "SELECT ts, value FROM counter WHERE track_id = ? ORDER BY ts, id");
    for (size_t i = 0; i < deviceTracks.size(); ++i) {
        values.bind(1, deviceTracks[i].first);
        while (values.step())
            samples.push_back({ values.columnInt(0), i, int64_t(values.columnDouble(1)) });
        values.reset();
    }
    std::stable_sort(
        samples.begin(), samples.end(), [](const Sample &a, const Sample &b) { return a.tsNs < b.tsNs; });
    std::vector<int64_t> current(deviceTracks.size(), 0);
    std::unordered_map<int64_t, int64_t> total; // device -> sum of its tracks' current values
    std::vector<MemoryEvent> events;
    events.reserve(samples.size());
    for (const Sample &x : samples) {
        const auto [track, device] = deviceTracks[x.track];
        int64_t &sum = total[device];
        sum += x.bytes - current[x.track];
        current[x.track] = x.bytes;
        MemoryEvent e;
        e.tsNs = x.tsNs;
        e.device = device;
        e.totalAllocated = sum;
        e.trackId = track;
        events.push_back(e);
    }
    std::vector<DeviceMemory> devices = memoryByDevice(std::move(events));
    for (DeviceMemory &d : devices)
        d.fromCounters = true;
    return devices;
}

// Above this many allocations to name, one pass over each thread's slices beats a look-up each.
constexpr size_t kSweepAbove = 4096;

// The innermost slice (with a duration) enclosing each allocation on its thread: going back in time
// from the allocation, the first slice still open at it (a deeper one starts later). Allocations
// outside every slice (depth 0) have none.
void nameOpsOneByOne(SqliteDb &db, const std::vector<MemoryAllocation *> &asked,
    std::unordered_map<MemoryAllocation *, int64_t> &nameIds)
{
    SqliteStmt maxDur(db, "SELECT max_dur_ns FROM track WHERE id = ?");
    SqliteStmt back(db,
        "SELECT ts + dur, name_id FROM slice WHERE track_id = ? AND ts <= ? AND ts >= ? AND dur > 0 "
        "ORDER BY ts DESC");
    std::unordered_map<int64_t, int64_t> longest; // track -> its longest slice, ns
    for (MemoryAllocation *a : asked) {
        if (a->depth == 0)
            continue;
        auto it = longest.find(a->trackId);
        if (it == longest.end()) {
            maxDur.bind(1, a->trackId);
            it = longest.emplace(a->trackId, maxDur.step() ? maxDur.columnInt(0) : 0).first;
            maxDur.reset();
        }
        back.bind(1, a->trackId).bind(2, a->tsNs).bind(3, a->tsNs - it->second);
        while (back.step())
            if (back.columnInt(0) >= a->tsNs) {
                nameIds[a] = back.columnInt(1);
                break;
            }
        back.reset();
    }
}

// The same in one pass over each thread's slices up to the last allocation asked about.
void nameOpsSweep(SqliteDb &db, std::vector<MemoryAllocation *> asked,
    std::unordered_map<MemoryAllocation *, int64_t> &nameIds)
{
    std::sort(asked.begin(), asked.end(), [](const MemoryAllocation *a, const MemoryAllocation *b) {
        return a->trackId != b->trackId ? a->trackId < b->trackId : a->tsNs < b->tsNs;
    });
    SqliteStmt maxDur(db, "SELECT max_dur_ns FROM track WHERE id = ?");
    SqliteStmt st(db,
        "SELECT ts, dur, depth, name_id FROM slice WHERE track_id = ? AND ts >= ? AND ts <= ? AND dur > 0");
    struct Open {
        int64_t endNs;
        int64_t depth;
        int64_t nameId;
    };
    std::vector<Open> stack;
    for (size_t first = 0; first < asked.size();) {
        const int64_t track = asked[first]->trackId;
        size_t end = first;
        while (end < asked.size() && asked[end]->trackId == track)
            ++end;
        maxDur.bind(1, track);
        const int64_t longestNs = maxDur.step() ? maxDur.columnInt(0) : 0;
        maxDur.reset();
        const int64_t fromNs = asked[first]->tsNs;
        const int64_t toNs = asked[end - 1]->tsNs;
        st.bind(1, track).bind(
            2, fromNs > std::numeric_limits<int64_t>::min() + longestNs ? fromNs - longestNs : fromNs);
        st.bind(3, toNs);
        stack.clear();
        size_t next = first;
        auto answer = [&](int64_t beforeNs) {
            for (; next < end && asked[next]->tsNs < beforeNs; ++next) {
                const int64_t t = asked[next]->tsNs;
                while (!stack.empty() && stack.back().endNs < t)
                    stack.pop_back();
                if (!stack.empty())
                    nameIds[asked[next]] = stack.back().nameId;
            }
        };
        while (st.step()) {
            const int64_t ts = st.columnInt(0);
            answer(ts);
            const int64_t depth = st.columnInt(2);
            while (!stack.empty() && stack.back().depth >= depth)
                stack.pop_back();
            stack.push_back({ ts + st.columnInt(1), depth, st.columnInt(3) });
        }
        answer(std::numeric_limits<int64_t>::max());
        st.reset();
        first = end;
    }
}

void nameOps(SqliteDb &db, std::vector<MemoryAllocation *> &asked)
{
    std::unordered_map<MemoryAllocation *, int64_t> nameIds;
    if (asked.size() > kSweepAbove)
        nameOpsSweep(db, asked, nameIds);
    else
        nameOpsOneByOne(db, asked, nameIds);
    SqliteStmt str(db, "SELECT str FROM string WHERE id = ?");
    std::unordered_map<int64_t, QString> names;
    for (auto &[a, nameId] : nameIds) {
        auto it = names.find(nameId);
        if (it == names.end()) {
            str.bind(1, nameId);
            it = names.emplace(nameId, str.step() ? str.columnText(0) : QString()).first;
            str.reset();
        }
        a->op = it->second;
    }
}

std::vector<MemoryEvent> readMemoryInstants(SqliteDb &db, int64_t traceId)
{
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
    SqliteStmt trace(db, "SELECT slice_count, start_ns, end_ns FROM trace WHERE id = ?");
    trace.bind(1, traceId);
    if (!trace.step())
        return {};
    // Memory instants are slices: there are no more of them than the trace's slices.
    const size_t slices = size_t(std::max<int64_t>(trace.columnInt(0), 0));
    if (slices < size_t(kSplitAboveSlices) || trace.columnIsNull(1) || trace.columnIsNull(2)
        || inWriteTransaction(db) || !QFileInfo(db.path()).isFile())
        return readMemoryInstants(db, traceId, kMin, kMax, slices);
    // This thread replays the events once both parts are read: it reads the smaller part.
    const int64_t midNs = trace.columnInt(1) + (trace.columnInt(2) - trace.columnInt(1)) / 5 * 2;
    // A reader on a second connection sees the same committed data.
    std::future<std::vector<MemoryEvent>> later
        = std::async(std::launch::async, [path = db.path(), traceId, midNs, slices] {
              Workspace second(path, Workspace::Role::Reader);
              const SqliteReadTransaction snapshot(second.db());
              return readMemoryInstants(second.db(), traceId, midNs, kMax, slices);
          });
    std::vector<MemoryEvent> events = readMemoryInstants(db, traceId, kMin, midNs, slices);
    std::vector<MemoryEvent> rest = later.get();
    events.insert(events.end(), rest.begin(), rest.end());
    return events;
}

void fill(SqliteDb &db, int64_t traceId, MemoryTimeline &t)
{
    std::vector<MemoryEvent> events = readMemoryInstants(db, traceId);
    if (events.empty()) {
        t.devices = readMemoryCounters(db, traceId);
        return;
    }
    t.devices = memoryByDevice(std::move(events));
    std::vector<MemoryAllocation *> asked;
    for (DeviceMemory &d : t.devices) {
        for (MemoryAllocation &a : d.liveAtPeak)
            asked.push_back(&a);
        for (MemoryAllocation &a : d.largest)
            asked.push_back(&a);
    }
    nameOps(db, asked);
}

} // namespace

MemoryTimeline memoryTimeline(Workspace &ws, int64_t traceId)
{
    const SqliteReadTransaction snapshot(ws.db());
    MemoryTimeline t;
    t.traceId = traceId;
    SqliteStmt trace(
        ws.db(), "SELECT name, coalesce(start_ns, 0), coalesce(end_ns, 0) FROM trace WHERE id = ?");
    trace.bind(1, traceId);
    if (!trace.step())
        return t;
    t.traceName = trace.columnText(0);
    t.startNs = trace.columnInt(1);
    t.endNs = trace.columnInt(2);
    // A rank of a job merged from shards: its events are in its shard.
    if (const std::optional<EventsLocation> at = eventsLocation(ws, traceId)) {
        Workspace shard(at->workspacePath, Workspace::Role::Reader);
        const SqliteReadTransaction shardSnapshot(shard.db());
        fill(shard.db(), at->traceId, t);
        return t;
    }
    fill(ws.db(), traceId, t);
    return t;
}

} // namespace plumb
