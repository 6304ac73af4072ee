// SPDX-License-Identifier: GPL-3.0-or-later
// bench_doctor: the whole doctor (DoctorReport: breakdown, steps, kernel table, idle per stream, host
// side, copies, verdict) over generated traces of 1M and 5M kernels. Each trace is written once through
// the real import path by a benchmark-only importer reading a one-line spec file (kept with --keep),
// then the doctor runs on it and the time and peak RSS are printed. Target: under 1 s per million
// kernels. Usage: bench_doctor [--kernels 1000000,5000000] [--keep DIR]

#include "analysis/doctorreport.h"
#include "benchimport.h"
#include "ingest/importcontext.h"
#include "ingest/importer.h"
#include "ingest/tracesink.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <random>

using namespace plumb;

namespace {

constexpr QLatin1StringView kSpecMagic("plumb-bench-doctor");

// One training process: per step, a data-loader range, then launches on the main thread (with their
// CUDA API calls) of kernels on four streams (5% NCCL all-reduces, some copies), queued like a real
// job: the GPU runs behind the CPU with occasional gaps.
class GeneratedDoctorImporter final : public bench::SpecImporter {
public:
    GeneratedDoctorImporter()
        : SpecImporter(
            kSpecMagic, QStringLiteral("bench-doctor"), QStringLiteral("Generated doctor trace (benchmark)"))
    {
    }
    void read(ImportContext &ctx) const override
    {
        const int64_t kernels = readSpec(ctx).value("kernels", "1000000").toLongLong();
        TraceSink &sink = ctx.traceSink();
        const int64_t cpu = sink.process("1000");
        sink.setProcessKind(cpu, ProcessKind::Cpu);
        const int64_t thread = sink.thread(cpu, "1000");
        const int64_t api = sink.companionTrack(thread, TrackKind::CudaApi);
        const int64_t gpu = sink.process("0");
        sink.setProcessKind(gpu, ProcessKind::Gpu, 0);
        int64_t streams[4];
        for (int s = 0; s < 4; ++s) {
            streams[s] = sink.thread(gpu, std::to_string(7 + s));
            sink.setTrackGpuStream(streams[s], 7 + s);
        }
        const int64_t catKernel = sink.intern("kernel"), catMemcpy = sink.intern("gpu_memcpy"),
                      catRuntime = sink.intern("cuda_runtime"), launchName = sink.intern("cudaLaunchKernel"),
                      loader = sink.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
                      copy = sink.intern("Memcpy HtoD (Pinned -> Device)"),
                      nccl = sink.intern("ncclKernel_AllReduce_RING_LL_Sum_float");
        std::vector<int64_t> names;
        for (int i = 0; i < 200; ++i)
            names.push_back(sink.intern(
                QStringLiteral("void generated_kernel_%1<float>(float*, int)").arg(i).toStdString()));
        std::mt19937_64 rng(7);
        constexpr int64_t kPerStep = 1000;
        int64_t cpuNs = 0, streamFree[4] = { 0, 0, 0, 0 };
        for (int64_t k = 0; k < kernels; ++k) {
            if (k % kPerStep == 0) {
                const int64_t step = k / kPerStep;
                SliceFields s;
                s.tsNs = cpuNs;
                s.durNs = kPerStep * 12'000 + 300'000;
                s.nameId = sink.intern(QStringLiteral("ProfilerStep#%1").arg(step).toStdString());
                sink.addSlice(thread, s);
                SliceFields l { cpuNs + 1'000, 250'000, loader };
                sink.addSlice(thread, l);
                cpuNs += 260'000;
            }
            SliceFields launch { cpuNs, 4'000 + int64_t(rng() % 4'000), launchName, catRuntime, k };
            sink.addSlice(api, launch);
            const int s = int(rng() % 4);
            const bool isComm = rng() % 20 == 0, isCopy = !isComm && rng() % 50 == 0;
            SliceFields op;
            op.tsNs = std::max(cpuNs + launch.durNs, streamFree[s] + int64_t(rng() % 3'000));
            op.durNs = 2'000 + int64_t(rng() % 20'000);
            op.nameId = isComm ? nccl : isCopy ? copy : names[size_t(rng() % names.size())];
            op.catId = isCopy ? catMemcpy : catKernel;
            op.corr = k;
            sink.addSlice(streams[s], op);
            streamFree[s] = op.tsNs + op.durNs;
            cpuNs += launch.durNs + 4'000;
            if (k % 100'000 == 0)
                ctx.checkpoint();
        }
        ctx.recordsRead = kernels;
    }
};

} // namespace

int main(int argc, char **argv)
{
    tuneAllocator(); // as the app does (app/main.cpp)
    QCoreApplication app(argc, argv);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Doctor run time on generated traces."));
    cli.addHelpOption();
    QCommandLineOption kernelsOpt(QStringLiteral("kernels"), QStringLiteral("Comma-separated kernel counts."),
        QStringLiteral("N,..."), QStringLiteral("1000000,5000000"));
    QCommandLineOption keepOpt(QStringLiteral("keep"),
        QStringLiteral("Keep (and reuse) the workspaces in DIR."), QStringLiteral("DIR"));
    cli.addOptions({ kernelsOpt, keepOpt });
    cli.process(app);
    QTemporaryDir tmp;
    const QString dir = bench::workFolder("bench_doctor", cli.value(keepOpt), tmp);
    if (dir.isEmpty())
        return 1;
    std::printf("%10s %12s %10s %12s %10s  %s\n", "kernels", "generate s", "doctor s", "s/M kernels",
        "RSS MB", "verdict");
    for (const QString &n : cli.value(kernelsOpt).split(u',')) {
        const int64_t kernels = n.toLongLong();
        const QString ws = QStringLiteral("%1/doctor-%2.plumb").arg(dir).arg(kernels);
        double generated = -1;
        if (!QFileInfo::exists(ws)) {
            generated = bench::generateFromSpec("bench_doctor", std::make_unique<GeneratedDoctorImporter>(),
                QStringLiteral("%1/doctor-%2.spec").arg(dir).arg(kernels),
                QStringLiteral("kernels=%1").arg(kernels).toUtf8(), ws);
            if (generated < 0)
                return 1;
        }
        Workspace workspace(ws, Workspace::Role::Reader);
        QElapsedTimer t;
        t.start();
        // From the events, as the import's summary pass and `plumb doctor --from-events` compute it (a
        // plain `plumb doctor` reads the report that pass stored).
        const DoctorReport report
            = doctorReport(workspace, 1, TemporalBreakdown::Mode::EveryOp, nullptr, {}, ReportSource::Events);
        const double seconds = double(t.nsecsElapsed()) / 1e9;
        std::printf("%10lld %12s %10.2f %12.2f %10.1f  %s\n", (long long)report.overall.ops,
            generated < 0 ? "(kept)" : qPrintable(QString::number(generated, 'f', 1)), seconds,
            seconds / (double(report.overall.ops) / 1e6), double(bench::readVmHwmKiB()) / 1024.0,
            qPrintable(report.verdict.headline));
    }
    return 0;
}
