// SPDX-License-Identifier: GPL-3.0-or-later
// bench_tfevents: end-to-end import throughput of a TensorBoard logdir.
//
//   bench_tfevents [--runs 100] [--tags 10] [--steps 10000] [--encoding mixed|simple|tensor] [--keep DIR]
//   bench_tfevents --import-only LOGDIR WORKSPACE      (internal: one import, one JSON line)
//   bench_tfevents [--runs N] [--tags T] [--steps S] --output LOGDIR   (only writes the logdir)
//
// Generates a logdir of RUNS folders, each holding one event file with TAGS scalar series of STEPS
// points (default 100 x 10 x 10k = 10M points), written with the importer's own message classes
// (not timed), one Summary.Value per Event as PyTorch's SummaryWriter and tf.summary write them.
// "simple" writes legacy simple_value scalars (PyTorch), "tensor" TF2's rank-0 float tensors of the
// "scalars" plugin (named on each tag's first value only), "mixed" alternates by run. Then a child
// process imports the whole logdir into a fresh workspace through the real path (ImporterRegistry +
// registerBuiltinImporters + ImportRunner: every file in its own transaction), so the peak RSS is
// the import's own. Informational: the exit status is 0 whatever the figures.

#include "benchimport.h"
#include "builtinimporters.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "tfevents.pb.h"
#include "tfevents/crc32c.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

namespace {

using namespace plumb::bench;
namespace tf = plumb::tfevents;

// Targets: the import rate; the memory budget of the other import benchmarks.
constexpr double kTargetPointsPerSec = 1'000'000;
constexpr double kTargetPeakRssMB = 300;

const char *const kTags[] = { "train/loss", "train/lr", "train/grad_norm", "train/tokens_per_s",
    "train/step_ms", "val/loss", "val/accuracy", "sys/gpu_util", "sys/gpu_mem_gb", "sys/dataloader_ms" };

struct GenStats {
    int64_t points = 0;
    int64_t records = 0;
    int64_t bytes = 0;
};

class RecordWriter {
public:
    explicit RecordWriter(const std::string &path)
        : m_out(path, std::ios::binary | std::ios::trunc)
    {
    }
    [[nodiscard]] bool ok() const { return bool(m_out); }
    void write(const tf::Event &e, GenStats &stats)
    {
        e.SerializeToString(&m_data);
        char header[12];
        const uint64_t length = m_data.size();
        std::memcpy(header, &length, 8);
        const uint32_t lengthCrc = plumb::maskCrc32c(plumb::crc32c(header, 8));
        std::memcpy(header + 8, &lengthCrc, 4);
        const uint32_t dataCrc = plumb::maskCrc32c(plumb::crc32c(m_data.data(), m_data.size()));
        m_out.write(header, 12);
        m_out.write(m_data.data(), std::streamsize(m_data.size()));
        m_out.write(reinterpret_cast<const char *>(&dataCrc), 4);
        stats.bytes += int64_t(16 + m_data.size());
        ++stats.records;
    }
    bool close()
    {
        m_out.close();
        return bool(m_out);
    }

private:
    std::ofstream m_out;
    std::string m_data;
};

bool writeRun(
    const QString &dir, int run, int tags, int64_t steps, bool tensor, uint64_t seed, GenStats &stats)
{
    if (!QDir().mkpath(dir))
        return false;
    const double t0 = 1'700'000'000.0 + run * 3600.0;
    const std::string path
        = QDir(dir)
              .filePath(QStringLiteral("events.out.tfevents.%1.bench.%2.0").arg(int64_t(t0)).arg(run))
              .toStdString();
    RecordWriter out(path);
    if (!out.ok())
        return false;
    tf::Event e;
    e.set_wall_time(t0);
    e.set_file_version("brain.Event:2");
    out.write(e, stats);

    std::mt19937_64 rng(seed + uint64_t(run));
    std::normal_distribution<double> noise(0.0, 0.01);
    std::vector<double> level(size_t(tags), 1.0);
    tf::Event ev;
    tf::Summary::Value *v = ev.mutable_summary()->add_value();
    for (int64_t step = 0; step < steps; ++step) {
        for (int t = 0; t < tags; ++t) {
            level[size_t(t)] = std::max(0.0, level[size_t(t)] * 0.9998 + noise(rng));
            ev.set_wall_time(t0 + double(step) * 0.35 + t * 1e-4);
            ev.set_step(step);
            v->Clear();
            v->set_tag(kTags[t % std::size(kTags)]
                + (t < int(std::size(kTags)) ? std::string() : std::to_string(t)));
            if (tensor) {
                tf::TensorProto *x = v->mutable_tensor();
                x->set_dtype(tf::DT_FLOAT);
                x->mutable_tensor_shape();
                x->add_float_val(float(level[size_t(t)]));
                if (step == 0)
                    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
            } else {
                v->set_simple_value(float(level[size_t(t)]));
            }
            out.write(ev, stats);
            ++stats.points;
        }
    }
    return out.close();
}

// Child mode: imports LOGDIR and prints one JSON line (the fields runImportChild reads, plus counts).
int importLogdir(const QString &logdir, const QString &workspace)
{
    QJsonObject o;
    try {
        plumb::ImporterRegistry reg;
        plumb::registerBuiltinImporters(reg);
        plumb::ImportRunner runner(reg, workspace);
        QElapsedTimer t;
        t.start();
        const auto results = runner.run({ logdir });
        o[QStringLiteral("seconds")] = double(t.nsecsElapsed()) / 1e9;
        int imported = 0;
        double records = 0;
        QString failure;
        for (const auto &r : results) {
            if (r.status == plumb::FileImportResult::Status::Imported)
                ++imported;
            else if (failure.isEmpty())
                failure = r.path + QStringLiteral(": ") + r.message;
            records += double(r.records);
        }
        const bool all = imported == int(results.size()) && imported > 0;
        o[QStringLiteral("imported")] = all;
        o[QStringLiteral("status")] = all
            ? QStringLiteral("imported")
            : QStringLiteral("%1 of %2 imported").arg(imported).arg(results.size());
        o[QStringLiteral("message")] = failure;
        o[QStringLiteral("records")] = records;
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

void usage()
{
    std::fprintf(stderr,
        "usage: bench_tfevents [--runs 100] [--tags 10] [--steps 10000] [--encoding mixed|simple|tensor]\n"
        "                      [--keep DIR] [--seed S] [--output LOGDIR]\n"
        "Generates a TensorBoard logdir (not timed) and imports it into a fresh workspace in a child\n"
        "process; prints points/s and peak RSS against the targets. --output: only write the logdir\n"
        "there, one folder per run (the kill tests' input).\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only"))
        return importLogdir(args[2], args[3]);

    int runs = 100, tags = 10;
    int64_t steps = 10'000;
    QString encoding = QStringLiteral("mixed"), keep, output;
    uint64_t seed = 1;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--runs") && hasNext) {
            runs = args[++i].toInt();
        } else if (a == QStringLiteral("--tags") && hasNext) {
            tags = args[++i].toInt();
        } else if (a == QStringLiteral("--steps") && hasNext) {
            const auto s = parseSizes(args[++i]);
            steps = s.empty() ? 0 : s.front();
        } else if (a == QStringLiteral("--encoding") && hasNext) {
            encoding = args[++i];
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--output") && hasNext) {
            output = args[++i];
        } else if (a == QStringLiteral("--seed") && hasNext) {
            seed = args[++i].toULongLong();
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_tfevents: unknown argument %s\n", qPrintable(a));
            usage();
            return 2;
        }
    }
    if (runs <= 0 || tags <= 0 || steps <= 0
        || !(encoding == QLatin1String("mixed") || encoding == QLatin1String("simple")
            || encoding == QLatin1String("tensor"))) {
        usage();
        return 2;
    }
    QTemporaryDir tmp;
    const QString dir = output.isEmpty() ? workFolder("bench_tfevents", keep, tmp) : output;
    if (dir.isEmpty())
        return 1;
    const QString logdir = output.isEmpty() ? QDir(dir).filePath(QStringLiteral("logdir")) : output;
    const QString ws = QDir(dir).filePath(QStringLiteral("bench_tfevents.plumb"));
    if (output.isEmpty())
        QDir(logdir).removeRecursively();
    removeWorkspace(ws);

    GenStats gen;
    std::fprintf(stderr, "generating %d runs x %d tags x %lld steps in %s ...\n", runs, tags,
        static_cast<long long>(steps), qPrintable(logdir));
    for (int r = 0; r < runs; ++r) {
        const bool tensor
            = encoding == QLatin1String("tensor") || (encoding == QLatin1String("mixed") && r % 2);
        if (!writeRun(QDir(logdir).filePath(QStringLiteral("run_%1").arg(r, 3, 10, QLatin1Char('0'))), r,
                tags, steps, tensor, seed, gen)) {
            std::fprintf(stderr, "bench_tfevents: cannot write run %d under %s\n", r, qPrintable(logdir));
            return 1;
        }
    }
    if (!output.isEmpty()) {
        std::printf("%lld points (%.1f MB in %d files) in %s\n", static_cast<long long>(gen.points),
            double(gen.bytes) / 1e6, runs, qPrintable(logdir));
        return 0;
    }
    std::fprintf(stderr, "importing %lld points (%.1f MB in %d files) ...\n",
        static_cast<long long>(gen.points), double(gen.bytes) / 1e6, runs);
    ChildImport child;
    if (!runImportChild("bench_tfevents", logdir, ws, &child)) // sync()s, then imports
        return 1;
    int64_t points = -1, series = -1, runRows = -1;
    {
        const CheckpointedWorkspace db(ws);
        if (db.isOpen()) {
            points = db.count("SELECT count(*) FROM metric");
            series = db.count("SELECT count(*) FROM metric_series");
            runRows = db.count("SELECT count(*) FROM run");
        }
    }
    const int64_t wsBytes = workspaceBytes(ws);
    const double pps = child.seconds > 0 ? double(gen.points) / child.seconds : 0;

    std::printf("\nTensorBoard logdir import benchmark (%s encoding)\n", qPrintable(encoding));
    std::printf("%-10s %7s %9s %8s %11s %9s %9s %10s %8s\n", "points", "runs", "file MB", "wall s",
        "points/s", "MB/s", "RSS MB", "ws MB", "B/point");
    std::printf("%-10lld %7d %9.1f %8.2f %11.0f %9.1f %9.1f %10.1f %8.1f   %s\n",
        static_cast<long long>(gen.points), runs, double(gen.bytes) / 1e6, child.seconds, pps,
        child.seconds > 0 ? double(gen.bytes) / 1e6 / child.seconds : 0, child.rssMB, double(wsBytes) / 1e6,
        gen.points > 0 ? double(wsBytes) / double(gen.points) : 0, qPrintable(child.status));
    if (!child.imported && !child.message.isEmpty())
        std::printf("           %s\n", qPrintable(child.message));
    std::printf("stored: %lld points, %lld series, %lld runs\n", static_cast<long long>(points),
        static_cast<long long>(series), static_cast<long long>(runRows));
    std::printf(
        "\nTargets: >= %.0fM points/s, peak RSS < %.0f MB\n", kTargetPointsPerSec / 1e6, kTargetPeakRssMB);
    if (child.imported && points == gen.points)
        std::printf("  points/s %s (%.2fM)  RSS %s (%.0f MB)\n", verdict(pps >= kTargetPointsPerSec),
            pps / 1e6, verdict(child.rssMB < kTargetPeakRssMB), child.rssMB);
    else
        std::printf("  not imported whole (%s, %lld of %lld points): all MISS\n", qPrintable(child.status),
            static_cast<long long>(points), static_cast<long long>(gen.points));
    QJsonObject j;
    j[QStringLiteral("benchmark")] = QStringLiteral("import_tfevents");
    j[QStringLiteral("encoding")] = encoding;
    j[QStringLiteral("runs")] = runs;
    j[QStringLiteral("points")] = double(gen.points);
    j[QStringLiteral("file_bytes")] = double(gen.bytes);
    j[QStringLiteral("status")] = child.status;
    j[QStringLiteral("seconds")] = child.seconds;
    j[QStringLiteral("points_per_sec")] = pps;
    j[QStringLiteral("peak_rss_mb")] = child.rssMB;
    j[QStringLiteral("workspace_bytes")] = double(wsBytes);
    std::printf("\n%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    if (keep.isEmpty())
        QDir(logdir).removeRecursively();
    return 0;
}
