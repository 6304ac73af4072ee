// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_import.h"

#include "builtinimporters.h"
#include "ingest/folderwatcher.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "job/shard.h"
#include "present/importpresent.h"
#include "store/filesystem.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTime>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <unistd.h>
#include <vector>

using namespace plumb;
using cli::Args;
using cli::err;
using cli::out;

namespace {

// Prints one import's results (stdout, problems to stderr) and returns how many files failed or were
// cancelled. In live mode (`live`) each line carries the time, JSON is one object a line, and files
// with nothing new are not mentioned.
int printResults(const Args &a, const std::vector<FileImportResult> &results, bool live)
{
    const ImportTally t = importTally(results);
    if (live) {
        const QString time = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
        for (const auto &r : results) {
            if (r.status == FileImportResult::Status::AlreadyImported)
                continue;
            if (a.json)
                out(QString::fromUtf8(QJsonDocument(importWatchJson(r, time)).toJson(QJsonDocument::Compact))
                    + QLatin1Char('\n'));
            else if (isImportProblem(r))
                std::fputs(importFileLine(r, time + QLatin1Char(' ')).toLocal8Bit().constData(), stderr);
            else
                out(importFileLine(r, time + QLatin1Char(' ')));
        }
        std::fflush(stdout);
        return t.bad;
    }
    const ImportOutcome outcome { QFileInfo(a.workspace).absoluteFilePath(), results };
    if (a.json) {
        out(QString::fromUtf8(QJsonDocument(importJson(outcome)).toJson(QJsonDocument::Indented)));
        return t.bad;
    }
    for (const auto &r : results) {
        if (isImportProblem(r))
            std::fputs(importFileLine(r).toLocal8Bit().constData(), stderr);
        else
            out(importFileLine(r));
    }
    out(importWorkspaceLine(outcome));
    if (t.bad + t.unrecognised)
        err(QStringLiteral("%1 of %2 files were not imported (see above); `plumb ls --diagnostics` shows "
                           "what was odd in the imported ones")
                .arg(t.bad + t.unrecognised)
                .arg(results.size()));
    return t.bad;
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
            failures += printResults(a, results, true);
        } catch (const SqlError &e) {
            err(cli::workspaceError(a.workspace, e));
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

// "0, 4, 8" (a shard's ranks), "-" for files without one.
QString shardRanksText(const std::vector<RankFile> &files)
{
    QStringList ranks;
    for (const RankFile &f : files)
        ranks << (f.rank >= 0 ? QString::number(f.rank) : QStringLiteral("-"));
    return ranks.isEmpty() ? QStringLiteral("none") : ranks.join(QStringLiteral(", "));
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
    // Said once, before anything is written: a workspace on a network file system has no write-ahead log.
    if (const QString note = Workspace::fileSystemNote(a.workspace, fileSystemOf(a.workspace));
        !note.isEmpty() && !a.json)
        err(QStringLiteral("note: %1").arg(note));
    ImporterRegistry registry;
    registerBuiltinImporters(registry);
    ImportRunner runner(registry, a.workspace);
    runner.setOptions(a.importOptions);
    runner.setJobs(a.jobs);
    if (a.writeWaitSeconds >= 0)
        runner.setWriteWait(std::chrono::seconds(std::llround(a.writeWaitSeconds)));
    const bool tty = isatty(fileno(stderr)) && !a.json;
    // Said whatever stderr is (an import that seems to hang in a CI log must say why): at once, then every
    // 15 s; on a terminal the line counts up instead.
    runner.setWaitCallback([tty, said = -1.0](const QString &line, double waited) mutable {
        if (waited < said)
            said = -1; // the wait for another file
        if (!tty && said >= 0 && waited - said < 15)
            return;
        said = waited;
        if (tty)
            std::fprintf(stderr, "\r\033[K%s", qPrintable(line));
        else
            std::fprintf(stderr, "plumb: %s\n", qPrintable(line));
        std::fflush(stderr);
    });
    if (a.watch)
        return runWatch(a, registry, runner);
    ImportRunner::ProgressFn progress;
    if (tty) {
        progress = [](const ImportProgress &p) {
            std::fprintf(stderr, "\r\033[K[%d/%d] %s %3.0f%%", p.fileIndex + 1, std::max(p.fileCount, 1),
                qPrintable(p.stage), p.fraction * 100);
            std::fflush(stderr);
        };
        runner.setProgressCallback(progress);
    }
    std::vector<FileImportResult> results;
    try {
        if (a.shard) {
            const ShardImport shard
                = importShard(registry, a.paths, *a.shard, a.workspace, a.importOptions, progress);
            results = shard.results;
            if (tty)
                std::fputs("\r\033[K", stderr);
            if (!a.json)
                out(QStringLiteral("shard %1/%2: %3 of the job's files, ranks %4\n")
                        .arg(a.shard->index)
                        .arg(a.shard->count)
                        .arg(shard.files.size())
                        .arg(shardRanksText(shard.files)));
            printResults(a, results, false);
            return importFailed(results) ? 1 : 0;
        }
        results = runner.run(a.paths);
    } catch (const SqlError &e) {
        if (tty)
            std::fputs("\r\033[K", stderr);
        err(cli::workspaceError(a.workspace, e));
        return 1;
    } catch (const std::runtime_error &e) { // the shard's copy into place
        if (tty)
            std::fputs("\r\033[K", stderr);
        err(QString::fromStdString(e.what()));
        return 1;
    }
    if (tty)
        std::fputs("\r\033[K", stderr);

    printResults(a, results, false);
    return importFailed(results) ? 1 : 0;
}
