// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the whole-command benchmarks (bench_import_small, bench_verdict) share: running `plumb` as a user
// does, from exec to exit, its wall time, peak RSS and stdout.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace plumb::bench {

// The bytes of the files in `dir` (not below it).
inline int64_t folderBytes(const QString &dir)
{
    int64_t n = 0;
    for (const QFileInfo &f : QDir(dir).entryInfoList(QDir::Files))
        n += f.size();
    return n;
}

struct ChildRun {
    bool ok = false; // started, and exited with status 0
    double seconds = 0;
    long maxRssKiB = 0; // the child's ru_maxrss
    std::string output; // its stdout (stderr passes through)
};

// Runs `program` with `args`, waits for it and measures it.
inline ChildRun runChild(const QString &program, const QStringList &args)
{
    std::vector<QByteArray> bytes { QFile::encodeName(program) };
    for (const QString &a : args)
        bytes.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &b : bytes)
        argv.push_back(b.data());
    argv.push_back(nullptr);
    ChildRun r;
    int out[2];
    if (::pipe(out) != 0)
        return r;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) {
        ::close(out[0]);
        return r;
    }
    char buf[4096];
    for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;)
        r.output.append(buf, size_t(n));
    ::close(out[0]);
    int status = 0;
    rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.maxRssKiB = usage.ru_maxrss;
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return r;
}

// runChild(), or the benchmark `bench` stops with what the child printed.
inline ChildRun mustRun(const char *bench, const QString &program, const QStringList &args)
{
    ChildRun r = runChild(program, args);
    if (!r.ok) {
        std::fprintf(stderr, "%s: %s %s failed:\n%s\n", bench, qPrintable(program),
            qPrintable(args.join(QLatin1Char(' '))), r.output.c_str());
        std::exit(1);
    }
    return r;
}

// The middle value of a benchmark's runs (0 for none).
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Runs `work` in a forked child and returns its exit status (1 when it did not exit). What a benchmark
// generates before it measures goes here: Linux keeps a process's peak RSS across exec, and a child
// spawned by runChild() starts from its parent's, so a parent that grew while generating would raise
// every child's ru_maxrss to its own peak.
inline int runInChild(const std::function<int()> &work)
{
    const pid_t pid = ::fork();
    if (pid == 0)
        ::_exit(work());
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace plumb::bench
