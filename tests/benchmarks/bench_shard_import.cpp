// SPDX-License-Identifier: GPL-3.0-or-later
// bench_shard_import: a multi-rank job imported in shards (issue 36), as an array of tasks runs it: for
// T tasks, T `plumb import JOBDIR --shard i/T --workspace SHARDS/shard-i.plumb` processes started at
// once (the wall time is the slowest one's), then `plumb merge SHARDS -o JOB.plumb`; beside them the
// one-process `plumb import JOBDIR`. Each from exec to exit with its peak RSS.
//
//   bench_shard_import [--ranks 32] [--steps 8] [--kernels 3000] [--tasks 1,2,4] [--keep DIR] [--plumb PATH]
//
// The job is generated first (not timed; rankjobgen.h): by default 32 ranks of 8 steps of 3,000 compute
// kernels, about 12 MB of Kineto JSON a rank, 400 MB in all. The tasks share this machine's cores: beyond
// its core count they gain nothing here; on a cluster each task has a node. Informational: exit status 0
// whatever the figures, 1 when a command fails or the merge does not merge every rank.

#include "benchimport.h"
#include "childrun.h"
#include "rankjobgen.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <thread>
#include <vector>

using namespace plumb::bench;

namespace {

struct Tasks {
    bool ok = true; // every task exited with status 0
    double seconds = 0; // from the first start to the last exit
    double fastest = 0; // the task that finished first
    long maxRssKiB = 0; // the largest task's
    double cpuSeconds = 0; // user + system, every task's
};

// Starts one `plumb` per argument list at once (stdout to /dev/null, stderr passes through) and waits
// for them all.
Tasks runAll(const QString &program, const std::vector<QStringList> &argLists)
{
    Tasks t;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const QByteArray path = QFile::encodeName(program);
    const auto start = std::chrono::steady_clock::now();
    std::vector<pid_t> pids;
    for (const QStringList &args : argLists) {
        std::vector<QByteArray> bytes { path };
        for (const QString &a : args)
            bytes.push_back(a.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &b : bytes)
            argv.push_back(b.data());
        argv.push_back(nullptr);
        pid_t pid = 0;
        if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
            t.ok = false;
            continue;
        }
        pids.push_back(pid);
    }
    posix_spawn_file_actions_destroy(&actions);
    for (size_t i = 0; i < pids.size(); ++i) {
        int status = 0;
        rusage usage {};
        if (::wait4(-1, &status, 0, &usage) < 0) {
            t.ok = false;
            break;
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (i == 0)
            t.fastest = s;
        t.seconds = s;
        t.maxRssKiB = std::max(t.maxRssKiB, long(usage.ru_maxrss));
        for (const timeval &tv : { usage.ru_utime, usage.ru_stime })
            t.cpuSeconds += double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
        t.ok = t.ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    RankJobOptions gen;
    gen.ranks = 32;
    gen.steps = 8;
    gen.kernels = 3000;
    std::vector<int> taskCounts { 1, 2, 4 };
    QString keep, plumb = QStringLiteral(PLUMB_CLI_PATH);
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        const bool more = i + 1 < args.size();
        if (args[i] == QLatin1String("--ranks") && more) {
            gen.ranks = args[++i].toInt();
        } else if (args[i] == QLatin1String("--steps") && more) {
            gen.steps = args[++i].toInt();
        } else if (args[i] == QLatin1String("--kernels") && more) {
            gen.kernels = args[++i].toInt();
        } else if (args[i] == QLatin1String("--tasks") && more) {
            taskCounts.clear();
            for (int64_t n : parseSizes(args[++i]))
                taskCounts.push_back(int(n));
        } else if (args[i] == QLatin1String("--keep") && more) {
            keep = args[++i];
        } else if (args[i] == QLatin1String("--plumb") && more) {
            plumb = args[++i];
        } else {
            std::fprintf(stderr,
                "usage: bench_shard_import [--ranks N] [--steps S] [--kernels K] [--tasks 1,2,4] [--keep "
                "DIR] "
                "[--plumb PATH]\n");
            return 2;
        }
    }
    if (gen.ranks < 2 || gen.steps < 1 || gen.kernels < 1 || taskCounts.empty()) {
        std::fprintf(stderr, "bench_shard_import: at least 2 ranks, positive counts and --tasks needed\n");
        return 2;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_shard_import", keep, tmp);
    if (dir.isEmpty())
        return 1;
    const QString jobDir
        = dir + QStringLiteral("/job-%1x%2x%3").arg(gen.ranks).arg(gen.steps).arg(gen.kernels);
    const QString done
        = dir + QStringLiteral("/.job-%1x%2x%3.complete").arg(gen.ranks).arg(gen.steps).arg(gen.kernels);
    if (!QFileInfo::exists(done)) {
        QDir(jobDir).removeRecursively();
        const int rc = runInChild([&] {
            std::string error;
            if (writeRankJob(jobDir.toStdString(), gen, &error))
                return 0;
            std::fprintf(stderr, "bench_shard_import: %s\n", error.c_str());
            return 1;
        });
        if (rc != 0)
            return 1;
        QFile(done).open(QIODevice::WriteOnly);
    }
    const double jobMB = double(folderBytes(jobDir)) / 1e6;
    std::printf("job: %d ranks x %d steps x %d kernels, %.0f MB of JSON (%.1f MB a rank); %u cores here\n",
        gen.ranks, gen.steps, gen.kernels, jobMB, jobMB / gen.ranks, std::thread::hardware_concurrency());
    // The first read of the files in the page cache, so that the first configuration is not the only one
    // to read them from disk.
    for (const QFileInfo &f : QDir(jobDir).entryInfoList(QDir::Files)) {
        QFile in(f.absoluteFilePath());
        if (in.open(QIODevice::ReadOnly))
            while (!in.read(8 << 20).isEmpty()) { }
    }

    const QString one = dir + QStringLiteral("/one.plumb");
    QFile::remove(one);
    const Tasks single
        = runAll(plumb, { { QStringLiteral("import"), jobDir, QStringLiteral("--workspace"), one } });
    if (!single.ok) {
        std::fprintf(stderr, "bench_shard_import: plumb import %s failed\n", qPrintable(jobDir));
        return 1;
    }
    std::printf("one process: plumb import JOBDIR %.2f s (%.1f CPU s, %.1f cores busy), peak RSS %.0f MB\n",
        single.seconds, single.cpuSeconds, single.cpuSeconds / single.seconds,
        double(single.maxRssKiB) / 1024.0);
    QFile::remove(one);

    const std::string expect = QStringLiteral("%1 of %1 ranks merged").arg(gen.ranks).toStdString();
    double base = 0;
    QStringList json;
    for (int tasks : taskCounts) {
        const QString shardDir = dir + QStringLiteral("/shards-%1").arg(tasks);
        QDir(shardDir).removeRecursively();
        QDir().mkpath(shardDir);
        std::vector<QStringList> argLists;
        for (int i = 0; i < tasks; ++i)
            argLists.push_back({ QStringLiteral("import"), jobDir, QStringLiteral("--shard"),
                QStringLiteral("%1/%2").arg(i).arg(tasks), QStringLiteral("--workspace"),
                shardDir + QStringLiteral("/shard-%1.plumb").arg(i) });
        const Tasks t = runAll(plumb, argLists);
        if (!t.ok) {
            std::fprintf(stderr, "bench_shard_import: an import of %d tasks failed\n", tasks);
            return 1;
        }
        const QString job = dir + QStringLiteral("/job-%1.plumb").arg(tasks);
        QFile::remove(job);
        const ChildRun m = mustRun(
            "bench_shard_import", plumb, { QStringLiteral("merge"), shardDir, QStringLiteral("-o"), job });
        if (m.output.find(expect) == std::string::npos) {
            std::fprintf(stderr, "bench_shard_import: the merge did not say \"%s\":\n%s\n", expect.c_str(),
                m.output.substr(0, 2000).c_str());
            return 1;
        }
        if (base == 0)
            base = tasks == 1 ? t.seconds : 0;
        const double scaling = base > 0 ? base / t.seconds : 0;
        std::printf("%d task%s: import %.2f s (first done %.2f s; %.1f CPU s, %.1f cores busy), peak RSS "
                    "%.0f MB a task; "
                    "merge %.2f s, %.0f MB; import + merge %.2f s",
            tasks, tasks == 1 ? "" : "s", t.seconds, t.fastest, t.cpuSeconds, t.cpuSeconds / t.seconds,
            double(t.maxRssKiB) / 1024.0, m.seconds, double(m.maxRssKiB) / 1024.0, t.seconds + m.seconds);
        if (scaling > 0)
            std::printf("; scaling %.2fx", scaling);
        std::printf("\n");
        json << QStringLiteral("{\"tasks\":%1,\"import_s\":%2,\"task_peak_rss_mb\":%3,\"merge_s\":%4,"
                               "\"merge_peak_rss_mb\":%5,\"scaling\":%6,\"cpu_s\":%7}")
                    .arg(tasks)
                    .arg(t.seconds, 0, 'f', 3)
                    .arg(double(t.maxRssKiB) / 1024.0, 0, 'f', 1)
                    .arg(m.seconds, 0, 'f', 3)
                    .arg(double(m.maxRssKiB) / 1024.0, 0, 'f', 1)
                    .arg(scaling, 0, 'f', 2)
                    .arg(t.cpuSeconds, 0, 'f', 2);
        QDir(shardDir).removeRecursively();
        QFile::remove(job);
    }
    std::printf("{\"bench\":\"shard_import\",\"ranks\":%d,\"steps\":%d,\"kernels\":%d,\"json_mb\":%.1f,"
                "\"cores\":%u,\"one_process_s\":%.3f,\"one_process_peak_rss_mb\":%.1f,\"sharded\":[%s]}\n",
        gen.ranks, gen.steps, gen.kernels, jobMB, std::thread::hardware_concurrency(), single.seconds,
        double(single.maxRssKiB) / 1024.0, qPrintable(json.join(QLatin1Char(','))));
    if (keep.isEmpty())
        QDir(jobDir).removeRecursively();
    return 0;
}
