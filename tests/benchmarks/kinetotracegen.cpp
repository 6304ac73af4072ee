// SPDX-License-Identifier: GPL-3.0-or-later
#include "kinetotracegen.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace plumb::bench {

namespace {

#include "kineto_kernel_names.inc"

constexpr int kMaxDevices = 16;
constexpr int kComputeStream = 7;
constexpr int kCommStream = 20;
constexpr int64_t kPid = 2910249;
constexpr int64_t kMainTid = 2910249;
constexpr int64_t kBwdTid = 2919752;
constexpr int64_t kStartNs = 4458676522690655; // first event, µs 4458676522690.655
constexpr int64_t kBaseTimeNs = 1711964646000000000; // "baseTimeNanoseconds"
constexpr int kNumSms = 108;

// ---------------------------------------------------------------------------------------------
// Randomness: splitmix64, deterministic across platforms.

uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct Rng {
    uint64_t s;
    uint64_t next() { return mix64(s += 0x9E3779B97F4A7C15ull); }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
    bool chance(double p) { return uniform() < p; }
    double normal()
    {
        const double u1 = std::max(uniform(), 1e-12);
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    // Log-normal duration in ns around a median given in µs.
    int64_t lognormalNs(double medianUs, double sigma, int64_t minNs = 700)
    {
        const double v = medianUs * 1000.0 * std::exp(sigma * normal());
        return std::max<int64_t>(minNs, int64_t(std::llround(std::min(v, 5e9))));
    }
};

// ---------------------------------------------------------------------------------------------
// Kernel classes and their name pools (real names, see kineto_kernel_names.inc).

enum class KClass { Gemm, Elementwise, Reduce, Norm, Softmax, Attention, MultiTensor, Nccl, Other, Count };

struct KPool {
    const char *const *names;
    int count;
    double medianUs;
    double sigma;
};

template <size_t N> constexpr KPool pool(const char *const (&names)[N], double medianUs, double sigma)
{
    return KPool { names, int(N), medianUs, sigma };
}

const std::array<KPool, size_t(KClass::Count)> kPools = {
    pool(kGemmKernels, 260, 0.55),
    pool(kElementwiseKernels, 9, 0.9),
    pool(kReduceKernels, 14, 0.7),
    pool(kNormKernels, 16, 0.5),
    pool(kSoftmaxKernels, 45, 0.4),
    pool(kAttentionKernels, 380, 0.35),
    pool(kMultiTensorKernels, 70, 0.5),
    pool(kNcclKernels, 1400, 0.6),
    pool(kOtherKernels, 18, 0.8),
};

struct KernelInfo {
    const char *name;
    int grid;
    int block;
    int regs;
    int smem;
};

// A call site's kernel: the same site always launches the same kernel with the same configuration.
KernelInfo kernelFor(uint64_t seed, KClass kc, int site, int variant)
{
    const KPool &p = kPools[size_t(kc)];
    const uint64_t h
        = mix64(seed * 0x100000001B3ull ^ (uint64_t(kc) << 48) ^ (uint64_t(site) << 16) ^ uint64_t(variant));
    KernelInfo k {};
    k.name = p.names[h % uint64_t(p.count)];
    static constexpr int kBlocks[] = { 128, 256, 512, 64, 128, 256, 384, 1024 };
    static constexpr int kGrids[] = { 1, 8, 108, 216, 512, 708, 1024, 3474, 6912, 16384 };
    const uint64_t h2 = mix64(h);
    k.block = kBlocks[h2 % 8];
    k.grid = kGrids[(h2 >> 8) % 10];
    k.regs = 16 + int((h2 >> 16) % 15) * 8;
    k.smem = (kc == KClass::Gemm || kc == KClass::Attention || kc == KClass::Nccl)
        ? int((h2 >> 24) % 48) * 1024 + 400
        : 0;
    return k;
}

// ---------------------------------------------------------------------------------------------
// Output: a buffer flushed to a FILE or a gzFile.

class Out {
public:
    ~Out()
    {
        if (m_file)
            std::fclose(m_file);
        if (m_gz)
            gzclose(m_gz);
    }

    bool open(const std::string &path, bool gzip, int level, std::string *error)
    {
        if (gzip) {
            const std::string mode = "wb" + std::to_string(std::clamp(level, 1, 9));
            m_gz = gzopen(path.c_str(), mode.c_str());
            if (m_gz)
                gzbuffer(m_gz, 1 << 20);
        } else {
            m_file = std::fopen(path.c_str(), "wb");
        }
        if (!m_file && !m_gz) {
            if (error)
                *error = "cannot create " + path + ": " + std::strerror(errno);
            return false;
        }
        b.reserve(kFlushAt + (1 << 16));
        return true;
    }

    void maybeFlush()
    {
        if (b.size() >= kFlushAt)
            flush();
    }

    // From now on, every `every`-th chunk of events is written before the chunk ahead of it (0: none,
    // after what is held and buffered is written in that order).
    void swapChunks(int every)
    {
        if (every == 0) {
            write(b);
            b.clear();
            write(m_held);
            m_held.clear();
        }
        m_swapEvery = every;
    }

    void flush()
    {
        if (b.empty())
            return;
        if (m_swapEvery > 0) {
            // A chunk (about 1 MB of whole events, each starting with its comma) held back while the
            // next is written: CUPTI's buffers, delivered out of order.
            if (m_held.empty() && ++m_chunks % m_swapEvery == 0) {
                m_held.swap(b);
                return;
            }
            write(b);
            b.clear();
            write(m_held);
            m_held.clear();
            return;
        }
        write(b);
        b.clear();
    }

    bool close(std::string *error)
    {
        swapChunks(0);
        bool ok = !m_failed;
        if (m_file) {
            ok = std::fclose(m_file) == 0 && ok;
            m_file = nullptr;
        }
        if (m_gz) {
            ok = gzclose(m_gz) == Z_OK && ok;
            m_gz = nullptr;
        }
        if (!ok && error)
            *error = "write error (disk full?)";
        return ok;
    }

    [[nodiscard]] int64_t total() const { return m_total + int64_t(b.size()) + int64_t(m_held.size()); }

    std::string b;

private:
    void write(const std::string &chunk)
    {
        if (chunk.empty())
            return;
        m_total += int64_t(chunk.size());
        if (m_file) {
            if (std::fwrite(chunk.data(), 1, chunk.size(), m_file) != chunk.size())
                m_failed = true;
        } else if (m_gz) {
            if (gzwrite(m_gz, chunk.data(), unsigned(chunk.size())) != int(chunk.size()))
                m_failed = true;
        }
    }

    static constexpr size_t kFlushAt = size_t(1) << 20;
    std::string m_held; // a chunk written after the next one
    int m_swapEvery = 0;
    int64_t m_chunks = 0;
    FILE *m_file = nullptr;
    gzFile m_gz = nullptr;
    int64_t m_total = 0;
    bool m_failed = false;
};

// ---------------------------------------------------------------------------------------------
// JSON text in Kineto's style.

class Writer {
public:
    Writer(Out &out, bool kinetoLayout)
        : m_out(out)
        , b(out.b)
        , m_ml(kinetoLayout)
    {
    }

    void raw(std::string_view s) { b.append(s); }

    void num(int64_t v)
    {
        char tmp[24];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        b.append(tmp, size_t(r.ptr - tmp));
    }

    // Nanoseconds as microseconds with exactly three decimals.
    void micros(int64_t ns)
    {
        if (ns < 0) {
            b.push_back('-');
            ns = -ns;
        }
        num(ns / 1000);
        const int frac = int(ns % 1000);
        const char digits[4]
            = { '.', char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10) };
        b.append(digits, 4);
    }

    void fixed(double v, int precision)
    {
        char tmp[64];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, precision);
        b.append(tmp, size_t(r.ptr - tmp));
    }

    void shortest(double v)
    {
        char tmp[64];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        b.append(tmp, size_t(r.ptr - tmp));
    }

    void str(std::string_view s)
    {
        b.push_back('"');
        b.append(s); // names come from our own tables: nothing to escape
        b.push_back('"');
    }

    void beginEvent()
    {
        if (m_first)
            m_first = false;
        else
            b.append(",\n");
        b.append(m_ml ? "  {\n    " : "{");
    }
    void group() { b.append(m_ml ? ",\n    " : ", "); }
    void beginArgs() { b.append(m_ml ? "\"args\": {\n      " : "\"args\": {"); }
    void endArgs() { b.append(m_ml ? "\n    }" : "}"); }
    void endEvent()
    {
        b.append(m_ml ? "\n  }" : "}");
        m_out.maybeFlush();
    }

    // The common head of an X event, up to and including the opening of "args".
    void xHead(std::string_view cat, std::string_view name, int64_t pid, int64_t tid, int64_t ts, int64_t dur)
    {
        beginEvent();
        raw("\"ph\": \"X\", \"cat\": ");
        str(cat);
        raw(", \"name\": ");
        str(name);
        raw(", \"pid\": ");
        num(pid);
        raw(", \"tid\": ");
        num(tid);
        group();
        raw("\"ts\": ");
        micros(ts);
        raw(", \"dur\": ");
        micros(dur);
        group();
        beginArgs();
    }

    void flow(bool start, std::string_view cat, int64_t id, int64_t pid, int64_t tid, int64_t ts)
    {
        beginEvent();
        raw(start ? "\"ph\": \"s\", \"id\": " : "\"ph\": \"f\", \"id\": ");
        num(id);
        raw(", \"pid\": ");
        num(pid);
        raw(", \"tid\": ");
        num(tid);
        raw(", \"ts\": ");
        micros(ts);
        group();
        raw("\"cat\": ");
        str(cat);
        raw(", \"name\": ");
        str(cat);
        if (!start)
            raw(", \"bp\": \"e\"");
        endEvent();
    }

    void metadata(std::string_view name, int64_t ts, int64_t pid, int64_t tid, std::string_view argKey,
        std::string_view textValue, int64_t numValue)
    {
        beginEvent();
        raw("\"name\": ");
        str(name);
        raw(", \"ph\": \"M\", \"ts\": ");
        micros(ts);
        raw(", \"pid\": ");
        num(pid);
        raw(", \"tid\": ");
        num(tid);
        group();
        beginArgs();
        str(argKey);
        raw(": ");
        if (textValue.data())
            str(textValue);
        else
            num(numValue);
        endArgs();
        endEvent();
    }

private:
    Out &m_out;
    std::string &b;
    bool m_ml;
    bool m_first = true;
};

// ---------------------------------------------------------------------------------------------
// "Input Dims" / "Input type" strings for a few op shapes (batch 8, sequence 2048, hidden 4096).

struct Shape {
    const char *dims;
    const char *types;
};

enum ShapeId : int8_t {
    NoShape = -1,
    ShUnary,
    ShBinary,
    ShLinearQkv,
    ShLinearOut,
    ShLinearUp,
    ShLinearDown,
    ShNorm,
    ShEmpty,
    ShAlias,
    ShMm,
    ShAttention,
    ShDropout,
    ShForeach,
    ShScalar,
    ShCount
};

const Shape kShapes[ShCount] = {
    { "[[8, 2048, 4096]]", "[\"c10::BFloat16\"]" },
    { "[[8, 2048, 4096], [8, 2048, 4096], []]", "[\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]" },
    { "[[8, 2048, 4096], [12288, 4096], [12288]]",
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]" },
    { "[[8, 2048, 4096], [4096, 4096], [4096]]",
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]" },
    { "[[8, 2048, 4096], [16384, 4096], [16384]]",
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]" },
    { "[[8, 2048, 16384], [4096, 16384], [4096]]",
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]" },
    { "[[8, 2048, 4096], [], [4096], [4096], []]",
        "[\"c10::BFloat16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"]" },
    { "[[], [], [], [], [], []]", "[\"ScalarList\", \"Scalar\", \"\", \"Device\", \"Scalar\", \"\"]" },
    { "[[4096, 4096]]", "[\"c10::BFloat16\"]" },
    { "[[16384, 4096], [4096, 4096]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]" },
    { "[[8, 32, 2048, 128], [8, 32, 2048, 128], [8, 32, 2048, 128], [], [], [], []]",
        "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\", \"Scalar\", "
        "\"\"]" },
    { "[[8, 2048, 4096], [], []]", "[\"c10::BFloat16\", \"Scalar\", \"Scalar\"]" },
    { "[[], [], []]", "[\"TensorList\", \"TensorList\", \"Scalar\"]" },
    { "[[]]", "[\"float\"]" },
};

// ---------------------------------------------------------------------------------------------
// CPU-side records of one step, written in order of opening (Kineto writes parents before children).

enum class RecKind : uint8_t { Op, Annotation, Step, FlowS, FlowF };
enum Thr : uint8_t { Main = 0, Bwd = 1 };

struct CpuRec {
    RecKind kind;
    uint8_t thr;
    int8_t shape;
    bool autograd; // carries "Sequence number" / "Fwd thread id"
    const char *name;
    int64_t ts;
    int64_t dur;
    int64_t ext; // External id; flow id for flows; step number for Step
    int64_t evIdx;
    int64_t seq;
};

enum class Rt : uint8_t {
    LaunchKernel,
    MemcpyAsync,
    MemsetAsync,
    EventRecord,
    StreamWaitEvent,
    StreamIsCapturing,
    StreamGetPriority,
    DeviceGetStreamPriorityRange,
    FuncSetAttribute,
    Occupancy,
    EventQuery,
    StreamSynchronize,
};

struct RtInfo {
    const char *name;
    int cbid;
    double medianUs;
};

const RtInfo kRt[] = {
    { "cudaLaunchKernel", 211, 5.5 },
    { "cudaMemcpyAsync", 41, 9 },
    { "cudaMemsetAsync", 51, 5 },
    { "cudaEventRecord", 135, 2.5 },
    { "cudaStreamWaitEvent", 147, 2.2 },
    { "cudaStreamIsCapturing", 317, 0.9 },
    { "cudaStreamGetPriority", 203, 0.7 },
    { "cudaDeviceGetStreamPriorityRange", 205, 0.7 },
    { "cudaFuncSetAttribute", 273, 1.6 },
    { "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", 251, 1.2 },
    { "cudaEventQuery", 138, 1.0 },
    { "cudaStreamSynchronize", 131, 4 },
};

enum class BwdKind : uint8_t {
    Linear,
    LayerNorm,
    Attention,
    Add,
    Gelu,
    Dropout,
    Embedding,
    LogSoftmax,
    NllLoss,
    ToCopy
};

struct BwdTask {
    BwdKind kind;
    int layer;
    int dev;
    int prevDev; // ToCopy: the device the copy came from
    int64_t seq;
    int64_t flowId;
};

enum class Pass { Cpu, Gpu };

class Sim {
public:
    Sim(const KinetoTraceOptions &o, Writer &w, Pass pass)
        : m_o(o)
        , m_w(w)
        , m_pass(pass)
        , m_devices(std::clamp(o.devices, 1, kMaxDevices))
        , m_layers(o.layers > 0 ? o.layers : int(std::clamp<int64_t>(o.events / 2000, 1, 24)))
    {
        m_now[Main] = kStartNs;
        m_now[Bwd] = kStartNs;
        for (auto &d : m_streamFree)
            d[0] = d[1] = kStartNs;
        m_recs.reserve(1 << 14);
    }

    void step(int64_t n);

    KinetoTraceStats st;
    [[nodiscard]] int64_t endNs() const { return std::max(m_now[Main], m_now[Bwd]); }

private:
    // --- CPU side
    int open(Thr t, const char *name, RecKind kind = RecKind::Op, int8_t shape = NoShape,
        bool autograd = false, int64_t seq = 0)
    {
        m_now[t] += m_rng.range(250, 2200);
        CpuRec r {};
        r.kind = kind;
        r.thr = t;
        r.shape = (shape != NoShape && m_rng.chance(m_o.shapesFraction)) ? shape : int8_t(NoShape);
        r.autograd = autograd;
        r.name = name;
        r.ts = m_now[t];
        r.ext = kind == RecKind::Step ? seq : ++m_ext;
        r.evIdx = m_evIdx++;
        r.seq = seq;
        m_recs.push_back(r);
        m_stack[t].push_back(int(m_recs.size() - 1));
        if (kind == RecKind::Op)
            ++st.cpuOps;
        else
            ++st.userAnnotations;
        return int(m_recs.size() - 1);
    }

    void close(Thr t)
    {
        const int idx = m_stack[t].back();
        m_stack[t].pop_back();
        m_now[t] += m_rng.range(150, 1200);
        m_recs[size_t(idx)].dur = m_now[t] - m_recs[size_t(idx)].ts;
    }

    void cpuWork(Thr t, double medianUs, double sigma = 0.5)
    {
        m_now[t] += m_rng.lognormalNs(medianUs, sigma, 100);
    }

    void leaf(Thr t, const char *name, int8_t shape = NoShape, double workUs = 1.5)
    {
        open(t, name, RecKind::Op, shape);
        cpuWork(t, workUs);
        close(t);
    }

    void flowRec(bool start, Thr t, int64_t id, int64_t ts)
    {
        CpuRec r {};
        r.kind = start ? RecKind::FlowS : RecKind::FlowF;
        r.thr = t;
        r.ts = ts;
        r.ext = id;
        r.shape = NoShape;
        m_recs.push_back(r);
        ++(start ? st.flowStarts : st.flowEnds);
    }

    // An op that records an autograd node: Sequence number, and a fwdbwd flow to its backward.
    int autogradOp(const char *name, int8_t shape, BwdKind kind, int layer, int dev, int prevDev = 0)
    {
        const int64_t seq = ++m_seq;
        const int idx = open(Main, name, RecKind::Op, shape, true, seq);
        BwdTask task { kind, layer, dev, prevDev, seq, 0 };
        if (m_rng.chance(0.35)) { // Kineto links only some forward/backward pairs
            task.flowId = ++m_fwdbwd;
            flowRec(true, Main, task.flowId, m_recs[size_t(idx)].ts);
        }
        m_tasks.push_back(task);
        return idx;
    }

    [[nodiscard]] int64_t currentExt(Thr t) const
    {
        return m_stack[t].empty() ? 0 : m_recs[size_t(m_stack[t].back())].ext;
    }

    // --- runtime and GPU side
    void runtime(Thr t, Rt kind, int64_t corr, int64_t ts, int64_t dur)
    {
        ++st.runtime;
        if (m_pass != Pass::Gpu)
            return;
        const RtInfo &info = kRt[size_t(kind)];
        m_w.xHead("cuda_runtime", info.name, kPid, t == Main ? kMainTid : kBwdTid, ts, dur);
        m_w.raw("\"External id\": ");
        m_w.num(currentExt(t));
        m_w.raw(", \"cbid\": ");
        m_w.num(info.cbid);
        m_w.raw(", \"correlation\": ");
        m_w.num(corr);
        m_w.endArgs();
        m_w.endEvent();
    }

    void rt(Thr t, Rt kind)
    {
        m_now[t] += m_rng.range(200, 900);
        const int64_t dur = m_rng.lognormalNs(kRt[size_t(kind)].medianUs, 0.4, 400);
        runtime(t, kind, ++m_corr, m_now[t], dur);
        m_now[t] += dur;
    }

    void gpuSpan(int dev, int64_t start, int64_t end)
    {
        m_gpuFirst[dev] = std::min(m_gpuFirst[dev], start);
        m_gpuLast[dev] = std::max(m_gpuLast[dev], end);
    }

    // Launch start -> when the GPU may begin: after the launch latency and behind queued work.
    int64_t gpuStart(int dev, int streamIdx, int64_t launchTs, int64_t notBefore)
    {
        const int64_t ready = std::max(launchTs + m_rng.range(2500, 7000), notBefore);
        const int64_t free = m_streamFree[dev][streamIdx];
        return free >= ready ? free + m_rng.range(600, 2400) : ready;
    }

    void launch(Thr t, int dev, KClass kc, int site, int variant = 0, double scale = 1.0, bool comm = false,
        int64_t notBefore = 0)
    {
        if (kc == KClass::Gemm && m_rng.chance(0.6)) {
            rt(t, Rt::Occupancy);
            rt(t, Rt::FuncSetAttribute);
        }
        m_now[t] += m_rng.range(300, 1500);
        const int64_t ts = m_now[t];
        const int64_t dur = m_rng.chance(0.004) ? m_rng.lognormalNs(150, 0.8)
                                                : m_rng.lognormalNs(kRt[0].medianUs, 0.35, 2000);
        const int64_t corr = ++m_corr;
        const int si = comm ? 1 : 0;
        const int stream = comm ? kCommStream : kComputeStream;
        const KPool &p = kPools[size_t(kc)];
        const int64_t start = gpuStart(dev, si, ts, notBefore);
        const int64_t kdur = m_rng.chance(0.003) ? m_rng.lognormalNs(p.medianUs * scale * 8, p.sigma)
                                                 : m_rng.lognormalNs(p.medianUs * scale, p.sigma, 1200);
        m_streamFree[dev][si] = start + kdur;
        gpuSpan(dev, start, start + kdur);
        ++st.kernels;
        ++st.launches;
        ++st.flowStarts;
        ++st.flowEnds;
        if (m_pass == Pass::Gpu) {
            const KernelInfo k = kernelFor(m_o.seed, kc, site, variant);
            m_w.xHead("kernel", k.name, dev, stream, start, kdur);
            m_w.raw("\"External id\": ");
            m_w.num(currentExt(t));
            m_w.raw(", \"queued\": 0, \"device\": ");
            m_w.num(dev);
            m_w.raw(", \"context\": 1, \"stream\": ");
            m_w.num(stream);
            m_w.raw(", \"correlation\": ");
            m_w.num(corr);
            m_w.raw(", \"registers per thread\": ");
            m_w.num(k.regs);
            m_w.raw(", \"shared memory\": ");
            m_w.num(k.smem);
            const double blocksPerSm = double(k.grid) / kNumSms;
            const double warpsPerSm = blocksPerSm * (k.block / 32);
            m_w.raw(", \"blocks per SM\": ");
            m_w.fixed(blocksPerSm, 6);
            m_w.raw(", \"warps per SM\": ");
            m_w.fixed(warpsPerSm, 6);
            m_w.raw(", \"grid\": [");
            m_w.num(k.grid);
            m_w.raw(", 1, 1], \"block\": [");
            m_w.num(k.block);
            m_w.raw(", 1, 1], \"est. achieved occupancy %\": ");
            m_w.num(std::min<int64_t>(100, int64_t(warpsPerSm / 64.0 * 100.0)));
            m_w.endArgs();
            m_w.endEvent();
            m_w.flow(false, "ac2g", corr, dev, stream, start);
        }
        runtime(t, Rt::LaunchKernel, corr, ts, dur);
        if (m_pass == Pass::Gpu)
            m_w.flow(true, "ac2g", corr, kPid, t == Main ? kMainTid : kBwdTid, ts);
        m_now[t] = ts + dur;
    }

    enum class Copy { HtoD, DtoD, DtoH };

    // cudaMemcpyAsync / cudaMemsetAsync and their GPU activity. A DtoH copy to pageable memory blocks
    // the calling thread until the copy is done.
    void memOp(Thr t, int dev, bool memset, Copy kind, int64_t bytes, int64_t notBefore = 0)
    {
        m_now[t] += m_rng.range(300, 1500);
        const int64_t ts = m_now[t];
        const int64_t corr = ++m_corr;
        const int64_t start = gpuStart(dev, 0, ts, notBefore);
        double gbps = 900;
        const char *name = "Memset (Device)";
        if (!memset) {
            switch (kind) {
            case Copy::HtoD:
                gbps = 22;
                name = "Memcpy HtoD (Pinned -> Device)";
                break;
            case Copy::DtoD:
                gbps = 180;
                name = "Memcpy DtoD (Device -> Device)";
                break;
            case Copy::DtoH:
                gbps = 6;
                name = "Memcpy DtoH (Device -> Pageable)";
                break;
            }
        }
        const int64_t mdur = 1200 + int64_t(double(bytes) / gbps * m_rng.range(80, 130) / 100.0);
        m_streamFree[dev][0] = start + mdur;
        gpuSpan(dev, start, start + mdur);
        int64_t dur = m_rng.lognormalNs(kRt[memset ? 2 : 1].medianUs, 0.35, 2000);
        if (!memset && kind == Copy::DtoH)
            dur = std::max(dur, start + mdur + m_rng.range(2000, 6000) - ts);
        ++(memset ? st.memsets : st.memcpys);
        ++st.launches;
        ++st.flowStarts;
        ++st.flowEnds;
        if (m_pass == Pass::Gpu) {
            m_w.xHead(memset ? "gpu_memset" : "gpu_memcpy", name, dev, kComputeStream, start, mdur);
            m_w.raw("\"External id\": ");
            m_w.num(currentExt(t));
            m_w.raw(", \"device\": ");
            m_w.num(dev);
            m_w.raw(", \"context\": 1, \"stream\": ");
            m_w.num(kComputeStream);
            m_w.raw(", \"correlation\": ");
            m_w.num(corr);
            m_w.raw(", \"bytes\": ");
            m_w.num(bytes);
            m_w.raw(", \"memory bandwidth (GB/s)\": ");
            m_w.shortest(double(bytes) / double(mdur));
            m_w.endArgs();
            m_w.endEvent();
            m_w.flow(false, "ac2g", corr, dev, kComputeStream, start);
        }
        runtime(t, memset ? Rt::MemsetAsync : Rt::MemcpyAsync, corr, ts, dur);
        if (m_pass == Pass::Gpu)
            m_w.flow(true, "ac2g", corr, kPid, t == Main ? kMainTid : kBwdTid, ts);
        m_now[t] = ts + dur;
    }

    // --- PyTorch ops
    void alias(Thr t)
    {
        open(t, "aten::t", RecKind::Op, ShAlias);
        open(t, "aten::transpose", RecKind::Op, ShAlias);
        leaf(t, "aten::as_strided", ShAlias, 0.8);
        close(t);
        close(t);
    }

    void empty(Thr t)
    {
        open(t, "aten::empty", RecKind::Op, ShEmpty);
        cpuWork(t, 1.5);
        if (m_rng.chance(0.35)) {
            rt(t, Rt::StreamIsCapturing);
            rt(t, Rt::StreamGetPriority);
            rt(t, Rt::DeviceGetStreamPriorityRange);
        }
        close(t);
    }

    void linearFwd(int layer, int dev, int site, int8_t shape, double scale)
    {
        autogradOp("aten::linear", shape, BwdKind::Linear, layer, dev);
        alias(Main);
        open(Main, "aten::addmm", RecKind::Op, shape);
        cpuWork(Main, 4);
        launch(Main, dev, KClass::Gemm, site, layer % 12, scale);
        close(Main);
        close(Main);
    }

    void layerNormFwd(int layer, int dev, int site)
    {
        autogradOp("aten::layer_norm", ShNorm, BwdKind::LayerNorm, layer, dev);
        open(Main, "aten::native_layer_norm", RecKind::Op, ShNorm);
        empty(Main);
        empty(Main);
        cpuWork(Main, 3);
        launch(Main, dev, KClass::Norm, site, layer % 2);
        close(Main);
        close(Main);
    }

    void pointwiseFwd(const char *name, BwdKind bk, int layer, int dev, int site)
    {
        autogradOp(name, bk == BwdKind::Add ? ShBinary : ShUnary, bk, layer, dev);
        cpuWork(Main, 4);
        launch(Main, dev, KClass::Elementwise, site, layer % 8);
        close(Main);
    }

    void attentionFwd(int layer, int dev)
    {
        autogradOp("aten::scaled_dot_product_attention", ShAttention, BwdKind::Attention, layer, dev);
        open(Main, "aten::_scaled_dot_product_flash_attention", RecKind::Op, ShAttention);
        alias(Main);
        open(Main, "aten::_flash_attention_forward", RecKind::Op, ShAttention);
        empty(Main);
        empty(Main);
        cpuWork(Main, 6);
        launch(Main, dev, KClass::Attention, 30, 0);
        close(Main);
        close(Main);
        close(Main);
    }

    void dropoutFwd(int layer, int dev)
    {
        autogradOp("aten::dropout", ShDropout, BwdKind::Dropout, layer, dev);
        open(Main, "aten::native_dropout", RecKind::Op, ShDropout);
        empty(Main);
        empty(Main);
        launch(Main, dev, KClass::Elementwise, 40);
        close(Main);
        close(Main);
    }

    void toDevice(int layer, int from, int to)
    {
        autogradOp("aten::to", ShUnary, BwdKind::ToCopy, layer, to, from);
        open(Main, "aten::_to_copy", RecKind::Op, ShUnary);
        leaf(Main, "aten::empty_strided", ShEmpty);
        open(Main, "aten::copy_", RecKind::Op, ShBinary);
        memOp(Main, to, false, Copy::DtoD, 8 * 2048 * 4096 * 2, m_streamFree[from][0]);
        close(Main);
        close(Main);
        close(Main);
    }

    void blockFwd(int layer, int dev)
    {
        m_now[Main] += m_rng.lognormalNs(12, 0.6); // Python between modules
        layerNormFwd(layer, dev, 1);
        linearFwd(layer, dev, 2, ShLinearQkv, 1.0);
        open(Main, "aten::view", RecKind::Op, ShUnary);
        close(Main);
        attentionFwd(layer, dev);
        linearFwd(layer, dev, 4, ShLinearOut, 0.4);
        dropoutFwd(layer, dev);
        pointwiseFwd("aten::add", BwdKind::Add, layer, dev, 5);
        m_now[Main] += m_rng.lognormalNs(8, 0.6);
        layerNormFwd(layer, dev, 7);
        linearFwd(layer, dev, 8, ShLinearUp, 1.4);
        pointwiseFwd("aten::gelu", BwdKind::Gelu, layer, dev, 9);
        linearFwd(layer, dev, 10, ShLinearDown, 1.4);
        pointwiseFwd("aten::add", BwdKind::Add, layer, dev, 11);
    }

    void accumulateGrad(int dev, int site, int variant)
    {
        open(Bwd, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
        open(Bwd, "torch::autograd::AccumulateGrad");
        open(Bwd, "aten::add_", RecKind::Op, ShBinary);
        launch(Bwd, dev, KClass::Elementwise, site, variant);
        close(Bwd);
        close(Bwd);
        close(Bwd);
    }

    void backward(const BwdTask &task);
    void allReduce(int dev, int bucket);
    void optimizer();

    const KinetoTraceOptions &m_o;
    Writer &m_w;
    Pass m_pass;
    int m_devices;
    int m_layers;
    Rng m_rng { 0 };
    int64_t m_now[2] {};
    int64_t m_streamFree[kMaxDevices][2] {};
    int64_t m_gpuFirst[kMaxDevices] {};
    int64_t m_gpuLast[kMaxDevices] {};
    int64_t m_ext = 480;
    int64_t m_evIdx = 0;
    int64_t m_corr = 57000;
    int64_t m_seq = 1096000;
    int64_t m_fwdbwd = 0;
    std::vector<CpuRec> m_recs;
    std::vector<int> m_stack[2];
    std::vector<BwdTask> m_tasks;
};

const char *bwdName(BwdKind k, bool evaluate)
{
    switch (k) {
    case BwdKind::Linear:
        return evaluate ? "autograd::engine::evaluate_function: AddmmBackward0" : "AddmmBackward0";
    case BwdKind::LayerNorm:
        return evaluate ? "autograd::engine::evaluate_function: NativeLayerNormBackward0"
                        : "NativeLayerNormBackward0";
    case BwdKind::Attention:
        return evaluate ? "autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0"
                        : "ScaledDotProductFlashAttentionBackward0";
    case BwdKind::Add:
        return evaluate ? "autograd::engine::evaluate_function: AddBackward0" : "AddBackward0";
    case BwdKind::Gelu:
        return evaluate ? "autograd::engine::evaluate_function: GeluBackward0" : "GeluBackward0";
    case BwdKind::Dropout:
        return evaluate ? "autograd::engine::evaluate_function: NativeDropoutBackward0"
                        : "NativeDropoutBackward0";
    case BwdKind::Embedding:
        return evaluate ? "autograd::engine::evaluate_function: EmbeddingBackward0" : "EmbeddingBackward0";
    case BwdKind::LogSoftmax:
        return evaluate ? "autograd::engine::evaluate_function: LogSoftmaxBackward0" : "LogSoftmaxBackward0";
    case BwdKind::NllLoss:
        return evaluate ? "autograd::engine::evaluate_function: NllLossBackward0" : "NllLossBackward0";
    case BwdKind::ToCopy:
        return evaluate ? "autograd::engine::evaluate_function: ToCopyBackward0" : "ToCopyBackward0";
    }
    return "";
}

void Sim::backward(const BwdTask &task)
{
    const int dev = task.dev;
    m_now[Bwd] += m_rng.range(500, 4000);
    const int eval = open(Bwd, bwdName(task.kind, true), RecKind::Op, NoShape, true, task.seq);
    if (task.flowId)
        flowRec(false, Bwd, task.flowId, m_recs[size_t(eval)].ts);
    open(Bwd, bwdName(task.kind, false), RecKind::Op, NoShape, true, task.seq);
    switch (task.kind) {
    case BwdKind::Linear:
        leaf(Bwd, "aten::t", ShAlias, 0.8);
        open(Bwd, "aten::mm", RecKind::Op, ShMm);
        launch(Bwd, dev, KClass::Gemm, 50, task.layer % 12, 1.1);
        close(Bwd);
        leaf(Bwd, "aten::t", ShAlias, 0.8);
        open(Bwd, "aten::mm", RecKind::Op, ShMm);
        launch(Bwd, dev, KClass::Gemm, 51, task.layer % 12, 1.1);
        close(Bwd);
        open(Bwd, "aten::sum", RecKind::Op, ShUnary);
        launch(Bwd, dev, KClass::Reduce, 52, task.layer % 3);
        close(Bwd);
        leaf(Bwd, "aten::view", ShUnary, 0.8);
        break;
    case BwdKind::LayerNorm:
        open(Bwd, "aten::native_layer_norm_backward", RecKind::Op, ShNorm);
        empty(Bwd);
        empty(Bwd);
        launch(Bwd, dev, KClass::Norm, 53, task.layer % 2);
        launch(Bwd, dev, KClass::Norm, 54);
        close(Bwd);
        break;
    case BwdKind::Attention:
        open(Bwd, "aten::_scaled_dot_product_flash_attention_backward", RecKind::Op, ShAttention);
        open(Bwd, "aten::_flash_attention_backward", RecKind::Op, ShAttention);
        empty(Bwd);
        empty(Bwd);
        open(Bwd, "aten::zeros", RecKind::Op, ShEmpty);
        empty(Bwd);
        open(Bwd, "aten::zero_", RecKind::Op, ShUnary);
        memOp(Bwd, dev, true, Copy::DtoD, 8 * 32 * 2048 * 128 * 4);
        close(Bwd);
        close(Bwd);
        launch(Bwd, dev, KClass::Attention, 55, 0, 0.2);
        launch(Bwd, dev, KClass::Attention, 56, 0, 2.2);
        launch(Bwd, dev, KClass::Attention, 57, 0, 0.15);
        close(Bwd);
        close(Bwd);
        break;
    case BwdKind::Add:
        cpuWork(Bwd, 2);
        break;
    case BwdKind::Gelu:
    case BwdKind::Dropout:
        open(Bwd, task.kind == BwdKind::Gelu ? "aten::gelu_backward" : "aten::native_dropout_backward",
            RecKind::Op, ShBinary);
        launch(Bwd, dev, KClass::Elementwise, task.kind == BwdKind::Gelu ? 58 : 59, task.layer % 3);
        close(Bwd);
        break;
    case BwdKind::Embedding:
        open(Bwd, "aten::embedding_backward", RecKind::Op, ShBinary);
        open(Bwd, "aten::embedding_dense_backward", RecKind::Op, ShBinary);
        open(Bwd, "aten::zeros", RecKind::Op, ShEmpty);
        memOp(Bwd, dev, true, Copy::DtoD, 32000 * 4096 * 2);
        close(Bwd);
        launch(Bwd, dev, KClass::Other, 60);
        launch(Bwd, dev, KClass::Other, 61);
        close(Bwd);
        close(Bwd);
        break;
    case BwdKind::LogSoftmax:
        open(Bwd, "aten::_log_softmax_backward_data", RecKind::Op, ShBinary);
        launch(Bwd, dev, KClass::Softmax, 62, 0, 3.0);
        close(Bwd);
        break;
    case BwdKind::NllLoss:
        open(Bwd, "aten::nll_loss_backward", RecKind::Op, ShBinary);
        open(Bwd, "aten::zero_", RecKind::Op, ShUnary);
        launch(Bwd, dev, KClass::Elementwise, 63);
        close(Bwd);
        launch(Bwd, dev, KClass::Other, 64);
        close(Bwd);
        break;
    case BwdKind::ToCopy:
        open(Bwd, "aten::to", RecKind::Op, ShUnary);
        open(Bwd, "aten::_to_copy", RecKind::Op, ShUnary);
        leaf(Bwd, "aten::empty_strided", ShEmpty);
        open(Bwd, "aten::copy_", RecKind::Op, ShBinary);
        memOp(Bwd, task.prevDev, false, Copy::DtoD, 8 * 2048 * 4096 * 2, m_streamFree[dev][0]);
        close(Bwd);
        close(Bwd);
        close(Bwd);
        break;
    }
    close(Bwd);
    close(Bwd);
    switch (task.kind) {
    case BwdKind::Linear:
        accumulateGrad(dev, 70, task.layer % 3);
        accumulateGrad(dev, 71, task.layer % 3);
        break;
    case BwdKind::LayerNorm:
        accumulateGrad(dev, 72, task.layer % 3);
        accumulateGrad(dev, 73, task.layer % 3);
        break;
    case BwdKind::Embedding:
        accumulateGrad(dev, 74, task.layer % 3);
        break;
    default:
        break;
    }
}

// A DDP gradient bucket: the comm stream waits for the compute stream, then all-reduces.
void Sim::allReduce(int dev, int bucket)
{
    open(Bwd, "nccl:all_reduce", RecKind::Annotation);
    open(Bwd, "record_param_comms", RecKind::Op);
    rt(Bwd, Rt::EventRecord);
    const int64_t computeDone = m_streamFree[dev][0];
    rt(Bwd, Rt::StreamWaitEvent);
    launch(Bwd, dev, KClass::Nccl, 80 + bucket % 2, 0, 1.0, true, computeDone);
    rt(Bwd, Rt::EventRecord);
    close(Bwd);
    close(Bwd);
}

void Sim::optimizer()
{
    static const char *const kForeach[] = {
        "aten::_foreach_add_",
        "aten::_foreach_lerp_",
        "aten::_foreach_mul_",
        "aten::_foreach_addcmul_",
        "aten::_foreach_sqrt",
        "aten::_foreach_div_",
        "aten::_foreach_add_",
        "aten::_foreach_addcdiv_",
    };
    open(Main, "Optimizer.step#AdamW.step", RecKind::Annotation);
    for (int dev = 0; dev < m_devices; ++dev) {
        rt(Main, Rt::StreamWaitEvent); // compute waits for the gradients' all-reduce
        m_streamFree[dev][0] = std::max(m_streamFree[dev][0], m_streamFree[dev][1]);
        for (int i = 0; i < 8; ++i) {
            open(Main, kForeach[i], RecKind::Op, ShForeach);
            cpuWork(Main, 20, 0.4);
            const int chunks = 1 + int(m_rng.range(0, 2));
            for (int c = 0; c < chunks; ++c)
                launch(Main, dev, KClass::MultiTensor, 90 + i, 0, 0.6);
            close(Main);
        }
    }
    close(Main);
}

void Sim::step(int64_t n)
{
    m_rng.s = mix64(m_o.seed * 0x9E3779B97F4A7C15ull + uint64_t(n) + 1);
    m_recs.clear();
    m_tasks.clear();
    for (int d = 0; d < m_devices; ++d) {
        m_gpuFirst[d] = INT64_MAX;
        m_gpuLast[d] = 0;
    }
    ++st.steps;
    const int lastDev = m_devices - 1;

    m_now[Main] += m_rng.lognormalNs(40, 0.5);
    const int stepRec = open(Main, "ProfilerStep#", RecKind::Step, NoShape, false, n + 1);
    const int64_t stepExt = ++m_ext;

    // Input pipeline: usually quick, sometimes a stall.
    open(Main, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", RecKind::Annotation);
    cpuWork(Main, m_rng.chance(0.05) ? 9000 : 350, 0.7);
    close(Main);
    for (int i = 0; i < 2; ++i) {
        open(Main, "aten::to", RecKind::Op, ShUnary);
        open(Main, "aten::_to_copy", RecKind::Op, ShUnary);
        leaf(Main, "aten::empty_strided", ShEmpty);
        open(Main, "aten::copy_", RecKind::Op, ShBinary);
        memOp(Main, i == 0 ? 0 : lastDev, false, Copy::HtoD, 8 * 2048 * 8);
        close(Main);
        close(Main);
        close(Main);
    }
    open(Main, "Optimizer.zero_grad#AdamW.zero_grad", RecKind::Annotation);
    cpuWork(Main, 60, 0.3);
    close(Main);

    // Forward.
    open(Main, "DistributedDataParallel.forward", RecKind::Annotation);
    autogradOp("aten::embedding", ShBinary, BwdKind::Embedding, 0, 0);
    open(Main, "aten::index_select", RecKind::Op, ShBinary);
    launch(Main, 0, KClass::Other, 20);
    close(Main);
    close(Main);
    int dev = 0;
    for (int l = 0; l < m_layers; ++l) {
        const int d = int(int64_t(l) * m_devices / m_layers);
        if (d != dev) {
            toDevice(l, dev, d);
            dev = d;
        }
        blockFwd(l, dev);
    }
    if (dev != lastDev) {
        toDevice(m_layers, dev, lastDev);
        dev = lastDev;
    }
    layerNormFwd(m_layers, dev, 12);
    linearFwd(m_layers, dev, 13, ShLinearUp, 2.0);
    close(Main);
    open(Main, "aten::cross_entropy_loss", RecKind::Op, ShBinary);
    autogradOp("aten::log_softmax", ShUnary, BwdKind::LogSoftmax, m_layers, dev);
    open(Main, "aten::_log_softmax", RecKind::Op, ShUnary);
    launch(Main, dev, KClass::Softmax, 14, 0, 3.0);
    close(Main);
    close(Main);
    autogradOp("aten::nll_loss_nd", ShBinary, BwdKind::NllLoss, m_layers, dev);
    open(Main, "aten::nll_loss", RecKind::Op, ShBinary);
    open(Main, "aten::nll_loss_forward", RecKind::Op, ShBinary);
    empty(Main);
    memOp(Main, dev, true, Copy::DtoD, 4);
    launch(Main, dev, KClass::Reduce, 15);
    close(Main);
    close(Main);
    close(Main);
    close(Main);

    // Backward on the autograd thread, gradients all-reduced in buckets of a few layers.
    m_now[Main] += m_rng.lognormalNs(15, 0.4);
    m_now[Bwd] = std::max(m_now[Bwd], m_now[Main]) + m_rng.range(3000, 15000);
    int bucketLayer = m_layers;
    int bucket = 0;
    for (auto it = m_tasks.rbegin(); it != m_tasks.rend(); ++it) {
        if (it->layer <= bucketLayer - 4 && it->kind != BwdKind::ToCopy) {
            allReduce(it->dev, bucket++);
            bucketLayer = it->layer;
        }
        backward(*it);
    }
    allReduce(0, bucket);
    m_now[Main] = std::max(m_now[Main], m_now[Bwd]) + m_rng.range(5000, 30000);

    optimizer();

    // loss.item(): waits for all the GPU work of the step.
    open(Main, "aten::item", RecKind::Op, ShScalar);
    open(Main, "aten::_local_scalar_dense", RecKind::Op, ShScalar);
    int64_t allDone = 0;
    for (int d = 0; d < m_devices; ++d)
        allDone = std::max({ allDone, m_streamFree[d][0], m_streamFree[d][1] });
    memOp(Main, lastDev, false, Copy::DtoH, 4, allDone);
    close(Main);
    close(Main);
    close(Main); // ProfilerStep#n
    (void)stepRec;
    st.userAnnotations += m_devices; // gpu_user_annotation ProfilerStep#n per device

    if (m_pass == Pass::Cpu) {
        for (const CpuRec &r : m_recs) {
            const int64_t tid = r.thr == Main ? kMainTid : kBwdTid;
            if (r.kind == RecKind::FlowS || r.kind == RecKind::FlowF) {
                m_w.flow(r.kind == RecKind::FlowS, "fwdbwd", r.ext, kPid, tid, r.ts);
                continue;
            }
            if (r.kind == RecKind::Step) {
                char name[32];
                const int len
                    = std::snprintf(name, sizeof name, "ProfilerStep#%lld", static_cast<long long>(r.ext));
                m_w.xHead("user_annotation", std::string_view(name, size_t(len)), kPid, tid, r.ts, r.dur);
                m_w.raw("\"External id\": ");
                m_w.num(stepExt);
            } else {
                m_w.xHead(
                    r.kind == RecKind::Op ? "cpu_op" : "user_annotation", r.name, kPid, tid, r.ts, r.dur);
                m_w.raw("\"External id\": ");
                m_w.num(r.ext);
            }
            m_w.raw(", \"Record function id\": ");
            m_w.num(r.evIdx + 1);
            m_w.raw(", \"Ev Idx\": ");
            m_w.num(r.evIdx);
            if (r.autograd) {
                m_w.raw(", \"Fwd thread id\": ");
                m_w.num(r.thr == Main ? 0 : 1);
                m_w.raw(", \"Sequence number\": ");
                m_w.num(r.seq);
            }
            if (r.shape != NoShape) {
                m_w.raw(", \"Input Dims\": ");
                m_w.raw(kShapes[r.shape].dims);
                m_w.raw(", \"Input type\": ");
                m_w.raw(kShapes[r.shape].types);
            }
            m_w.endArgs();
            m_w.endEvent();
        }
    } else {
        for (int d = 0; d < m_devices; ++d) {
            if (m_gpuLast[d] == 0)
                continue;
            char name[32];
            const int len
                = std::snprintf(name, sizeof name, "ProfilerStep#%lld", static_cast<long long>(n + 1));
            m_w.xHead("gpu_user_annotation", std::string_view(name, size_t(len)), d, kComputeStream,
                m_gpuFirst[d], m_gpuLast[d] - m_gpuFirst[d]);
            m_w.raw("\"External id\": ");
            m_w.num(stepExt);
            m_w.endArgs();
            m_w.endEvent();
        }
    }
}

void writeHeader(Writer &w, const KinetoTraceOptions &o)
{
    w.raw("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
    const int devices = std::clamp(o.devices, 1, kMaxDevices);
    for (int d = 0; d < devices; ++d) {
        w.raw("    {\n      \"id\": ");
        w.num(d);
        w.raw(", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85097971712,\n"
              "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
              "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
              "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
              "      \"sharedMemPerBlock\": 49152, \"numSms\": 108\n"
              "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912, "
              "\"sharedMemPerMultiprocessor\": 167936\n    }");
        w.raw(d + 1 < devices ? ",\n" : "\n");
    }
    w.raw("  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n"
          "  \"traceEvents\": [\n");
}

// Metadata, the profiler span and instant events Kineto writes after the activity.
int64_t writeTrailer(Writer &w, const KinetoTraceOptions &o, int64_t startNs, int64_t endNs, bool write)
{
    int64_t count = 0;
    const int devices = std::clamp(o.devices, 1, kMaxDevices);
    const int64_t metaTs = startNs - 106258000;
    auto meta = [&](std::string_view name, int64_t pid, int64_t tid, std::string_view key,
                    std::string_view text, int64_t value) {
        ++count;
        if (write)
            w.metadata(name, metaTs, pid, tid, key, text, value);
    };
    meta("process_name", kPid, 0, "name", "python3.10", 0);
    meta("process_labels", kPid, 0, "labels", "CPU", 0);
    meta("process_sort_index", kPid, 0, "sort_index", {}, kPid);
    for (int d = 0; d < devices; ++d) {
        const std::string label = "GPU " + std::to_string(d);
        meta("process_name", d, 0, "name", "python3.10", 0);
        meta("process_labels", d, 0, "labels", label, 0);
        meta("process_sort_index", d, 0, "sort_index", {}, 16777216 + d);
        for (int s : { kComputeStream, kCommStream }) {
            const std::string name = "stream " + std::to_string(s) + " ";
            meta("thread_name", d, s, "name", name, 0);
            meta("thread_sort_index", d, s, "sort_index", {}, s);
        }
    }
    meta("thread_name", kPid, kMainTid, "name", "thread 2910249 (pt_main_thread)", 0);
    meta("thread_sort_index", kPid, kMainTid, "sort_index", {}, kMainTid);
    meta("thread_name", kPid, kBwdTid, "name", "thread 2919752 (pt_autograd_0)", 0);
    meta("thread_sort_index", kPid, kBwdTid, "sort_index", {}, kBwdTid);
    count += 4;
    if (write) {
        const int64_t spanStart = startNs - 134587000;
        w.beginEvent();
        w.raw("\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
        w.micros(spanStart);
        w.raw(", \"dur\": ");
        w.micros(endNs - spanStart);
        w.group();
        w.raw("\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\"");
        w.group();
        w.raw("\"name\": \"PyTorch Profiler (0)\"");
        w.group();
        w.beginArgs();
        w.raw("\"Op count\": 0");
        w.endArgs();
        w.endEvent();
        w.beginEvent();
        w.raw("\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
        w.micros(spanStart);
        w.group();
        w.raw("\"pid\": \"Spans\", \"tid\": 0");
        w.group();
        w.beginArgs();
        w.raw("\"sort_index\": 536870912");
        w.endArgs();
        w.endEvent();
        w.beginEvent();
        w.raw("\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\"");
        w.group();
        w.raw("\"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
        w.micros(spanStart);
        w.endEvent();
        w.beginEvent();
        w.raw("\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\"");
        w.group();
        w.raw("\"pid\": \"\", \"tid\": \"\", \"ts\": ");
        w.micros(endNs + 1000000);
        w.endEvent();
    }
    return count;
}

int64_t totalEvents(const KinetoTraceStats &s)
{
    return s.cpuOps + s.userAnnotations + s.runtime + s.kernels + s.memcpys + s.memsets + s.flowStarts
        + s.flowEnds;
}

} // namespace

bool writeKinetoTrace(
    const std::string &path, const KinetoTraceOptions &options, KinetoTraceStats *stats, std::string *error)
{
    Out out;
    if (!out.open(path, options.gzip, options.gzipLevel, error))
        return false;
    Writer w(out, options.kinetoLayout);
    writeHeader(w, options);

    // The CPU ops of every step first, then the GPU activity of the same steps: the simulation runs
    // twice with the same seed and each pass writes only its half.
    const int64_t trailer = writeTrailer(w, options, 0, 0, false);
    Sim cpu(options, w, Pass::Cpu);
    int64_t steps = 0;
    do {
        cpu.step(steps++);
    } while (totalEvents(cpu.st) + trailer < options.events);
    Sim gpu(options, w, Pass::Gpu);
    out.flush(); // the activity starts a chunk of its own
    out.swapChunks(options.swapActivityChunks);
    for (int64_t i = 0; i < steps; ++i)
        gpu.step(i);
    out.swapChunks(0);
    writeTrailer(w, options, kStartNs, cpu.endNs(), true);

    w.raw("\n  ],\n  \"traceName\": \"/tmp/libkineto_activities_2910249.json\",\n  \"displayTimeUnit\": "
          "\"ms\",\n"
          "  \"baseTimeNanoseconds\": ");
    w.num(kBaseTimeNs);
    w.raw("\n}\n");
    const int64_t uncompressed = out.total();
    if (!out.close(error))
        return false;
    if (stats) {
        *stats = cpu.st;
        stats->metadata = trailer - 4 + 1;
        stats->other = 3;
        stats->events = totalEvents(cpu.st) + trailer;
        stats->uncompressedBytes = uncompressed;
        FILE *f = std::fopen(path.c_str(), "rb");
        if (f) {
            std::fseek(f, 0, SEEK_END);
            stats->fileBytes = std::ftell(f);
            std::fclose(f);
        }
    }
    return true;
}

} // namespace plumb::bench
