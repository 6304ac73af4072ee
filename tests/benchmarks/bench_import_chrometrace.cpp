// bench_import_chrometrace: end-to-end import throughput of PyTorch profiler (Kineto) traces.
//
//   bench_import_chrometrace [--events 1000000,5000000] [--keep DIR] [--gzip] [--kineto-layout] [--seed S]
//   bench_import_chrometrace --import-only FILE WORKSPACE      (internal: one import, one JSON line)
//
// For each size a synthetic trace is generated (not timed), then imported into a fresh workspace by a
// child process running the real path (ImporterRegistry + registerBuiltinImporters + ImportRunner), so
// the peak RSS reported is the import's own. Informational: the exit status is 0 whatever the figures.

#include "importerregistry.h"
#include "importrunner.h"
#include "builtinimporters.h"
#include "kinetotracegen.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <unistd.h>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

// Targets from DESIGN.md's performance budget.
constexpr double kTargetMBps = 200;
constexpr double kTargetEventsPerSec = 700'000;
constexpr double kTargetPeakRssMB = 300;
constexpr double kTargetBytesPerEvent = 64;

int64_t readVmHwmKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    // /proc files report size 0: read them whole rather than testing atEnd().
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// Child mode: import FILE into WORKSPACE and print one JSON line on stdout.
int importOnly(const QString &file, const QString &workspace)
{
    QJsonObject o;
    try {
        plumb::ImporterRegistry reg;
        plumb::registerBuiltinImporters(reg);
        plumb::ImportRunner runner(reg, workspace);
        QElapsedTimer t;
        t.start();
        const std::vector<plumb::FileImportResult> results = runner.run({ file });
        o[QStringLiteral("seconds")] = double(t.nsecsElapsed()) / 1e9;
        if (!results.empty()) {
            const plumb::FileImportResult &r = results.front();
            o[QStringLiteral("status")] = plumb::statusName(r.status);
            o[QStringLiteral("imported")] = r.status == plumb::FileImportResult::Status::Imported;
            o[QStringLiteral("message")] = r.message;
            o[QStringLiteral("records")] = double(r.records);
            o[QStringLiteral("skipped")] = double(r.skipped);
            o[QStringLiteral("warnings")] = double(r.warnings);
        } else {
            o[QStringLiteral("status")] = QStringLiteral("no result");
            o[QStringLiteral("imported")] = false;
        }
    } catch (const std::exception &e) {
        o[QStringLiteral("status")] = QStringLiteral("exception");
        o[QStringLiteral("imported")] = false;
        o[QStringLiteral("message")] = QString::fromUtf8(e.what());
    }
    o[QStringLiteral("vmhwm_kib")] = double(readVmHwmKiB());
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    return 0;
}

int64_t queryCount(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = nullptr;
    int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

struct Row {
    int64_t requested = 0;
    plumb::bench::KinetoTraceStats gen;
    bool imported = false;
    QString status;
    QString message;
    double seconds = 0;
    double rssMB = 0;
    int64_t wsBytes = 0;
    int64_t slices = 0, flows = 0, strings = 0, args = 0, tracks = 0, diagnostics = 0;
    [[nodiscard]] double mb() const { return double(gen.uncompressedBytes) / 1e6; }
    [[nodiscard]] double mbps() const { return seconds > 0 ? mb() / seconds : 0; }
    [[nodiscard]] double eps() const { return seconds > 0 ? double(gen.events) / seconds : 0; }
    [[nodiscard]] double bpe() const { return gen.events ? double(wsBytes) / double(gen.events) : 0; }
};

std::vector<int64_t> parseSizes(const QString &s)
{
    std::vector<int64_t> out;
    for (QString part : s.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        part = part.trimmed();
        double mult = 1;
        if (part.endsWith(QLatin1Char('k'), Qt::CaseInsensitive)) {
            mult = 1e3;
            part.chop(1);
        } else if (part.endsWith(QLatin1Char('m'), Qt::CaseInsensitive)) {
            mult = 1e6;
            part.chop(1);
        }
        bool ok = false;
        const double v = part.toDouble(&ok);
        if (ok && v > 0)
            out.push_back(int64_t(v * mult));
    }
    return out;
}

void usage()
{
    std::fprintf(stderr,
                 "usage: bench_import_chrometrace [--events 1000000,5000000] [--keep DIR] [--gzip] [--kineto-layout]\n"
                 "                                [--seed S]\n"
                 "Generates synthetic Kineto traces (not timed) and imports each into a fresh workspace in a child\n"
                 "process; prints throughput, peak RSS and workspace size against the targets. --keep DIR keeps the\n"
                 "traces and workspaces there instead of a temporary folder.\n");
}

const char *verdict(bool pass) { return pass ? "PASS" : "MISS"; }

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only"))
        return importOnly(args[2], args[3]);

    std::vector<int64_t> sizes { 1'000'000, 5'000'000 };
    QString keep;
    plumb::bench::KinetoTraceOptions base;
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
    QString dir = keep;
    if (dir.isEmpty()) {
        if (!tmp.isValid()) {
            std::fprintf(stderr, "bench_import_chrometrace: cannot create a temporary folder\n");
            return 1;
        }
        dir = tmp.path();
    } else if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "bench_import_chrometrace: cannot create %s\n", qPrintable(dir));
        return 1;
    }

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        row.requested = n;
        plumb::bench::KinetoTraceOptions o = base;
        o.events = n;
        const QString stem = QDir(dir).filePath(QStringLiteral("bench_%1").arg(n));
        const QString trace = stem + (o.gzip ? QStringLiteral(".json.gz") : QStringLiteral(".json"));
        const QString ws = stem + QStringLiteral(".plumb");
        for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
            QFile::remove(ws + suffix);

        std::fprintf(stderr, "generating %s ...\n", qPrintable(trace));
        std::string error;
        if (!plumb::bench::writeKinetoTrace(trace.toStdString(), o, &row.gen, &error)) {
            std::fprintf(stderr, "bench_import_chrometrace: %s\n", error.c_str());
            return 1;
        }
        // Let the freshly written trace reach the disk first, so that the import does not compete with
        // the kernel's write-back of the generator's output (a user's trace is at rest).
        ::sync();
        std::fprintf(stderr, "importing %lld events (%.1f MB) ...\n", static_cast<long long>(row.gen.events), row.mb());

        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--import-only"), trace, ws });
        if (!child.waitForStarted(-1) || !child.waitForFinished(-1)) {
            std::fprintf(stderr, "bench_import_chrometrace: import child failed to run\n");
            return 1;
        }
        const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
        const QJsonObject res = QJsonDocument::fromJson(lines.value(lines.size() - 1)).object();
        if (child.exitStatus() != QProcess::NormalExit || res.isEmpty()) {
            row.status = QStringLiteral("crashed");
            row.message = QStringLiteral("exit code %1").arg(child.exitCode());
        } else {
            row.imported = res.value(QStringLiteral("imported")).toBool();
            row.status = res.value(QStringLiteral("status")).toString();
            row.message = res.value(QStringLiteral("message")).toString();
            row.seconds = res.value(QStringLiteral("seconds")).toDouble();
            row.rssMB = res.value(QStringLiteral("vmhwm_kib")).toDouble() / 1024.0;
        }

        // Workspace size once the WAL is folded in, and what landed in it.
        sqlite3 *db = nullptr;
        if (QFileInfo::exists(ws) && sqlite3_open_v2(ws.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
            sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
            row.slices = queryCount(db, "SELECT count(*) FROM slice");
            row.flows = queryCount(db, "SELECT count(*) FROM flow");
            row.strings = queryCount(db, "SELECT count(*) FROM string");
            row.args = queryCount(db, "SELECT count(*) FROM args");
            row.tracks = queryCount(db, "SELECT count(*) FROM track");
            row.diagnostics = queryCount(db, "SELECT count(*) FROM diagnostic");
        }
        sqlite3_close(db);
        row.wsBytes = QFileInfo(ws).size() + QFileInfo(ws + QStringLiteral("-wal")).size();
        rows.push_back(row);

        if (keep.isEmpty())
            QFile::remove(trace); // keep the temp folder small between sizes
    }

    std::printf("\nChrome-trace (Kineto) import benchmark%s%s\n", base.gzip ? ", gzip input" : "",
                base.kinetoLayout ? ", Kineto multi-line layout" : "");
    std::printf("%-10s %9s %9s %8s %9s %10s %9s %10s %8s %10s %9s %7s\n", "events", "JSON MB", "file MB", "wall s",
                "MB/s", "events/s", "RSS MB", "ws MB", "B/event", "slices", "flows", "strings");
    for (const Row &r : rows) {
        std::printf("%-10lld %9.1f %9.1f %8.2f %9.1f %10.0f %9.1f %10.1f %8.1f %10lld %9lld %7lld   %s\n",
                    static_cast<long long>(r.gen.events), r.mb(), double(r.gen.fileBytes) / 1e6, r.seconds, r.mbps(),
                    r.eps(), r.rssMB, double(r.wsBytes) / 1e6, r.bpe(), static_cast<long long>(r.slices),
                    static_cast<long long>(r.flows), static_cast<long long>(r.strings), qPrintable(r.status));
        if (!r.imported && !r.message.isEmpty())
            std::printf("           %s\n", qPrintable(r.message));
    }
    std::printf("\nTargets: >= %.0f MB/s uncompressed JSON, >= %.0fk events/s, peak RSS < %.0f MB, <= %.0f bytes/event on disk\n",
                kTargetMBps, kTargetEventsPerSec / 1000, kTargetPeakRssMB, kTargetBytesPerEvent);
    for (const Row &r : rows) {
        if (!r.imported) {
            std::printf("  %lld events: not imported (%s): all MISS\n", static_cast<long long>(r.gen.events),
                        qPrintable(r.status));
            continue;
        }
        std::printf("  %lld events: MB/s %s (%.0f)  events/s %s (%.0fk)  RSS %s (%.0f MB)  bytes/event %s (%.1f)\n",
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
