// SPDX-License-Identifier: GPL-3.0-or-later
// bench_verdict: from a large trace to the doctor's verdict (issue 35), as a user runs it: `plumb import
// --workspace NEW TRACE` then `plumb doctor --workspace W`, each timed from exec to exit with its peak
// RSS, N times, each into a new workspace. The doctor reads the summaries the import stored; once per
// run `plumb doctor --from-events` (everything recomputed from the events) is timed beside it.
//
//   bench_verdict [--events 6.8M] [--layers 1000] [--runs 3] [--keep DIR] [--plumb PATH] [--trace FILE]
//
// Without --trace, a Kineto trace is generated first (not timed; kinetotracegen.h): by default about
// 6.9M events, 1.86 GB of JSON, 19 steps of 1,000 transformer layers with record_shapes-style args. Targets
// (issue 35): import plus doctor under 8 s, peak RSS under 300 MB. Informational: exit status 0 whatever
// the figures.

#include "benchimport.h"
#include "childrun.h"
#include "verdictsetup.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace plumb::bench;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    VerdictSetup v;
    v.plumb = QStringLiteral(PLUMB_CLI_PATH);
    if (const int rc = v.setUp("bench_verdict", app.arguments().mid(1), true); rc != 0)
        return rc;
    const int runs = v.runs;
    const QString &plumb = v.plumb, &trace = v.trace, &dir = v.dir;
    std::vector<double> imports, doctors, fromEvents, totals;
    long importRss = 0, doctorRss = 0, eventsRss = 0;
    for (int i = 0; i < runs; ++i) {
        const QString ws = dir + QStringLiteral("/verdict.plumb");
        removeWorkspace(ws);
        const ChildRun imp = mustRun(
            "bench_verdict", plumb, { QStringLiteral("import"), QStringLiteral("--workspace"), ws, trace });
        const ChildRun doc = mustRun(
            "bench_verdict", plumb, { QStringLiteral("doctor"), QStringLiteral("--workspace"), ws });
        const ChildRun full = mustRun("bench_verdict", plumb,
            { QStringLiteral("doctor"), QStringLiteral("--workspace"), ws, QStringLiteral("--from-events") });
        if (doc.output != full.output) {
            std::fprintf(stderr, "bench_verdict: the doctor from the summaries and from the events differ\n");
            return 1;
        }
        imports.push_back(imp.seconds);
        doctors.push_back(doc.seconds);
        fromEvents.push_back(full.seconds);
        totals.push_back(imp.seconds + doc.seconds);
        importRss = std::max(importRss, imp.maxRssKiB);
        doctorRss = std::max(doctorRss, doc.maxRssKiB);
        eventsRss = std::max(eventsRss, full.maxRssKiB);
        std::printf(
            "  run %d: import %.2f s, doctor %.3f s (from the events %.2f s): %.2f s to the verdict\n", i + 1,
            imp.seconds, doc.seconds, full.seconds, imp.seconds + doc.seconds);
        if (i == 0)
            std::printf(
                "%s", doc.output.substr(0, doc.output.find('\n', doc.output.find("verdict:")) + 1).c_str());
        removeWorkspace(ws);
    }
    const double total = median(totals), peakMB = double(std::max(importRss, doctorRss)) / 1024.0;
    std::printf(
        "median of %d: import %.2f s (peak RSS %.0f MB), doctor %.3f s (%.0f MB); from the events %.2f s "
        "(%.0f MB)\n",
        runs, median(imports), double(importRss) / 1024.0, median(doctors), double(doctorRss) / 1024.0,
        median(fromEvents), double(eventsRss) / 1024.0);
    std::printf("file to verdict: %.2f s, target 8 s: %s; peak RSS %.0f MB, target 300 MB: %s\n", total,
        verdict(total < 8.0), peakMB, verdict(peakMB < 300.0));
    std::printf("{\"bench\":\"verdict\",\"events\":%lld,\"runs\":%d,\"import_s\":%.3f,\"doctor_s\":%.4f,"
                "\"doctor_from_events_s\":%.3f,\"total_s\":%.3f,\"peak_rss_mb\":%.1f}\n",
        v.events(), runs, median(imports), median(doctors), median(fromEvents), total, peakMB);
    return 0;
}
