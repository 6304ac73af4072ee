// SPDX-License-Identifier: GPL-3.0-or-later
// bench_memory: the memory timeline (issue 37) of a generated PyTorch trace of 1M memory events (default;
// about 560k CPU ops around them, one GPU), as the Memory tab and `plumb memory` compute it:
// memoryTimeline() on the imported workspace, several runs, and `plumb memory --json` from exec to exit.
// The trace (tests/support/memorytracegen.h) is written and imported first, not timed. Prints each
// run, the medians and PASS/MISS against the target (under 500 ms).
// Usage: bench_memory [--events N] [--devices N] [--runs N] [--keep DIR]

#include "analysis/memorytimeline.h"
#include "benchimport.h"
#include "builtinimporters.h"
#include "childrun.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "memorytracegen.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>

using namespace plumb;

namespace {

constexpr double kTargetSeconds = 0.5;

// CPU seconds of this process, every thread.
double cpuSeconds()
{
    rusage u {};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    tuneAllocator();
    QCoreApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption eventsOpt(QStringLiteral("events"), QStringLiteral("Memory events."),
        QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption devicesOpt(
        QStringLiteral("devices"), QStringLiteral("GPUs."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption runsOpt(
        QStringLiteral("runs"), QStringLiteral("Timed runs."), QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption keepOpt(
        QStringLiteral("keep"), QStringLiteral("Folder for the trace and workspace."), QStringLiteral("DIR"));
    cli.addOptions({ eventsOpt, devicesOpt, runsOpt, keepOpt });
    cli.process(app);
    QTemporaryDir tmp;
    const QString dir = bench::workFolder("bench_memory", cli.value(keepOpt), tmp);
    if (dir.isEmpty())
        return 1;
    const QString tracePath = dir + QStringLiteral("/bench_memory.json");
    const QString wsPath = dir + QStringLiteral("/bench_memory.plumb");
    const int runs = std::max(1, cli.value(runsOpt).toInt());

    testgen::MemoryTraceSpec spec;
    spec.events = cli.value(eventsOpt).toLongLong();
    spec.devices = std::max(1, cli.value(devicesOpt).toInt());
    spec.preCaptureBytes = int64_t(512) << 20;
    spec.truth = false;
    QElapsedTimer t;
    t.start();
    // Generated and imported in a child, so that the runs below start from a small process.
    const int generated = bench::runInChild([&] {
        testgen::MemoryTraceTruth truth;
        const QByteArray json = testgen::memoryTraceJson(spec, &truth);
        QFile f(tracePath);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(json) != json.size())
            return 1;
        f.close();
        std::printf("bench_memory: %lld memory events, %lld CPU ops, %d GPU(s): %.0f MB of JSON\n",
            (long long)spec.events, (long long)truth.ops, spec.devices, double(json.size()) / 1e6);
        bench::removeWorkspace(wsPath);
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        ImportRunner runner(registry, wsPath);
        const auto r = runner.run({ tracePath });
        if (r.empty() || r[0].status != FileImportResult::Status::Imported) {
            std::fprintf(stderr, "bench_memory: import failed: %s\n",
                r.empty() ? "no result" : qPrintable(r[0].message));
            return 1;
        }
        std::fflush(stdout);
        return 0;
    });
    if (generated != 0)
        return 1;
    std::printf("  generated and imported in %.1f s (not timed below)\n", double(t.nsecsElapsed()) / 1e9);

    std::vector<double> timeline, cpu, command;
    int64_t peak = 0;
    size_t live = 0, points = 0;
    for (int i = 0; i < runs; ++i) {
        const double cpuBefore = cpuSeconds();
        t.restart();
        Workspace ws(wsPath, Workspace::Role::Reader);
        const MemoryTimeline m = memoryTimeline(ws, 1);
        timeline.push_back(double(t.nsecsElapsed()) / 1e9);
        cpu.push_back(cpuSeconds() - cpuBefore);
        if (m.empty()) {
            std::fprintf(stderr, "bench_memory: no memory events read\n");
            return 1;
        }
        peak = m.devices.front().peakAllocatedBytes;
        live = m.devices.front().liveAtPeak.size();
        points = m.devices.front().series.size();
        const bench::ChildRun r = bench::mustRun("bench_memory", QStringLiteral(PLUMB_CLI_PATH),
            { QStringLiteral("memory"), QStringLiteral("1"), QStringLiteral("--json"),
                QStringLiteral("--workspace"), wsPath });
        command.push_back(r.seconds);
        std::printf("  run %d: memoryTimeline %.3f s (%.3f s of CPU), plumb memory --json %.3f s\n", i + 1,
            timeline.back(), cpu.back(), r.seconds);
    }
    std::printf("  GPU 0: peak %.1f MiB, %zu allocations live at the peak, %zu chart points\n",
        double(peak) / (1 << 20), live, points);
    const double median = bench::median(timeline);
    std::printf(
        "  median: memoryTimeline %.3f s (%.3f s of CPU, both cores), plumb memory --json %.3f s; peak RSS "
        "%.0f MB\n",
        median, bench::median(cpu), bench::median(command), double(bench::readVmHwmKiB()) / 1024);
    double load[3] = {};
    if (::getloadavg(load, 3) > 0)
        std::printf("  load average %.1f (other work on the machine slows the wall times)\n", load[0]);
    std::printf("  %s: memory timeline of %lld events under %.0f ms\n",
        median < kTargetSeconds ? "PASS" : "MISS", (long long)spec.events, kTargetSeconds * 1000);
    std::printf("{\"bench\":\"memory\",\"events\":%lld,\"timeline_s\":%.4f,\"timeline_cpu_s\":%.4f,"
                "\"command_s\":%.4f}\n",
        (long long)spec.events, median, bench::median(cpu), bench::median(command));
    return 0;
}
