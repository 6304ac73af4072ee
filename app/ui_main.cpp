// SPDX-License-Identifier: GPL-3.0-or-later
#include "appicon.h"
#include "builtinimporters.h"
#include "calltree/calltreepanel.h"
#include "diff/diffpanel.h"
#include "ingest/importerregistry.h"
#include "job/jobpanel.h"
#include "mainwindow.h"
#include "query/querypanel.h"
#include "shell/welcometour.h"
#include "slo/slopanel.h"
#include "store/workspace.h"
#include "theme.h"
#include "timeline/timelinepanel.h"
#include "ui_report.h"
#include "util/allocatortuning.h"
#include "versioninfo.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kScreenshotSettleMs = 500; // let layouts and the first paint settle before grabbing
constexpr int kTimelineSettleMs = 2500;

// The folder holding the sample sources: the source tree when run from a build, else the installed copy.
QString samplesDir()
{
    const QStringList candidates = {
        QStringLiteral(PLUMB_SAMPLES_DIR),
        QStringLiteral(PLUMB_INSTALLED_SAMPLES_DIR),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/plumb/samples"),
    };
    for (const QString &dir : candidates) {
        if (QFileInfo(dir).isDir())
            return QDir(dir).absolutePath();
    }
    return {};
}

// The sample inputs in that folder (files, and folders of logs such as the sweep's), without the
// scripts that generate them.
QStringList sampleFiles()
{
    const QString dir = samplesDir();
    QStringList files;
    if (dir.isEmpty())
        return files;
    const auto entries = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &info : entries) {
        const QString suffix = info.suffix();
        if (info.isDir()
            || (suffix != QLatin1String("py") && suffix != QLatin1String("md")
                && suffix != QLatin1String("yaml")))
            files << info.absoluteFilePath();
    }
    return files;
}

void removeWorkspaceFiles(const QString &path)
{
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(path + suffix);
}

} // namespace

int main(int argc, char **argv)
{
    plumb::tuneAllocator();
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (argc > 1 && std::strcmp(argv[1], "--report") == 0) // `plumb report ...`, drawn here
        return runReport(argc, argv, arguments.mid(2));
    if (argc > 1 && std::strcmp(argv[1], "--version") == 0) { // answered without a display
        std::printf("%s\n", qPrintable(plumb::versionReport()));
        return 0;
    }

    // The same options are listed by `plumb --help` (cli.cpp), which passes them on.
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Plumb's window. `plumb --help` lists the commands."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption workspaceOption(QStringLiteral("workspace"),
        QStringLiteral("Open (or create) the workspace FILE."), QStringLiteral("FILE"));
    const QCommandLineOption sampleOption(
        QStringLiteral("sample"), QStringLiteral("Rebuild and open the sample workspace."));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Save the window to PNG once the workspace (and any import) is shown, then quit."),
        QStringLiteral("PNG"));
    const QCommandLineOption timelineOption(QStringLiteral("timeline"),
        QStringLiteral("Open the timeline of the selected trace (the last imported one) once it is shown."));
    const QCommandLineOption criticalPathOption(QStringLiteral("critical-path"),
        QStringLiteral(
            "With --timeline: outline the critical path of the trace's second step (or its only one)."));
    const QCommandLineOption callTreeOption(QStringLiteral("call-tree"),
        QStringLiteral("Open the Call Tree tab for the selected trace once it is shown (with --bottom-up: "
                       "its bottom-up tree)."));
    const QCommandLineOption bottomUpOption(
        QStringLiteral("bottom-up"), QStringLiteral("With --call-tree: show the bottom-up tree."));
    const QCommandLineOption doctorOption(QStringLiteral("doctor"),
        QStringLiteral("Open the Doctor tab for the selected trace once it is shown."));
    const QCommandLineOption memoryOption(QStringLiteral("memory"),
        QStringLiteral("Open the Memory tab for the selected trace once it is shown."));
    const QCommandLineOption diffOption(QStringLiteral("diff"),
        QStringLiteral("Open the Diff tab comparing the first two traces imported (else the first "
                       "two in the workspace) once they are shown."));
    const QCommandLineOption experimentsOption(QStringLiteral("experiments"),
        QStringLiteral("Open the Experiments tab once the workspace is shown."));
    const QCommandLineOption lineageOption(
        QStringLiteral("lineage"), QStringLiteral("Open the Lineage tab once the workspace is shown."));
    const QCommandLineOption jobOption(QStringLiteral("job"),
        QStringLiteral("Open the Job tab (a multi-rank job) once the workspace is shown."));
    const QCommandLineOption goodputOption(
        QStringLiteral("goodput"), QStringLiteral("Open the Goodput tab once the workspace is shown."));
    const QCommandLineOption sloOption(
        QStringLiteral("slo"), QStringLiteral("Open the SLO tab once the workspace is shown."));
    const QCommandLineOption queryOption(QStringLiteral("query"),
        QStringLiteral("Open the Query tab and run an example once the workspace is shown."));
    const QCommandLineOption tourOption(
        QStringLiteral("tour"), QStringLiteral("Show the welcome tour once the workspace is shown."));
    const QCommandLineOption noTourOption(QStringLiteral("no-tour"),
        QStringLiteral("Do not show the welcome tour (shown with the sample and on first launch)."));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
        QStringLiteral("Use the system, light or dark palette this time (View > Theme is remembered)."),
        QStringLiteral("system|light|dark"));
    parser.addOptions(
        { workspaceOption, sampleOption, screenshotOption, timelineOption, criticalPathOption, callTreeOption,
            bottomUpOption, doctorOption, memoryOption, diffOption, experimentsOption, lineageOption,
            goodputOption, jobOption, sloOption, queryOption, tourOption, noTourOption, themeOption });
    parser.addPositionalArgument(
        QStringLiteral("paths"), QStringLiteral("Files or folders to import."), QStringLiteral("[PATH...]"));
    // Parsed before QApplication exists, so that a usage error is reported even without a display.
    if (!parser.parse(arguments)) {
        std::fprintf(
            stderr, "plumb-ui: %s\nRun `plumb-ui --help` for the options.\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(helpOption)) {
        // Asked before QApplication exists (no display needed), when Qt does not know the program's name yet.
        std::fputs(qPrintable(parser.helpText().replace(
                       QLatin1String("<executable_name>"), QLatin1String("plumb-ui"))),
            stdout);
        return 0;
    }
    const std::optional<plumb::Theme> theme
        = parser.isSet(themeOption) ? plumb::parseTheme(parser.value(themeOption)) : std::nullopt;
    if (parser.isSet(themeOption) && !theme) {
        std::fprintf(stderr, "plumb: --theme takes system, light or dark, not %s\n",
            qPrintable(parser.value(themeOption)));
        return 2;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Plumb"));
    QApplication::setApplicationName(QStringLiteral("Plumb"));
    QApplication::setApplicationVersion(QStringLiteral(PLUMB_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(PLUMB_APP_ID));
    QApplication::setWindowIcon(plumb::appIcon());
    plumb::applyTheme(theme.value_or(plumb::savedTheme()));

    plumb::ImporterRegistry registry;
    plumb::registerBuiltinImporters(registry);

    QStringList toImport;
    for (const QString &p : parser.positionalArguments())
        toImport << QFileInfo(p).absoluteFilePath();

    QString workspacePath;
    bool withSample = false;
    if (parser.isSet(sampleOption)) {
        workspacePath
            = QFileInfo(plumb::Workspace::defaultPath()).absolutePath() + QStringLiteral("/sample.plumb");
        removeWorkspaceFiles(workspacePath);
        toImport = sampleFiles() + toImport;
        withSample = true;
    } else if (parser.isSet(workspaceOption)) {
        workspacePath = QFileInfo(parser.value(workspaceOption)).absoluteFilePath();
    } else {
        workspacePath = plumb::Workspace::defaultPath();
        if (!QFileInfo::exists(workspacePath)) {
            toImport = sampleFiles() + toImport; // first launch: start from something to look at
            withSample = true;
        }
    }

    plumb::MainWindow window(registry, workspacePath);
    window.setVersionReport(plumb::versionReport());
    // The sample's objectives (sample_objectives.yaml) when the sample is imported, or nothing was chosen.
    const QString sampleObjectives = samplesDir() + QStringLiteral("/sample_objectives.yaml");
    if ((withSample || window.sloPanel()->objectivesFile().isEmpty()) && QFileInfo::exists(sampleObjectives))
        window.sloPanel()->setObjectivesFile(sampleObjectives);
    window.show();
    if (!toImport.isEmpty())
        window.importPaths(toImport);

    const bool timeline = parser.isSet(timelineOption), doctor = parser.isSet(doctorOption),
               diff = parser.isSet(diffOption), experiments = parser.isSet(experimentsOption),
               lineage = parser.isSet(lineageOption), goodput = parser.isSet(goodputOption),
               slo = parser.isSet(sloOption), critical = parser.isSet(criticalPathOption),
               job = parser.isSet(jobOption), memory = parser.isSet(memoryOption),
               query = parser.isSet(queryOption), callTree = parser.isSet(callTreeOption),
               bottomUp = parser.isSet(bottomUpOption);
    // The tour comes with the sample and the first launch, unless declined; a screenshot shows it only when
    // asked.
    const bool tour = parser.isSet(tourOption)
        || (withSample && !parser.isSet(noTourOption) && !parser.isSet(screenshotOption)
            && plumb::WelcomeTour::shouldShow());
    auto shown = [&] { // runs in app.exec(), while these locals live
        if (job)
            QObject::connect(
                window.jobPanel(), &plumb::JobPanel::loaded, &window, [&window] { window.openJob(); },
                Qt::SingleShotConnection);
        if (goodput)
            window.openGoodput();
        if (slo)
            window.openSlo();
        if (experiments)
            window.openExperiments();
        if (lineage)
            window.openLineage();
        // The selected trace, else the first one (after --sample the selection is a serving run, no trace).
        const QList<int64_t> all = window.traceIds();
        const int64_t trace = window.currentTraceId() >= 0 ? window.currentTraceId()
            : all.isEmpty()                                ? -1
                                                           : all.front();
        if (timeline && trace >= 0) {
            window.openTimeline(trace);
            if (critical)
                window.timelinePanel()->setCriticalPathShown(true);
        }
        if (callTree && trace >= 0) {
            window.openCallTree(trace);
            window.callTreePanel()->setBottomUp(bottomUp);
        }
        if (doctor && trace >= 0)
            window.openDoctor(trace);
        if (memory && trace >= 0)
            window.openMemory(trace);
        if (diff) {
            QList<int64_t> ids = window.lastImportedTraceIds();
            if (ids.size() < 2)
                ids = window.traceIds();
            if (ids.size() >= 2)
                window.openDiff(ids[0], ids[1]);
            else
                std::fprintf(
                    stderr, "plumb: --diff needs two traces; import them with it (plumb --diff A B)\n");
        }
        if (tour)
            window.showWelcomeTour();
    };
    if (toImport.isEmpty())
        QObject::connect(
            &window, &plumb::MainWindow::workspaceLoaded, &window, shown, Qt::SingleShotConnection);
    else
        QObject::connect(
            &window, &plumb::MainWindow::importFinished, &window, shown, Qt::SingleShotConnection);
    // --query: the kernels of the traces, or without traces the runs' final loss against their lr.
    auto runExample = [&window] {
        window.openQuery();
        window.queryPanel()->setSql(
            plumb::QueryPanel::examples().at(window.traceIds().isEmpty() ? 2 : 0).sql);
        window.queryPanel()->run();
    };
    if (query && toImport.isEmpty())
        QObject::connect(
            &window, &plumb::MainWindow::workspaceLoaded, &window, runExample, Qt::SingleShotConnection);
    else if (query)
        QObject::connect(
            &window, &plumb::MainWindow::importFinished, &window, runExample, Qt::SingleShotConnection);

    if (parser.isSet(screenshotOption)) {
        const QString file = parser.value(screenshotOption);
        // The timeline reads its tracks and first window on worker threads: give it time to draw.
        const int settleMs = timeline || doctor ? kTimelineSettleMs : kScreenshotSettleMs;
        auto grab = [&window, file] {
            const bool saved = window.grab().save(file);
            if (!saved)
                std::fprintf(stderr, "plumb: could not write %s\n", qPrintable(file));
            QCoreApplication::exit(saved ? 0 : 1);
        };
        auto grabAndQuit = [&window, grab, settleMs, diff, experiments, lineage, goodput, slo, job, memory,
                               query, callTree] {
            // The experiments' runs and scalars, the lineage, the goodput, the memory, the objectives,
            // the query and the call tree are read on workers: give them time.
            if (experiments || lineage || goodput || slo || job || memory || query || callTree)
                QTimer::singleShot(kTimelineSettleMs, &window, grab);
            // The diff reads two traces on a worker: grab once it has shown them.
            else if (diff && window.diffPanel()->baselineId() >= 0)
                QObject::connect(
                    window.diffPanel(), &plumb::DiffPanel::loaded, &window,
                    [&window, grab] { QTimer::singleShot(kScreenshotSettleMs, &window, grab); },
                    Qt::SingleShotConnection);
            else
                QTimer::singleShot(settleMs, &window, grab);
        };
        if (toImport.isEmpty())
            QObject::connect(
                &window, &plumb::MainWindow::workspaceLoaded, &window, grabAndQuit, Qt::SingleShotConnection);
        else
            QObject::connect(
                &window, &plumb::MainWindow::importFinished, &window, grabAndQuit, Qt::SingleShotConnection);
        QObject::connect(
            &window, &plumb::MainWindow::workspaceLoadFailed, &window, [] { QCoreApplication::exit(1); });
    }
    return app.exec();
}
