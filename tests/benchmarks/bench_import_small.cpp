// SPDX-License-Identifier: GPL-3.0-or-later
// The everyday import (issue 35): one real Kineto trace of tens of MB, `plumb import --workspace NEW FILE`
// timed from exec to exit, N times, each into a new workspace in a temporary folder. What a user waits
// for, fixed costs included: process start-up, creating the workspace, the post-load passes, the syncs.
// Prints the median, min and p90 wall time and the largest peak RSS (the child's ru_maxrss). With
// --baseline OTHER_PLUMB the two executables run alternately, so that a change is compared on the same
// (noisy, shared) machine minute.
//
// usage: bench_import_small [--runs N] [--plumb PATH] [--baseline PATH] [TRACE]
//   TRACE defaults to shared/data/traces/kineto/hta_trace_diff_control.json.gz (35 MB of JSON, 109k events).
#include "childrun.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// `plumb import --workspace WORKSPACE TRACE`; exits on a failure.
plumb::bench::ChildRun importOnce(const QString &plumb, const QString &workspace, const QString &trace)
{
    plumb::bench::ChildRun r = plumb::bench::runChild(
        plumb, { QStringLiteral("import"), QStringLiteral("--workspace"), workspace, trace });
    if (!r.ok || r.output.find(": imported") == std::string::npos) {
        std::fprintf(stderr, "bench_import_small: %s import %s failed:\n%s\n", qPrintable(plumb),
            qPrintable(trace), r.output.c_str());
        std::exit(1);
    }
    return r;
}

struct Summary {
    std::vector<double> seconds;
    long maxRssKiB = 0;
    std::string records;
};

void print(const QString &plumb, Summary s)
{
    std::sort(s.seconds.begin(), s.seconds.end());
    const size_t n = s.seconds.size();
    std::printf(
        "%s\n  %zu imports of %s records: median %.3f s   min %.3f s   p90 %.3f s   peak RSS %.1f MB\n",
        qPrintable(plumb), n, s.records.c_str(), s.seconds[n / 2], s.seconds.front(),
        s.seconds[std::min(n - 1, n * 9 / 10)], double(s.maxRssKiB) / 1024.0);
    std::printf("{\"bench\":\"import_small\",\"plumb\":\"%s\",\"runs\":%zu,\"median_s\":%.4f,\"min_s\":%.4f,"
                "\"peak_rss_mb\":%.1f}\n",
        qPrintable(plumb), n, s.seconds[n / 2], s.seconds.front(), double(s.maxRssKiB) / 1024.0);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int runs = 11;
    QString plumb = QStringLiteral(PLUMB_CLI_PATH), baseline;
    QString trace = QStringLiteral(PLUMB_SHARED_DATA "/traces/kineto/hta_trace_diff_control.json.gz");
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--plumb") && i + 1 < args.size())
            plumb = args[++i];
        else if (args[i] == QLatin1String("--baseline") && i + 1 < args.size())
            baseline = args[++i];
        else if (!args[i].startsWith(QLatin1Char('-')))
            trace = args[i];
        else {
            std::fprintf(
                stderr, "usage: bench_import_small [--runs N] [--plumb PATH] [--baseline PATH] [TRACE]\n");
            return 2;
        }
    }
    if (!QFileInfo(trace).isFile()) {
        std::fprintf(stderr, "bench_import_small: no trace at %s (pass one)\n", qPrintable(trace));
        return 1;
    }
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        std::fprintf(stderr, "bench_import_small: cannot create a temporary folder\n");
        return 1;
    }
    std::printf("%s (%.1f MB)\n", qPrintable(trace), double(QFileInfo(trace).size()) / 1e6);
    QStringList programs { plumb };
    if (!baseline.isEmpty())
        programs.prepend(baseline);
    std::vector<Summary> summaries(size_t(programs.size()));
    static const QRegularExpression records(QStringLiteral("\\(([0-9,]+) records"));
    int k = 0;
    for (int i = 0; i <= runs; ++i) { // run 0 warms the page cache and is not counted
        for (int p = 0; p < programs.size(); ++p) {
            const QString ws = tmp.filePath(QStringLiteral("w%1.plumb").arg(k++));
            const plumb::bench::ChildRun r = importOnce(programs[p], ws, trace);
            QFile::remove(ws);
            if (i == 0)
                continue;
            Summary &s = summaries[size_t(p)];
            s.seconds.push_back(r.seconds);
            s.maxRssKiB = std::max(s.maxRssKiB, r.maxRssKiB);
            const auto m = records.match(QString::fromStdString(r.output));
            s.records = m.hasMatch() ? m.captured(1).toStdString() : std::string("?");
        }
    }
    for (int p = 0; p < programs.size(); ++p)
        print(programs[p], summaries[size_t(p)]);
    return 0;
}
