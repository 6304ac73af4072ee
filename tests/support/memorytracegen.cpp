// SPDX-License-Identifier: GPL-3.0-or-later
#include "memorytracegen.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_map>

namespace plumb::testgen {

namespace {

constexpr int64_t kMiB = int64_t(1) << 20;
constexpr int64_t kSegment = 2 * kMiB; // reserved memory grows in these
constexpr int kPreCaptureChunks = 8;

struct Device {
    std::vector<GeneratedAllocation> live;
    std::unordered_map<int64_t, size_t> liveIndex; // addr -> index in live
    std::vector<std::pair<int64_t, int64_t>> preCapture; // (addr, bytes) not yet freed
    std::vector<int64_t> freedAddrs; // addresses to allocate again
    int64_t nextAddr = 0;
    int64_t total = 0;
    int64_t reserved = 0;
    GeneratedDevice out;
};

int64_t roundUp(int64_t v, int64_t to)
{
    return (v + to - 1) / to * to;
}

class Writer {
public:
    explicit Writer(std::string &out)
        : m_out(out)
    {
    }
    void op(const char *name, int64_t tsNs, int64_t durNs)
    {
        char line[256];
        const int n = std::snprintf(line, sizeof line,
            ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%s\",\"pid\":100,\"tid\":1,\"ts\":%lld.%03lld,"
            "\"dur\":%lld.%03lld}",
            name, (long long)(tsNs / 1000), (long long)(tsNs % 1000), (long long)(durNs / 1000),
            (long long)(durNs % 1000));
        m_out.append(line, size_t(n));
    }
    void memory(int64_t tsNs, int device, int64_t bytes, int64_t addr, int64_t total, int64_t reserved)
    {
        char line[320];
        const int n = std::snprintf(line, sizeof line,
            ",\n{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,"
            "\"tid\":1,\"ts\":%lld.%03lld,\"args\":{\"Total Reserved\":%lld,\"Total Allocated\":%lld,"
            "\"Bytes\":%lld,\"Addr\":%lld,\"Device Id\":%d,\"Device Type\":1}}",
            (long long)(tsNs / 1000), (long long)(tsNs % 1000), (long long)reserved, (long long)total,
            (long long)bytes, (long long)addr, device);
        m_out.append(line, size_t(n));
    }

private:
    std::string &m_out;
};

} // namespace

QByteArray memoryTraceJson(const MemoryTraceSpec &spec, MemoryTraceTruth *truth)
{
    std::mt19937_64 rng(spec.seed);
    auto below = [&](int64_t n) { return int64_t(rng() % uint64_t(n)); };
    std::vector<Device> devices(size_t(std::max(spec.devices, 1)));
    for (size_t d = 0; d < devices.size(); ++d) {
        Device &dev = devices[d];
        dev.nextAddr = int64_t(0x7f0000000000) + int64_t(d) * (int64_t(1) << 40);
        for (int c = 0; c < kPreCaptureChunks && spec.preCaptureBytes > 0; ++c) {
            const int64_t bytes = spec.preCaptureBytes / kPreCaptureChunks;
            dev.preCapture.emplace_back(dev.nextAddr, bytes);
            dev.nextAddr += roundUp(bytes, 4096);
            dev.total += bytes;
        }
        dev.reserved = roundUp(dev.total, kSegment);
        dev.out.peakAllocated = -1;
    }
    std::string json
        = "{\"schemaVersion\":1,\"traceEvents\":[\n"
          "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":1,\"args\":{\"name\":\"main\"}}";
    json.reserve(size_t(spec.events) * 330 + 4096);
    Writer w(json);
    int64_t emitted = 0;
    int64_t ops = 0;

    // One memory instant at `ts` inside `op` (empty: none).
    auto memoryEvent = [&](int64_t ts, const char *op) {
        const int d = int(below(int64_t(devices.size())));
        Device &dev = devices[size_t(d)];
        const int cycle = std::max(spec.cycleEvents, 2);
        const bool grow = emitted % cycle < cycle / 2;
        ++dev.out.events;
        int64_t bytes = 0, addr = 0;
        if (!dev.preCapture.empty() && below(400) == 0) { // memory the trace never saw allocated
            std::tie(addr, bytes) = dev.preCapture.back();
            dev.preCapture.pop_back();
            bytes = -bytes;
            ++dev.out.unmatchedFrees;
            ++dev.out.frees;
        } else if (dev.live.empty() || below(100) < (grow ? spec.growPercent : 100 - spec.growPercent)) {
            bytes = (1 + below(4096)) * 512;
            if (!dev.freedAddrs.empty() && below(3) == 0) {
                const size_t i = size_t(below(int64_t(dev.freedAddrs.size())));
                addr = dev.freedAddrs[i];
                dev.freedAddrs[i] = dev.freedAddrs.back();
                dev.freedAddrs.pop_back();
            } else {
                addr = dev.nextAddr;
                dev.nextAddr += roundUp(bytes, 4096) + 4096 * 16; // room for reuse by a smaller block
            }
            GeneratedAllocation a { ts, bytes, addr, op ? QString::fromLatin1(op) : QString() };
            dev.liveIndex[addr] = dev.live.size();
            dev.live.push_back(a);
            if (spec.truth)
                dev.out.all.push_back(a);
            ++dev.out.allocations;
        } else {
            const size_t i = size_t(below(int64_t(dev.live.size())));
            addr = dev.live[i].addr;
            bytes = -dev.live[i].bytes;
            dev.liveIndex.erase(addr);
            if (i + 1 != dev.live.size()) {
                dev.live[i] = dev.live.back();
                dev.liveIndex[dev.live[i].addr] = i;
            }
            dev.live.pop_back();
            dev.freedAddrs.push_back(addr);
            ++dev.out.frees;
        }
        dev.total += bytes;
        if (dev.total > dev.reserved)
            dev.reserved = roundUp(dev.total, kSegment) + kSegment;
        else if (dev.out.events % 1000 == 0) // torch.cuda.empty_cache()
            dev.reserved = roundUp(dev.total, kSegment);
        w.memory(ts, d, bytes, addr, dev.total, dev.reserved);
        if (dev.total > dev.out.peakAllocated) {
            dev.out.peakAllocated = dev.total;
            dev.out.peakNs = ts;
            dev.out.reservedAtPeak = dev.reserved;
            if (spec.truth)
                dev.out.liveAtPeak = dev.live;
        }
        dev.out.peakReserved = std::max(dev.out.peakReserved, dev.reserved);
        dev.out.maxReservedMinusAllocated
            = std::max(dev.out.maxReservedMinusAllocated, dev.reserved - dev.total);
        ++emitted;
    };

    int64_t t = 1'000'000'000; // ns
    while (emitted < spec.events) {
        const int64_t kind = below(4);
        if (kind <= 1) { // aten::linear > aten::addmm, memory in both
            const int inner = 1 + int(below(3));
            const int64_t innerDur = 400 + 300 * inner;
            w.op("aten::linear", t, innerDur + 1700);
            w.op("aten::addmm", t + 500, innerDur);
            ops += 2;
            for (int j = 0; j < inner && emitted < spec.events; ++j)
                memoryEvent(t + 700 + 300 * j, "aten::addmm");
            if (emitted < spec.events)
                memoryEvent(t + 500 + innerDur + 600, "aten::linear");
            t += innerDur + 2000;
        } else if (kind == 2) {
            w.op("aten::mul", t, 1000);
            ++ops;
            memoryEvent(t + 400, "aten::mul");
            t += 1500;
        } else {
            memoryEvent(t + 250, nullptr); // outside any op
            t += 700;
        }
    }
    json += "\n]}\n";
    if (truth) {
        truth->devices.clear();
        for (Device &dev : devices) {
            std::sort(dev.out.liveAtPeak.begin(), dev.out.liveAtPeak.end(),
                [](const GeneratedAllocation &a, const GeneratedAllocation &b) { return a.tsNs < b.tsNs; });
            truth->devices.push_back(std::move(dev.out));
        }
        truth->ops = ops;
    }
    return QByteArray(json.data(), qsizetype(json.size()));
}

} // namespace plumb::testgen
