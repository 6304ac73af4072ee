// SPDX-License-Identifier: GPL-3.0-or-later
// bench_merge: `plumb merge` of a large multi-rank job's shards (issue 36), from exec to exit with its
// peak RSS, and `plumb doctor --job` of the job it writes (the window's and the CLI's read path).
//
//   bench_merge [--ranks 1024] [--steps 200] [--ranks-per-shard 64] [--runs 3] [--keep DIR] [--plumb PATH]
//
// The shards are generated directly (not timed; importing 10,000 traces would take hours): one shard
// workspace per `--ranks-per-shard` ranks, each rank with what `plumb import --shard` stores of it and
// the merge reads: its source, run, trace and device rows, its trace_summary (the doctor's report of the
// trace alone, encodeReport() of per-step vectors as full as an import's), a step_summary row per step
// and one for the whole trace, op_summary rows of the whole trace (with quantile sketches), two
// all-reduces a step in collective_call, and the shard's ShardInfo. Rank 5 is the straggler (its
// all-reduce kernels are the shortest: the others wait for it), rank 9 is input-bound. Targets (issue
// 36): 10,000 ranks of 200 steps merged in under 10 s and 500 MB peak RSS. Informational: exit status 0
// whatever the figures, 1 when a command fails or the merge does not merge every rank.

#include "analysis/doctorreport.h"
#include "analysis/quantilesketch.h"
#include "analysis/tracesummary.h"
#include "benchimport.h"
#include "childrun.h"
#include "job/shard.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace plumb;
using namespace plumb::bench;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int kComputeKernels = 40; // launched per step
constexpr int kCallsPerStep = 2; // all-reduces per step
constexpr int64_t kTransferNs = 1500'000; // each all-reduce once the last rank arrived
constexpr int kStragglerRank = 5;
constexpr int kInputBoundRank = 9;
const QString kJob = QStringLiteral("/bench/job");
const QString kProcessGroup = QStringLiteral("0 (default_pg)");

const char *const kOpNames[] = {
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x256x64_warpgroupsize2x1x1",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize256x128x64_warpgroupsize2x1x1",
    "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>",
    "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2>>",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl>",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>",
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<c10::BFloat16, float>",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t>>",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float>",
    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float>",
    "void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float>",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>>",
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
    "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL",
    "Memcpy HtoD (Pinned -> Device)",
    "Memset (Device)",
};
constexpr int kOpNameCount = int(sizeof kOpNames / sizeof kOpNames[0]);

GpuOp::Kind opKind(int i)
{
    return i < 16 ? GpuOp::Kind::Compute : i < 18 ? GpuOp::Kind::Comm : GpuOp::Kind::Memory;
}
const char *kindName(GpuOp::Kind k)
{
    return k == GpuOp::Kind::Compute ? "compute" : k == GpuOp::Kind::Comm ? "comm" : "memory";
}

// splitmix64: deterministic per rank.
struct Random {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double unit() { return double(next() >> 11) / double(1ULL << 53); } // [0, 1)
    int64_t jitter(int64_t ns, double share = 0.02)
    {
        return ns + int64_t(double(ns) * share * (2 * unit() - 1));
    }
};

struct Options {
    int ranks = 1024;
    int steps = 200;
    int ranksPerShard = 64;
    int runs = 3;
    QString keep, plumb = QStringLiteral(PLUMB_CLI_PATH);
};

// One rank's steps: what each of its summaries says.
struct RankSteps {
    struct Step {
        int64_t startNs = 0, endNs = 0, inputNs = 0, computeNs = 0, waitNs = 0; // wait: per all-reduce
        int64_t gpuStartNs = 0, gpuEndNs = 0;
    };
    std::vector<Step> steps;
};

// Every rank's step boundaries are the job's (the all-reduces end together); what differs is how a rank
// spends them: the straggler computes 1.5 times longer, the others wait for it in the all-reduces.
RankSteps rankSteps(int rank, int steps)
{
    Random job { 42 }, own { uint64_t(rank) * 7919 + 1 };
    RankSteps out;
    int64_t t = 1000 * kMs;
    for (int s = 0; s < steps; ++s) {
        const int64_t kernel = job.jitter(1500'000), input = job.jitter(2 * kMs);
        const int64_t slowest = int64_t(double(kernel * kComputeKernels) * 1.5) + input;
        RankSteps::Step st;
        st.startNs = t;
        st.inputNs = rank == kInputBoundRank ? int64_t(double(input) * 2.5) : own.jitter(input);
        st.computeNs = rank == kStragglerRank ? slowest - input : own.jitter(kernel * kComputeKernels);
        const int64_t arrive = st.inputNs + st.computeNs;
        st.waitNs = std::max<int64_t>(0, slowest - arrive) / kCallsPerStep;
        st.gpuStartNs = t + st.inputNs + 20'000;
        st.endNs = t + std::max(slowest, arrive) + kCallsPerStep * kTransferNs + 400'000;
        st.gpuEndNs = st.endNs - 20'000;
        out.steps.push_back(st);
        t = st.endNs;
    }
    return out;
}

TemporalBreakdown window(int64_t start, int64_t end, int64_t ops, int64_t compute, int64_t comm)
{
    TemporalBreakdown b;
    b.startNs = start;
    b.endNs = end;
    b.ops = ops;
    b.computeNs = compute;
    b.commNs = comm;
    b.exposedCommNs = comm;
    b.busyNs = compute + comm;
    b.byKinds[1] = compute;
    b.byKinds[2] = comm;
    return b;
}

StepTimeParts parts(const RankSteps::Step &s)
{
    StepTimeParts p;
    p.computeNs = s.computeNs;
    p.exposedCommNs = kCallsPerStep * (kTransferNs + s.waitNs);
    p.inputPipelineNs = s.inputNs;
    p.synchronizationNs = 200'000;
    p.runtimeNs = 150'000;
    p.otherCpuNs = 30'000;
    p.idleNs = std::max<int64_t>(0,
        (s.endNs - s.startNs) - p.computeNs - p.exposedCommNs - p.inputPipelineNs - p.synchronizationNs
            - p.runtimeNs - p.otherCpuNs);
    return p;
}

Histogram histogram(Random &rng, int64_t meanNs, int64_t count)
{
    Histogram h = Histogram::forRange(meanNs * 9 / 10, meanNs * 12 / 10, count);
    for (int64_t i = 0; i < std::min<int64_t>(count, 400); ++i)
        h.add(rng.jitter(meanNs, 0.1));
    return h;
}

// The doctor's report of the rank's trace alone, as traceAnalyses() leaves it.
DoctorReport rankReport(int rank, const RankSteps &rs)
{
    Random rng { uint64_t(rank) + 12345 };
    DoctorReport r;
    const auto &steps = rs.steps;
    r.overall = window(steps.front().gpuStartNs, steps.back().gpuEndNs, 0, 0, 0);
    for (size_t i = 0; i < steps.size(); ++i) {
        const RankSteps::Step &s = steps[i];
        const QString name = QStringLiteral("ProfilerStep#%1").arg(i);
        const int64_t comm = kCallsPerStep * (kTransferNs + s.waitNs);
        const StepTimeParts p = parts(s);
        r.steps.push_back({ int64_t(i), name, s.startNs + 300'000, s.endNs,
            window(s.gpuStartNs, s.gpuEndNs, kComputeKernels + kCallsPerStep, s.computeNs, comm) });
        r.stepTime.steps.push_back({ int64_t(i), name, s.startNs, s.startNs + 300'000, s.endNs, p });
        r.stepTime.total += p;
        r.overall.ops += kComputeKernels + kCallsPerStep;
        r.overall.computeNs += s.computeNs;
        r.overall.commNs += comm;
        r.overall.exposedCommNs += comm;
        r.overall.busyNs += s.computeNs + comm;
        r.overall.byKinds[1] += s.computeNs;
        r.overall.byKinds[2] += comm;
        r.host.inputPipeline.ranges.emplace_back(s.startNs, s.startNs + s.inputNs);
        r.host.synchronization.ranges.emplace_back(s.endNs - 300'000, s.endNs - 100'000);
        r.host.optimizer.ranges.emplace_back(s.endNs - 2 * kMs, s.endNs - 500'000);
    }
    const int64_t n = int64_t(steps.size());
    r.host.inputPipeline = { r.stepTime.total.inputPipelineNs, n, r.host.inputPipeline.ranges };
    r.host.synchronization.timeNs = r.stepTime.total.synchronizationNs;
    r.host.synchronization.count = n;
    r.host.optimizer.timeNs = n * 1500'000;
    r.host.optimizer.count = n;
    r.host.launchedOps = r.overall.ops;
    r.host.launchDelayP50Ns = 40'000;
    r.host.launchDelayP90Ns = 900'000;

    const int64_t computeOps = n * kComputeKernels;
    for (int i = 0; i < kOpNameCount; ++i) {
        KernelStats k;
        k.name = QString::fromLatin1(kOpNames[i]);
        k.kind = opKind(i);
        k.count
            = k.kind == GpuOp::Kind::Compute ? computeOps / 16 : n * (k.kind == GpuOp::Kind::Comm ? 1 : 2);
        const int64_t mean = k.kind == GpuOp::Kind::Compute ? r.overall.computeNs / computeOps
            : k.kind == GpuOp::Kind::Comm                   ? kTransferNs + steps.front().waitNs
                                                            : 20'000;
        k.totalNs = k.count * mean;
        k.minNs = mean * 9 / 10;
        k.p50Ns = mean;
        k.p90Ns = mean * 11 / 10;
        k.p99Ns = mean * 115 / 100;
        k.maxNs = mean * 12 / 10;
        k.durations = histogram(rng, mean, k.count);
        r.kernels.push_back(k);
    }
    int64_t all = 0;
    for (const KernelStats &k : r.kernels)
        all += k.totalNs;
    for (KernelStats &k : r.kernels)
        k.share = double(k.totalNs) / double(all);
    std::sort(r.kernels.begin(), r.kernels.end(),
        [](const KernelStats &a, const KernelStats &b) { return a.totalNs > b.totalNs; });

    r.idle
        = { { 3, 7, n * 600'000, n * 100'000, n * 50'000, n * 3 }, { 4, 20, n * 90 * kMs / 2, 0, 0, n * 2 } };
    for (int64_t stream : { 3, 4 }) {
        StreamQueue q;
        q.streamTrackId = stream;
        q.ops = stream == 3 ? computeOps : n * kCallsPerStep;
        const int points = int(std::min<int64_t>(kQueuePointsPerStream, q.ops * 2));
        const int64_t span = r.overall.totalNs();
        for (int i = 0; i < points; ++i)
            q.series.push_back(
                { r.overall.startNs + span * i / points, i + 1 == points ? 0 : int32_t(rng.next() % 24) });
        q.reduced = points == kQueuePointsPerStream;
        q.maxQueued = 23;
        q.meanQueued = 11.5;
        q.firstNs = r.overall.startNs;
        q.lastNs = r.overall.endNs;
        r.launch.queues.push_back(std::move(q));
    }
    r.launch.launchedOps = r.overall.ops;
    r.launch.minDelayNs = 5'000;
    r.launch.maxDelayNs = 4 * kMs;
    r.launch.launchDelay = histogram(rng, 400'000, r.overall.ops);
    r.copies = { { QStringLiteral("HtoD"), n, n * 64 << 20, n * 20'000, false } };
    r.collectives = { { QStringLiteral("allreduce"), kProcessGroup, QStringLiteral("BFloat16"), 0, 48 << 20,
        n * kCallsPerStep, r.overall.commNs, kTransferNs + 40 * kMs } };
    r.flops.device = QStringLiteral("NVIDIA H100 80GB HBM3");
    r.flops.ops = computeOps / 2;
    r.flops.kernelNs = r.overall.computeNs * 7 / 10;
    r.flops.flops = double(r.flops.kernelNs) * 400e3;
    r.flops.peakTflops = 989;
    r.flops.dtype = FlopsDtype::Bf16;
    for (int i = 0; i < 8; ++i)
        r.flops.entries.push_back(
            { QStringLiteral("aten::mm"), QStringLiteral("[[8192, 4096], [4096, %1]]").arg(1024 << (i % 3)),
                FlopsDtype::Bf16, n * 2, double(n) * 1e12, n * 3 * kMs });

    // The verdict of the trace alone: the others' waiting is exposed communication until the run is weighed
    // in.
    Verdict &v = r.verdict;
    const int64_t window = r.overall.totalNs();
    const bool straggler = rank == kStragglerRank;
    v.component = straggler ? Verdict::Component::GpuCompute : Verdict::Component::ExposedCommunication;
    v.runnerUp = straggler ? Verdict::Component::ExposedCommunication : Verdict::Component::InputPipeline;
    v.headline = straggler ? QStringLiteral("Limited by GPU compute: kernels run %1% of the GPU window.")
                                 .arg(100 * r.overall.computeNs / window)
                           : QStringLiteral("Limited by exposed communication: %1% of the GPU window.")
                                 .arg(100 * r.overall.exposedCommNs / window);
    v.evidence = { QStringLiteral("compute %1 ms of %2 ms").arg(r.overall.computeNs / kMs).arg(window / kMs),
        QStringLiteral("exposed communication %1 ms").arg(r.overall.exposedCommNs / kMs),
        QStringLiteral("input pipeline %1 ms").arg(r.stepTime.total.inputPipelineNs / kMs) };
    v.tunables = componentTunables(v.component);
    v.costs = { { Verdict::Component::ExposedCommunication, r.overall.exposedCommNs },
        { Verdict::Component::InputPipeline, r.stepTime.total.inputPipelineNs },
        { Verdict::Component::Synchronization, r.stepTime.total.synchronizationNs },
        { Verdict::Component::HostLaunch, r.stepTime.total.runtimeNs } };
    for (int i = 0; i < kWhereCount && i < int(steps.size()); ++i)
        v.where.push_back(
            { steps[size_t(i)].startNs, steps[size_t(i)].endNs, QStringLiteral("ProfilerStep#%1").arg(i) });
    v.breakdown = r.overall;
    return r;
}

QByteArray sketchOf(Random &rng, int64_t meanNs, int values, double spread)
{
    QuantileSketch q;
    for (int i = 0; i < values; ++i)
        q.add(int64_t(double(meanNs) * std::exp(spread * (2 * rng.unit() - 1))));
    return q.encode();
}

void bindBlob(SqliteStmt &st, int index, const QByteArray &b)
{
    st.bindBlob(index, b.constData(), size_t(b.size()));
}

// Shard `index` of `count`: the ranks whose place in rank order, modulo count, is index (shardFiles()).
void writeShard(const QString &path, int index, int count, const Options &o)
{
    QFile::remove(path);
    Workspace ws(path, Workspace::Role::Builder);
    SqliteDb &db = ws.db();
    SqliteTransaction tx(db);
    const int64_t now = int64_t(QDateTime::currentMSecsSinceEpoch()) * kMs;
    const QString pattern = QStringLiteral("rank-*.json");
    {
        SqliteStmt run(db, "INSERT INTO run(id, key, name, created_at_ns) VALUES (1, ?, ?, ?)");
        run.bind(1, QStringLiteral("trace-job:%1:%2:%3").arg(kJob).arg(o.ranks).arg(pattern));
        run.bind(2, QStringLiteral("rank-*")).bind(3, now).run();
        SqliteStmt str(db, "INSERT INTO string(id, str) VALUES (?, ?)");
        for (int i = 0; i < kOpNameCount; ++i)
            str.bind(1, int64_t(i + 1)).bind(2, std::string_view(kOpNames[i])).run();
    }
    SqliteStmt source(db,
        "INSERT INTO source(id, path, name, size_bytes, mtime_ns, content_hash, format, importer_version, "
        "status, imported_at_ns, import_ms, event_count, skipped_count) "
        "VALUES (?, ?, ?, ?, ?, ?, 'chrometrace', 1, 'ok', ?, ?, ?, 0)");
    SqliteStmt diagnostic(db,
        "INSERT INTO diagnostic(source_id, severity, code, location, message, count) VALUES (?, 'info', "
        "'unsorted-events', ?, 'Events are not in time order on some tracks; they were sorted and their "
        "nesting recomputed.', 1)");
    SqliteStmt trace(db,
        "INSERT INTO trace(id, run_id, source_id, format, name, rank, world_size, base_time_ns, start_ns, "
        "end_ns, event_count, slice_count, kernel_count, gpu_op_count, metadata, device_type) "
        "VALUES (?, 1, ?, 'chrometrace', ?, ?, ?, 1700000000000000000, ?, ?, ?, ?, ?, ?, ?, 'cuda')");
    SqliteStmt device(db, "INSERT INTO device(trace_id, device_index, name, properties) VALUES (?, 0, ?, ?)");
    SqliteStmt summary(
        db, "INSERT INTO trace_summary(trace_id, version, mode, steps, report) VALUES (?, ?, 'every', ?, ?)");
    SqliteStmt step(db,
        "INSERT INTO step_summary(trace_id, step, name, start_ns, end_ns, gpu_ops, gpu_start_ns, gpu_end_ns, "
        "compute_ns, comm_ns, memory_ns, exposed_comm_ns, exposed_memory_ns, busy_ns, st_compute_ns, "
        "st_exposed_comm_ns, st_exposed_memory_ns, st_input_pipeline_ns, st_synchronization_ns, "
        "st_runtime_ns, "
        "st_other_cpu_ns, st_idle_ns, launched_ops, launch_delay_sketch) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStmt op(db,
        "INSERT INTO op_summary(trace_id, step, name_id, kind, count, total_ns, min_ns, max_ns, sketch) "
        "VALUES (?, -1, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStmt call(db,
        "INSERT INTO collective_call(trace_id, slice_id, step, collective, process_group, seq, start_ns, "
        "end_ns, bytes) VALUES (?, ?, ?, 'allreduce', ?, ?, ?, ?, 50331648)");
    const QString gpu = QStringLiteral("NVIDIA H100 80GB HBM3");
    const QString properties = QStringLiteral(
        "{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":85045477376,\"computeMajor\":9,"
        "\"computeMinor\":0,\"numSms\":132}");

    ShardInfo info;
    info.spec = { index, count };
    info.schema = Workspace::currentSchemaVersion();
    info.job = kJob;
    int64_t id = 0;
    for (int rank = index; rank < o.ranks; rank += count) {
        ++id;
        const QString name = QStringLiteral("rank-%1.json").arg(rank);
        const QString file = kJob + QLatin1Char('/') + name;
        info.files.push_back({ file, rank, QStringLiteral("imported"), {} });
        const RankSteps rs = rankSteps(rank, o.steps);
        const int64_t events = int64_t(o.steps) * (kComputeKernels + kCallsPerStep) * 3 + 100;
        source.bind(1, id).bind(2, file).bind(3, name).bind(4, events * 160).bind(5, now);
        source.bind(
            6, QStringLiteral("%1").arg(uint64_t(rank) * 0x9e3779b97f4a7c15ULL, 32, 16, QLatin1Char('0')));
        source.bind(7, now).bind(8, int64_t(50)).bind(9, events).run();
        diagnostic.bind(1, id)
            .bind(2, QStringLiteral("pid %1 tid %1, ts 1000000000 ns").arg(1000 + rank))
            .run();
        trace.bind(1, id).bind(2, id).bind(3, name).bind(4, int64_t(rank)).bind(5, int64_t(o.ranks));
        trace.bind(6, rs.steps.front().startNs)
            .bind(7, rs.steps.back().endNs)
            .bind(8, events)
            .bind(9, events);
        trace.bind(10, events / 3).bind(11, events / 3);
        trace.bind(12,
            QStringLiteral("{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":%1,"
                           "\"world_size\":%2},\"deviceProperties\":[%3],\"displayTimeUnit\":\"ms\","
                           "\"baseTimeNanoseconds\":1700000000000000000}")
                .arg(rank)
                .arg(o.ranks)
                .arg(properties));
        trace.run();
        device.bind(1, id).bind(2, gpu).bind(3, properties).run();

        const DoctorReport report = rankReport(rank, rs);
        summary.bind(1, id).bind(2, kTraceSummaryVersion).bind(3, int64_t(o.steps));
        bindBlob(summary, 4, encodeReport(report));
        summary.run();

        Random rng { uint64_t(rank) * 31 + 7 };
        const int64_t opsPerStep = kComputeKernels + kCallsPerStep;
        auto writeStep = [&](int64_t number, const QString &stepName, int64_t start, int64_t end,
                             const TemporalBreakdown &w, const StepTimeParts &p, int delays) {
            step.bind(1, id).bind(2, number);
            int c = 2;
            if (stepName.isNull())
                step.bindNull(++c);
            else
                step.bind(++c, stepName);
            for (int64_t v : { start, end, w.ops, w.startNs, w.endNs, w.computeNs, w.commNs, w.exposedCommNs,
                     w.busyNs, p.computeNs, p.exposedCommNs, p.inputPipelineNs, p.synchronizationNs,
                     p.runtimeNs, p.otherCpuNs, p.idleNs, w.ops })
                step.bind(++c, v);
            bindBlob(step, ++c, sketchOf(rng, 300'000, delays, 3.5));
            step.run();
        };
        for (int s = 0; s < o.steps; ++s) {
            const RankSteps::Step &st = rs.steps[size_t(s)];
            writeStep(s, report.stepTime.steps[size_t(s)].name, st.startNs, st.endNs,
                report.steps[size_t(s)].gpu, report.stepTime.steps[size_t(s)].parts, int(opsPerStep));
        }
        writeStep(-1, QString(), rs.steps.front().startNs, rs.steps.back().endNs, report.overall,
            report.stepTime.total, int(std::min<int64_t>(2000, opsPerStep * o.steps)));

        for (const KernelStats &k : report.kernels) {
            const int nameId = int(std::find_if(std::begin(kOpNames), std::end(kOpNames),
                                       [&](const char *n) { return k.name == QLatin1String(n); })
                                   - std::begin(kOpNames))
                + 1;
            op.bind(1, id).bind(2, int64_t(nameId)).bind(3, std::string_view(kindName(k.kind)));
            op.bind(4, k.count).bind(5, k.totalNs).bind(6, k.minNs).bind(7, k.maxNs);
            bindBlob(op, 8, sketchOf(rng, k.p50Ns, 64, 0.1));
            op.run();
        }

        int64_t seq = 0;
        for (int s = 0; s < o.steps; ++s) {
            const RankSteps::Step &st = rs.steps[size_t(s)];
            int64_t t = st.gpuStartNs + st.computeNs;
            for (int j = 0; j < kCallsPerStep; ++j) {
                const int64_t dur = kTransferNs + st.waitNs + (rng.next() % 2000);
                call.bind(1, id)
                    .bind(2, int64_t(s) * 1000 + 900 + j)
                    .bind(3, int64_t(s))
                    .bind(4, kProcessGroup);
                call.bind(5, seq++).bind(6, t).bind(7, t + dur).run();
                t += dur;
            }
        }
    }
    SqliteStmt put(db, "INSERT OR REPLACE INTO workspace_info(key, value) VALUES ('shard', ?)");
    put.bind(1, QString::fromUtf8(shardInfoJson(info))).run();
    tx.commit();
    db.exec("PRAGMA journal_mode = DELETE");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Options o;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        const bool more = i + 1 < args.size();
        if (args[i] == QLatin1String("--ranks") && more)
            o.ranks = args[++i].toInt();
        else if (args[i] == QLatin1String("--steps") && more)
            o.steps = args[++i].toInt();
        else if (args[i] == QLatin1String("--ranks-per-shard") && more)
            o.ranksPerShard = args[++i].toInt();
        else if (args[i] == QLatin1String("--runs") && more)
            o.runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--keep") && more)
            o.keep = args[++i];
        else if (args[i] == QLatin1String("--plumb") && more)
            o.plumb = args[++i];
        else {
            std::fprintf(stderr,
                "usage: bench_merge [--ranks N] [--steps S] [--ranks-per-shard M] [--runs R] [--keep DIR] "
                "[--plumb PATH]\n");
            return 2;
        }
    }
    if (o.ranks < 1 || o.steps < 1 || o.ranksPerShard < 1) {
        std::fprintf(stderr, "bench_merge: --ranks, --steps and --ranks-per-shard must be positive\n");
        return 2;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_merge", o.keep, tmp);
    if (dir.isEmpty())
        return 1;
    const int shards = (o.ranks + o.ranksPerShard - 1) / o.ranksPerShard;
    const QString shardDir = dir + QStringLiteral("/shards-%1x%2-%3").arg(o.ranks).arg(o.steps).arg(shards);
    const QString done = shardDir + QStringLiteral("/.complete");

    // The shards (not timed), kept for the next run with --keep.
    if (!QFileInfo::exists(done)) {
        QDir(shardDir).removeRecursively();
        QDir().mkpath(shardDir);
        const auto start = std::chrono::steady_clock::now();
        const int rc = runInChild([&] {
            for (int k = 0; k < shards; ++k) {
                try {
                    writeShard(shardDir + QStringLiteral("/shard-%1.plumb").arg(k), k, shards, o);
                } catch (const SqlError &e) {
                    std::fprintf(stderr, "bench_merge: writing shard %d: %s\n", k, e.what());
                    return 1;
                }
            }
            return 0;
        });
        if (rc != 0)
            return 1;
        QFile(done).open(QIODevice::WriteOnly);
        std::printf("generated %d shards of %d ranks x %d steps in %.1f s\n", shards, o.ranks, o.steps,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const double shardMB = double(folderBytes(shardDir)) / 1e6;
    std::printf("%d ranks x %d steps in %d shards: %.0f MB of shards (%.1f KB a rank)\n", o.ranks, o.steps,
        shards, shardMB, shardMB * 1e3 / o.ranks);

    const QString job = dir + QStringLiteral("/job.plumb");
    const std::string expect = QStringLiteral("%1 of %1 ranks merged").arg(o.ranks).toStdString();
    std::vector<double> merges;
    long mergeRss = 0;
    for (int i = 0; i < o.runs; ++i) {
        QFile::remove(job);
        const ChildRun m = mustRun(
            "bench_merge", o.plumb, { QStringLiteral("merge"), shardDir, QStringLiteral("-o"), job });
        if (m.output.find(expect) == std::string::npos) {
            std::fprintf(stderr, "bench_merge: the merge did not say \"%s\":\n%s\n", expect.c_str(),
                m.output.substr(0, 2000).c_str());
            return 1;
        }
        merges.push_back(m.seconds);
        mergeRss = std::max(mergeRss, m.maxRssKiB);
        std::printf(
            "  run %d: merge %.2f s, peak RSS %.0f MB\n", i + 1, m.seconds, double(m.maxRssKiB) / 1024.0);
        if (i == 0) {
            const size_t verdict = m.output.find("verdict");
            if (verdict != std::string::npos)
                std::printf(
                    "  %s", m.output.substr(verdict, m.output.find('\n', verdict) - verdict + 1).c_str());
        }
    }
    const double jobMB = double(QFileInfo(job).size()) / 1e6;
    const ChildRun doctor = mustRun("bench_merge", o.plumb,
        { QStringLiteral("doctor"), QStringLiteral("--job"), QStringLiteral("--workspace"), job });
    const double merge = median(merges), mergeMB = double(mergeRss) / 1024.0,
                 doctorMB = double(doctor.maxRssKiB) / 1024.0;
    std::printf(
        "%d ranks x %d steps, %d shards: merge %.2f s (median of %d), peak RSS %.0f MB, job workspace "
        "%.0f MB; doctor --job %.2f s, %.0f MB\n",
        o.ranks, o.steps, shards, merge, o.runs, mergeMB, jobMB, doctor.seconds, doctorMB);
    if (o.ranks >= 10000)
        std::printf("merge: %.2f s, target 10 s: %s; peak RSS %.0f MB, target 500 MB: %s\n", merge,
            verdict(merge < 10.0), mergeMB, verdict(mergeMB < 500.0));
    std::printf("{\"bench\":\"merge\",\"ranks\":%d,\"steps\":%d,\"shards\":%d,\"runs\":%d,\"shards_mb\":%.1f,"
                "\"merge_s\":%.3f,\"merge_peak_rss_mb\":%.1f,\"job_mb\":%.1f,\"doctor_job_s\":%.3f,"
                "\"doctor_job_peak_rss_mb\":%.1f}\n",
        o.ranks, o.steps, shards, o.runs, shardMB, merge, mergeMB, jobMB, doctor.seconds, doctorMB);
    if (o.keep.isEmpty())
        QDir(shardDir).removeRecursively();
    return 0;
}
