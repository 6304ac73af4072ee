// SPDX-License-Identifier: GPL-3.0-or-later
// bench_goodput: a long job's lifecycle log (default 1M steps in ml-goodput-measurement's entry form,
// a blocking checkpoint every 1,000 steps, a data-loader stall every 300, a preemption every 200,000
// steps with a restore and the steps since the last checkpoint done again) written as JSON lines,
// imported through the real import path, then computeGoodput() on it as the Goodput tab and
// `plumb goodput` call it. Prints each stage's seconds, the figures and peak RSS.
// Usage: bench_goodput [--steps N] [--keep DIR]

#include "analysis/goodput.h"
#include "benchimport.h"
#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <string>

using namespace plumb;

int main(int argc, char **argv)
{
    tuneAllocator();
    QCoreApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption stepsOpt(
        QStringLiteral("steps"), QStringLiteral("Steps."), QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption keepOpt(
        QStringLiteral("keep"), QStringLiteral("Folder for the log and workspace."), QStringLiteral("DIR"));
    cli.addOptions({ stepsOpt, keepOpt });
    cli.process(app);
    const int64_t steps = cli.value(stepsOpt).toLongLong();
    QTemporaryDir tmp;
    const QString dir = bench::workFolder("bench_goodput", cli.value(keepOpt), tmp);
    if (dir.isEmpty())
        return 1;
    const QString log = dir + QStringLiteral("/bench_job.jsonl");
    const QString wsPath = dir + QStringLiteral("/bench_goodput.plumb");
    bench::removeWorkspace(wsPath);

    QElapsedTimer t;
    t.start();
    {
        QFile f(log);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            std::fprintf(stderr, "bench_goodput: cannot write %s\n", qPrintable(log));
            return 1;
        }
        std::string buf;
        char line[256];
        auto put = [&](int n) {
            buf.append(line, size_t(n));
            if (buf.size() > (1 << 20)) {
                f.write(buf.data(), qint64(buf.size()));
                buf.clear();
            }
        };
        double now = 1712192400.0;
        put(std::snprintf(line, sizeof line, "{\"job_name\":\"bench\",\"job_start_time\":%.6f}\n", now));
        int64_t step = 0, done = 0, lastCheckpoint = 0;
        while (done < steps) {
            put(std::snprintf(line, sizeof line,
                "{\"job_name\":\"bench\",\"step_count\":%lld,\"step_start_time\":%.6f}\n", (long long)step,
                now));
            double len = 1.5 + 0.001 * double(step % 17);
            if (step % 300 == 0) {
                put(std::snprintf(
                    line, sizeof line, "{\"job_name\":\"bench\",\"data_loading_start_time\":%.6f}\n", now));
                put(std::snprintf(
                    line, sizeof line, "{\"job_name\":\"bench\",\"data_loading_end_time\":%.6f}\n", now + 2));
                len += 2;
            }
            now += len;
            ++step;
            ++done;
            if (step % 1000 == 0) {
                put(std::snprintf(line, sizeof line,
                    "{\"event\":\"checkpoint_save\",\"job\":\"bench\",\"start_time\":%.6f,\"duration_s\":8,"
                    "\"step\":%lld}\n",
                    now, (long long)step));
                now += 8;
                lastCheckpoint = step;
            }
            if (done % 200000 == 150500) { // 500 steps after a checkpoint
                put(std::snprintf(
                    line, sizeof line, "{\"event\":\"preemption\",\"job\":\"bench\",\"time\":%.6f}\n", now));
                now += 240;
                put(std::snprintf(
                    line, sizeof line, "{\"event\":\"restart\",\"job\":\"bench\",\"time\":%.6f}\n", now));
                put(std::snprintf(line, sizeof line,
                    "{\"event\":\"checkpoint_restore\",\"job\":\"bench\",\"start_time\":%.6f,\"duration_s\":"
                    "30,\"step\":%lld}\n",
                    now + 10, (long long)lastCheckpoint));
                now += 60;
                step = lastCheckpoint;
            }
        }
        put(std::snprintf(line, sizeof line, "{\"job_name\":\"bench\",\"job_end_time\":%.6f}\n", now));
        f.write(buf.data(), qint64(buf.size()));
    }
    const double genS = double(t.nsecsElapsed()) / 1e9;
    const double mb = double(QFileInfo(log).size()) / 1e6;

    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    t.restart();
    {
        ImportRunner runner(registry, wsPath);
        const auto r = runner.run({ log });
        if (r.empty() || r[0].status != FileImportResult::Status::Imported) {
            std::fprintf(stderr, "bench_goodput: import failed: %s\n",
                r.empty() ? "no result" : qPrintable(r[0].message));
            return 1;
        }
    }
    const double importS = double(t.nsecsElapsed()) / 1e9;

    t.restart();
    Workspace ws(wsPath, Workspace::Role::Reader);
    const std::vector<GoodputRun> runs = goodputRuns(ws);
    const GoodputReport g = computeGoodput(ws, runs.empty() ? -1 : runs.front().id);
    const double analyseS = double(t.nsecsElapsed()) / 1e9;
    if (!g.valid()) {
        std::fprintf(stderr, "bench_goodput: %s\n", qPrintable(g.problem));
        return 1;
    }
    std::printf("bench_goodput: %lld steps, log %.1f MB (generated in %.2f s)\n", (long long)steps, mb, genS);
    std::printf("  import   %.2f s  (%.1f MB/s)\n", importS, mb / importS);
    std::printf(
        "  goodput  %.2f s  (%zu segments, %zu windows)\n", analyseS, g.segments.size(), g.windows.size());
    std::printf("  goodput %.1f%%, runtime %.1f%%, disruptions %d, ideal step %.3f s, largest badput: %s\n",
        100 * g.goodput, 100 * g.runtimeGoodput, g.disruptions, double(g.idealStepNs) / 1e9,
        g.largestBadput() ? qPrintable(badputName(*g.largestBadput())) : "none");
    std::printf("  peak RSS %.0f MB\n", double(bench::readVmHwmKiB()) / 1024);
    return 0;
}
