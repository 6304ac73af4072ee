// SPDX-License-Identifier: GPL-3.0-or-later
// bench_window_verdict: a trace dropped on the window, to its verdict on screen (issue 35). Each run is a
// child process that opens the window on a new workspace (offscreen unless QT_QPA_PLATFORM says
// otherwise), drops the trace (MainWindow::importPaths, what a drop calls) and measures until the import
// has finished and until the Doctor tab has shown the trace's verdict (DoctorPanel::loaded), with the
// process's peak RSS.
//
//   bench_window_verdict [--events 6.8M] [--layers 1000] [--runs 3] [--keep DIR] [--trace FILE]
//   bench_window_verdict --child TRACE WORKSPACE      (internal: one run, one JSON line)
//
// Without --trace a Kineto trace is generated first, as bench_verdict does. Target: under 8 s, peak RSS
// under 300 MB. Informational: exit status 0 whatever the figures.

#include "benchimport.h"
#include "builtinimporters.h"
#include "childrun.h"
#include "doctor/doctorpanel.h"
#include "ingest/importerregistry.h"
#include "mainwindow.h"
#include "util/allocatortuning.h"
#include "verdictsetup.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
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

int child(const QString &trace, const QString &workspace)
{
    QStandardPaths::setTestModeEnabled(true); // the window's settings stay out of the user's
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    MainWindow window(registry, workspace);
    QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
    window.resize(1400, 900);
    window.show();
    if (!loaded.wait(30'000)) {
        std::fprintf(stderr, "bench_window_verdict: the workspace did not open\n");
        return 1;
    }
    QSignalSpy finished(&window, &MainWindow::importFinished);
    QSignalSpy verdict(window.doctorPanel(), &DoctorPanel::loaded);
    QElapsedTimer timer;
    timer.start();
    window.importPaths({ trace });
    if (!finished.wait(600'000)) {
        std::fprintf(stderr, "bench_window_verdict: the import did not finish\n");
        return 1;
    }
    const double imported = double(timer.nsecsElapsed()) / 1e9;
    while (verdict.isEmpty() && timer.elapsed() < 600'000)
        verdict.wait(1000);
    const double shown = double(timer.nsecsElapsed()) / 1e9;
    const DoctorPanel::Result &r = window.doctorPanel()->result();
    if (verdict.isEmpty() || !r.error.isEmpty()) {
        std::fprintf(stderr, "bench_window_verdict: no verdict shown (%s)\n", qPrintable(r.error));
        return 1;
    }
    QJsonObject o;
    o[QStringLiteral("imported_s")] = imported;
    o[QStringLiteral("verdict_s")] = shown;
    o[QStringLiteral("verdict")] = r.verdict.headline;
    o[QStringLiteral("vmhwm_kib")] = double(readVmHwmKiB());
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && QByteArray(argv[1]) == "--child") {
        tuneAllocator(); // as plumb-ui does (app/ui_main.cpp)
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return child(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    }
    QCoreApplication app(argc, argv);
    VerdictSetup v;
    if (const int rc = v.setUp("bench_window_verdict", app.arguments().mid(1), false); rc != 0)
        return rc;
    const int runs = v.runs;
    const QString &trace = v.trace, &dir = v.dir;
    std::vector<double> imported, shown;
    double peakMB = 0;
    for (int i = 0; i < runs; ++i) {
        const QString ws = dir + QStringLiteral("/window.plumb");
        removeWorkspace(ws);
        const ChildRun r
            = runChild(QCoreApplication::applicationFilePath(), { QStringLiteral("--child"), trace, ws });
        removeWorkspace(ws);
        const QJsonObject o
            = QJsonDocument::fromJson(QByteArray::fromStdString(r.output).trimmed().split('\n').last())
                  .object();
        if (!r.ok || o.isEmpty()) {
            std::fprintf(stderr, "bench_window_verdict: run %d failed\n%s\n", i + 1, r.output.c_str());
            return 1;
        }
        imported.push_back(o[QStringLiteral("imported_s")].toDouble());
        shown.push_back(o[QStringLiteral("verdict_s")].toDouble());
        peakMB = std::max(peakMB, double(r.maxRssKiB) / 1024.0);
        std::printf(
            "  run %d: imported after %.2f s, verdict on screen after %.2f s (peak RSS %.0f MB): %s\n", i + 1,
            imported.back(), shown.back(), double(r.maxRssKiB) / 1024.0,
            qPrintable(o[QStringLiteral("verdict")].toString()));
    }
    const double total = median(shown);
    std::printf("median of %d: drop to verdict %.2f s, target 8 s: %s; peak RSS %.0f MB, target 300 MB: %s\n",
        runs, total, verdict(total < 8.0), peakMB, verdict(peakMB < 300.0));
    std::printf(
        "{\"bench\":\"window_verdict\",\"events\":%lld,\"runs\":%d,\"imported_s\":%.3f,\"verdict_s\":%.3f,"
        "\"peak_rss_mb\":%.1f}\n",
        v.events(), runs, median(imported), total, peakMB);
    return 0;
}
