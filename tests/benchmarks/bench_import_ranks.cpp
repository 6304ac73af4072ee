// SPDX-License-Identifier: GPL-3.0-or-later
// bench_import_ranks: a multi-rank job (one Kineto trace per rank) imported one trace at a time and
// several at a time (ImportRunner::setJobs), in the same minutes.
//
//   bench_import_ranks [--ranks 4] [--events 500000] [--jobs N] [--reps 2] [--keep DIR]
//   bench_import_ranks --import-only FOLDER WORKSPACE [--jobs N]     (internal: one import, one JSON line)
//
// The rank files are generated first (not timed), then each repetition imports the folder into a fresh
// workspace twice in child processes, sequential then parallel, so that the two are compared under
// the same machine load. --jobs defaults to one per rank. Informational: the exit status is 0 whatever
// the figures. On a machine with fewer cores than 2 x jobs the parallel import has no cores to gain.

#include "benchimport.h"
#include "ingest/importrunner.h"
#include "kinetotracegen.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace plumb::bench;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() >= 4 && args[1] == QStringLiteral("--import-only")) {
        ImportOnlyHooks hooks;
        if (args.size() == 6 && args[4] == QStringLiteral("--jobs"))
            hooks.jobs = args[5].toInt();
        return importOnly(args[2], args[3], hooks);
    }

    int ranks = 4, jobs = 0, reps = 2;
    int64_t events = 500'000;
    QString keep;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--ranks") && hasNext) {
            ranks = std::clamp(args[++i].toInt(), 2, 64);
        } else if (a == QStringLiteral("--events") && hasNext) {
            const auto sizes = parseSizes(args[++i]);
            events = sizes.empty() ? events : sizes.front();
        } else if (a == QStringLiteral("--jobs") && hasNext) {
            jobs = std::clamp(args[++i].toInt(), 1, 64);
        } else if (a == QStringLiteral("--reps") && hasNext) {
            reps = std::clamp(args[++i].toInt(), 1, 20);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else {
            std::fprintf(stderr,
                "usage: bench_import_ranks [--ranks 4] [--events 500000] [--jobs N] [--reps 2] "
                "[--keep DIR]\n");
            return a == QStringLiteral("-h") || a == QStringLiteral("--help") ? 0 : 2;
        }
    }
    if (jobs == 0)
        jobs = ranks;

    QTemporaryDir tmp;
    const QString dir = workFolder("bench_import_ranks", keep, tmp);
    if (dir.isEmpty())
        return 1;
    const QString job = QDir(dir).filePath(QStringLiteral("job"));
    QDir().mkpath(job);
    int64_t totalEvents = 0, totalBytes = 0;
    for (int r = 0; r < ranks; ++r) {
        KinetoTraceOptions o;
        o.events = events;
        o.seed = uint64_t(r + 1);
        KinetoTraceStats stats;
        std::string error;
        const QString path = QDir(job).filePath(QStringLiteral("trainer_rank-%1.json").arg(r));
        std::fprintf(stderr, "generating %s ...\n", qPrintable(path));
        if (!writeKinetoTrace(path.toStdString(), o, &stats, &error)) {
            std::fprintf(stderr, "bench_import_ranks: %s\n", error.c_str());
            return 1;
        }
        totalEvents += stats.events;
        totalBytes += stats.uncompressedBytes;
    }

    struct Rep {
        ChildImport sequential, parallel;
    };
    std::vector<Rep> runs;
    for (int k = 0; k < reps; ++k) {
        Rep rep;
        for (const bool parallel : { false, true }) {
            const QString ws = QDir(dir).filePath(
                parallel ? QStringLiteral("parallel.plumb") : QStringLiteral("sequential.plumb"));
            removeWorkspace(ws);
            std::fprintf(stderr, "importing %d ranks, %s ...\n", ranks, parallel ? "parallel" : "sequential");
            ChildImport &out = parallel ? rep.parallel : rep.sequential;
            if (!runImportChild("bench_import_ranks", job, ws, &out,
                    { QStringLiteral("--jobs"), QString::number(parallel ? jobs : 1) }))
                return 1;
            removeWorkspace(ws);
        }
        runs.push_back(rep);
    }

    std::printf("\nMulti-rank import: %d ranks, %lld events, %.1f MB of JSON; %d cores here, --jobs %d\n",
        ranks, static_cast<long long>(totalEvents), double(totalBytes) / 1e6, QThread::idealThreadCount(),
        jobs);
    std::printf("%-4s %14s %14s %9s %12s %12s\n", "rep", "sequential s", "parallel s", "speedup",
        "seq RSS MB", "par RSS MB");
    for (size_t k = 0; k < runs.size(); ++k) {
        const Rep &r = runs[k];
        std::printf("%-4zu %14.2f %14.2f %8.2fx %12.0f %12.0f   %s / %s\n", k + 1, r.sequential.seconds,
            r.parallel.seconds, r.parallel.seconds > 0 ? r.sequential.seconds / r.parallel.seconds : 0,
            r.sequential.rssMB, r.parallel.rssMB, qPrintable(r.sequential.status),
            qPrintable(r.parallel.status));
    }
    for (const Rep &r : runs) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("import_ranks");
        j[QStringLiteral("ranks")] = ranks;
        j[QStringLiteral("jobs")] = jobs;
        j[QStringLiteral("cores")] = QThread::idealThreadCount();
        j[QStringLiteral("events")] = double(totalEvents);
        j[QStringLiteral("sequential_s")] = r.sequential.seconds;
        j[QStringLiteral("parallel_s")] = r.parallel.seconds;
        j[QStringLiteral("sequential_rss_mb")] = r.sequential.rssMB;
        j[QStringLiteral("parallel_rss_mb")] = r.parallel.rssMB;
        j[QStringLiteral("imported")] = r.sequential.imported && r.parallel.imported;
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
