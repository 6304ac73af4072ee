// SPDX-License-Identifier: GPL-3.0-or-later
// bench_import_nsys: end-to-end import throughput of Nsight Systems SQLite exports.
//
//   bench_import_nsys [--rows 1000000,3000000] [--repeat 5] [--keep DIR] [--into-existing]
//   bench_import_nsys --import-only FILE WORKSPACE      (internal: one import, one JSON line)
//   bench_import_nsys --rows N --output FILE            (only writes the export of N rows to FILE)
//
// For each size a synthetic export is generated with the sqlite3 C API (not timed), laid out as
// `nsys export --type sqlite` 2024.x writes it, then imported into a fresh workspace by a child process
// running the real path (ImporterRegistry + registerBuiltinImporters + ImportRunner), so the peak RSS
// reported is the import's own. A new workspace is built beside its path and linked into place (see
// ImportRunner::run); --into-existing creates the empty workspace first, so the import goes through
// the path of a workspace that exists (in place; as the first import into an empty one, through a
// rollback journal instead of the write-ahead log). Each export is imported --repeat times, each
// into a fresh workspace: the median wall time is reported (these machines' speed moves from minute to
// minute), with the fastest and slowest. Informational: the exit status is 0 whatever the figures.

#include "benchimport.h"
#include "ingest/importrunner.h"
#include "store/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace plumb::bench;

constexpr double kTargetRowsPerSec = 1'000'000;

// ---- synthetic export ---------------------------------------------------------------------------

struct GenStats {
    int64_t rows = 0, runtime = 0, kernels = 0, memcpy = 0, memset = 0, sync = 0, nvtx = 0, osrt = 0,
            samples = 0, frames = 0;
    int64_t fileBytes = 0;
};

class Stmt {
public:
    Stmt(sqlite3 *db, const char *sql) { sqlite3_prepare_v2(db, sql, -1, &m_st, nullptr); }
    ~Stmt() { sqlite3_finalize(m_st); }
    Stmt &bind(int i, int64_t v)
    {
        sqlite3_bind_int64(m_st, i, v);
        return *this;
    }
    Stmt &bindNull(int i)
    {
        sqlite3_bind_null(m_st, i);
        return *this;
    }
    Stmt &bind(int i, const std::string &s)
    {
        sqlite3_bind_text(m_st, i, s.c_str(), int(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    bool run()
    {
        const int rc = sqlite3_step(m_st);
        sqlite3_reset(m_st);
        return rc == SQLITE_DONE;
    }

private:
    sqlite3_stmt *m_st = nullptr;
};

constexpr const char *kSchema = R"sql(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,
    totalMemory INTEGER, smCount INTEGER, uuid TEXT, chipName TEXT, cuDevice INTEGER);
CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
    returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,
    mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
    gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
    blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
    dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL,
    localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER,
    graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,
    deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER,
    dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,
    virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
    category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
    domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
    int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
    globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER,
    callchainId INTEGER NOT NULL);
INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (0, 'TRACE_PROCESS_EVENT_CUDA_RUNTIME', 'CUDA runtime'),
    (1, 'TRACE_PROCESS_EVENT_CUDA_DRIVER', 'CUDA driver'), (27, 'TRACE_PROCESS_EVENT_OS_RUNTIME', 'OSRT runtime');
)sql";

// A training loop on 4 host threads driving 2 GPUs with 2 streams each: per step an NVTX range, ~100
// launches (runtime call -> kernel queued behind the stream's previous one), a host-to-device copy
// every 10 launches, a synchronising cudaStreamSynchronize at the end of the step, and an OS runtime
// call now and then. GPU rows are written in the order their launches came, so the kernel table is
// not sorted by start (as in real exports, where streams interleave).
bool writeExport(const std::string &path, int64_t targetRows, GenStats &s, std::string &error)
{
    std::remove(path.c_str());
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        error = "cannot create " + path;
        sqlite3_close_v2(db);
        return false;
    }
    sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096", nullptr,
        nullptr, nullptr);
    char *err = nullptr;
    if (sqlite3_exec(db, kSchema, nullptr, nullptr, &err) != SQLITE_OK) {
        error = err ? err : "schema";
        sqlite3_free(err);
        sqlite3_close_v2(db);
        return false;
    }
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    const int64_t pid = 31337;
    const int64_t gpidBase = (int64_t(1) << 48) | (pid << 24);
    const int kThreads = 4, kKernelNames = 200;
    {
        Stmt str(db, "INSERT INTO StringIds VALUES (?, ?)");
        str.bind(1, int64_t(1)).bind(2, std::string("cudaLaunchKernel_v7000")).run();
        str.bind(1, int64_t(2)).bind(2, std::string("cudaMemcpyAsync_v3020")).run();
        str.bind(1, int64_t(3)).bind(2, std::string("cudaStreamSynchronize_v3020")).run();
        str.bind(1, int64_t(4)).bind(2, std::string("cuLaunchKernel")).run();
        str.bind(1, int64_t(5)).bind(2, std::string("pthread_cond_wait")).run();
        str.bind(1, int64_t(6)).bind(2, std::string("training_step")).run();
        for (int t = 0; t < kThreads; ++t)
            str.bind(1, int64_t(10) + t).bind(2, "worker " + std::to_string(t)).run();
        for (int k = 0; k < kKernelNames; ++k) {
            str.bind(1, int64_t(100) + 2 * k)
                .bind(2,
                    "void synthetic_kernel_" + std::to_string(k)
                        + "<float, 128, true>(float const*, float*, int)")
                .run();
            str.bind(1, int64_t(101) + 2 * k).bind(2, "synthetic_kernel_" + std::to_string(k)).run();
        }
        Stmt tn(db, "INSERT INTO ThreadNames VALUES (?, 10, ?)");
        for (int t = 0; t < kThreads; ++t)
            tn.bind(1, int64_t(10) + t).bind(2, gpidBase | (pid + t)).run();
        sqlite3_exec(db,
            ("INSERT INTO PROCESSES VALUES (" + std::to_string(gpidBase) + ", " + std::to_string(pid)
                + ", 'python3');"
                  "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, NULL, NULL);"
                  "INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 0, 'NVIDIA H100 80GB HBM3', "
                  "'0000:1b:00.0', 85520809984, 132, 'u0', 'GH100', 0),"
                  "(281474976710656, 1, 'NVIDIA H100 80GB HBM3', '0000:43:00.0', 85520809984, 132, 'u1', "
                  "'GH100', 1);")
                .c_str(),
            nullptr, nullptr, nullptr);
    }
    Stmt rt(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, ?, 0, NULL)");
    Stmt kern(db,
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, ?, NULL, 1, 0, ?, "
        "?, 1, 1, ?, 1, 1, ?, 0, 0, 0, ?, 0, NULL, 0)");
    Stmt mc(db,
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, 1, NULL, ?, ?, ?, ?, 1, NULL, 1, 2, NULL, "
        "NULL, NULL, NULL, NULL, NULL, NULL)");
    Stmt sy(db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?, ?, ?, 1, NULL, ?, ?, ?, 3, -1)");
    Stmt nv(db,
        "INSERT INTO NVTX_EVENTS(start, end, eventType, globalTid, textId, domainId) VALUES (?, ?, 59, ?, 6, "
        "0)");
    Stmt os(db, "INSERT INTO OSRT_API VALUES (?, ?, 27, ?, 5, 0, 0, 0)");

    std::mt19937_64 rng(42);
    int64_t corr = 1, gridId = 1;
    std::vector<int64_t> threadTime(kThreads, 1'000'000);
    std::vector<int64_t> streamFree(4, 0); // (device, stream) -> when its last op ends
    int step = 0;
    while (s.rows < targetRows) {
        const int t = step % kThreads;
        const int64_t gtid = gpidBase | (pid + t);
        const int device = t % 2;
        int64_t now = threadTime[size_t(t)];
        const int64_t stepStart = now;
        const int launches = 100;
        for (int l = 0; l < launches && s.rows < targetRows; ++l) {
            const int streamIdx = device * 2 + int(rng() % 2);
            const int64_t stream = 7 + (streamIdx % 2) * 6; // streams 7 and 13
            const int64_t callDur = 3000 + int64_t(rng() % 4000);
            if (l % 10 == 9) {
                const int64_t bytes = int64_t(1) << (10 + rng() % 14);
                rt.bind(1, now)
                    .bind(2, now + callDur)
                    .bind(3, 0)
                    .bind(4, gtid)
                    .bind(5, corr)
                    .bind(6, 2)
                    .run();
                const int64_t st = std::max(now + 1500, streamFree[size_t(streamIdx)]);
                const int64_t en = st + 500 + bytes / 20;
                mc.bind(1, st)
                    .bind(2, en)
                    .bind(3, device)
                    .bind(4, stream)
                    .bind(5, corr)
                    .bind(6, gpidBase)
                    .bind(7, bytes)
                    .run();
                streamFree[size_t(streamIdx)] = en;
                s.runtime++, s.memcpy++, s.rows += 2;
            } else {
                rt.bind(1, now)
                    .bind(2, now + callDur)
                    .bind(3, 0)
                    .bind(4, gtid)
                    .bind(5, corr)
                    .bind(6, 1)
                    .run();
                const int k = int(rng() % kKernelNames);
                const int64_t st = std::max(now + 2000, streamFree[size_t(streamIdx)]);
                const int64_t en = st + 2000 + int64_t(rng() % 60000);
                kern.bind(1, st)
                    .bind(2, en)
                    .bind(3, device)
                    .bind(4, stream)
                    .bind(5, corr)
                    .bind(6, gpidBase)
                    .bind(7, 100 + 2 * k)
                    .bind(8, 101 + 2 * k)
                    .bind(9, 32 + (k % 4) * 32)
                    .bind(
                        10, (1 + k % 37) * (1 + int64_t(rng() % 4))) // a few shapes per kernel, as in a model
                    .bind(11, 128 << (k % 3))
                    .bind(12, (k % 5) * 4096)
                    .bind(13, gridId++)
                    .run();
                streamFree[size_t(streamIdx)] = en;
                s.runtime++, s.kernels++, s.rows += 2;
            }
            ++corr;
            now += callDur + 500 + int64_t(rng() % 2000);
            if (l % 25 == 24) {
                os.bind(1, now).bind(2, now + 20000).bind(3, gtid).run();
                now += 21000;
                s.osrt++, s.rows++;
            }
        }
        // End of step: wait for the device.
        const int64_t until
            = std::max({ now + 5000, streamFree[size_t(device) * 2], streamFree[size_t(device) * 2 + 1] });
        rt.bind(1, now).bind(2, until + 3000).bind(3, 0).bind(4, gtid).bind(5, corr).bind(6, 3).run();
        sy.bind(1, now + 1000)
            .bind(2, until + 2000)
            .bind(3, device)
            .bind(4, 20 + t)
            .bind(5, corr)
            .bind(6, gpidBase)
            .run();
        ++corr;
        now = until + 4000;
        nv.bind(1, stepStart - 500).bind(2, now + 500).bind(3, gtid).run();
        s.runtime++, s.sync++, s.nvtx++, s.rows += 3;
        threadTime[size_t(t)] = now + 10000;
        ++step;
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db); // closes once the statements still alive here are finalised
    s.fileBytes = QFileInfo(QString::fromStdString(path)).size();
    return true;
}

// CPU samples (nsys --sample), added to an export writeExport() wrote: `count` samples spread evenly
// over each host thread's calls, each with a backtrace of 4-12 frames drawn from 3,000 distinct stacks
// of 300 functions in 7 libraries, a few stacks far more often than the rest (as a hot loop is
// sampled). Counted as rows.
bool addCpuSamples(const std::string &path, int64_t count, GenStats &s, std::string &error)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        error = "cannot open " + path;
        sqlite3_close_v2(db);
        return false;
    }
    sqlite3_exec(db,
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;"
        "CREATE TABLE COMPOSITE_EVENTS (id INTEGER NOT NULL PRIMARY KEY, start INTEGER NOT NULL, cpu INTEGER,"
        "  threadState INTEGER, globalTid INTEGER, cpuCycles INTEGER NOT NULL);"
        "CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT "
        "NULL,"
        "  kernelMode INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP "
        "INTEGER,"
        "  unwindMethod INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));",
        nullptr, nullptr, nullptr);
    constexpr int kFunctions = 300, kModules = 7, kStacks = 3000;
    constexpr int64_t kFirstString = 100000;
    {
        Stmt str(db, "INSERT INTO StringIds VALUES (?, ?)");
        for (int f = 0; f < kFunctions; ++f)
            str.bind(1, kFirstString + f)
                .bind(2, "synthetic_function_" + std::to_string(f) + "(void*, unsigned long)")
                .run();
        for (int m = 0; m < kModules; ++m)
            str.bind(1, kFirstString + kFunctions + m)
                .bind(2, "/usr/lib/x86_64-linux-gnu/libsynthetic" + std::to_string(m) + ".so.1")
                .run();
    }
    std::mt19937_64 rng(7);
    std::vector<std::vector<int>> stacks(kStacks);
    for (auto &stack : stacks) {
        stack.resize(4 + rng() % 9);
        for (int &f : stack)
            f = int(rng() % kFunctions);
    }
    std::vector<int64_t> threads;
    int64_t first = 0, last = 0;
    { // the export's host threads and time span
        sqlite3_stmt *st = nullptr;
        sqlite3_prepare_v2(
            db, "SELECT DISTINCT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME", -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW)
            threads.push_back(sqlite3_column_int64(st, 0));
        sqlite3_finalize(st);
        sqlite3_prepare_v2(
            db, "SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_RUNTIME", -1, &st, nullptr);
        if (sqlite3_step(st) == SQLITE_ROW) {
            first = sqlite3_column_int64(st, 0);
            last = sqlite3_column_int64(st, 1);
        }
        sqlite3_finalize(st);
    }
    if (threads.empty()) {
        error = "no host threads to sample";
        sqlite3_close_v2(db);
        return false;
    }
    Stmt sample(db, "INSERT INTO COMPOSITE_EVENTS VALUES (?, ?, 0, 1, ?, 1000)");
    Stmt frame(db, "INSERT INTO SAMPLING_CALLCHAINS VALUES (?, ?, ?, 0, 0, 0, 0, NULL, NULL, ?)");
    const int64_t perThread = count / int64_t(threads.size());
    int64_t id = 0;
    for (const int64_t thread : threads) {
        for (int64_t k = 0; k < perThread; ++k) {
            ++id;
            sample.bind(1, id).bind(2, first + (last - first) * k / perThread).bind(3, thread).run();
            const auto &stack
                = stacks[size_t((rng() % kStacks) * (rng() % kStacks) / kStacks)]; // small ones often
            for (size_t d = 0; d < stack.size(); ++d) {
                frame.bind(1, id)
                    .bind(2, kFirstString + stack[d])
                    .bind(3, kFirstString + kFunctions + stack[d] % kModules)
                    .bind(4, int64_t(d))
                    .run();
                ++s.frames;
            }
            ++s.samples;
            ++s.rows;
        }
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db); // closes once the statements still alive here are finalised
    s.fileBytes = QFileInfo(QString::fromStdString(path)).size();
    return true;
}

// ---- driver -------------------------------------------------------------------------------------

// The child's figures (imported, status, message, format, seconds, rssMB) and the workspace's.
struct Row : ChildImport {
    GenStats gen;
    int64_t slices = 0, kernels = 0, wsBytes = 0;
    std::vector<double> runs; // each import's wall seconds, sorted; `seconds` is their median
    [[nodiscard]] double rowsPerSec() const { return seconds > 0 ? double(gen.rows) / seconds : 0; }
};

void usage()
{
    std::fprintf(stderr,
        "usage: bench_import_nsys [--rows 1000000,3000000] [--repeat 5] [--cpu-samples N] [--keep DIR]\n"
        "                         [--into-existing]\n"
        "       bench_import_nsys [--rows N] [--cpu-samples N] --output FILE\n"
        "Generates synthetic Nsight Systems SQLite exports (not timed) and imports each --repeat times\n"
        "into a fresh workspace in a child process; prints rows/s of the median wall time, the fastest\n"
        "and slowest run, and the largest peak RSS. --cpu-samples: add N\n"
        "CPU samples with backtraces to each export (counted in its rows). --into-existing:\n"
        "into an empty workspace created beforehand (the path of a workspace already there).\n"
        "--output: only write the export of the first size to FILE (the kill tests' input).\n");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args[1] == QStringLiteral("--import-only")) {
        ImportOnlyHooks hooks;
        hooks.addFields = [](QJsonObject &o, const plumb::FileImportResult &r) {
            o[QStringLiteral("format")] = r.format;
        };
        return importOnly(args[2], args[3], hooks);
    }

    std::vector<int64_t> sizes { 1'000'000, 3'000'000 };
    QString keep, output;
    bool intoExisting = false;
    int64_t cpuSamples = 0;
    int repeat = 5;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == QStringLiteral("--rows") && hasNext) {
            sizes = parseSizes(args[++i]);
        } else if (a == QStringLiteral("--keep") && hasNext) {
            keep = args[++i];
        } else if (a == QStringLiteral("--repeat") && hasNext) {
            repeat = std::max(1, args[++i].toInt());
        } else if (a == QStringLiteral("--cpu-samples") && hasNext) {
            cpuSamples = args[++i].toLongLong();
        } else if (a == QStringLiteral("--output") && hasNext) {
            output = args[++i];
        } else if (a == QStringLiteral("--into-existing")) {
            intoExisting = true;
        } else if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "bench_import_nsys: unknown argument %s\n", qPrintable(a));
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
        if (!writeExport(output.toStdString(), sizes.front(), gen, error)
            || (cpuSamples > 0 && !addCpuSamples(output.toStdString(), cpuSamples, gen, error))) {
            std::fprintf(stderr, "bench_import_nsys: %s\n", error.c_str());
            return 1;
        }
        std::printf("%lld rows (%.1f MB) in %s\n", static_cast<long long>(gen.rows),
            double(gen.fileBytes) / 1e6, qPrintable(output));
        return 0;
    }
    QTemporaryDir tmp;
    const QString dir = workFolder("bench_import_nsys", keep, tmp);
    if (dir.isEmpty())
        return 1;

    std::vector<Row> rows;
    for (const int64_t n : sizes) {
        Row row;
        const QString stem = QDir(dir).filePath(QStringLiteral("nsys_%1").arg(n));
        const QString file = stem + QStringLiteral(".sqlite");
        const QString ws = stem + QStringLiteral(".plumb");
        removeWorkspace(ws);
        std::fprintf(stderr, "generating %s ...\n", qPrintable(file));
        std::string error;
        if (!writeExport(file.toStdString(), n, row.gen, error)
            || (cpuSamples > 0 && !addCpuSamples(file.toStdString(), cpuSamples, row.gen, error))) {
            std::fprintf(stderr, "bench_import_nsys: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "importing %lld rows (%.1f MB) ...\n", static_cast<long long>(row.gen.rows),
            double(row.gen.fileBytes) / 1e6);
        double peakRss = 0;
        for (int run = 0; run < repeat; ++run) {
            removeWorkspace(ws);
            if (intoExisting) {
                const plumb::Workspace created(ws, plumb::Workspace::Role::Writer); // empty, closed again
            }
            if (!runImportChild("bench_import_nsys", file, ws, &row)) // sync()s, then imports
                return 1;
            row.runs.push_back(row.seconds);
            peakRss = std::max(peakRss, row.rssMB);
            if (!row.imported)
                break;
        }
        std::sort(row.runs.begin(), row.runs.end());
        const size_t runs = row.runs.size();
        row.seconds = runs % 2 ? row.runs[runs / 2] : (row.runs[runs / 2 - 1] + row.runs[runs / 2]) / 2;
        row.rssMB = peakRss;
        {
            const CheckpointedWorkspace db(ws);
            if (db.isOpen()) {
                row.slices = db.count("SELECT count(*) FROM slice");
                row.kernels = db.count("SELECT kernel_count FROM trace");
            }
        }
        row.wsBytes = workspaceBytes(ws);
        rows.push_back(row);
        if (keep.isEmpty()) {
            QFile::remove(file);
            QFile::remove(ws);
        }
    }

    std::printf("\nNsight Systems SQLite import benchmark, into %s\n",
        intoExisting ? "an existing (empty) workspace" : "a new workspace");
    std::printf("%-10s %9s %8s %11s %5s %13s %8s %9s %10s %9s  %s\n", "rows", "file MB", "wall s", "rows/s",
        "runs", "min-max s", "RSS MB", "ws MB", "slices", "kernels", "status");
    for (const Row &r : rows) {
        std::printf("%-10lld %9.1f %8.2f %11.0f %5zu %6.2f-%-6.2f %8.1f %9.1f %10lld %9lld  %s %s\n",
            static_cast<long long>(r.gen.rows), double(r.gen.fileBytes) / 1e6, r.seconds, r.rowsPerSec(),
            r.runs.size(), r.runs.front(), r.runs.back(), r.rssMB, double(r.wsBytes) / 1e6,
            static_cast<long long>(r.slices), static_cast<long long>(r.kernels), qPrintable(r.status),
            qPrintable(r.format));
        if (!r.imported && !r.message.isEmpty())
            std::printf("           %s\n", qPrintable(r.message));
    }
    std::printf("\nTarget: >= %.0fk rows/s (the median run)\n", kTargetRowsPerSec / 1000);
    for (const Row &r : rows)
        std::printf("  %lld rows: %s (%.0fk rows/s, peak RSS %.0f MB)\n", static_cast<long long>(r.gen.rows),
            r.imported && r.rowsPerSec() >= kTargetRowsPerSec ? "PASS" : "MISS", r.rowsPerSec() / 1000,
            r.rssMB);
    std::printf("\n");
    for (const Row &r : rows) {
        QJsonObject j;
        j[QStringLiteral("benchmark")] = QStringLiteral("import_nsys");
        j[QStringLiteral("rows")] = double(r.gen.rows);
        j[QStringLiteral("into_existing_workspace")] = intoExisting;
        j[QStringLiteral("kernels_generated")] = double(r.gen.kernels);
        j[QStringLiteral("runtime_generated")] = double(r.gen.runtime);
        j[QStringLiteral("cpu_samples_generated")] = double(r.gen.samples);
        j[QStringLiteral("backtrace_frames_generated")] = double(r.gen.frames);
        j[QStringLiteral("file_bytes")] = double(r.gen.fileBytes);
        j[QStringLiteral("status")] = r.status;
        j[QStringLiteral("seconds")] = r.seconds; // the median run
        QJsonArray runs;
        for (const double t : r.runs)
            runs.append(t);
        j[QStringLiteral("runs_seconds")] = runs;
        j[QStringLiteral("rows_per_s")] = r.rowsPerSec();
        j[QStringLiteral("peak_rss_mb")] = r.rssMB;
        j[QStringLiteral("workspace_bytes")] = double(r.wsBytes);
        j[QStringLiteral("slices")] = double(r.slices);
        j[QStringLiteral("kernels")] = double(r.kernels);
        std::printf("%s\n", QJsonDocument(j).toJson(QJsonDocument::Compact).constData());
    }
    return 0;
}
