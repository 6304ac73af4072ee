// SPDX-License-Identifier: GPL-3.0-or-later
// bench_import_chrometrace: end-to-end import throughput of PyTorch profiler (Kineto) traces.
//
//   bench_import_chrometrace [--events 1000000,5000000] [--keep DIR] [--gzip] [--kineto-layout] [--seed S]
//   bench_import_chrometrace --import-only FILE WORKSPACE      (internal: one import, one JSON line)
//
// For each size a synthetic trace is generated (not timed), then imported into a fresh workspace by a
// child process running the real path (ImporterRegistry + registerBuiltinImporters + ImportRunner), so
// the peak RSS reported is the import's own. Informational: the exit status is 0 whatever the figures.

#include "benchimport.h"
#include "ingest/importrunner.h"
#include "kinetotracegen.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace plumb::bench;

// Targets from DESIGN.md's performance budget.
constexpr double kTargetMBps = 200;
constexpr double kTargetEventsPerSec = 700'000;
constexpr double kTargetPeakRssMB = 300;
constexpr double kTargetBytesPerEvent = 64;

// The child's figures (imported, status, message, seconds, rssMB) and the workspace's.
struct Row : ChildImport {
    int64_t requested = 0;
    KinetoTraceStats gen;
    int64_t wsBytes = 0;
    int64_t slices = 0, flows = 0, strings = 0, args = 0, tracks = 0, diagnostics = 0;
    [[nodiscard]] double mb() const { return double(gen.uncompressedBytes) / 1e6; }
    [[nodiscard]] double mbps() const { return seconds > 0 ? mb() / seconds : 0; }
    [[nodiscard]] double eps() const { return seconds > 0 ? double(gen.events) / seconds : 0; }
    [[nodiscard]] double bpe() const { return gen.events ? double(wsBytes) / double(gen.events) : 0; }
};

void usage()
{
    std::fprintf(stderr,
        "usage: bench_import_chrometrace [--events 1000000,5000000] [--keep DIR] [--gzip] [--kineto-layout]\n"
        "                                [--seed S]\n"
        "Generates synthetic Kineto traces (not timed) and imports each into a fresh workspace in a child\n"
        "process; prints throughput, peak RSS and workspace size against the targets. --keep DIR keeps the\n"
        "traces and workspaces there instead of a temporary folder.\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only")) {
        ImportOnlyHooks hooks;
        hooks.addFields = [](QJsonObject &o, const plumb::FileImportResult &r) {
            o[QStringLiteral("skipped")] = double(r.skipped);
            o[QStringLiteral("warnings")] = double(r.warnings);
        };
        return importOnly(args[2], args[3], hooks);
    }

    std::vector<int64_t> sizes { 1'000'000, 5'000'000 };
    QString keep;
    KinetoTraceOptions base;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--events") && hasNext) {
            sizes = parseSizes(args[++i]);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--gzip")) {
            base.gzip = true;
        } else if (a == QStringLiteral("--kineto-layout")) {
            base.kinetoLayout = true;
        } else if (a == QStringLiteral("--seed") && hasNext) {
            base.seed = args[++i].toULongLong();
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_import_chrometrace: unknown argument %s\n", qPrintable(a));
            usage();
            return 2;
        }
    }
    if (sizes.empty()) {
        usage();
        return 2;
    }

    QTemporaryDir tmp;
    const QString dir = workFolder("bench_import_chrometrace", keep, tmp);
    if (dir.isEmpty())
        return 1;

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        row.requested = n;
        KinetoTraceOptions o = base;
        o.events = n;
        const QString stem = QDir(dir).filePath(QStringLiteral("bench_%1").arg(n));
        const QString trace = stem + (o.gzip ? QStringLiteral(".json.gz") : QStringLiteral(".json"));
        const QString ws = stem + QStringLiteral(".plumb");
        removeWorkspace(ws);

        std::fprintf(stderr, "generating %s ...\n", qPrintable(trace));
        std::string error;
        if (!writeKinetoTrace(trace.toStdString(), o, &row.gen, &error)) {
            std::fprintf(stderr, "bench_import_chrometrace: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "importing %lld events (%.1f MB) ...\n", static_cast<long long>(row.gen.events),
            row.mb());
        if (!runImportChild("bench_import_chrometrace", trace, ws, &row)) // sync()s, then imports
            return 1;

        // Workspace size once the WAL is folded in, and what landed in it.
        {
            const CheckpointedWorkspace db(ws);
            if (db.isOpen()) {
                row.slices = db.count("SELECT count(*) FROM slice");
                row.flows = db.count("SELECT count(*) FROM flow");
                row.strings = db.count("SELECT count(*) FROM string");
                row.args = db.count("SELECT count(*) FROM args");
                row.tracks = db.count("SELECT count(*) FROM track");
                row.diagnostics = db.count("SELECT count(*) FROM diagnostic");
            }
        }
        row.wsBytes = workspaceBytes(ws);
        rows.push_back(row);

        if (keep.isEmpty())
            QFile::remove(trace); // keep the temp folder small between sizes
    }

    std::printf("\nChrome-trace (Kineto) import benchmark%s%s\n", base.gzip ? ", gzip input" : "",
        base.kinetoLayout ? ", Kineto multi-line layout" : "");
    std::printf("%-10s %9s %9s %8s %9s %10s %9s %10s %8s %10s %9s %7s\n", "events", "JSON MB", "file MB",
        "wall s", "MB/s", "events/s", "RSS MB", "ws MB", "B/event", "slices", "flows", "strings");
    for (const Row &r : rows) {
        std::printf("%-10lld %9.1f %9.1f %8.2f %9.1f %10.0f %9.1f %10.1f %8.1f %10lld %9lld %7lld   %s\n",
            static_cast<long long>(r.gen.events), r.mb(), double(r.gen.fileBytes) / 1e6, r.seconds, r.mbps(),
            r.eps(), r.rssMB, double(r.wsBytes) / 1e6, r.bpe(), static_cast<long long>(r.slices),
            static_cast<long long>(r.flows), static_cast<long long>(r.strings), qPrintable(r.status));
        if (!r.imported && !r.message.isEmpty())
            std::printf("           %s\n", qPrintable(r.message));
    }
    std::printf("\nTargets: >= %.0f MB/s uncompressed JSON, >= %.0fk events/s, peak RSS < %.0f MB, <= %.0f "
                "bytes/event on disk\n",
        kTargetMBps, kTargetEventsPerSec / 1000, kTargetPeakRssMB, kTargetBytesPerEvent);
    for (const Row &r : rows) {
        if (!r.imported) {
            std::printf("  %lld events: not imported (%s): all MISS\n", static_cast<long long>(r.gen.events),
                qPrintable(r.status));
            continue;
        }
        std::printf(
            "  %lld events: MB/s %s (%.0f)  events/s %s (%.0fk)  RSS %s (%.0f MB)  bytes/event %s (%.1f)\n",
            static_cast<long long>(r.gen.events), verdict(r.mbps() >= kTargetMBps), r.mbps(),
            verdict(r.eps() >= kTargetEventsPerSec), r.eps() / 1000, verdict(r.rssMB < kTargetPeakRssMB),
            r.rssMB, verdict(r.bpe() <= kTargetBytesPerEvent), r.bpe());
    }
    std::printf("\n");
    for (const Row &r : rows) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("import_chrometrace");
        j[QStringLiteral("gzip")] = base.gzip;
        j[QStringLiteral("events")] = double(r.gen.events);
        j[QStringLiteral("json_bytes")] = double(r.gen.uncompressedBytes);
        j[QStringLiteral("file_bytes")] = double(r.gen.fileBytes);
        j[QStringLiteral("status")] = r.status;
        j[QStringLiteral("seconds")] = r.seconds;
        j[QStringLiteral("mb_per_s")] = r.mbps();
        j[QStringLiteral("events_per_s")] = r.eps();
        j[QStringLiteral("peak_rss_mb")] = r.rssMB;
        j[QStringLiteral("workspace_bytes")] = double(r.wsBytes);
        j[QStringLiteral("bytes_per_event")] = r.bpe();
        j[QStringLiteral("slices")] = double(r.slices);
        j[QStringLiteral("flows")] = double(r.flows);
        j[QStringLiteral("strings")] = double(r.strings);
        j[QStringLiteral("args")] = double(r.args);
        j[QStringLiteral("tracks")] = double(r.tracks);
        j[QStringLiteral("diagnostics")] = double(r.diagnostics);
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
