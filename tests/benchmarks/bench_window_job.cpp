// SPDX-License-Identifier: GPL-3.0-or-later
// bench_window_job: a job workspace opened in the window, to its Job tab on screen (issue 36: under 2 s for
// 1,024 ranks). Each run is a child process that starts the window on the workspace (offscreen unless
// QT_QPA_PLATFORM says otherwise) and measures from before MainWindow's construction until the workspace
// is shown (MainWindow::workspaceLoaded) and until the Job tab has drawn the job (JobPanel::loaded, its
// ranks table and heat map filled), with the process's peak RSS.
//
//   bench_window_job --workspace JOB.plumb [--runs 3]
//   bench_window_job --child JOB.plumb       (internal: one run, one JSON line)
//
// A job to open: `bench_merge --ranks 1024 --keep DIR` leaves DIR/job.plumb (and its shards). The job
// workspace is copied for each run, so that nothing the window writes carries over. Informational: exit
// status 0 whatever the figures.

#include "benchimport.h"
#include "builtinimporters.h"
#include "childrun.h"
#include "ingest/importerregistry.h"
#include "job/jobpanel.h"
#include "mainwindow.h"
#include "util/allocatortuning.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace plumb;
using namespace plumb::bench;

namespace {

int child(const QString &workspace)
{
    QStandardPaths::setTestModeEnabled(true); // the window's settings stay out of the user's
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    QElapsedTimer timer;
    timer.start();
    MainWindow window(registry, workspace);
    QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
    QSignalSpy job(window.jobPanel(), &JobPanel::loaded);
    window.resize(1400, 900);
    window.show();
    if (!loaded.wait(60'000)) {
        std::fprintf(stderr, "bench_window_job: the workspace did not open\n");
        return 1;
    }
    const double open = double(timer.nsecsElapsed()) / 1e9;
    while (job.isEmpty() && timer.elapsed() < 120'000)
        job.wait(1000);
    if (job.isEmpty() || !window.jobPanel()->hasJob()) {
        std::fprintf(stderr, "bench_window_job: no job shown\n");
        return 1;
    }
    window.openJob();
    window.repaint(); // the tab drawn, its table and heat map included
    const double shown = double(timer.nsecsElapsed()) / 1e9;
    QJsonObject o;
    o[QStringLiteral("open_s")] = open;
    o[QStringLiteral("job_s")] = shown;
    o[QStringLiteral("ranks")] = qint64(window.jobPanel()->job().ranks.size());
    o[QStringLiteral("verdict")] = window.jobPanel()->job().verdict;
    o[QStringLiteral("vmhwm_kib")] = double(readVmHwmKiB());
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3 && QByteArray(argv[1]) == "--child") {
        plumb::tuneAllocator(); // as plumb-ui does (app/ui_main.cpp)
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return child(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QString workspace;
    int runs = 3;
    for (int i = 1; i < args.size(); ++i) {
        const bool more = i + 1 < args.size();
        if (args[i] == QLatin1String("--workspace") && more)
            workspace = args[++i];
        else if (args[i] == QLatin1String("--runs") && more)
            runs = std::max(1, args[++i].toInt());
        else
            workspace.clear(), i = int(args.size());
    }
    if (workspace.isEmpty() || !QFile::exists(workspace)) {
        std::fprintf(stderr,
            "usage: bench_window_job --workspace JOB.plumb [--runs N]\n"
            "  (bench_merge --ranks 1024 --keep DIR leaves DIR/job.plumb)\n");
        return 2;
    }
    QTemporaryDir tmp;
    std::vector<double> open, shown;
    double peakMB = 0;
    for (int i = 0; i < runs; ++i) {
        const QString copy = tmp.filePath(QStringLiteral("job.plumb"));
        QFile::remove(copy);
        if (!QFile::copy(workspace, copy)) {
            std::fprintf(stderr, "bench_window_job: cannot copy %s\n", qPrintable(workspace));
            return 1;
        }
        const ChildRun r
            = runChild(QCoreApplication::applicationFilePath(), { QStringLiteral("--child"), copy });
        const QJsonObject o
            = QJsonDocument::fromJson(QByteArray::fromStdString(r.output).trimmed().split('\n').last())
                  .object();
        if (!r.ok || o.isEmpty()) {
            std::fprintf(stderr, "bench_window_job: run %d failed\n%s\n", i + 1, r.output.c_str());
            return 1;
        }
        open.push_back(o[QStringLiteral("open_s")].toDouble());
        shown.push_back(o[QStringLiteral("job_s")].toDouble());
        peakMB = std::max(peakMB, double(r.maxRssKiB) / 1024.0);
        std::printf(
            "  run %d: %lld ranks, workspace shown after %.2f s, Job tab after %.2f s (peak RSS %.0f MB)\n",
            i + 1, o[QStringLiteral("ranks")].toInteger(), open.back(), shown.back(),
            double(r.maxRssKiB) / 1024.0);
    }
    const double total = median(shown);
    std::printf("median of %d: the Job tab on screen after %.2f s, target 2 s: %s; peak RSS %.0f MB\n", runs,
        total, total < 2.0 ? "met" : "missed", peakMB);
    std::printf(
        "{\"bench\":\"window_job\",\"runs\":%d,\"open_s\":%.3f,\"job_s\":%.3f,\"peak_rss_mb\":%.1f}\n", runs,
        median(open), total, peakMB);
    return 0;
}
