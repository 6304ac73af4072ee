// SPDX-License-Identifier: GPL-3.0-or-later
// bench_serving: a request log of N rows (default 10M: CSV with an ISO time, model, endpoint,
// latency and TTFT in ms, prompt and completion tokens, HTTP status, as a gateway writes it) imported
// end to end into a fresh workspace in a child process, then an objectives file evaluated on it (every
// kind of objective: percentiles, windowed percentiles during office hours, error rate, throughput,
// drift from a baseline run), timed from a fresh process reading the workspace.
//
// usage: bench_serving [--rows N] [--keep DIR]
//        bench_serving --import-only FILE WORKSPACE   (the child)
//        bench_serving --evaluate-only DIR            (the objectives again on DIR/serving.plumb of --keep
//        DIR)
#include "analysis/objectivecheck.h"
#include "benchimport.h"
#include "serving/objectivesfile.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <cinttypes>
#include <cstdio>
#include <random>

using namespace plumb;

namespace {

// Writes `rows` requests over one day from 2024-05-17T00:00:00Z, two models, three endpoints,
// log-normal latencies with a slow hour (14:00-15:00), 0.5% errors.
bool writeLog(const QString &path, int64_t rows, int64_t seed)
{
    FILE *f = std::fopen(path.toLocal8Bit().constData(), "w");
    if (!f)
        return false;
    std::fputs("timestamp,model,endpoint,latency_ms,ttft_ms,prompt_tokens,completion_tokens,status\n", f);
    std::mt19937_64 rng { uint64_t(seed) };
    std::lognormal_distribution<double> latency(std::log(120.0), 0.5), prompt(std::log(400.0), 0.8);
    std::uniform_real_distribution<double> u(0, 1);
    const char *models[] = { "llama-3.1-8b", "mistral-7b" };
    const char *endpoints[] = { "/v1/completions", "/v1/chat/completions", "/v1/embeddings" };
    const int64_t dayMs = 24LL * 3600 * 1000;
    char line[256];
    for (int64_t i = 0; i < rows; ++i) {
        const int64_t ms = i * dayMs / rows;
        const int64_t s = ms / 1000;
        const int hour = int(s / 3600), minute = int(s / 60 % 60), second = int(s % 60);
        const bool slow = hour == 14;
        const bool error = u(rng) < 0.005;
        const double lat = latency(rng) * (slow ? 1.8 : 1.0);
        const int len = snprintf(line, sizeof line, "2024-05-17T%02d:%02d:%02d.%03dZ,%s,%s,", hour, minute,
            second, int(ms % 1000), models[i & 1], endpoints[i % 3]);
        std::fwrite(line, 1, size_t(len), f);
        if (error)
            std::fprintf(f, ",,%d,,503\n", int(prompt(rng)));
        else
            std::fprintf(
                f, "%.1f,%.1f,%d,%d,200\n", lat, lat * 0.3, int(prompt(rng)), 20 + int(u(rng) * 200));
    }
    return std::fclose(f) == 0;
}

const char kObjectives[] = "objectives:\n"
                           "  - p90(latency_ms) < 400 over 5m windows during 09:00-17:00\n"
                           "  - p99(ttft_ms) < 500\n"
                           "  - p50(latency_ms) < 150\n"
                           "  - mean(output_tokens) > 50\n"
                           "  - error_rate < 1%\n"
                           "  - request_throughput > 100\n"
                           "  - name: chat p95\n"
                           "    objective: p95(latency_ms) < 300\n"
                           "    endpoint: /v1/chat/completions\n"
                           "  - psi(input_tokens) < 0.1\n"
                           "  - js(latency_ms) < 0.1\n";

// Evaluates kObjectives on DIR/serving.plumb, prints each result; returns the seconds it took.
double evaluate(const QString &dir)
{
    ObjectivesError e;
    auto file = parseObjectives(QByteArray(kObjectives), e);
    if (!file) {
        std::fprintf(stderr, "%s\n", qPrintable(e.text(QStringLiteral("objectives"))));
        return -1;
    }
    QElapsedTimer t;
    t.start();
    CheckReport report;
    {
        Workspace w(dir + QStringLiteral("/serving.plumb"), Workspace::Role::Reader);
        CheckOptions o;
        o.run = QStringLiteral("%1/requests.csv").arg(QFileInfo(dir).fileName());
        o.baseline = QStringLiteral("%1/baseline.csv").arg(QFileInfo(dir).fileName());
        report = evaluateObjectives(w, *file, o, builtinQuantities());
    }
    const double s = double(t.elapsed()) / 1e3;
    for (const auto &r : report.results)
        std::printf("  %-8s %-58s %s\n", qPrintable(objectiveStatusName(r.status)), qPrintable(r.spec.name),
            qPrintable(formatObjectiveValue(r, r.value)));
    std::printf("evaluate %zu objectives: %.2f s, peak RSS %.0f MB\n", report.results.size(), s,
        double(bench::readVmHwmKiB()) / 1024);
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    tuneAllocator();
    QCoreApplication app(argc, argv);
    if (argc == 4 && QByteArray(argv[1]) == "--import-only")
        return bench::importOnly(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    if (argc == 3 && QByteArray(argv[1]) == "--evaluate-only")
        return evaluate(QString::fromLocal8Bit(argv[2])) < 0 ? 1 : 0;
    int64_t rows = 10'000'000;
    QString keep;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a = argv[i];
        if (a == "--rows" && i + 1 < argc) {
            const auto sizes = bench::parseSizes(QString::fromLocal8Bit(argv[++i]));
            rows = sizes.empty() ? rows : sizes[0];
        } else if (a == "--keep" && i + 1 < argc) {
            keep = QString::fromLocal8Bit(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: bench_serving [--rows N] [--keep DIR]\n");
            return 2;
        }
    }
    QTemporaryDir tmp;
    const QString dir = bench::workFolder("bench_serving", keep, tmp);
    if (dir.isEmpty())
        return 1;
    const QString log = dir + QStringLiteral("/requests.csv"),
                  baseline = dir + QStringLiteral("/baseline.csv");
    const QString ws = dir + QStringLiteral("/serving.plumb");
    QElapsedTimer t;
    t.start();
    if (!writeLog(log, rows, 1) || !writeLog(baseline, 100'000, 2)) {
        std::fprintf(stderr, "bench_serving: cannot write %s\n", qPrintable(log));
        return 1;
    }
    std::printf("generated %" PRId64 " rows (%.0f MB) in %.1f s\n", rows, double(QFile(log).size()) / 1e6,
        double(t.elapsed()) / 1e3);
    bench::removeWorkspace(ws);
    bench::ChildImport base, imp;
    if (!bench::runImportChild("bench_serving", baseline, ws, &base) || !base.imported)
        return 1;
    if (!bench::runImportChild("bench_serving", log, ws, &imp) || !imp.imported) {
        std::fprintf(stderr, "bench_serving: import failed: %s\n", qPrintable(imp.message));
        return 1;
    }
    std::printf("import: %.2f s, %.2fM rows/s, peak RSS %.0f MB\n", imp.seconds,
        double(rows) / imp.seconds / 1e6, imp.rssMB);

    const double evalS = evaluate(dir);
    if (evalS < 0)
        return 1;
    const double total = imp.seconds + evalS;
    std::printf("import + evaluate: %.2f s (target 15 s: %s)\n", total, bench::verdict(total < 15));
    return 0;
}
