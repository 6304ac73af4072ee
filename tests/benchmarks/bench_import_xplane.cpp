// SPDX-License-Identifier: GPL-3.0-or-later
// bench_import_xplane: end-to-end import throughput of XPlane (.xplane.pb) profiles.
//
//   bench_import_xplane [--events 1000000,2000000] [--keep DIR] [--seed S]
//   bench_import_xplane --import-only FILE WORKSPACE      (internal: one import, one JSON line)
//   bench_import_xplane --events N [--seed S] --output FILE (only writes the profile of N events to FILE)
//
// For each size a synthetic TensorFlow-style GPU profile is generated with the importer's own
// message classes (not timed), then imported into a fresh workspace by a child process running the
// real path (ImporterRegistry + registerBuiltinImporters + ImportRunner), so the peak RSS reported
// is the import's own. Informational: the exit status is 0 whatever the figures.
//
// What it simulates: one host plane with 8 threads where each op (an ExecutorState-like span with
// group_id and shape stats) launches one GPU op (a CUDA API event with correlation_id and
// kernel_details by ref_value, as TensorFlow writes it), and two GPU planes with a compute stream
// and two copy streams (kernels with correlation_id, kernel_details and annotation by ref_value;
// memcpy with memcpy_details text), a "TensorFlow Ops" line mirroring the kernels and a "Steps"
// line. About 4 events per launch; epoch timestamps; 8 % of GPU ops are copies.

#include "benchimport.h"
#include "ingest/importerregistry.h"
#include "xplane.pb.h"

#include "kineto_kernel_names.inc"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using namespace plumb::bench;

namespace xp = plumb::xplane;

// Targets: on par with the Kineto importer's measured rate; DESIGN.md's memory budget.
constexpr double kTargetEventsPerSec = 600'000;
constexpr double kTargetPeakRssMB = 300;

constexpr int kHostThreads = 8;
constexpr int kGpus = 2;
constexpr int64_t kT0Ns = 1'700'000'000'000'000'000; // epoch ns
constexpr int64_t kLaunchesPerStep = 2000;

// Metadata tables of one plane, filled as names are first used.
class PlaneMeta {
public:
    explicit PlaneMeta(xp::XPlane &plane)
        : m_plane(plane)
    {
    }
    int64_t event(const std::string &name, const std::string &display = {})
    {
        const std::string key = name + '\x1f' + display;
        auto it = m_events.find(key);
        if (it != m_events.end())
            return it->second;
        const int64_t id = int64_t(m_events.size()) + 1;
        xp::XEventMetadata &m = (*m_plane.mutable_event_metadata())[id];
        m.set_id(id);
        m.set_name(name);
        if (!display.empty())
            m.set_display_name(display);
        m_events.emplace(key, id);
        return id;
    }
    int64_t stat(const std::string &name)
    {
        auto it = m_stats.find(name);
        if (it != m_stats.end())
            return it->second;
        const int64_t id = int64_t(m_stats.size()) + 1;
        xp::XStatMetadata &m = (*m_plane.mutable_stat_metadata())[id];
        m.set_id(id);
        m.set_name(name);
        m_stats.emplace(name, id);
        return id;
    }

private:
    xp::XPlane &m_plane;
    std::unordered_map<std::string, int64_t> m_events, m_stats;
};

struct GenStats {
    int64_t events = 0;
    int64_t bytes = 0;
};

void addStat(xp::XEvent *e, int64_t metadataId, int64_t v)
{
    xp::XStat *s = e->add_stats();
    s->set_metadata_id(metadataId);
    s->set_int64_value(v);
}

bool writeProfile(const std::string &path, int64_t events, uint64_t seed, GenStats *out, std::string *error)
{
    std::mt19937_64 rng(seed);
    auto uniform = [&rng](int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); };

    std::vector<const char *> kernels;
    kernels.insert(kernels.end(), std::begin(kGemmKernels), std::end(kGemmKernels));
    kernels.insert(kernels.end(), std::begin(kElementwiseKernels), std::end(kElementwiseKernels));
    kernels.insert(kernels.end(), std::begin(kReduceKernels), std::end(kReduceKernels));
    kernels.insert(kernels.end(), std::begin(kNormKernels), std::end(kNormKernels));
    kernels.insert(kernels.end(), std::begin(kSoftmaxKernels), std::end(kSoftmaxKernels));
    kernels.insert(kernels.end(), std::begin(kAttentionKernels), std::end(kAttentionKernels));
    static const char *const kOpTypes[]
        = { "MatMul", "BiasAdd", "Relu", "AddV2", "Softmax", "LayerNorm", "Mul", "Conv2D" };

    xp::XPlane host;
    host.set_id(0);
    host.set_name("/host:CPU");
    PlaneMeta hostMeta(host);
    std::vector<xp::XLine *> threads;
    for (int t = 0; t < kHostThreads; ++t) {
        xp::XLine *l = host.add_lines();
        l->set_id(1000 + t);
        l->set_name("tf_Compute/" + std::to_string(1000 + t));
        l->set_timestamp_ns(kT0Ns);
        threads.push_back(l);
    }
    std::vector<xp::XPlane> gpus(kGpus);
    std::vector<PlaneMeta> gpuMeta;
    struct GpuLines {
        xp::XLine *compute, *h2d, *d2h, *ops, *steps;
    };
    std::vector<GpuLines> gpuLines;
    for (int g = 0; g < kGpus; ++g) {
        xp::XPlane &p = gpus[size_t(g)];
        p.set_id(g + 1);
        p.set_name("/device:GPU:" + std::to_string(g));
        gpuMeta.emplace_back(p);
        auto line = [&p](int64_t id, const std::string &name) {
            xp::XLine *l = p.add_lines();
            l->set_id(id);
            l->set_name(name);
            l->set_timestamp_ns(kT0Ns);
            return l;
        };
        gpuLines.push_back({ line(7, "Stream #7(Compute)"), line(8, "Stream #8(MemcpyH2D)"),
            line(9, "Stream #9(MemcpyD2H)"), line(-559038734, "TensorFlow Ops"), line(-559038737, "Steps") });
        PlaneMeta &m = gpuMeta.back();
        for (const auto &[name, v] : std::vector<std::pair<std::string, int64_t>> {
                 { "clock_rate", 1530000 }, { "core_count", 80 }, { "compute_cap_major", 7 } }) {
            xp::XStat *s = p.add_stats();
            s->set_metadata_id(m.stat(name));
            s->set_int64_value(v);
        }
    }
    std::vector<std::string> details;
    details.reserve(24);
    for (int i = 0; i < 24; ++i)
        details.push_back("regs:" + std::to_string(16 + 8 * (i % 8)) + " static_shared:0 dynamic_shared:"
            + std::to_string(1024 * (i % 3)) + " grid:" + std::to_string(1 << (i % 10)) + ",1,1 block:"
            + std::to_string(32 << (i % 4)) + ",1,1 occ_pct:" + std::to_string(25 * (1 + i % 4)) + ".0");

    const int64_t hGroup = hostMeta.stat("group_id"), hShape = hostMeta.stat("shape");
    const int64_t hCorr = hostMeta.stat("correlation_id"), hDetails = hostMeta.stat("kernel_details");
    std::vector<int64_t> threadCursorPs(kHostThreads, 0);
    std::vector<std::array<int64_t, 3>> streamCursorPs(kGpus, { 0, 0, 0 });
    std::vector<int64_t> stepStartPs(kGpus, 0);
    const int64_t launches = std::max<int64_t>(1, (events * 25 + 97) / 98); // ~3.92 events per launch
    int64_t written = 0;
    for (int64_t i = 0; i < launches; ++i) {
        const int t = int(i % kHostThreads);
        const int g = t % kGpus;
        const int64_t step = i / kLaunchesPerStep;
        const int layer = int(uniform(0, 23));
        const char *opType = kOpTypes[uniform(0, 7)];
        const std::string opName = "model/layer_" + std::to_string(layer) + "/" + opType;

        // Host op with its launch nested inside.
        int64_t &cursor = threadCursorPs[size_t(t)];
        cursor += uniform(1, 20) * 1'000'000;
        const int64_t opStart = cursor, opDur = uniform(20, 80) * 1'000'000;
        xp::XEvent *op = threads[size_t(t)]->add_events();
        op->set_metadata_id(hostMeta.event(opName + ":" + opType, opType));
        op->set_offset_ps(opStart);
        op->set_duration_ps(opDur);
        addStat(op, hGroup, step);
        xp::XStat *shape = op->add_stats();
        shape->set_metadata_id(hShape);
        shape->set_str_value("(float[" + std::to_string(32 << (layer % 4)) + ",1024])");

        const int kind = int(uniform(0, 99)); // 0..3 H2D, 4..7 D2H, else kernel
        const bool copy = kind < 8;
        // An op launches the same kernel with the same launch shape every time, as in a real model.
        const size_t opIndex = size_t(layer) * std::size(kOpTypes)
            + size_t(std::find(std::begin(kOpTypes), std::end(kOpTypes), opType) - std::begin(kOpTypes));
        const std::string gpuName
            = copy ? (kind < 4 ? "MemcpyH2D" : "MemcpyD2H") : kernels[opIndex * 7 % kernels.size()];
        const std::string &detail = details[opIndex % details.size()];
        const int64_t corr = i + 1;
        const int64_t launchStart = opStart + 5'000'000 + uniform(0, 3'000) * 1'000;
        xp::XEvent *launch = threads[size_t(t)]->add_events();
        launch->set_metadata_id(hostMeta.event(copy ? "cudaMemcpyAsync" : gpuName));
        launch->set_offset_ps(launchStart);
        launch->set_duration_ps(uniform(3, 9) * 1'000'000);
        xp::XStat *c = launch->add_stats();
        c->set_metadata_id(hCorr);
        c->set_uint64_value(uint64_t(corr));
        if (!copy) {
            xp::XStat *d = launch->add_stats();
            d->set_metadata_id(hDetails);
            d->set_ref_value(uint64_t(hostMeta.stat(detail)));
        }
        cursor += opDur;

        // The GPU op, queued behind its stream; its TensorFlow op; the step spans.
        PlaneMeta &gm = gpuMeta[size_t(g)];
        GpuLines &gl = gpuLines[size_t(g)];
        const int s = copy ? (kind < 4 ? 1 : 2) : 0;
        int64_t &sc = streamCursorPs[size_t(g)][size_t(s)];
        const int64_t gpuStart = std::max(sc, launchStart + 2'000'000 + uniform(0, 5'000) * 1'000);
        const int64_t gpuDur
            = copy ? uniform(2, 50) * 1'000'000 : uniform(5, 200) * 1'000'000 + uniform(0, 999) * 1'000;
        sc = gpuStart + gpuDur;
        xp::XEvent *k = (s == 0 ? gl.compute : s == 1 ? gl.h2d : gl.d2h)->add_events();
        k->set_metadata_id(gm.event(gpuName));
        k->set_offset_ps(gpuStart);
        k->set_duration_ps(gpuDur);
        xp::XStat *kc = k->add_stats();
        kc->set_metadata_id(gm.stat("correlation_id"));
        kc->set_uint64_value(uint64_t(corr));
        xp::XStat *kd = k->add_stats();
        if (copy) {
            kd->set_metadata_id(gm.stat("memcpy_details"));
            kd->set_str_value("size:" + std::to_string(uniform(1, 1 << 20) * 4) + " dest:" + std::to_string(g)
                + " async:1");
        } else {
            kd->set_metadata_id(gm.stat("kernel_details"));
            kd->set_ref_value(uint64_t(gm.stat(detail)));
        }
        xp::XStat *ka = k->add_stats();
        ka->set_metadata_id(gm.stat("annotation"));
        ka->set_ref_value(uint64_t(gm.stat(opName)));
        addStat(k, gm.stat("group_id"), step);
        written += 3;
        if (!copy) {
            xp::XEvent *tfop = gl.ops->add_events();
            tfop->set_metadata_id(gm.event(opName, opType));
            tfop->set_offset_ps(gpuStart);
            tfop->set_duration_ps(gpuDur);
            addStat(tfop, gm.stat("group_id"), step);
            ++written;
        }
        const bool lastOfStep = (i + 1) % kLaunchesPerStep == 0 || i + 1 == launches;
        if (lastOfStep) {
            for (int gg = 0; gg < kGpus; ++gg) {
                const int64_t end = std::max({ streamCursorPs[size_t(gg)][0], streamCursorPs[size_t(gg)][1],
                    streamCursorPs[size_t(gg)][2] });
                xp::XEvent *st = gpuLines[size_t(gg)].steps->add_events();
                st->set_metadata_id(gpuMeta[size_t(gg)].event(std::to_string(step)));
                st->set_offset_ps(stepStartPs[size_t(gg)]);
                st->set_duration_ps(std::max<int64_t>(0, end - stepStartPs[size_t(gg)]));
                addStat(st, gpuMeta[size_t(gg)].stat("group_id"), step);
                stepStartPs[size_t(gg)] = end;
                ++written;
            }
        }
    }

    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) {
        *error = "cannot write " + path;
        return false;
    }
    auto writePlane = [&f, out](const xp::XPlane &p) {
        std::string bytes;
        p.SerializeToString(&bytes);
        std::string head(1, '\x0a');
        for (uint64_t v = bytes.size();; v >>= 7) {
            if (v < 0x80) {
                head.push_back(char(v));
                break;
            }
            head.push_back(char((v & 0x7f) | 0x80));
        }
        f.write(head.data(), std::streamsize(head.size()));
        f.write(bytes.data(), std::streamsize(bytes.size()));
        out->bytes += int64_t(head.size() + bytes.size());
    };
    writePlane(host);
    for (const xp::XPlane &p : gpus)
        writePlane(p);
    out->events = written;
    f.close();
    if (!f) {
        *error = "write failed: " + path;
        return false;
    }
    return true;
}

// The child's figures (imported, status, message, seconds, rssMB) and the workspace's.
struct Row : ChildImport {
    GenStats gen;
    int64_t wsBytes = 0, slices = 0, strings = 0, args = 0, kernels = 0;
    [[nodiscard]] double mb() const { return double(gen.bytes) / 1e6; }
    [[nodiscard]] double mbps() const { return seconds > 0 ? mb() / seconds : 0; }
    [[nodiscard]] double eps() const { return seconds > 0 ? double(gen.events) / seconds : 0; }
};

void usage()
{
    std::fprintf(stderr,
        "usage: bench_import_xplane [--events 1000000,2000000] [--keep DIR] [--seed S]\n"
        "       bench_import_xplane [--events N] [--seed S] --output FILE\n"
        "Generates synthetic XPlane profiles (not timed) and imports each into a fresh workspace in\n"
        "a child process; prints throughput and peak RSS against the targets. --output: only write\n"
        "the profile of the first size to FILE (the kill tests' input).\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only")) {
        return importOnly(args[2], args[3], {});
    }

    std::vector<int64_t> sizes { 1'000'000, 2'000'000 };
    QString keep, output;
    uint64_t seed = 1;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--events") && hasNext) {
            sizes = parseSizes(args[++i]);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--seed") && hasNext) {
            seed = args[++i].toULongLong();
        } else if (a == QStringLiteral("--output") && hasNext) {
            output = args[++i];
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_import_xplane: unknown argument %s\n", qPrintable(a));
            usage();
            return 2;
        }
    }
    if (sizes.empty()) {
        usage();
        return 2;
    }
    if (!output.isEmpty()) {
        GenStats gen;
        std::string error;
        if (!writeProfile(output.toStdString(), sizes.front(), seed, &gen, &error)) {
            std::fprintf(stderr, "bench_import_xplane: %s\n", error.c_str());
            return 1;
        }
        std::printf("%lld events (%.1f MB) in %s\n", static_cast<long long>(gen.events),
            double(gen.bytes) / 1e6, qPrintable(output));
        return 0;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_import_xplane", keep, tmp);
    if (dir.isEmpty())
        return 1;

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        const QString stem = QDir(dir).filePath(QStringLiteral("bench_%1").arg(n));
        const QString profile = stem + QStringLiteral(".xplane.pb");
        const QString ws = stem + QStringLiteral(".plumb");
        removeWorkspace(ws);
        std::fprintf(stderr, "generating %s ...\n", qPrintable(profile));
        std::string error;
        if (!writeProfile(profile.toStdString(), n, seed, &row.gen, &error)) {
            std::fprintf(stderr, "bench_import_xplane: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "importing %lld events (%.1f MB) ...\n", static_cast<long long>(row.gen.events),
            row.mb());
        if (!runImportChild("bench_import_xplane", profile, ws, &row)) // sync()s, then imports
            return 1;
        {
            const CheckpointedWorkspace db(ws);
            if (db.isOpen()) {
                row.slices = db.count("SELECT count(*) FROM slice");
                row.strings = db.count("SELECT count(*) FROM string");
                row.args = db.count("SELECT count(*) FROM args");
                row.kernels = db.count("SELECT kernel_count FROM trace");
            }
        }
        row.wsBytes = workspaceBytes(ws);
        rows.push_back(row);
        if (keep.isEmpty())
            QFile::remove(profile);
    }

    std::printf("\nXPlane import benchmark\n");
    std::printf("%-10s %9s %8s %9s %10s %9s %10s %10s %9s %9s\n", "events", "file MB", "wall s", "MB/s",
        "events/s", "RSS MB", "ws MB", "slices", "kernels", "args");
    for (const Row &r : rows) {
        std::printf("%-10lld %9.1f %8.2f %9.1f %10.0f %9.1f %10.1f %10lld %9lld %9lld   %s\n",
            static_cast<long long>(r.gen.events), r.mb(), r.seconds, r.mbps(), r.eps(), r.rssMB,
            double(r.wsBytes) / 1e6, static_cast<long long>(r.slices), static_cast<long long>(r.kernels),
            static_cast<long long>(r.args), qPrintable(r.status));
        if (!r.imported && !r.message.isEmpty())
            std::printf("           %s\n", qPrintable(r.message));
    }
    std::printf("\nTargets: >= %.0fk events/s (the Kineto importer's rate), peak RSS < %.0f MB\n",
        kTargetEventsPerSec / 1000, kTargetPeakRssMB);
    for (const Row &r : rows) {
        if (!r.imported) {
            std::printf("  %lld events: not imported (%s): all MISS\n", static_cast<long long>(r.gen.events),
                qPrintable(r.status));
            continue;
        }
        std::printf("  %lld events: events/s %s (%.0fk)  RSS %s (%.0f MB)\n",
            static_cast<long long>(r.gen.events), verdict(r.eps() >= kTargetEventsPerSec), r.eps() / 1000,
            verdict(r.rssMB < kTargetPeakRssMB), r.rssMB);
    }
    std::printf("\n");
    for (const Row &r : rows) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("import_xplane");
        j[QStringLiteral("events")] = double(r.gen.events);
        j[QStringLiteral("file_bytes")] = double(r.gen.bytes);
        j[QStringLiteral("status")] = r.status;
        j[QStringLiteral("seconds")] = r.seconds;
        j[QStringLiteral("mb_per_s")] = r.mbps();
        j[QStringLiteral("events_per_s")] = r.eps();
        j[QStringLiteral("peak_rss_mb")] = r.rssMB;
        j[QStringLiteral("workspace_bytes")] = double(r.wsBytes);
        j[QStringLiteral("slices")] = double(r.slices);
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
