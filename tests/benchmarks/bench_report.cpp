// SPDX-License-Identifier: GPL-3.0-or-later
// bench_report: `plumb report`'s work on a workspace holding a generated Kineto trace of 5M events
// (gen_kineto_trace's simulated training job, imported through the real importer in a child process):
// the report model (the doctor and every section's analyses) and the pages drawn as a PDF and as PNG
// pages at 100 dpi, each timed, with the process's peak RSS. Target: seconds, not minutes.
// Usage: bench_report [--events 5M] [--keep DIR] [--sections ID,...]

#include "benchimport.h"
#include "kinetotracegen.h"
#include "report/reportbuilder.h"
#include "report/reportdocument.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>

using namespace plumb;
using namespace plumb::bench;

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    tuneAllocator(); // as plumb does
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only"))
        return importOnly(args[2], args[3]);

    int64_t events = 5'000'000;
    QString keep;
    QStringList sections;
    for (int i = 1; i < args.size(); ++i) {
        const bool hasNext = i + 1 < args.size();
        if (args[i] == QStringLiteral("--events") && hasNext) {
            const std::vector<int64_t> s = parseSizes(args[++i]);
            events = s.empty() ? 0 : s.front();
        } else if (args[i] == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (args[i] == QStringLiteral("--sections") && hasNext) {
            sections = args[++i].split(u',', Qt::SkipEmptyParts);
        } else {
            std::fprintf(stderr, "usage: bench_report [--events 5M] [--keep DIR] [--sections ID,...]\n");
            return 2;
        }
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_report", keep, tmp);
    if (dir.isEmpty() || events <= 0)
        return 1;
    const QString trace = dir + QStringLiteral("/report_%1.pt.trace.json").arg(events);
    const QString workspace = dir + QStringLiteral("/report_%1.plumb").arg(events);
    if (!QFileInfo::exists(workspace)) {
        KinetoTraceOptions options;
        options.events = events;
        KinetoTraceStats stats;
        std::string error;
        if (!writeKinetoTrace(trace.toStdString(), options, &stats, &error)) {
            std::fprintf(stderr, "bench_report: %s\n", error.c_str());
            return 1;
        }
        std::printf("trace: %lld events (%lld kernels, %lld steps), %.1f MB\n", (long long)stats.events,
            (long long)stats.kernels, (long long)stats.steps, double(stats.fileBytes) / 1e6);
        ChildImport imported;
        if (!runImportChild("bench_report", trace, workspace, &imported) || !imported.imported) {
            std::fprintf(stderr, "bench_report: the import failed: %s\n", qPrintable(imported.message));
            return 1;
        }
        std::printf("imported in %.2f s\n", imported.seconds);
        QFile::remove(trace);
    }

    ReportOptions options;
    options.sections = sections;
    QElapsedTimer timer;
    timer.start();
    QElapsedTimer stage;
    stage.start();
    QString last;
    Workspace ws(workspace, Workspace::Role::Reader);
    ReportBuild build = buildReport(ws, workspace, options, [&](int, int, const QString &name) {
        if (!last.isEmpty())
            std::printf("  %-45s %7.2f s\n", qPrintable(last), double(stage.nsecsElapsed()) / 1e9);
        last = name;
        stage.restart();
    });
    if (!build.error.isEmpty()) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(build.error));
        return 1;
    }
    const double modelS = double(timer.nsecsElapsed()) / 1e9;
    std::printf("report model: %.2f s (%zu sections)\n", modelS, build.model.sections.size());
    QString error;
    int pages = 0;
    timer.restart();
    if (writeReport(build.model, options, dir + QStringLiteral("/report.pdf"), &error, {}, &pages)
            .isEmpty()) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(error));
        return 1;
    }
    const double pdfS = double(timer.nsecsElapsed()) / 1e9;
    ReportOptions png = options;
    png.dpi = 100;
    timer.restart();
    if (writeReport(build.model, png, dir + QStringLiteral("/report.png"), &error).isEmpty()) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(error));
        return 1;
    }
    const double pngS = double(timer.nsecsElapsed()) / 1e9;
    std::printf("PDF: %d pages in %.2f s; PNG pages at 100 dpi in %.2f s\n", pages, pdfS, pngS);
    std::printf("plumb report -o review.pdf: %.2f s in all; peak RSS %.0f MB\n", modelS + pdfS,
        double(readVmHwmKiB()) / 1024.0);
    return 0;
}
