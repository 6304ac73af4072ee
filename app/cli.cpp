// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_check.h"
#include "cli_goodput.h"
#include "cli_report.h"

#include "analysis/configdiff.h"
#include "analysis/doctorreport.h"
#include "analysis/hostanalysis.h"
#include "analysis/idlebreakdown.h"
#include "analysis/kerneltable.h"
#include "analysis/memcpystats.h"
#include "analysis/rankcomparison.h"
#include "analysis/stepbreakdown.h"
#include "analysis/temporalbreakdown.h"
#include "analysis/tracediff.h"
#include "analysis/verdict.h"
#include "builtinimporters.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "ingest/importoptions.h"
#include "ingest/importrunner.h"
#include "store/experimentreader.h"
#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "store/workspacereader.h"
#include "text/textformat.h"
#include "timeline/timescale.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTime>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <unistd.h>

using namespace plumb;

namespace {

constexpr const char *kUsage
    = "Usage: plumb [OPTIONS] [PATH...]            open the main window (importing PATHs)\n"
      "       plumb import PATH... [--workspace FILE] [--json] [--jobs N] [--watch [--interval SECONDS]]\n"
      "                                            import files and folders into the workspace;\n"
      "                                            --watch: then keep importing what is added or\n"
      "                                            appended to them (every 2 s) until Ctrl+C;\n"
      "                                            --jobs: traces read at once (default: half the\n"
      "                                            cores; the ranks of a job import in parallel)\n"
      "         CSV/JSONL metric logs: --step-column NAME, --time-column NAME, --run-column NAME,\n"
      "         --long KEY-COLUMN,VALUE-COLUMN, --column NAME=ROLE (run, step, time, key, value,\n"
      "         metric, param, ignore; request logs: latency, ttft, itl, tokens_in, tokens_out,\n"
      "         status, model, endpoint) set column roles instead of the detected ones\n"
      "       plumb ls [--workspace FILE] [--json] [--diagnostics]\n"
      "                                            list the workspace's runs, traces and sources\n"
      "       plumb doctor [TRACE-ID...] [--mode every|linked|hta] [--workspace FILE] [--json]\n"
      "                                            where each trace's GPU time goes (every trace when\n"
      "                                            none is given; linked: only ops the traced program\n"
      "                                            launched; hta: as Holistic Trace Analysis counts)\n"
      "       plumb diff BASELINE-ID TRACE-ID [--mode every|linked|hta] [--workspace FILE] [--json]\n"
      "                                            what changed between two traces: per step when both\n"
      "                                            have steps, split by category and by GPU op\n"
      "       plumb diff --config RUN RUN [RUN...] [--all] [--workspace FILE] [--json]\n"
      "                                            experiment runs (ids or names) side by side: the\n"
      "                                            params, tags and environment that differ (--all:\n"
      "                                            every row), each metric's last value and change\n"
      "                                            from the first run\n"
      "       plumb lineage NODE [--up|--down] [--depth N] [--workspace FILE] [--json]\n"
      "                                            what a lineage node (id, key or name) was made\n"
      "                                            from (--up), what was made from it (--down), or\n"
      "                                            both (default), N edges deep (default 5)\n"
      "       plumb goodput [RUN] [--workspace FILE] [--json] [--flops-per-step N --peak-flops N]\n"
      "                     [--interval SECONDS]   how much of a job's time was productive training\n"
      "                                            (goodput) and where the rest went (badput), from\n"
      "                                            its lifecycle log or its logged steps' wall times\n"
      "       plumb check --objectives FILE [--run RUN] [--baseline RUN] [--json] [--junit FILE]\n"
      "             [--allow-missing] [--workspace FILE]\n"
      "                                            evaluate serving and metric objectives (a YAML or\n"
      "                                            JSON file); exit 0 when all hold, 1 when one is\n"
      "                                            broken or has no data, 2 on bad input\n"
      "       plumb report [--runs RUN,...] [--baseline RUN] [--sections ID,...] [--title TEXT]\n"
      "                    [--author TEXT] [--template FILE] [--page-size A4|Letter] [--dpi N]\n"
      "                    [--workspace FILE] -o review.pdf|review.png\n"
      "                                            a review report: title page, contents, executive\n"
      "                                            summary, the sections asked for (steps, idle,\n"
      "                                            kernels, timeline, ranks, diff, metrics, importance,\n"
      "                                            config, lineage, diagnostics); .png: one file a page\n"
      "       plumb --version                      the versions of Plumb and its libraries\n"
      "\n"
      "The workspace is FILE, else $PLUMB_WORKSPACE, else the default one in your data folder\n"
      "(~/.local/share/Plumb/default.plumb).\n"
      "\n"
      "GUI options:\n"
      "  --workspace FILE    open (or create) the workspace FILE instead of the default one\n"
      "  --sample            rebuild and open the sample workspace (<AppData>/Plumb/sample.plumb)\n"
      "  --timeline          open the timeline of the selected trace (the last imported one)\n"
      "  --doctor            open the Doctor tab for the selected trace (the last imported one)\n"
      "  --diff              open the Diff tab for the first two traces imported (else the first\n"
      "                      two in the workspace), the first as the baseline\n"
      "  --experiments       open the Experiments tab\n"
      "  --lineage           open the Lineage tab (the newest model, or search a node there)\n"
      "  --goodput           open the Goodput tab (the newest job with a lifecycle log)\n"
      "  --slo               open the SLO tab (the last objectives file opened there, else the sample's)\n"
      "  --tour, --no-tour   show (or do not show) the welcome tour; it comes with --sample and the\n"
      "                      first launch unless \"Don't show again\" was ticked\n"
      "  --theme system|light|dark  this time's palette (View > Theme chooses and remembers one)\n"
      "  --screenshot PNG    save the window to PNG once the workspace (and any import) is shown,\n"
      "                      then quit\n"
      "\n";

// After the formats (formatsHelp()).
constexpr const char *kUsageExitStatus
    = "Exit status: 0 on success; 1 when a file failed or was cancelled, when none of the files given\n"
      "could be recognised, or when the workspace cannot be used; 2 on a usage error.\n";

// "Formats, recognised by content: ..." with every importer of this build, wrapped between names.
QString formatsHelp()
{
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    QStringList words { QStringLiteral("Formats, recognised by content:") };
    for (const auto &importer : registry.importers())
        words << importer->displayName() + QLatin1Char(',');
    words.back().chop(1);
    words.back() += QStringLiteral("; folders are walked.");
    constexpr qsizetype kWidth = 96;
    QString out, line;
    for (const QString &w : words) {
        if (!line.isEmpty() && line.size() + 1 + w.size() > kWidth) {
            out += line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + w;
    }
    return out + line + QStringLiteral("\n\n");
}

QString modeName(GpuOpMode mode)
{
    switch (mode) {
    case GpuOpMode::EveryOp:
        return QStringLiteral("every");
    case GpuOpMode::LinkedOnly:
        return QStringLiteral("linked");
    case GpuOpMode::Hta:
        return QStringLiteral("hta");
    }
    return {};
}

struct Args {
    QString command;
    QStringList paths;
    QString workspace;
    bool json = false;
    bool diagnostics = false;
    GpuOpMode mode = GpuOpMode::EveryOp; // doctor/diff --mode
    ImportOptions importOptions; // import: --step-column and the other column roles
    bool config = false; // diff --config: experiment runs, not traces
    bool allRows = false; // diff --config --all
    LineageDirection lineageDirection = LineageDirection::Both; // lineage --up / --down
    int lineageDepth = 5; // lineage --depth
    bool watch = false; // import --watch: live mode
    int intervalMs = 2000; // import --watch --interval
    int jobs = 0; // import --jobs (0: half the cores)
    QString error;
};

Args parse(int argc, char **argv)
{
    Args a;
    a.command = QString::fromLocal8Bit(argv[1]);
    for (int i = 2; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--workspace") || arg == QLatin1String("-w")) {
            if (i + 1 >= argc) {
                a.error = QStringLiteral("--workspace needs a FILE");
                return a;
            }
            a.workspace = QString::fromLocal8Bit(argv[++i]);
        } else if (arg.startsWith(QLatin1String("--workspace="))) {
            a.workspace = arg.mid(12);
        } else if (arg == QLatin1String("--json")) {
            a.json = true;
        } else if (arg == QLatin1String("--diagnostics") && a.command == QLatin1String("ls")) {
            a.diagnostics = true;
        } else if (arg == QLatin1String("--config") && a.command == QLatin1String("diff")) {
            a.config = true;
        } else if (arg == QLatin1String("--all") && a.command == QLatin1String("diff")) {
            a.allRows = true;
        } else if (arg == QLatin1String("--mode")
            && (a.command == QLatin1String("doctor") || a.command == QLatin1String("diff"))) {
            const QString mode = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]) : QString();
            if (mode == QLatin1String("every")) {
                a.mode = GpuOpMode::EveryOp;
            } else if (mode == QLatin1String("linked")) {
                a.mode = GpuOpMode::LinkedOnly;
            } else if (mode == QLatin1String("hta")) {
                a.mode = GpuOpMode::Hta;
            } else {
                a.error = QStringLiteral("--mode is every, linked or hta");
                return a;
            }
        } else if ((arg == QLatin1String("--up") || arg == QLatin1String("--down"))
            && a.command == QLatin1String("lineage")) {
            a.lineageDirection = arg == QLatin1String("--up") ? LineageDirection::Up : LineageDirection::Down;
        } else if (arg == QLatin1String("--depth") && a.command == QLatin1String("lineage")) {
            bool ok = false;
            a.lineageDepth = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toInt(&ok) : 0;
            if (!ok || a.lineageDepth < 1 || a.lineageDepth > 1000) {
                a.error = QStringLiteral("--depth needs a number of edges from 1 to 1000, e.g. --depth 3");
                return a;
            }
        } else if (arg == QLatin1String("--watch") && a.command == QLatin1String("import")) {
            a.watch = true;
        } else if (arg == QLatin1String("--jobs") && a.command == QLatin1String("import")) {
            bool ok = false;
            a.jobs = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toInt(&ok) : 0;
            if (!ok || a.jobs < 1 || a.jobs > 256) {
                a.error = QStringLiteral(
                    "--jobs needs the number of traces read at once, 1 to 256, e.g. --jobs 4");
                return a;
            }
        } else if (arg == QLatin1String("--interval") && a.command == QLatin1String("import")) {
            bool ok = false;
            const double s = i + 1 < argc ? QString::fromLocal8Bit(argv[++i]).toDouble(&ok) : 0;
            if (!ok || !(s >= 0.05 && s <= 3600)) {
                a.error = QStringLiteral("--interval needs SECONDS between 0.05 and 3600, e.g. --interval 5");
                return a;
            }
            a.intervalMs = int(std::lround(s * 1000));
        } else if (a.command == QLatin1String("import")
            && (arg == QLatin1String("--step-column") || arg == QLatin1String("--time-column")
                || arg == QLatin1String("--run-column") || arg == QLatin1String("--long")
                || arg == QLatin1String("--column"))) {
            if (i + 1 >= argc) {
                a.error = QStringLiteral("%1 needs a column name").arg(arg);
                return a;
            }
            const QString value = QString::fromLocal8Bit(argv[++i]);
            TabularOverrides &t = a.importOptions.tabular;
            if (arg == QLatin1String("--step-column")) {
                t.stepColumn = value;
            } else if (arg == QLatin1String("--time-column")) {
                t.timeColumn = value;
            } else if (arg == QLatin1String("--run-column")) {
                t.runColumn = value;
            } else if (arg == QLatin1String("--long")) {
                const QStringList kv = value.split(QLatin1Char(','));
                if (kv.size() != 2 || kv[0].isEmpty() || kv[1].isEmpty()) {
                    a.error = QStringLiteral("--long needs KEY-COLUMN,VALUE-COLUMN, e.g. --long key,value");
                    return a;
                }
                t.keyColumn = kv[0];
                t.valueColumn = kv[1];
            } else {
                const qsizetype eq = value.lastIndexOf(QLatin1Char('='));
                const auto role = eq > 0 ? roleFromName(value.mid(eq + 1)) : std::nullopt;
                if (!role) {
                    a.error
                        = QStringLiteral("--column needs NAME=ROLE, ROLE one of run, step, time, key, value, "
                                         "metric, param, ignore, or for request logs latency, ttft, itl, "
                                         "tokens_in, tokens_out, status, model, endpoint");
                    return a;
                }
                t.roles.emplace_back(value.left(eq), *role);
            }
        } else if (arg.startsWith(QLatin1String("--"))) {
            a.error = QStringLiteral("unknown option %1").arg(arg);
            return a;
        } else {
            a.paths << arg;
        }
    }
    if (a.workspace.isEmpty())
        a.workspace = qEnvironmentVariable("PLUMB_WORKSPACE");
    if (a.workspace.isEmpty())
        a.workspace = Workspace::defaultPath();
    return a;
}

void out(const QString &s)
{
    std::fputs(s.toLocal8Bit().constData(), stdout);
}

void err(const QString &s)
{
    std::fputs(QString(QStringLiteral("plumb: ") + s + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

// Prints one import's results (stdout, failures to stderr) and returns the number of files that
// failed or were cancelled, and of those nobody recognised. In live mode (`live`) each line carries
// the time, JSON is one object a line, and files with nothing new are not mentioned.
struct ImportTally {
    int bad = 0;
    int unrecognised = 0;
};

ImportTally printResults(const Args &a, const std::vector<FileImportResult> &results, bool live)
{
    using S = FileImportResult::Status;
    ImportTally t;
    QJsonArray files;
    const QString when = live ? QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) : QString();
    for (const auto &r : results) {
        if (r.status == S::Failed || r.status == S::Cancelled)
            ++t.bad;
        if (r.status == S::Unrecognised)
            ++t.unrecognised;
        if (live && r.status == S::AlreadyImported)
            continue;
        if (a.json) {
            QJsonObject o;
            o[QStringLiteral("path")] = r.path;
            o[QStringLiteral("status")] = statusName(r.status);
            o[QStringLiteral("format")] = r.format;
            o[QStringLiteral("message")] = r.message;
            if (!r.location.isEmpty())
                o[QStringLiteral("location")] = r.location;
            o[QStringLiteral("source_id")] = qint64(r.sourceId);
            o[QStringLiteral("records")] = qint64(r.records);
            o[QStringLiteral("skipped")] = qint64(r.skipped);
            o[QStringLiteral("seconds")] = r.seconds;
            if (live) {
                o[QStringLiteral("time")] = when.trimmed();
                out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
            } else {
                files.append(o);
            }
            continue;
        }
        const QString line = QStringLiteral("%1%2: %3 (%4)%5 [%6 s]\n")
                                 .arg(when, r.path, statusName(r.status), r.message,
                                     r.location.isEmpty() ? QString() : QStringLiteral(" at ") + r.location)
                                 .arg(r.seconds, 0, 'f', 2);
        if (r.status == S::Failed || r.status == S::Unrecognised || r.status == S::Cancelled)
            std::fputs(line.toLocal8Bit().constData(), stderr);
        else
            out(line);
    }
    if (live) {
        std::fflush(stdout);
        return t;
    }
    if (a.json) {
        QJsonObject root;
        root[QStringLiteral("workspace")] = QFileInfo(a.workspace).absoluteFilePath();
        root[QStringLiteral("files")] = files;
        out(QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented)));
    } else {
        out(QStringLiteral("workspace: %1\n").arg(QFileInfo(a.workspace).absoluteFilePath()));
        if (t.bad + t.unrecognised)
            err(QStringLiteral("%1 of %2 files were not imported (see above); `plumb ls --diagnostics` shows "
                               "what was odd in the imported ones")
                    .arg(t.bad + t.unrecognised)
                    .arg(results.size()));
    }
    return t;
}

// Set by SIGINT/SIGTERM during `plumb import --watch`: the import in progress is cancelled (its file
// rolled back, as any cancel) and the watch ends.
ImportRunner *volatile g_watchedRunner = nullptr;
volatile std::sig_atomic_t g_stopWatching = 0;

extern "C" void onStopSignal(int)
{
    g_stopWatching = 1;
    if (ImportRunner *r = g_watchedRunner)
        r->cancel(); // an atomic store
}

// Live mode: the watcher's first look imports what is there, each later one what appeared or grew
// (a grown event file continues from where its last import stopped). Runs until Ctrl+C.
int runWatch(const Args &a, const ImporterRegistry &registry, ImportRunner &runner)
{
    FolderWatcher watcher;
    watcher.setHiddenFolders(registry.hiddenFolders());
    watcher.setIntervalMs(a.intervalMs);
    int failures = 0;
    bool workspaceError = false;
    QObject::connect(&watcher, &FolderWatcher::filesChanged, [&](const QStringList &changed) {
        if (g_stopWatching)
            return;
        try {
            const auto results = runner.run(registry.importPathsFor(changed));
            failures += printResults(a, results, true).bad;
        } catch (const SqlError &e) {
            err(QStringLiteral("cannot use the workspace %1: %2").arg(a.workspace, e.message()));
            workspaceError = true;
            QCoreApplication::exit(1);
        }
    });
    QTimer stopCheck;
    QObject::connect(&stopCheck, &QTimer::timeout, [] {
        if (g_stopWatching)
            QCoreApplication::quit();
    });
    stopCheck.start(100);
    g_watchedRunner = &runner;
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    if (!a.json)
        err(QStringLiteral("watching %1 for new data every %2 s into %3 (Ctrl+C stops)")
                .arg(a.paths.join(QStringLiteral(", ")))
                .arg(a.intervalMs / 1000.0)
                .arg(QFileInfo(a.workspace).absoluteFilePath()));
    watcher.watch(a.paths);
    QCoreApplication::exec();
    g_watchedRunner = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!a.json)
        err(QStringLiteral("stopped watching; %1 import(s) failed").arg(failures));
    return workspaceError ? 1 : 0;
}

int runImport(const Args &a)
{
    if (a.paths.isEmpty()) {
        err(QStringLiteral(
            "import needs at least one file or folder, e.g. plumb import trace.pt.trace.json.gz"));
        return 2;
    }
    for (const QString &p : a.paths) {
        if (!QFileInfo::exists(p)) {
            err(QStringLiteral("%1 does not exist; nothing was imported").arg(p));
            return 1;
        }
    }
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    ImportRunner runner(registry, a.workspace);
    runner.setOptions(a.importOptions);
    runner.setJobs(a.jobs);
    if (a.watch)
        return runWatch(a, registry, runner);
    const bool tty = isatty(fileno(stderr)) && !a.json;
    if (tty) {
        runner.setProgressCallback([](const ImportProgress &p) {
            std::fprintf(stderr, "\r\033[K[%d/%d] %s %3.0f%%", p.fileIndex + 1, std::max(p.fileCount, 1),
                qPrintable(p.stage), p.fraction * 100);
            std::fflush(stderr);
        });
    }
    std::vector<FileImportResult> results;
    try {
        results = runner.run(a.paths);
    } catch (const SqlError &e) {
        if (tty)
            std::fputs("\r\033[K", stderr);
        err(QStringLiteral("cannot use the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
    if (tty)
        std::fputs("\r\033[K", stderr);

    // Failures and cancels fail the command; files nobody recognises are reported, and fail it only
    // when nothing else was there (a folder with a stray README is fine, a lone .csv is not).
    const ImportTally t = printResults(a, results, false);
    const bool nothingRecognised = !results.empty() && t.unrecognised == int(results.size());
    return t.bad || nothingRecognised ? 1 : 0;
}

int runLs(const Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import something first (plumb import trace.json) or pass "
                           "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        WorkspaceReader reader(ws);
        const auto summary = reader.summary();
        const auto runs = reader.runs();
        const auto sources = reader.sources();
        const auto diagnostics = reader.diagnostics();
        std::map<int64_t, ExperimentRunInfo> logs; // experiment-log contents by run id
        for (const auto &e : ExperimentReader(ws).runs())
            logs.emplace(e.id, e);
        const LineageReader::Counts lineage = LineageReader(ws).counts();
        const bool hasLineage = lineage.artifacts + lineage.executions + lineage.contexts > 0;
        if (a.json) {
            QJsonObject root;
            root[QStringLiteral("workspace")] = summary.path;
            root[QStringLiteral("schema_version")] = summary.schemaVersion;
            root[QStringLiteral("size_bytes")] = qint64(summary.fileBytes);
            QJsonArray jr;
            for (const auto &r : runs) {
                QJsonObject o;
                o[QStringLiteral("id")] = qint64(r.id);
                o[QStringLiteral("name")] = r.name;
                QJsonArray jt;
                for (const auto &t : r.traces) {
                    QJsonObject x;
                    x[QStringLiteral("id")] = qint64(t.id);
                    x[QStringLiteral("name")] = t.name;
                    x[QStringLiteral("format")] = t.format;
                    x[QStringLiteral("source_id")] = qint64(t.sourceId);
                    if (t.rank >= 0)
                        x[QStringLiteral("rank")] = qint64(t.rank);
                    if (t.worldSize >= 0)
                        x[QStringLiteral("world_size")] = qint64(t.worldSize);
                    x[QStringLiteral("duration_ns")] = qint64(t.endNs - t.startNs);
                    x[QStringLiteral("events")] = qint64(t.events);
                    x[QStringLiteral("slices")] = qint64(t.slices);
                    x[QStringLiteral("kernels")] = qint64(t.kernels);
                    x[QStringLiteral("gpu_ops")] = qint64(t.gpuOps);
                    x[QStringLiteral("flows")] = qint64(t.flows);
                    x[QStringLiteral("counters")] = qint64(t.counters);
                    x[QStringLiteral("tracks")] = qint64(t.tracks);
                    x[QStringLiteral("gpu_streams")] = qint64(t.gpuStreams);
                    x[QStringLiteral("devices")] = t.devices;
                    jt.append(x);
                }
                o[QStringLiteral("traces")] = jt;
                if (auto it = logs.find(r.id); it != logs.end()) {
                    const ExperimentRunInfo &e = it->second;
                    QJsonObject x;
                    x[QStringLiteral("path")] = e.path;
                    x[QStringLiteral("scalar_tags")] = qint64(e.scalarTags);
                    x[QStringLiteral("points")] = qint64(e.scalarPoints);
                    x[QStringLiteral("histogram_tags")] = qint64(e.histogramTags);
                    x[QStringLiteral("histograms")] = qint64(e.histograms);
                    x[QStringLiteral("params")] = qint64(e.params);
                    x[QStringLiteral("restarts")] = qint64(e.restarts);
                    if (!e.status.isEmpty())
                        x[QStringLiteral("status")] = e.status;
                    if (!e.groupName.isEmpty())
                        x[QStringLiteral("group")] = e.groupName;
                    if (e.parentRunId >= 0)
                        x[QStringLiteral("trial_run_id")] = qint64(e.parentRunId);
                    o[QStringLiteral("logs")] = x;
                }
                jr.append(o);
            }
            root[QStringLiteral("runs")] = jr;
            QJsonArray js;
            for (const auto &s : sources) {
                QJsonObject o;
                o[QStringLiteral("id")] = qint64(s.id);
                o[QStringLiteral("path")] = s.path;
                o[QStringLiteral("format")] = s.format;
                o[QStringLiteral("status")] = s.status;
                o[QStringLiteral("size_bytes")] = qint64(s.sizeBytes);
                o[QStringLiteral("records")] = qint64(s.events);
                o[QStringLiteral("skipped")] = qint64(s.skipped);
                o[QStringLiteral("diagnostics")] = qint64(s.diagnostics);
                js.append(o);
            }
            root[QStringLiteral("sources")] = js;
            if (hasLineage) {
                QJsonObject o;
                o[QStringLiteral("artifacts")] = qint64(lineage.artifacts);
                o[QStringLiteral("executions")] = qint64(lineage.executions);
                o[QStringLiteral("contexts")] = qint64(lineage.contexts);
                o[QStringLiteral("edges")] = qint64(lineage.edges);
                o[QStringLiteral("links")] = qint64(lineage.links);
                root[QStringLiteral("lineage")] = o;
            }
            if (a.diagnostics) {
                QJsonArray jd;
                for (const auto &d : diagnostics) {
                    QJsonObject o;
                    o[QStringLiteral("source_id")] = qint64(d.sourceId);
                    o[QStringLiteral("severity")] = d.severity;
                    o[QStringLiteral("code")] = d.code;
                    o[QStringLiteral("location")] = d.location;
                    o[QStringLiteral("count")] = qint64(d.count);
                    o[QStringLiteral("message")] = d.message;
                    jd.append(o);
                }
                root[QStringLiteral("diagnostics")] = jd;
            }
            out(QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented)));
            return 0;
        }
        out(QStringLiteral("Workspace %1 (%2, schema %3)\n\n")
                .arg(summary.path, text::bytes(summary.fileBytes))
                .arg(summary.schemaVersion));
        if (runs.isEmpty() && !hasLineage)
            out(QStringLiteral("No runs yet: plumb import PATH... adds traces and experiment logs.\n"));
        if (hasLineage)
            out(QStringLiteral("lineage  %1\n").arg(lineage.summary()));
        for (const auto &r : runs) {
            out(QStringLiteral("run %1  %2\n").arg(r.id).arg(r.name));
            for (const auto &t : r.traces) {
                const QString rank
                    = t.rank >= 0 ? QStringLiteral("rank %1/%2  ").arg(t.rank).arg(t.worldSize) : QString();
                out(QStringLiteral("  trace %1  %2  %3%4, %5, %6, %7, %8, %9%10\n")
                        .arg(t.id)
                        .arg(t.name, rank)
                        .arg(text::counted(t.events, QStringLiteral("event"), QStringLiteral("events")),
                            text::counted(t.kernels, QStringLiteral("kernel"), QStringLiteral("kernels")),
                            text::counted(t.gpuOps, QStringLiteral("GPU op"), QStringLiteral("GPU ops")),
                            text::counted(t.flows, QStringLiteral("flow"), QStringLiteral("flows")),
                            text::counted(t.gpuStreams, QStringLiteral("stream"), QStringLiteral("streams")))
                        .arg(formatDuration(t.endNs - t.startNs))
                        .arg(t.devices.isEmpty() ? QString() : QStringLiteral(", ") + t.devices));
            }
            if (auto it = logs.find(r.id); it != logs.end()) {
                const ExperimentRunInfo &e = it->second;
                QStringList parts;
                parts << QStringLiteral("%1 (%2)").arg(
                    text::counted(e.scalarTags, QStringLiteral("scalar tag"), QStringLiteral("scalar tags")),
                    text::counted(e.scalarPoints, QStringLiteral("point"), QStringLiteral("points")));
                if (e.histogramTags)
                    parts << QStringLiteral("%1 (%2)").arg(
                        text::counted(e.histogramTags, QStringLiteral("histogram tag"),
                            QStringLiteral("histogram tags")),
                        text::count(e.histograms));
                if (e.params)
                    parts << text::counted(e.params, QStringLiteral("param"), QStringLiteral("params"));
                if (e.restarts)
                    parts << text::counted(e.restarts, QStringLiteral("restart"), QStringLiteral("restarts"));
                if (!e.status.isEmpty())
                    parts << QStringLiteral("status %1").arg(e.status);
                if (e.parentRunId >= 0)
                    parts << QStringLiteral("in trial run %1").arg(e.parentRunId);
                out(QStringLiteral("  logs  %1\n").arg(parts.join(QStringLiteral(", "))));
            }
        }
        out(QStringLiteral("\nsources\n"));
        for (const auto &s : sources) {
            out(QStringLiteral("  %1  %2  %3  %4  %5  %6%7%8\n")
                    .arg(s.id)
                    .arg(s.name, s.format, text::bytes(s.sizeBytes), s.status,
                        text::counted(s.events, QStringLiteral("record"), QStringLiteral("records")),
                        s.skipped ? QStringLiteral(", %1 skipped").arg(text::count(s.skipped)) : QString(),
                        s.diagnostics ? QStringLiteral(", ")
                                + text::counted(s.diagnostics, QStringLiteral("diagnostic"),
                                    QStringLiteral("diagnostics"))
                                      : QString()));
        }
        if (a.diagnostics) {
            out(QStringLiteral("\ndiagnostics\n"));
            for (const auto &d : diagnostics)
                out(QStringLiteral("  [%1] %2 %3 x%4 at %5: %6\n")
                        .arg(d.sourceName, d.severity, d.code)
                        .arg(d.count)
                        .arg(d.location.isEmpty() ? QStringLiteral("-") : d.location, d.message));
        }
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}

int runDoctor(const Args &a)
{
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import a trace first (plumb import trace.json) or pass "
                           "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        std::vector<std::pair<int64_t, QString>> traces;
        SqliteStmt st(ws.db(), "SELECT id, name FROM trace ORDER BY id");
        while (st.step())
            traces.emplace_back(st.columnInt(0), st.columnText(1));
        if (!a.paths.isEmpty()) {
            std::vector<std::pair<int64_t, QString>> chosen;
            for (const QString &p : a.paths) {
                bool ok = false;
                const int64_t id = p.toLongLong(&ok);
                auto it = std::find_if(traces.begin(), traces.end(), [&](auto &t) { return t.first == id; });
                if (!ok || it == traces.end()) {
                    err(QStringLiteral("no trace %1 in %2 (plumb ls lists them)").arg(p, a.workspace));
                    return 1;
                }
                chosen.push_back(*it);
            }
            traces = chosen;
        }
        const GpuOpMode mode = a.mode;
        QJsonArray json;
        auto breakdownJson = [](const TemporalBreakdown &b) {
            QJsonObject o;
            o[QStringLiteral("gpu_ops")] = double(b.ops);
            for (const auto &[key, ns] : { std::pair { "total_ns", b.totalNs() }, { "busy_ns", b.busyNs },
                     { "idle_ns", b.idleNs() }, { "compute_ns", b.computeNs },
                     { "exposed_comm_ns", b.exposedCommNs }, { "exposed_memory_ns", b.exposedMemoryNs },
                     { "comm_ns", b.commNs }, { "memory_ns", b.memoryNs } })
                o[QLatin1String(key)] = double(ns);
            return o;
        };
        constexpr int kTopKernels = 10;
        // Runs with several of the traces shown: their ranks side by side (read once per run).
        std::vector<int64_t> runs;
        std::map<int64_t, RankComparison> rankComparisons;
        std::map<int64_t, int64_t> runOf;
        {
            SqliteStmt r(ws.db(), "SELECT run_id FROM trace WHERE id = ?");
            for (const auto &[id, name] : traces) {
                r.bind(1, id);
                if (r.step()) {
                    runOf[id] = r.columnInt(0);
                    if (std::find(runs.begin(), runs.end(), r.columnInt(0)) == runs.end())
                        runs.push_back(r.columnInt(0));
                }
                r.reset();
            }
            for (int64_t run : runs)
                rankComparisons[run] = compareRanks(ws, run, mode);
        }
        for (const auto &[id, name] : traces) {
            const auto ranks = runOf.count(id) ? rankComparisons.find(runOf[id]) : rankComparisons.end();
            const DoctorReport report
                = doctorReport(ws, id, mode, ranks != rankComparisons.end() ? &ranks->second : nullptr);
            const TemporalBreakdown &b = report.overall;
            const std::vector<StepBreakdown> &steps = report.steps;
            const std::vector<KernelStats> &kernels = report.kernels;
            const std::vector<StreamIdle> &idle = report.idle;
            const HostAnalysis &host = report.host;
            const std::vector<MemcpyKindStats> &copies = report.copies;
            const Verdict &verdict = report.verdict;
            auto queueOf = [&](int64_t track) -> const StreamQueue * {
                for (const StreamQueue &q : report.launch.queues)
                    if (q.streamTrackId == track)
                        return &q;
                return nullptr;
            };
            if (a.json) {
                QJsonObject o = breakdownJson(b);
                if (b.commNs > 0)
                    o[QStringLiteral("comm_overlap")] = b.commOverlap();
                o[QStringLiteral("trace")] = double(id);
                o[QStringLiteral("name")] = name;
                o[QStringLiteral("mode")] = modeName(mode);
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
                    stepsJson.append(so);
                }
                o[QStringLiteral("steps")] = stepsJson;
                QJsonArray kernelsJson;
                for (size_t i = 0; i < kernels.size() && i < size_t(2 * kTopKernels); ++i) {
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
                QJsonArray idleJson;
                for (const StreamIdle &si : idle) {
                    QJsonObject io;
                    io[QStringLiteral("stream")] = double(si.stream);
                    io[QStringLiteral("host_wait_ns")] = double(si.hostWaitNs);
                    io[QStringLiteral("kernel_wait_ns")] = double(si.kernelWaitNs);
                    io[QStringLiteral("other_ns")] = double(si.otherNs);
                    if (const StreamQueue *q = queueOf(si.streamTrackId)) {
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
                    sampledJson.append(QJsonObject {
                        { QStringLiteral("function"), name }, { QStringLiteral("samples"), double(n) } });
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
                        { QStringLiteral("process_group"), c.processGroup },
                        { QStringLiteral("dtype"), c.dtype },
                        { QStringLiteral("group_size"), double(c.groupSize) },
                        { QStringLiteral("bytes"), double(c.bytes) },
                        { QStringLiteral("count"), double(c.count) },
                        { QStringLiteral("time_ns"), double(c.timeNs) },
                        { QStringLiteral("algorithm_gb_per_s"), c.algorithmGBps() },
                        { QStringLiteral("bus_gb_per_s"), c.busGBps() } });
                o[QStringLiteral("collectives")] = collectivesJson;
                const FlopsSummary &fl = report.flops;
                QJsonArray flopsOps;
                for (size_t i = 0; i < fl.entries.size() && i < size_t(2 * kTopKernels); ++i) {
                    const FlopsEntry &e = fl.entries[i];
                    flopsOps.append(QJsonObject { { QStringLiteral("op"), e.op },
                        { QStringLiteral("shape"), e.shape }, { QStringLiteral("dtype"), dtypeName(e.dtype) },
                        { QStringLiteral("count"), double(e.count) }, { QStringLiteral("flops"), e.flops },
                        { QStringLiteral("kernel_ns"), double(e.kernelNs) },
                        { QStringLiteral("tflops_per_s"), e.tflops() } });
                }
                o[QStringLiteral("flops")] = QJsonObject { { QStringLiteral("device"), fl.device },
                    { QStringLiteral("ops"), double(fl.ops) },
                    { QStringLiteral("ops_without_kernels"), double(fl.opsWithoutKernels) },
                    { QStringLiteral("flops"), fl.flops },
                    { QStringLiteral("kernel_ns"), double(fl.kernelNs) },
                    { QStringLiteral("achieved_tflops_per_s"), fl.achievedTflops() },
                    { QStringLiteral("dtype"), dtypeName(fl.dtype) },
                    { QStringLiteral("peak_tflops_per_s"),
                        fl.peakTflops > 0 ? QJsonValue(fl.peakTflops) : QJsonValue() },
                    { QStringLiteral("peak_share"),
                        fl.peakTflops > 0 ? QJsonValue(fl.peakShare()) : QJsonValue() },
                    { QStringLiteral("top"), flopsOps } };
                QJsonObject vj;
                vj[QStringLiteral("component")] = componentName(verdict.component);
                vj[QStringLiteral("runner_up")] = componentName(verdict.runnerUp);
                vj[QStringLiteral("headline")] = verdict.headline;
                vj[QStringLiteral("evidence")] = QJsonArray::fromStringList(verdict.evidence);
                vj[QStringLiteral("tunables")] = QJsonArray::fromStringList(verdict.tunables);
                QJsonArray whereJson;
                for (const Verdict::Where &w : verdict.where)
                    whereJson.append(QJsonObject { { QStringLiteral("start_ns"), double(w.startNs) },
                        { QStringLiteral("end_ns"), double(w.endNs) },
                        { QStringLiteral("label"), w.label } });
                vj[QStringLiteral("where")] = whereJson;
                o[QStringLiteral("verdict")] = vj;
                json.append(o);
                continue;
            }
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
                        .arg(text::milliseconds(w.startNs - b.startNs),
                            text::milliseconds(w.endNs - b.startNs), w.label));
            if (!verdict.tunables.isEmpty())
                out(QStringLiteral("    try: %1\n").arg(verdict.tunables.join(QStringLiteral("; "))));
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
                out(QStringLiteral("  per step (GPU work each step launched)        window ms  compute  "
                                   "exp.comm  exp.mem   idle  limit\n"));
                for (size_t si = 0; si < steps.size(); ++si) {
                    const StepBreakdown &s = steps[si];
                    out(QStringLiteral("    %1 %2 %3% %4% %5% %6%  %7\n")
                            .arg(s.name.left(40), -40)
                            .arg(text::milliseconds(s.gpu.totalNs()), 12)
                            .arg(100.0 * s.gpu.share(s.gpu.computeNs), 7, 'f', 1)
                            .arg(100.0 * s.gpu.share(s.gpu.exposedCommNs), 8, 'f', 1)
                            .arg(100.0 * s.gpu.share(s.gpu.exposedMemoryNs), 7, 'f', 1)
                            .arg(100.0 * s.gpu.share(s.gpu.idleNs()), 5, 'f', 1)
                            .arg(componentName(report.stepVerdicts[si].component)));
                }
            }
            out(QStringLiteral(
                "  host: input pipeline %1 ms, blocking syncs %2 ms (%3 calls), optimizer %4 ms%5\n")
                    .arg(text::milliseconds(host.inputPipeline.timeNs),
                        text::milliseconds(host.synchronization.timeNs),
                        text::count(host.synchronization.count), text::milliseconds(host.optimizer.timeNs),
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
                            functions.isEmpty()
                                ? QString()
                                : QStringLiteral(": ") + functions.join(QStringLiteral(", "))));
            }
            if (host.schedThreads)
                out(QStringLiteral(
                    "  scheduling: the launching thread%1 on no CPU for %2 of the %3 ms the GPU was idle "
                    "(%4%)\n")
                        .arg(host.schedThreads == 1 ? QString() : QStringLiteral("s"))
                        .arg(text::milliseconds(host.offCpuIdleNs), text::milliseconds(host.schedIdleNs))
                        .arg(host.schedIdleNs ? 100.0 * double(host.offCpuIdleNs) / double(host.schedIdleNs)
                                              : 0.0,
                            0, 'f', 0));
            if (host.launchedOps)
                out(QStringLiteral(
                    "  launches: %1 ops, launch to start p50 %2 / p90 %3; %4 ops ran shorter than their "
                    "launch call\n")
                        .arg(text::count(host.launchedOps), formatDuration(host.launchDelayP50Ns),
                            formatDuration(host.launchDelayP90Ns), text::count(host.shortOps)));
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
                        .arg(c.bytes > 0 ? QString::number(c.algorithmGBps(), 'f', 2) : QStringLiteral("-"),
                            12)
                        .arg(c.bytes > 0 ? QString::number(c.busGBps(), 'f', 2) : QStringLiteral("-"), 11));
            }
            out(QStringLiteral("  idle between ops, per stream                     host wait  kernel wait    "
                               "  other  (ms)   queued max  mean\n"));
            for (const StreamIdle &si : idle) {
                const StreamQueue *q = queueOf(si.streamTrackId);
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
                        .arg(fl.peakTflops > 0
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
                            .arg(peak > 0 ? QStringLiteral("%1%").arg(100.0 * e.tflops() / peak, 0, 'f', 0)
                                          : QStringLiteral("-"),
                                8));
                }
            }
        }
        QJsonArray runsJson;
        for (int64_t run : runs) {
            const RankComparison &c = rankComparisons[run];
            if (c.ranks.size() < 2)
                continue;
            if (a.json) {
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
                o[QStringLiteral("straggler_rank")]
                    = c.straggler >= 0 ? double(c.ranks[size_t(c.straggler)].rank) : -1.0;
                o[QStringLiteral("others_wait_ns")] = c.othersWaitNs;
                runsJson.append(o);
                continue;
            }
            out(QStringLiteral(
                "run %1: %2 ranks, per step       window ms   compute ms   comm ms   idle ms\n")
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
        if (a.json) {
            QJsonObject root;
            root[QStringLiteral("traces")] = json;
            root[QStringLiteral("runs")] = runsJson;
            out(QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented)));
        }
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}

int runDiff(const Args &a)
{
    if (a.paths.size() != 2) {
        err(QStringLiteral(
            "diff needs two trace ids: the baseline and the trace to compare (plumb ls lists them)"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import the traces first or pass --workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        int64_t ids[2];
        for (int i = 0; i < 2; ++i) {
            bool ok = false;
            ids[i] = a.paths[i].toLongLong(&ok);
            SqliteStmt st(ws.db(), "SELECT count(*) FROM trace WHERE id = ?");
            st.bind(1, ids[i]);
            if (!ok || !st.step() || st.columnInt(0) == 0) {
                err(QStringLiteral("no trace %1 in %2 (plumb ls lists them)").arg(a.paths[i], a.workspace));
                return 1;
            }
        }
        const GpuOpMode mode = a.mode;
        const TraceDiff d = diffTraces(ws, ids[0], ids[1], mode);
        static const char *const changeNames[] = { "added", "removed", "slower", "faster", "same" };
        if (a.json) {
            QJsonObject o;
            auto side = [](const TraceDiff::Side &s) {
                QJsonObject j;
                j[QStringLiteral("trace")] = double(s.traceId);
                j[QStringLiteral("name")] = s.name;
                j[QStringLiteral("steps")] = s.steps;
                j[QStringLiteral("window_ns")] = s.windowNs;
                j[QStringLiteral("compute_ns")] = s.computeNs;
                j[QStringLiteral("exposed_comm_ns")] = s.exposedCommNs;
                j[QStringLiteral("exposed_memory_ns")] = s.exposedMemoryNs;
                j[QStringLiteral("idle_ns")] = s.idleNs;
                if (s.stepNs > 0)
                    j[QStringLiteral("step_ns")] = s.stepNs;
                return j;
            };
            o[QStringLiteral("baseline")] = side(d.a);
            o[QStringLiteral("compared")] = side(d.b);
            o[QStringLiteral("per_step")] = d.perStep;
            o[QStringLiteral("window_delta_ns")] = d.windowDeltaNs();
            QJsonArray ops;
            for (const auto &op : d.ops) {
                if (op.change() == TraceDiff::OpDelta::Change::Same)
                    continue;
                QJsonObject j;
                j[QStringLiteral("name")] = op.name;
                j[QStringLiteral("change")] = QLatin1String(changeNames[int(op.change())]);
                j[QStringLiteral("count_baseline")] = op.countA;
                j[QStringLiteral("count_compared")] = op.countB;
                j[QStringLiteral("total_baseline_ns")] = op.totalA;
                j[QStringLiteral("total_compared_ns")] = op.totalB;
                j[QStringLiteral("delta_ns")] = op.deltaNs();
                ops.append(j);
            }
            o[QStringLiteral("ops")] = ops;
            out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
            return 0;
        }
        auto ms = [](double ns) { return QString::number(ns / 1e6, 'f', 3); };
        auto signedMs = [](double ns) -> QString {
            return (ns >= 0 ? QStringLiteral("+") : QString()) + QString::number(ns / 1e6, 'f', 3);
        };
        out(QStringLiteral("baseline  trace %1  %2  (%3)\ncompared  trace %4  %5  (%6)\n")
                .arg(d.a.traceId)
                .arg(d.a.name,
                    d.perStep ? QStringLiteral("%1 steps").arg(d.a.steps) : QStringLiteral("no steps"))
                .arg(d.b.traceId)
                .arg(d.b.name,
                    d.perStep ? QStringLiteral("%1 steps").arg(d.b.steps) : QStringLiteral("no steps")));
        out(QStringLiteral("%1                 baseline ms   compared ms      change ms\n")
                .arg(d.perStep ? QStringLiteral("per step, GPU       ")
                               : QStringLiteral("whole trace, GPU    ")));
        auto line = [&](const QString &label, double x, double y) {
            out(QStringLiteral("  %1 %2 %3 %4\n")
                    .arg(label, -32)
                    .arg(ms(x), 12)
                    .arg(ms(y), 13)
                    .arg(signedMs(y - x), 14));
        };
        line(QStringLiteral("window"), d.a.windowNs, d.b.windowNs);
        line(QStringLiteral("  computation"), d.a.computeNs, d.b.computeNs);
        line(QStringLiteral("  exposed communication"), d.a.exposedCommNs, d.b.exposedCommNs);
        line(QStringLiteral("  exposed memcpy/memset"), d.a.exposedMemoryNs, d.b.exposedMemoryNs);
        line(QStringLiteral("  idle"), d.a.idleNs, d.b.idleNs);
        if (d.a.stepNs > 0 && d.b.stepNs > 0)
            line(QStringLiteral("step on the CPU"), d.a.stepNs, d.b.stepNs);
        if (const QString note = stepTimeNote(d); !note.isEmpty())
            out(QStringLiteral("  %1\n").arg(note));
        out(QStringLiteral("  GPU ops that changed most                            change    count     total "
                           "ms (A -> B)\n"));
        int shown = 0;
        for (const auto &op : d.ops) {
            if (op.change() == TraceDiff::OpDelta::Change::Same || shown == 12)
                continue;
            ++shown;
            const QString shortName = op.name.size() > 48 ? op.name.left(47) + QChar(0x2026) : op.name;
            out(QStringLiteral("    %1 %2 %3 -> %4  %5 -> %6 (%7)\n")
                    .arg(shortName, -48)
                    .arg(QLatin1String(changeNames[int(op.change())]), 8)
                    .arg(op.countA, 6, 'f', 0)
                    .arg(op.countB, 0, 'f', 0)
                    .arg(ms(op.totalA), 9)
                    .arg(ms(op.totalB))
                    .arg(signedMs(op.deltaNs())));
        }
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}

// A param value on one line: line ends as \\n, cut to `width` characters with an ellipsis.
QString cell(const QString &value, int width)
{
    QString s = value;
    s.replace(u'\n', QStringLiteral("\\n"));
    return s.size() > width ? s.left(width - 1) + QChar(0x2026) : s;
}

QJsonValue jsonNumber(double v)
{
    if (std::isnan(v))
        return QJsonValue(QJsonValue::Null);
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return v;
}

int runConfigDiff(const Args &a)
{
    if (a.paths.size() < 2) {
        err(QStringLiteral(
            "diff --config needs two or more experiment runs, by id or name (plumb ls lists them)"));
        return 2;
    }
    if (a.mode != GpuOpMode::EveryOp) {
        err(QStringLiteral("--mode is for traces; diff --config compares experiment runs"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral("no workspace at %1; import the runs first or pass --workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        const RunLookup lookup = resolveRuns(ExperimentReader(ws).runs(), a.paths);
        if (!lookup.error.isEmpty()) {
            err(lookup.error);
            return 1;
        }
        const ConfigDiff d = diffConfigs(ws, lookup.ids);
        static const char *const directionNames[] = { "unknown", "lower", "higher" };
        if (a.json) {
            QJsonObject o;
            QJsonArray runs;
            for (const auto &r : d.runs)
                runs.append(QJsonObject {
                    { QStringLiteral("id"), qint64(r.id) }, { QStringLiteral("name"), r.name } });
            o[QStringLiteral("runs")] = runs;
            o[QStringLiteral("all_rows")] = a.allRows;
            QJsonArray rows;
            for (const auto &r : d.rows) {
                if (!r.differs && !a.allRows)
                    continue;
                QJsonArray values;
                for (const auto &v : r.values)
                    values.append(v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null));
                rows.append(QJsonObject { { QStringLiteral("group"), groupName(r.group) },
                    { QStringLiteral("key"), r.key }, { QStringLiteral("differs"), r.differs },
                    { QStringLiteral("values"), values } });
            }
            o[QStringLiteral("rows")] = rows;
            QJsonArray metrics;
            for (const auto &m : d.metrics) {
                if (!m.differs && !a.allRows)
                    continue;
                QJsonArray last, best, delta, pct, better;
                for (size_t i = 0; i < m.last.size(); ++i) {
                    last.append(jsonNumber(m.last[i]));
                    best.append(jsonNumber(m.best[i]));
                    delta.append(jsonNumber(m.delta[i]));
                    pct.append(jsonNumber(m.deltaPercent[i]));
                    better.append(bool(m.better[i]));
                }
                metrics.append(QJsonObject { { QStringLiteral("key"), m.key },
                    { QStringLiteral("direction"), QLatin1String(directionNames[int(m.direction)]) },
                    { QStringLiteral("differs"), m.differs }, { QStringLiteral("last"), last },
                    { QStringLiteral("best"), best }, { QStringLiteral("delta"), delta },
                    { QStringLiteral("delta_percent"), pct }, { QStringLiteral("better"), better } });
            }
            o[QStringLiteral("metrics")] = metrics;
            out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
            return 0;
        }

        // Text: a column per run, as wide as its widest cell (up to kMaxCell).
        constexpr int kMaxCell = 40, kMaxKey = 36;
        const size_t n = size_t(d.runs.size());
        std::vector<QStringList> table; // key column, then one cell per run; empty key: a heading
        auto heading = [&table](const QString &title) { table.push_back({ title }); };
        int differingRows = 0, differingMetrics = 0;
        QString common;
        const QStringList names = shortRunNames(d.runs, &common);
        out(QStringLiteral("%1 runs%2; the baseline is run %3 %4\n")
                .arg(n)
                .arg(common.isEmpty() ? QString() : QStringLiteral(" in ") + common)
                .arg(d.runs[0].id)
                .arg(names[0]));
        QStringList header { QString() };
        for (size_t i = 0; i < n; ++i)
            header << QStringLiteral("%1 %2")
                          .arg(d.runs[qsizetype(i)].id)
                          .arg(cell(names[qsizetype(i)], kMaxCell));
        table.push_back(header);
        int group = -1;
        for (const auto &r : d.rows) {
            differingRows += r.differs;
            if (!r.differs && !a.allRows)
                continue;
            if (int(r.group) != group) {
                group = int(r.group);
                heading(groupName(r.group));
            }
            QStringList line { (r.differs ? QStringLiteral("* ") : QStringLiteral("  "))
                + cell(r.key, kMaxKey) };
            for (const auto &v : r.values)
                line << (!v            ? QStringLiteral("-")
                        : v->isEmpty() ? QStringLiteral("\"\"")
                                       : cell(*v, kMaxCell));
            table.push_back(line);
        }
        bool metricHeading = false;
        for (const auto &m : d.metrics) {
            differingMetrics += m.differs;
            if (!m.differs && !a.allRows)
                continue;
            if (!metricHeading) {
                heading(
                    QStringLiteral("metrics: last value, change from the baseline; \u25b2/\u25bc marks the "
                                   "better run (higher/lower is better)"));
                metricHeading = true;
            }
            const QString mark = m.direction == MetricDirection::HigherIsBetter ? QStringLiteral(" \u25b2")
                : m.direction == MetricDirection::LowerIsBetter                 ? QStringLiteral(" \u25bc")
                                                                                : QString();
            QStringList line { (m.differs ? QStringLiteral("* ") : QStringLiteral("  "))
                + cell(m.key, kMaxKey) };
            QStringList bestLine { QStringLiteral("    best") };
            bool bestDiffers = false;
            for (size_t i = 0; i < n; ++i) {
                if (!m.present[i]) {
                    line << QStringLiteral("-");
                    bestLine << QStringLiteral("-");
                    continue;
                }
                QString c = metricText(m.last[i]);
                if (i > 0 && !deltaText(m.delta[i], m.deltaPercent[i]).isEmpty())
                    c += u' ' + deltaText(m.delta[i], m.deltaPercent[i]);
                if (m.better[i])
                    c += mark;
                line << c;
                bestLine << (std::isnan(m.best[i]) ? QStringLiteral("-") : metricText(m.best[i]));
                bestDiffers = bestDiffers || (!std::isnan(m.best[i]) && m.best[i] != m.last[i]);
            }
            table.push_back(line);
            if (bestDiffers)
                table.push_back(bestLine);
        }
        std::vector<int> width(n + 1, 0);
        for (const QStringList &line : table)
            if (line.size() > 1)
                for (qsizetype c = 0; c < line.size(); ++c)
                    width[size_t(c)] = std::max<int>(width[size_t(c)], int(line[c].size()));
        for (const QStringList &line : table) {
            if (line.size() == 1) {
                out(line[0] + u'\n');
                continue;
            }
            QString text;
            for (qsizetype c = 0; c < line.size(); ++c)
                text += line[c].leftJustified(width[size_t(c)] + 2);
            while (text.endsWith(u' '))
                text.chop(1);
            out(text + u'\n');
        }
        out(QStringLiteral("%1 of %2 config rows and %3 of %4 metrics differ%5\n")
                .arg(differingRows)
                .arg(d.rows.size())
                .arg(differingMetrics)
                .arg(d.metrics.size())
                .arg(a.allRows ? QString() : QStringLiteral(" (--all shows every row)")));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}

QJsonObject lineageNodeJson(const LineageNodeInfo &n)
{
    QJsonObject o { { QStringLiteral("id"), qint64(n.id) }, { QStringLiteral("kind"), n.kind },
        { QStringLiteral("type"), n.type }, { QStringLiteral("key"), n.key },
        { QStringLiteral("name"), n.name }, { QStringLiteral("uri"), n.uri },
        { QStringLiteral("state"), n.state },
        { QStringLiteral("contexts"), QJsonArray::fromStringList(n.contexts) } };
    o[QStringLiteral("start_ns")] = n.startNs ? QJsonValue(qint64(n.startNs)) : QJsonValue();
    o[QStringLiteral("end_ns")] = n.endNs ? QJsonValue(qint64(n.endNs)) : QJsonValue();
    o[QStringLiteral("properties")] = QJsonDocument::fromJson(n.properties.toUtf8()).object();
    QJsonArray runs;
    for (int64_t r : n.runIds)
        runs.append(qint64(r));
    o[QStringLiteral("runs")] = runs;
    return o;
}

// "artifact Model  trainer/model  LIVE  s3://.../model" for a tree line.
QString lineageNodeLine(const LineageNodeInfo &n)
{
    QString line
        = QStringLiteral("%1 %2  %3").arg(n.kind, n.type.isEmpty() ? QStringLiteral("-") : n.type, n.name);
    if (!n.state.isEmpty())
        line += QStringLiteral("  [%1]").arg(n.state);
    if (!n.uri.isEmpty() && n.uri != n.name)
        line += QStringLiteral("  %1").arg(n.uri);
    return line + QStringLiteral("  (#%1)").arg(n.id);
}

int runLineage(const Args &a)
{
    if (a.paths.size() != 1) {
        err(QStringLiteral("lineage needs one node: its id, key or name (plumb ls says how many there are)"));
        return 2;
    }
    if (!QFileInfo::exists(a.workspace)) {
        err(QStringLiteral(
            "no workspace at %1; import an ML Metadata store or OpenLineage events first, or pass "
            "--workspace FILE")
                .arg(a.workspace));
        return 1;
    }
    try {
        Workspace ws(a.workspace, Workspace::Role::Reader);
        LineageReader reader(ws);
        const std::vector<LineageNodeInfo> found = reader.find(a.paths[0]);
        if (found.empty()) {
            err(QStringLiteral("no lineage node is %1 (by id, key or name)").arg(a.paths[0]));
            return 1;
        }
        if (found.size() > 1) {
            QStringList names;
            for (size_t i = 0; i < found.size() && i < 10; ++i)
                names << QStringLiteral("#%1 %2").arg(found[i].id).arg(found[i].name);
            err(QStringLiteral("%1 names %2 lineage nodes (%3%4); give an id or a key")
                    .arg(a.paths[0])
                    .arg(found.size())
                    .arg(names.join(QStringLiteral(", ")),
                        found.size() > 10 ? QStringLiteral(", ...") : QString()));
            return 1;
        }
        const LineageGraph g = reader.neighbourhood(found[0].id, a.lineageDirection, a.lineageDepth);
        if (a.json) {
            QJsonArray nodes, edges;
            for (size_t i = 0; i < g.nodes.size(); ++i) {
                QJsonObject o = lineageNodeJson(g.nodes[i]);
                o[QStringLiteral("depth")] = g.depth[i];
                nodes.append(o);
            }
            for (const LineageEdgeInfo &e : g.edges)
                edges.append(QJsonObject { { QStringLiteral("from"), qint64(e.from) },
                    { QStringLiteral("to"), qint64(e.to) }, { QStringLiteral("kind"), e.kind },
                    { QStringLiteral("properties"),
                        QJsonDocument::fromJson(e.properties.toUtf8()).object() } });
            static const char *const directions[] = { "up", "down", "both" };
            out(QString::fromUtf8(QJsonDocument(
                QJsonObject { { QStringLiteral("focus"), qint64(found[0].id) },
                    { QStringLiteral("direction"), QLatin1String(directions[int(a.lineageDirection)]) },
                    { QStringLiteral("depth"), a.lineageDepth }, { QStringLiteral("truncated"), g.truncated },
                    { QStringLiteral("nodes"), nodes }, { QStringLiteral("edges"), edges } })
                                      .toJson(QJsonDocument::Indented)));
            return 0;
        }
        // A tree: each node under the one it was reached from, "<-" made from, "->" made into.
        const LineageNodeInfo &focus = g.nodes[0];
        out(lineageNodeLine(focus) + QLatin1Char('\n'));
        if (!focus.contexts.isEmpty())
            out(QStringLiteral("  in: %1\n").arg(focus.contexts.join(QStringLiteral(", "))));
        if (!focus.runIds.isEmpty()) {
            QStringList runs;
            for (int64_t r : focus.runIds)
                runs << QString::number(r);
            out(QStringLiteral("  linked to run %1\n").arg(runs.join(QStringLiteral(", "))));
        }
        std::map<int64_t, std::vector<size_t>> children;
        for (size_t i = 1; i < g.nodes.size(); ++i)
            children[g.reachedFrom[i]].push_back(i);
        std::function<void(int64_t, int)> print = [&](int64_t id, int indent) {
            for (size_t child : children[id]) {
                out(QString(indent * 2, QLatin1Char(' '))
                    + (g.upstream[child] ? QStringLiteral("<- ") : QStringLiteral("-> "))
                    + lineageNodeLine(g.nodes[child]) + QLatin1Char('\n'));
                print(g.nodes[child].id, indent + 1);
            }
        };
        print(focus.id, 1);
        if (g.nodes.size() == 1)
            out(QStringLiteral("  (no %1 within %2 edges)\n")
                    .arg(a.lineageDirection == LineageDirection::Up ? QStringLiteral("inputs")
                            : a.lineageDirection == LineageDirection::Down
                            ? QStringLiteral("outputs")
                            : QStringLiteral("inputs or outputs"))
                    .arg(a.lineageDepth));
        if (g.truncated)
            out(QStringLiteral("  (stopped at %1 nodes: use a smaller --depth)\n").arg(g.nodes.size()));
        return 0;
    } catch (const SqlError &e) {
        err(QStringLiteral("cannot read the workspace %1: %2").arg(a.workspace, e.message()));
        return 1;
    }
}

} // namespace

bool isCliCommand(const char *arg)
{
    if (!arg)
        return false;
    for (const char *c :
        { "import", "ls", "doctor", "diff", "lineage", "goodput", "check", "report", "--help", "-h", "help" })
        if (std::strcmp(arg, c) == 0)
            return true;
    return false;
}

int runCli(int argc, char **argv)
{
    if (std::strcmp(argv[1], "report") == 0)
        return runReport(argc, argv); // makes its own QApplication
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Plumb"));
    QCoreApplication::setApplicationName(QStringLiteral("Plumb"));
    const QString cmd = QString::fromLocal8Bit(argv[1]);
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") || cmd == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        std::fputs(formatsHelp().toLocal8Bit().constData(), stdout);
        std::fputs(kUsageExitStatus, stdout);
        return 0;
    }
    if (cmd == QLatin1String("goodput"))
        return runGoodputCommand(argc, argv);
    if (cmd == QLatin1String("check"))
        return runCheck(argc, argv);
    const Args a = parse(argc, argv);
    if (!a.error.isEmpty()) {
        err(a.error + QStringLiteral("\nRun `plumb --help` for usage."));
        return 2;
    }
    if (a.command == QLatin1String("import"))
        return runImport(a);
    if (a.command == QLatin1String("doctor"))
        return runDoctor(a);
    if (a.command == QLatin1String("diff"))
        return a.config ? runConfigDiff(a) : runDiff(a);
    if (a.command == QLatin1String("lineage"))
        return runLineage(a);
    return runLs(a);
}
