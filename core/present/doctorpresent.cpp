// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/doctorpresent.h"

#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QJsonArray>

#include <map>

namespace plumb {

namespace {

constexpr int kTopKernels
    = 10; // top GPU ops, collectives and FLOPs entries in the text; twice as many in JSON

QJsonObject breakdownJson(const TemporalBreakdown &b)
{
    QJsonObject o;
    o[QStringLiteral("gpu_ops")] = double(b.ops);
    for (const auto &[key, ns] : { std::pair { "total_ns", b.totalNs() }, { "busy_ns", b.busyNs },
             { "idle_ns", b.idleNs() }, { "compute_ns", b.computeNs }, { "exposed_comm_ns", b.exposedCommNs },
             { "exposed_memory_ns", b.exposedMemoryNs }, { "comm_ns", b.commNs },
             { "memory_ns", b.memoryNs } })
        o[QLatin1String(key)] = double(ns);
    return o;
}

QJsonObject stepTimeJson(const StepTimeParts &p)
{
    QJsonObject o;
    for (const StepTimePartInfo &part : stepTimeParts())
        o[QLatin1String(part.key) + QLatin1String("_ns")] = double(p.*part.member);
    return o;
}

// The launch queue of the stream on track `track`, if the report has one.
const StreamQueue *queueOf(const DoctorReport &report, int64_t track)
{
    for (const StreamQueue &q : report.launch.queues)
        if (q.streamTrackId == track)
            return &q;
    return nullptr;
}

QJsonObject traceJson(const DoctorFindings::Trace &t, GpuOpMode mode)
{
    const int64_t id = t.id;
    const QString &name = t.name;
    const DoctorReport &report = t.report;
    const TemporalBreakdown &b = report.overall;
    const std::vector<StepBreakdown> &steps = report.steps;
    const std::vector<KernelStats> &kernels = report.kernels;
    const std::vector<StreamIdle> &idle = report.idle;
    const HostAnalysis &host = report.host;
    const std::vector<MemcpyKindStats> &copies = report.copies;
    const Verdict &verdict = report.verdict;
    QJsonObject o = breakdownJson(b);
    if (b.commNs > 0)
        o[QStringLiteral("comm_overlap")] = b.commOverlap();
    o[QStringLiteral("trace")] = double(id);
    o[QStringLiteral("name")] = name;
    o[QStringLiteral("mode")] = gpuOpModeName(mode);
    QJsonObject kindsJson;
    for (int k = 1; k < 8; ++k)
        if (b.byKinds[size_t(k)] > 0)
            kindsJson[kindSetName(k)] = double(b.byKinds[size_t(k)]);
    o[QStringLiteral("kernel_type_ns")] = kindsJson;
    QJsonArray stepsJson;
    for (size_t si = 0; si < steps.size(); ++si) {
        const StepBreakdown &s = steps[si];
        QJsonObject so = breakdownJson(s.gpu);
        so[QStringLiteral("verdict")] = componentName(report.stepVerdicts[si].component);
        so[QStringLiteral("step")] = double(s.number);
        so[QStringLiteral("cpu_start_ns")] = double(s.cpuStartNs);
        so[QStringLiteral("cpu_end_ns")] = double(s.cpuEndNs);
        const StepTime &st = report.stepTime.steps[si];
        so[QStringLiteral("wall_ns")] = double(st.wallNs());
        so[QStringLiteral("step_time")] = stepTimeJson(st.parts);
        stepsJson.append(so);
    }
    o[QStringLiteral("steps")] = stepsJson;
    o[QStringLiteral("step_time")] = stepTimeJson(report.stepTime.total);
    QJsonArray kernelsJson;
    for (size_t i = 0; i < kernels.size() && i < 2 * size_t(kTopKernels); ++i) {
        const KernelStats &k = kernels[i];
        QJsonObject ko;
        ko[QStringLiteral("name")] = k.name;
        ko[QStringLiteral("count")] = double(k.count);
        ko[QStringLiteral("total_ns")] = double(k.totalNs);
        ko[QStringLiteral("share")] = k.share;
        ko[QStringLiteral("mean_ns")] = k.meanNs();
        ko[QStringLiteral("p50_ns")] = double(k.p50Ns);
        ko[QStringLiteral("p90_ns")] = double(k.p90Ns);
        ko[QStringLiteral("p99_ns")] = double(k.p99Ns);
        ko[QStringLiteral("max_ns")] = double(k.maxNs);
        if (k.occupancy >= 0)
            ko[QStringLiteral("occupancy_pct")] = k.occupancy;
        kernelsJson.append(ko);
    }
    o[QStringLiteral("top_kernels")] = kernelsJson;
    // Holistic Trace Analysis's kernel breakdown folds each kernel type's tail into "others" from every
    // name's totals: the hta mode lists them all (python/plumb/hta.py reads them).
    if (mode == GpuOpMode::Hta) {
        QJsonArray allJson;
        for (const KernelStats &k : kernels) {
            QJsonObject ko;
            ko[QStringLiteral("name")] = k.name;
            ko[QStringLiteral("kernel_type")]
                = k.untyped ? QJsonValue() : QJsonValue(kindSetName(1 << int(k.kind)));
            ko[QStringLiteral("count")] = double(k.count);
            ko[QStringLiteral("total_ns")] = double(k.totalNs);
            ko[QStringLiteral("min_ns")] = double(k.minNs);
            ko[QStringLiteral("max_ns")] = double(k.maxNs);
            ko[QStringLiteral("mean_ns")] = k.meanNs();
            ko[QStringLiteral("stddev_ns")] = k.stddevNs;
            allJson.append(ko);
        }
        o[QStringLiteral("kernels")] = allJson;
    }
    QJsonArray idleJson;
    for (const StreamIdle &si : idle) {
        QJsonObject io;
        io[QStringLiteral("stream")] = double(si.stream);
        io[QStringLiteral("host_wait_ns")] = double(si.hostWaitNs);
        io[QStringLiteral("kernel_wait_ns")] = double(si.kernelWaitNs);
        io[QStringLiteral("other_ns")] = double(si.otherNs);
        if (const StreamQueue *q = queueOf(report, si.streamTrackId)) {
            io[QStringLiteral("queue_max")] = q->maxQueued;
            io[QStringLiteral("queue_mean")] = q->meanQueued;
        }
        idleJson.append(io);
    }
    o[QStringLiteral("idle_by_stream")] = idleJson;
    QJsonObject hostJson;
    hostJson[QStringLiteral("input_pipeline_ns")] = double(host.inputPipeline.timeNs);
    hostJson[QStringLiteral("synchronization_ns")] = double(host.synchronization.timeNs);
    hostJson[QStringLiteral("synchronization_calls")] = double(host.synchronization.count);
    hostJson[QStringLiteral("optimizer_ns")] = double(host.optimizer.timeNs);
    hostJson[QStringLiteral("mpi_ns")] = double(host.communication.timeNs);
    hostJson[QStringLiteral("mpi_calls")] = double(host.communication.count);
    hostJson[QStringLiteral("cpu_samples")] = double(host.cpuSamples);
    hostJson[QStringLiteral("cpu_samples_gpu_idle")] = double(host.cpuSamplesInIdle);
    QJsonArray sampledJson;
    for (const auto &[name, n] : host.idleSampleFunctions)
        sampledJson.append(
            QJsonObject { { QStringLiteral("function"), name }, { QStringLiteral("samples"), double(n) } });
    hostJson[QStringLiteral("cpu_samples_gpu_idle_top")] = sampledJson;
    hostJson[QStringLiteral("sched_threads")] = double(host.schedThreads);
    hostJson[QStringLiteral("sched_gpu_idle_ns")] = double(host.schedIdleNs);
    hostJson[QStringLiteral("off_cpu_gpu_idle_ns")] = double(host.offCpuIdleNs);
    hostJson[QStringLiteral("launched_ops")] = double(host.launchedOps);
    hostJson[QStringLiteral("launch_delay_p50_ns")] = double(host.launchDelayP50Ns);
    hostJson[QStringLiteral("launch_delay_p90_ns")] = double(host.launchDelayP90Ns);
    hostJson[QStringLiteral("ops_shorter_than_launch")] = double(host.shortOps);
    o[QStringLiteral("host")] = hostJson;
    QJsonArray copiesJson;
    for (const MemcpyKindStats &c : copies) {
        QJsonObject cj;
        cj[QStringLiteral("kind")] = c.kind;
        cj[QStringLiteral("count")] = double(c.count);
        cj[QStringLiteral("bytes")] = double(c.bytes);
        cj[QStringLiteral("time_ns")] = double(c.timeNs);
        cj[QStringLiteral("gb_per_s")] = c.gigabytesPerSecond();
        cj[QStringLiteral("pageable")] = c.pageable;
        copiesJson.append(cj);
    }
    o[QStringLiteral("memcpy")] = copiesJson;
    QJsonArray collectivesJson;
    for (const CollectiveStats &c : report.collectives)
        collectivesJson.append(QJsonObject { { QStringLiteral("collective"), c.collective },
            { QStringLiteral("process_group"), c.processGroup }, { QStringLiteral("dtype"), c.dtype },
            { QStringLiteral("group_size"), double(c.groupSize) },
            { QStringLiteral("bytes"), double(c.bytes) }, { QStringLiteral("count"), double(c.count) },
            { QStringLiteral("time_ns"), double(c.timeNs) },
            { QStringLiteral("algorithm_gb_per_s"), c.algorithmGBps() },
            { QStringLiteral("bus_gb_per_s"), c.busGBps() } });
    o[QStringLiteral("collectives")] = collectivesJson;
    const FlopsSummary &fl = report.flops;
    QJsonArray flopsOps;
    for (size_t i = 0; i < fl.entries.size() && i < 2 * size_t(kTopKernels); ++i) {
        const FlopsEntry &e = fl.entries[i];
        flopsOps.append(QJsonObject { { QStringLiteral("op"), e.op }, { QStringLiteral("shape"), e.shape },
            { QStringLiteral("dtype"), dtypeName(e.dtype) }, { QStringLiteral("count"), double(e.count) },
            { QStringLiteral("flops"), e.flops }, { QStringLiteral("kernel_ns"), double(e.kernelNs) },
            { QStringLiteral("tflops_per_s"), e.tflops() } });
    }
    o[QStringLiteral("flops")] = QJsonObject { { QStringLiteral("device"), fl.device },
        { QStringLiteral("ops"), double(fl.ops) },
        { QStringLiteral("ops_without_kernels"), double(fl.opsWithoutKernels) },
        { QStringLiteral("flops"), fl.flops }, { QStringLiteral("kernel_ns"), double(fl.kernelNs) },
        { QStringLiteral("achieved_tflops_per_s"), fl.achievedTflops() },
        { QStringLiteral("dtype"), dtypeName(fl.dtype) },
        { QStringLiteral("peak_tflops_per_s"), fl.peakTflops > 0 ? QJsonValue(fl.peakTflops) : QJsonValue() },
        { QStringLiteral("peak_share"),
            fl.peakTflops > 0 && !fl.abovePeak() ? QJsonValue(fl.peakShare()) : QJsonValue() },
        { QStringLiteral("above_peak"), fl.abovePeak() }, { QStringLiteral("top"), flopsOps } };
    QJsonObject vj;
    vj[QStringLiteral("component")] = componentName(verdict.component);
    vj[QStringLiteral("runner_up")] = componentName(verdict.runnerUp);
    vj[QStringLiteral("headline")] = verdict.headline;
    vj[QStringLiteral("evidence")] = QJsonArray::fromStringList(verdict.evidence);
    vj[QStringLiteral("tunables")] = QJsonArray::fromStringList(verdict.tunables);
    QJsonArray whereJson;
    for (const Verdict::Where &w : verdict.where)
        whereJson.append(QJsonObject { { QStringLiteral("start_ns"), double(w.startNs) },
            { QStringLiteral("end_ns"), double(w.endNs) }, { QStringLiteral("label"), w.label } });
    vj[QStringLiteral("where")] = whereJson;
    o[QStringLiteral("verdict")] = vj;
    return o;
}

QJsonObject criticalPathJson(const CriticalPath &p)
{
    QJsonObject shares;
    for (int b = 0; b < kCriticalPathBoundCount; ++b)
        shares[criticalPathBoundKey(CriticalPathBound(b))] = p.pct(CriticalPathBound(b));
    return QJsonObject { { QStringLiteral("ok"), p.ok }, { QStringLiteral("note"), p.note },
        { QStringLiteral("mode"), criticalPathModeName(p.mode) }, { QStringLiteral("step"), p.step },
        { QStringLiteral("from_ns"), double(p.fromNs) }, { QStringLiteral("to_ns"), double(p.toNs) },
        { QStringLiteral("length_ns"), double(p.lengthNs) }, { QStringLiteral("summary_pct"), shares } };
}

QJsonObject runJson(const DoctorFindings::Run &dr)
{
    const int64_t run = dr.id;
    const RankComparison &c = dr.ranks;
    QJsonObject o;
    o[QStringLiteral("run")] = double(run);
    QJsonArray ranks;
    for (const RankSummary &r : c.ranks) {
        QJsonObject j;
        j[QStringLiteral("trace")] = double(r.traceId);
        j[QStringLiteral("rank")] = double(r.rank);
        j[QStringLiteral("steps")] = r.steps;
        j[QStringLiteral("step_window_ns")] = r.windowNs;
        j[QStringLiteral("compute_ns")] = r.computeNs;
        j[QStringLiteral("comm_ns")] = r.commNs;
        j[QStringLiteral("idle_ns")] = r.idleNs;
        ranks.append(j);
    }
    o[QStringLiteral("ranks")] = ranks;
    o[QStringLiteral("step_spread_ns")] = c.stepSpreadNs;
    o[QStringLiteral("straggler_rank")] = c.straggler >= 0 ? double(c.ranks[size_t(c.straggler)].rank) : -1.0;
    o[QStringLiteral("others_wait_ns")] = c.othersWaitNs;
    return o;
}

} // namespace

DoctorFindings doctorFindings(Workspace &ws, const std::vector<TraceRef> &traces, GpuOpMode mode,
    const StepTimeOptions &stepOptions, ReportSource source)
{
    DoctorFindings f;
    f.mode = mode;
    // Each run's ranks side by side, read once however many of its traces are asked for.
    std::map<int64_t, RankComparison> comparisons;
    const std::vector<int64_t> runs = runsOf(traces);
    for (int64_t run : runs)
        comparisons[run] = compareRanks(ws, run, mode, source);
    for (const TraceRef &t : traces)
        f.traces.push_back(
            { t.id, t.name, doctorReport(ws, t.id, mode, &comparisons[t.runId], stepOptions, source), {} });
    for (int64_t run : runs)
        if (comparisons[run].ranks.size() >= 2)
            f.runs.push_back({ run, std::move(comparisons[run]) });
    return f;
}

void addCriticalPaths(Workspace &ws, DoctorFindings &f, const CriticalPathOptions &options)
{
    for (DoctorFindings::Trace &t : f.traces) {
        t.criticalPath = criticalPath(ws, t.id, options);
        if (t.criticalPath->ok)
            t.report.verdict.evidence << criticalPathSentence(*t.criticalPath, t.report.deviceNoun);
    }
}

QJsonObject doctorJson(const DoctorFindings &f)
{
    QJsonArray traces;
    for (const DoctorFindings::Trace &t : f.traces) {
        QJsonObject o = traceJson(t, f.mode);
        if (t.criticalPath)
            o[QStringLiteral("critical_path")] = criticalPathJson(*t.criticalPath);
        traces.append(o);
    }
    QJsonArray runs;
    for (const DoctorFindings::Run &r : f.runs)
        runs.append(runJson(r));
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("plumb.doctor/1");
    root[QStringLiteral("mode")] = gpuOpModeName(f.mode);
    root[QStringLiteral("traces")] = traces;
    root[QStringLiteral("runs")] = runs;
    return root;
}

QString doctorText(const DoctorFindings &f)
{
    QString printed;
    auto out = [&](const QString &s) { printed += s; };
    const GpuOpMode mode = f.mode;
    // Each trace's text says "device" where its accelerator is not a GPU (said once its text is whole).
    std::vector<std::pair<qsizetype, QString>> nouns;
    for (const DoctorFindings::Trace &t : f.traces) {
        const int64_t id = t.id;
        const QString &name = t.name;
        const DoctorReport &report = t.report;
        nouns.emplace_back(printed.size(), report.deviceNoun);
        const TemporalBreakdown &b = report.overall;
        const std::vector<StepBreakdown> &steps = report.steps;
        const std::vector<KernelStats> &kernels = report.kernels;
        const std::vector<StreamIdle> &idle = report.idle;
        const HostAnalysis &host = report.host;
        const std::vector<MemcpyKindStats> &copies = report.copies;
        const Verdict &verdict = report.verdict;
        out(QStringLiteral("trace %1  %2  (%3 GPU ops, %4)\n")
                .arg(id)
                .arg(name, text::count(b.ops),
                    mode == GpuOpMode::LinkedOnly ? QStringLiteral("linked to launches")
                        : mode == GpuOpMode::Hta  ? QStringLiteral("as Holistic Trace Analysis counts")
                                                  : QStringLiteral("every GPU op")));
        if (b.ops == 0) {
            out(QStringLiteral("  no GPU ops\n"));
            continue;
        }
        out(QStringLiteral("  verdict: %1\n").arg(verdict.headline));
        for (const QString &e : verdict.evidence)
            out(QStringLiteral("    - %1\n").arg(e));
        for (const Verdict::Where &w : verdict.where)
            out(QStringLiteral("    at %1 .. %2 ms: %3\n")
                    .arg(text::milliseconds(w.startNs - b.startNs), text::milliseconds(w.endNs - b.startNs),
                        w.label));
        if (!verdict.tunables.isEmpty())
            out(QStringLiteral("    try: %1\n").arg(verdict.tunables.join(QStringLiteral("; "))));
        if (const std::optional<CriticalPath> &cp = t.criticalPath)
            out(cp->ok ? QStringLiteral("  critical path of %1 (%2 mode): %3 ms, %4 slices on it\n")
                             .arg(cp->step.isEmpty() ? QStringLiteral("the trace") : cp->step,
                                 criticalPathModeName(cp->mode), text::milliseconds(cp->lengthNs),
                                 text::count(int64_t(cp->slices.size())))
                       : QStringLiteral("  critical path: none (%1)\n").arg(cp->note));
        auto line = [&](const QString &label, int64_t ns) {
            out(QStringLiteral("  %1 %2 ms  %3%\n")
                    .arg(label, -22)
                    .arg(text::milliseconds(ns), 12)
                    .arg(100.0 * b.share(ns), 6, 'f', 1));
        };
        line(QStringLiteral("window"), b.totalNs());
        line(QStringLiteral("computation"), b.computeNs);
        line(QStringLiteral("exposed communication"), b.exposedCommNs);
        if (b.commNs > 0)
            out(QStringLiteral("    (communication %1 ms in all, %2% of it overlapped by computation)\n")
                    .arg(text::milliseconds(b.commNs))
                    .arg(100.0 * b.commOverlap(), 0, 'f', 1));
        line(QStringLiteral("exposed memcpy/memset"), b.exposedMemoryNs);
        line(QStringLiteral("idle"), b.idleNs());
        if (!steps.empty()) {
            const StepTimeBreakdown &st = report.stepTime;
            const int64_t n = int64_t(st.steps.size());
            const double wall = double(st.total.wallNs());
            out(QStringLiteral("  %1 %2 ms  a step over %3\n")
                    .arg(QStringLiteral("step time"), -22)
                    .arg(text::milliseconds(st.total.wallNs() / n), 12)
                    .arg(text::counted(n, QStringLiteral("step"), QStringLiteral("steps"))));
            for (const StepTimePartInfo &part : stepTimeParts())
                out(QStringLiteral("    %1 %2 ms  %3%\n")
                        .arg(QLatin1String(part.name), -21)
                        .arg(text::milliseconds(st.total.*part.member / n), 11)
                        .arg(wall > 0 ? 100.0 * double(st.total.*part.member) / wall : 0.0, 6, 'f', 1));
            // Each step's parts as shares of its wall time, in stepTimeParts() order.
            static const char *const columns[]
                = { "compute", "exp.comm", "exp.mem", "input", "sync", "runtime", "cpu", "idle" };
            QString header = QStringLiteral("  %1 %2")
                                 .arg(QStringLiteral("per step, share of its wall time"), -30)
                                 .arg(QStringLiteral("wall ms"), 11);
            for (const char *c : columns)
                header += QStringLiteral(" %1").arg(QLatin1String(c), 8);
            out(header + QStringLiteral(" %1  limit\n").arg(QStringLiteral("GPU window ms"), 14));
            for (size_t si = 0; si < steps.size(); ++si) {
                const StepTime &s = st.steps[si];
                QString row = QStringLiteral("    %1 %2")
                                  .arg(steps[si].name.left(28), -28)
                                  .arg(text::milliseconds(s.wallNs()), 11);
                for (const StepTimePartInfo &part : stepTimeParts())
                    row += QStringLiteral(" %1%").arg(
                        s.wallNs() > 0 ? 100.0 * double(s.parts.*part.member) / double(s.wallNs()) : 0.0, 7,
                        'f', 1);
                out(row
                    + QStringLiteral(" %1  %2\n")
                          .arg(text::milliseconds(steps[si].gpu.totalNs()), 14)
                          .arg(componentName(report.stepVerdicts[si].component)));
            }
        }
        out(QStringLiteral(
            "  host: input pipeline %1 ms, blocking syncs %2 ms (%3 calls), optimizer %4 ms%5\n")
                .arg(text::milliseconds(host.inputPipeline.timeNs),
                    text::milliseconds(host.synchronization.timeNs), text::count(host.synchronization.count),
                    text::milliseconds(host.optimizer.timeNs),
                    host.communication.count ? QStringLiteral(", MPI calls %1 ms (%2 calls)")
                                                   .arg(text::milliseconds(host.communication.timeNs),
                                                       text::count(host.communication.count))
                                             : QString()));
        if (host.cpuSamples) {
            QStringList functions;
            for (const auto &[name, n] : host.idleSampleFunctions)
                functions << QStringLiteral("%1 %2").arg(text::elided(name, 48), text::count(n));
            out(QStringLiteral("  cpu samples: %1, %2 while the GPU was idle%3\n")
                    .arg(text::count(host.cpuSamples), text::count(host.cpuSamplesInIdle),
                        functions.isEmpty() ? QString()
                                            : QStringLiteral(": ") + functions.join(QStringLiteral(", "))));
        }
        if (host.schedThreads)
            out(QStringLiteral(
                "  scheduling: the launching thread%1 on no CPU for %2 of the %3 ms the GPU was idle "
                "(%4%)\n")
                    .arg(host.schedThreads == 1 ? QString() : QStringLiteral("s"))
                    .arg(text::milliseconds(host.offCpuIdleNs), text::milliseconds(host.schedIdleNs))
                    .arg(
                        host.schedIdleNs ? 100.0 * double(host.offCpuIdleNs) / double(host.schedIdleNs) : 0.0,
                        0, 'f', 0));
        if (host.launchedOps)
            out(QStringLiteral("  launches: %1, launch to start p50 %2 / p90 %3; %4 ran shorter than their "
                               "launch call\n")
                    .arg(text::counted(host.launchedOps, QStringLiteral("op"), QStringLiteral("ops")),
                        formatDuration(host.launchDelayP50Ns), formatDuration(host.launchDelayP90Ns),
                        text::counted(host.shortOps, QStringLiteral("op"), QStringLiteral("ops"))));
        for (const MemcpyKindStats &c : copies)
            out(QStringLiteral("  copies: %1 x%2, %3 in %4 ms, %5 GB/s%6\n")
                    .arg(c.kind)
                    .arg(c.count)
                    .arg(text::bytes(c.bytes), text::milliseconds(c.timeNs))
                    .arg(c.gigabytesPerSecond(), 0, 'f', 2)
                    .arg(c.pageable ? QStringLiteral("  <- pageable host memory: synchronous; pin it")
                                    : QString()));
        if (!report.collectives.empty())
            out(QStringLiteral("  collectives                                   calls  size        total "
                               "ms   algbw GB/s  busbw GB/s\n"));
        for (size_t ci = 0; ci < report.collectives.size() && ci < size_t(kTopKernels); ++ci) {
            const CollectiveStats &c = report.collectives[ci];
            const QString what = c.groupSize > 0
                ? QStringLiteral("%1 x%2 %3").arg(c.collective).arg(c.groupSize).arg(c.dtype)
                : c.collective;
            out(QStringLiteral("    %1 %2  %3 %4 %5 %6\n")
                    .arg(what.left(40), -40)
                    .arg(c.count, 6)
                    .arg(c.bytes > 0 ? text::bytes(c.bytes) : QStringLiteral("?"), -10)
                    .arg(text::milliseconds(c.timeNs), 10)
                    .arg(c.bytes > 0 ? QString::number(c.algorithmGBps(), 'f', 2) : QStringLiteral("-"), 12)
                    .arg(c.bytes > 0 ? QString::number(c.busGBps(), 'f', 2) : QStringLiteral("-"), 11));
        }
        out(QStringLiteral("  idle between ops, per stream                     host wait  kernel wait    "
                           "  other  (ms)   queued max  mean\n"));
        for (const StreamIdle &si : idle) {
            const StreamQueue *q = queueOf(report, si.streamTrackId);
            out(QStringLiteral("    stream %1 %2 %3 %4 %5 %6\n")
                    .arg(si.stream, -38)
                    .arg(text::milliseconds(si.hostWaitNs), 11)
                    .arg(text::milliseconds(si.kernelWaitNs), 12)
                    .arg(text::milliseconds(si.otherNs), 10)
                    .arg(q ? QString::number(q->maxQueued) : QStringLiteral("-"), 17)
                    .arg(q ? QString::number(q->meanQueued, 'f', 1) : QStringLiteral("-"), 5));
        }
        out(QStringLiteral("  top GPU ops                                         count    total ms  "
                           "share   p50 µs    max µs  occupancy\n"));
        for (size_t i = 0; i < kernels.size() && i < size_t(kTopKernels); ++i) {
            const KernelStats &k = kernels[i];
            const QString shortName = k.name.size() > 48 ? k.name.left(47) + QChar(0x2026) : k.name;
            out(QStringLiteral("    %1 %2 %3 %4% %5 %6 %7\n")
                    .arg(shortName, -48)
                    .arg(k.count, 6)
                    .arg(text::milliseconds(k.totalNs), 11)
                    .arg(100.0 * k.share, 5, 'f', 1)
                    .arg(double(k.p50Ns) / 1000.0, 8, 'f', 1)
                    .arg(double(k.maxNs) / 1000.0, 9, 'f', 1)
                    .arg(k.occupancy >= 0 ? QStringLiteral("%1%").arg(k.occupancy, 0, 'f', 0)
                                          : QStringLiteral("-"),
                        10));
        }
        // Achieved vs peak, where the trace recorded shapes (record_shapes=True).
        const FlopsSummary &fl = report.flops;
        if (fl.ops > 0) {
            out(QStringLiteral(
                "  matrix and attention ops: %1 TFLOP/s achieved over %2 ms of their kernels%3\n")
                    .arg(fl.achievedTflops(), 0, 'f', 1)
                    .arg(text::milliseconds(fl.kernelNs))
                    .arg(fl.abovePeak() ? QStringLiteral(
                             ", above the %1's dense %2 peak (%3 TFLOP/s): the recorded shapes or "
                             "the kernels' durations are not what the FLOP estimate assumes")
                                              .arg(fl.device, dtypeName(fl.dtype))
                                              .arg(fl.peakTflops, 0, 'g', 5)
                            : fl.peakTflops > 0
                            ? QStringLiteral(", %1% of the %2's dense %3 peak (%4 TFLOP/s)")
                                  .arg(100.0 * fl.peakShare(), 0, 'f', 1)
                                  .arg(fl.device, dtypeName(fl.dtype))
                                  .arg(fl.peakTflops, 0, 'g', 5)
                            : QStringLiteral(" (no peak known for %1)")
                                  .arg(fl.device.isEmpty() ? QStringLiteral("this GPU") : fl.device)));
            out(QStringLiteral("    op                               shape                               "
                               "   dtype  count   kernel ms  TFLOP/s  of peak\n"));
            for (size_t i = 0; i < fl.entries.size() && i < size_t(kTopKernels); ++i) {
                const FlopsEntry &e = fl.entries[i];
                const double peak = peakTflops(fl.device, 0, e.dtype);
                const QString shape = e.shape.size() > 38 ? e.shape.left(37) + QChar(0x2026) : e.shape;
                out(QStringLiteral("    %1 %2 %3 %4 %5 %6 %7\n")
                        .arg(e.op, -32)
                        .arg(shape, -38)
                        .arg(dtypeName(e.dtype), -5)
                        .arg(e.count, 6)
                        .arg(text::milliseconds(e.kernelNs), 11)
                        .arg(e.tflops(), 8, 'f', 1)
                        .arg(e.tflops() > peak && peak > 0 ? QStringLiteral("above")
                                                           : peakShareText(e.tflops(), peak),
                            8));
            }
        }
    }
    for (auto it = nouns.rbegin(); it != nouns.rend(); ++it)
        printed = printed.left(it->first) + sayDevice(printed.mid(it->first), it->second);
    for (const DoctorFindings::Run &dr : f.runs) {
        const int64_t run = dr.id;
        const RankComparison &c = dr.ranks;
        out(QStringLiteral("run %1: %2 ranks, per step       window ms   compute ms   comm ms   idle ms\n")
                .arg(run)
                .arg(c.ranks.size()));
        for (const RankSummary &r : c.ranks)
            out(QStringLiteral("  rank %1 %2 %3 %4 %5\n")
                    .arg(r.rank, -24)
                    .arg(r.windowNs / 1e6, 10, 'f', 3)
                    .arg(r.computeNs / 1e6, 12, 'f', 3)
                    .arg(r.commNs / 1e6, 9, 'f', 3)
                    .arg(r.idleNs / 1e6, 9, 'f', 3));
        if (c.straggler >= 0)
            out(QStringLiteral(
                "  straggler: rank %1 computes longest per step; the others spend %2 ms more per step "
                "in communication, waiting for it\n")
                    .arg(c.ranks[size_t(c.straggler)].rank)
                    .arg(c.othersWaitNs / 1e6, 0, 'f', 3));
        else
            out(QStringLiteral("  no straggler: per-step computation within %1% across ranks\n")
                    .arg(100 * kStragglerMargin));
    }
    return printed;
}

} // namespace plumb
