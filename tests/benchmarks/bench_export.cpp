// SPDX-License-Identifier: GPL-3.0-or-later
// bench_export: `plumb export --format chrome` throughput and memory, against the Kineto import of the
// same trace.
//
//   bench_export [--events 1000000] [--keep DIR] [--gzip] [--seed S]
//   bench_export --export-only WORKSPACE OUT      (internal: one export, one JSON line)
//
// For each size a synthetic Kineto trace is generated (not timed) and imported by a child process
// (the real import path, timed: the reference), then the workspace's trace is exported by a second
// child (ChromeExporter, as plumb export runs it), so the peak RSS (VmHWM) reported is the export's
// own. Events/s counts the trace events written. Informational: the exit status is 0 whatever the
// figures.

#include "benchimport.h"
#include "export/chromeexport.h"
#include "kinetotracegen.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace plumb::bench;

constexpr double kTargetPeakRssMB = 100;

int exportOnly(const QString &workspace, const QString &out)
{
    QJsonObject o;
    try {
        QElapsedTimer timer;
        timer.start();
        plumb::Workspace ws(workspace, plumb::Workspace::Role::Reader);
        const int64_t traceId = ws.db().queryInt("SELECT min(id) FROM trace");
        plumb::ChromeExportOptions options;
        options.gzip = out.endsWith(QLatin1String(".gz"));
        const plumb::ChromeExportStats s = plumb::ChromeExporter(ws).exportTrace(traceId, out, options);
        o[QStringLiteral("seconds")] = double(timer.nsecsElapsed()) / 1e9;
        o[QStringLiteral("events")] = double(s.events);
        o[QStringLiteral("slices")] = double(s.slices);
        o[QStringLiteral("flows")] = double(s.flows);
        o[QStringLiteral("bytes")] = double(s.bytes);
        o[QStringLiteral("status")] = QStringLiteral("ok");
    } catch (const std::exception &e) {
        o[QStringLiteral("status")] = QStringLiteral("failed");
        o[QStringLiteral("message")] = QString::fromUtf8(e.what());
    }
    o[QStringLiteral("vmhwm_kib")] = double(readVmHwmKiB());
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}

struct Row {
    KinetoTraceStats gen;
    ChildImport import;
    QString status;
    double seconds = 0; // inside the child: open, export, close
    double wallSeconds = 0; // the child process from start to exit
    double rssMB = 0;
    int64_t events = 0, slices = 0, flows = 0, bytes = 0;
    [[nodiscard]] double eps() const { return seconds > 0 ? double(events) / seconds : 0; }
    [[nodiscard]] double importEps() const
    {
        return import.seconds > 0 ? double(gen.events) / import.seconds : 0;
    }
};

void usage()
{
    std::fprintf(stderr,
        "usage: bench_export [--events 1000000] [--keep DIR] [--gzip] [--seed S]\n"
        "Generates a synthetic Kineto trace, imports it (timed: the reference), then exports it with "
        "plumb's\n"
        "Chrome exporter in a child process; prints wall time, events/s and peak RSS against the import.\n"
        "--gzip writes .json.gz. --keep DIR keeps the files there instead of a temporary folder.\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--export-only"))
        return exportOnly(args[2], args[3]);
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only"))
        return importOnly(args[2], args[3]);

    std::vector<int64_t> sizes { 1'000'000 };
    QString keep;
    bool gzip = false;
    KinetoTraceOptions base;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--events") && hasNext) {
            sizes = parseSizes(args[++i]);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--gzip")) {
            gzip = true;
        } else if (a == QStringLiteral("--seed") && hasNext) {
            base.seed = args[++i].toULongLong();
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_export: unknown argument %s\n", qPrintable(a));
            usage();
            return 2;
        }
    }
    if (sizes.empty()) {
        usage();
        return 2;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_export", keep, tmp);
    if (dir.isEmpty())
        return 1;

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        KinetoTraceOptions o = base;
        o.events = n;
        const QString stem = QDir(dir).filePath(QStringLiteral("export_%1").arg(n));
        const QString trace = stem + QStringLiteral(".json");
        const QString ws = stem + QStringLiteral(".plumb");
        const QString out = stem + (gzip ? QStringLiteral(".out.json.gz") : QStringLiteral(".out.json"));
        removeWorkspace(ws);
        std::fprintf(stderr, "generating %s ...\n", qPrintable(trace));
        std::string error;
        if (!writeKinetoTrace(trace.toStdString(), o, &row.gen, &error)) {
            std::fprintf(stderr, "bench_export: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "importing %lld events ...\n", static_cast<long long>(row.gen.events));
        if (!runImportChild("bench_export", trace, ws, &row.import))
            return 1;
        if (keep.isEmpty())
            QFile::remove(trace);

        std::fprintf(stderr, "exporting ...\n");
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QElapsedTimer wall;
        wall.start();
        child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--export-only"), ws, out });
        if (!child.waitForStarted() || !child.waitForFinished(-1)) {
            std::fprintf(stderr, "bench_export: export child failed to run\n");
            return 1;
        }
        row.wallSeconds = double(wall.nsecsElapsed()) / 1e9;
        const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
        const QJsonObject j = QJsonDocument::fromJson(lines.isEmpty() ? QByteArray() : lines.back()).object();
        row.status = j.value(QStringLiteral("status")).toString(QStringLiteral("crashed"));
        row.seconds = j.value(QStringLiteral("seconds")).toDouble();
        row.events = int64_t(j.value(QStringLiteral("events")).toDouble());
        row.slices = int64_t(j.value(QStringLiteral("slices")).toDouble());
        row.flows = int64_t(j.value(QStringLiteral("flows")).toDouble());
        row.bytes = int64_t(j.value(QStringLiteral("bytes")).toDouble());
        row.rssMB = j.value(QStringLiteral("vmhwm_kib")).toDouble() / 1024.0;
        rows.push_back(row);
        if (keep.isEmpty()) {
            QFile::remove(out);
            removeWorkspace(ws);
        }
    }

    std::printf("\nChrome-trace export benchmark%s\n", gzip ? ", .json.gz output" : ", .json output");
    std::printf("%-10s %9s %9s %8s %10s %9s %10s %10s %12s\n", "events", "written", "out MB", "wall s",
        "events/s", "RSS MB", "import s", "import e/s", "status");
    for (const Row &r : rows)
        std::printf("%-10lld %9lld %9.1f %8.2f %10.0f %9.1f %10.2f %10.0f %12s\n",
            static_cast<long long>(r.gen.events), static_cast<long long>(r.events), double(r.bytes) / 1e6,
            r.seconds, r.eps(), r.rssMB, r.import.seconds, r.importEps(), qPrintable(r.status));
    std::printf("\nTargets: at least as fast as the import of the same trace, peak RSS < %.0f MB\n",
        kTargetPeakRssMB);
    for (const Row &r : rows)
        std::printf(
            "  %lld events: speed %s (export %.2f s, child wall %.2f s; import %.2f s)  RSS %s (%.1f MB)\n",
            static_cast<long long>(r.gen.events), verdict(r.seconds > 0 && r.seconds <= r.import.seconds),
            r.seconds, r.wallSeconds, r.import.seconds, verdict(r.rssMB > 0 && r.rssMB < kTargetPeakRssMB),
            r.rssMB);
    std::printf("\n");
    for (const Row &r : rows) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("export_chrome");
        j[QStringLiteral("gzip")] = gzip;
        j[QStringLiteral("events")] = double(r.gen.events);
        j[QStringLiteral("events_written")] = double(r.events);
        j[QStringLiteral("status")] = r.status;
        j[QStringLiteral("seconds")] = r.seconds;
        j[QStringLiteral("wall_seconds")] = r.wallSeconds;
        j[QStringLiteral("events_per_s")] = r.eps();
        j[QStringLiteral("peak_rss_mb")] = r.rssMB;
        j[QStringLiteral("bytes")] = double(r.bytes);
        j[QStringLiteral("import_seconds")] = r.import.seconds;
        j[QStringLiteral("import_peak_rss_mb")] = r.import.rssMB;
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
