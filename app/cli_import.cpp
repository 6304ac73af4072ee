// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_import.h"

#include "builtinimporters.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "store/sqlitedb.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTime>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <unistd.h>
#include <vector>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

namespace {

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

} // namespace

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
