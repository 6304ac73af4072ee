// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysreader.h"

#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysexportinfo.h"
#include "nsys/nsystables.h"

#include <QFileInfo>
#include <QStringList>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <chrono>
#include <future>
#include <string>
#include <thread>

namespace plumb::nsys {

namespace {

constexpr int64_t kCheckpointRows = 4096;
constexpr size_t kReadAheadBytes = 1 << 20;
// Memory the tables of one phase may take to be sorted in memory (see SortedTableReader); a larger
// table is sorted that much at a time, in runs spilled to temporary files. Two phases are held at once
// (one read, the next loading): 256 MB at most. About 700k kernel rows.
constexpr size_t kSortMemoryBudget = size_t(128) << 20;
// Rows below which a table is read in one piece (see openCursors()).
constexpr int64_t kMinPartRows = 100'000;

int64_t loaderThreads()
{
    return std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, 4);
}

// Loader threads read ahead while the writer thread, which bounds the import, inserts what the
// producer merged: they take the cores those two leave, and all of them when the producer waits
// for a phase.
void lowerThreadPriority()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
}

} // namespace

NsysReader::NsysReader(ImportContext &ctx)
    : m_ctx(ctx)
    , m_sink(ctx.traceSink())
    , m_diag(ctx.diagnostics())
    , m_schema(ctx.input().path())
    , m_strings(m_schema.db(), m_sink, m_diag)
    , m_tracks(m_schema, m_strings, m_sink)
    , m_cuda(m_schema, m_strings, m_tracks, m_args, m_sink, m_diag, m_projection, m_links)
    , m_nvtx(m_schema, m_strings, m_tracks, m_args, m_sink, m_diag, m_projection)
    , m_hostCalls(m_strings, m_tracks, m_args, m_sink)
    , m_cpuSamples(m_strings, m_tracks, m_args, m_sink)
    , m_scheduling(m_schema, m_tracks, m_args, m_sink, m_diag)
    , m_gpuMetrics(m_schema, m_sink)
    , m_memoryUsage(m_tracks, m_sink, m_diag)
{
    m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
    m_sink.setDeviceType(QStringLiteral("cuda")); // Nsight Systems traces CUDA (its GPU ops are CUDA's)
}

NsysReader::~NsysReader() = default;

void NsysReader::openCursors()
{
    std::array<size_t, 4> phaseBudget;
    phaseBudget.fill(kSortMemoryBudget);
    for (const TableSpec &spec : tableSpecs()) {
        if (!m_schema.hasTable(spec.table)) {
            continue;
        }
        const auto cols = m_schema.db().columns(spec.table);
        auto cursor = std::make_unique<NsysCursor>();
        cursor->spec = &spec;
        cursor->col.fill(-1);
        std::vector<SortedTableReader::Column> select;
        std::array<const char *, FieldCount> chosen {}; // the column read for each field
        for (const F f : spec.fields) {
            // A backtrace id is read only when there are backtraces to look it up in (see run()).
            if (f == CallchainId
                && !NsysCallchains::exists(m_schema,
                    (spec.source == Source::Osrt ? m_hostCalls.backtraces() : m_cuda.backtraces()).table())) {
                continue;
            }
            for (const FieldSpec &fs : fieldSpecs()) {
                if (fs.field != f) {
                    continue;
                }
                for (const char *cand : fs.candidates) {
                    if (!cand || std::find(cols.begin(), cols.end(), cand) == cols.end()) {
                        continue;
                    }
                    cursor->col[f] = int(select.size());
                    chosen[f] = cand;
                    // GPU metric samples: nsys writes integers, but the column may hold fractions.
                    select.push_back({ quoteIdentifier(cand), f == Text || f == JsonText,
                        (f == Value && spec.source == Source::Metric) || f == PayloadDouble
                            || f == PayloadFloat });
                    break;
                }
            }
        }
        // Exports of 2021 and before declared every column NOT NULL and wrote a default where a value
        // was missing: an NVTX mark's end 0, no payload as 0 in each of the six value columns, a
        // registered string's text ''. There, those defaults read as missing (a payload of exactly 0
        // is not told from none).
        if (spec.source == Source::Nvtx) {
            const auto notNull = m_schema.db().notNullColumns(spec.table);
            for (const F f : { End, Text, TextId, PayloadInt, PayloadUint, PayloadInt32, PayloadUint32,
                     PayloadDouble, PayloadFloat, JsonText }) {
                if (chosen[f] && std::find(notNull.begin(), notNull.end(), chosen[f]) != notNull.end()) {
                    cursor->defaultIsNone[f] = true;
                }
            }
        }
        QStringList missing;
        for (const F f : spec.required) {
            if (cursor->col[f] < 0) {
                for (const FieldSpec &fs : fieldSpecs()) {
                    if (fs.field == f) {
                        missing << QString::fromLatin1(fs.candidates[0]);
                    }
                }
            }
        }
        if (!missing.isEmpty()) {
            m_diag.report(Severity::Warning, QStringLiteral("unknown-table-layout"),
                QStringLiteral("table %1").arg(QString::fromLatin1(spec.table)),
                QStringLiteral("Table %1 lacks the columns %2; it was not imported.")
                    .arg(QString::fromLatin1(spec.table), missing.join(QStringLiteral(", "))));
            continue;
        }
        // Exports never delete rows, so the last rowid is the row count (and costs one b-tree descent
        // where count(*) reads the whole table): for progress and the in-memory sort's budget.
        int64_t rows = 0;
        {
            ForeignSqliteDb::Stmt count(
                m_schema.db(), "SELECT max(rowid) FROM " + quoteIdentifier(spec.table), spec.table);
            if (count.step()) {
                rows = count.integer(0);
            }
        }
        m_totalRows += rows;
        if (spec.source == Source::Runtime) {
            m_projection = RangeProjection(rows); // sized for the calls, before any row is read
        }
        // Ties: longer first, so an enclosing range arrives before what it encloses.
        std::vector<int> ascending;
        for (const F g : { spec.group1, spec.group2 }) {
            if (g != FieldCount && cursor->col[g] >= 0) {
                ascending.push_back(cursor->col[g]);
            }
        }
        ascending.push_back(cursor->col[Start]);
        size_t &budget = phaseBudget[size_t(spec.phase)];
        const size_t bytes
            = size_t(std::max<int64_t>(rows, 0)) * SortedTableReader::bytesPerRow(select.size());
        // A table that fits what the phase has left is sorted in memory; a larger one in runs, with half
        // of it (the rest for the phase's other tables).
        const bool fits = bytes <= budget;
        const size_t tableBudget = fits ? budget : budget / 2;
        budget -= fits ? bytes : tableBudget;
        // A large table is read in parts, rowid ranges merged like tables of their own, each loaded on a
        // connection and thread of its own (see run()) with its share of the budget: the read and sort
        // that the writer waits for before a phase's first row take a fraction of the time. Up to two
        // parts a loader thread: the loaders get the cores the writer and the merge leave, unevenly, and
        // the part loaded last ran alone on one core while everything else waited for it (0.1 s of a
        // 1M-row import; 0.96x the wall time in paired runs).
        const int64_t parts = std::clamp<int64_t>(rows / kMinPartRows, 1, 2 * loaderThreads());
        for (int64_t part = 0; part < parts; ++part) {
            auto partCursor = std::make_unique<NsysCursor>();
            partCursor->spec = cursor->spec;
            partCursor->col = cursor->col;
            partCursor->defaultIsNone = cursor->defaultIsNone;
            std::string where;
            if (parts > 1) {
                const int64_t lo = rows * part / parts;
                const int64_t hi = rows * (part + 1) / parts;
                where = part == 0 ? "rowid <= " + std::to_string(hi)
                    : part + 1 == parts
                    ? "rowid > " + std::to_string(lo)
                    : "rowid > " + std::to_string(lo) + " AND rowid <= " + std::to_string(hi);
            }
            // Prepared now (a bad layout fails before anything is written).
            partCursor->st = std::make_unique<SortedTableReader>(
                std::make_unique<ForeignSqliteDb>(m_ctx.input().path()), spec.table, select, ascending,
                cursor->col[End], rows / parts + 1, tableBudget / size_t(parts),
                [this] {
                    if (m_stopLoading.load(std::memory_order_relaxed)) {
                        throw ImportCancelled();
                    }
                },
                where);
            m_cursors.push_back(std::move(partCursor));
        }
    }
}

void NsysReader::progress()
{
    ++m_ctx.recordsRead;
    ++m_sink.stats().events;
    if (++m_rows % kCheckpointRows) {
        return;
    }
    // Read the file along with the rows: the runner's progress follows the input offset, and the
    // content hash it computes afterwards needs these bytes anyway.
    InputFile &in = m_ctx.input();
    const int64_t target
        = m_totalRows > 0 ? int64_t(double(m_rows) / double(m_totalRows) * double(in.size())) : 0;
    m_readAhead.resize(kReadAheadBytes);
    while (in.compressedOffset() < target) {
        if (in.read(m_readAhead.data(), int64_t(m_readAhead.size())) <= 0) {
            break;
        }
    }
    m_ctx.checkpoint();
}

void NsysReader::handle(NsysCursor &c)
{
    progress();
    SliceFields f;
    f.tsNs = c.start;
    const int64_t end = c.get(End, c.start);
    f.durNs = end - c.start;
    if (f.durNs < 0) {
        m_diag.report(Severity::Warning, QStringLiteral("negative-duration"),
            QStringLiteral("table %1, start %2").arg(QString::fromLatin1(c.spec->table)).arg(c.start),
            QStringLiteral("An event ends before it starts; it was imported with duration 0."));
        f.durNs = 0;
    }
    m_args.clear();
    switch (c.spec->source) {
    case Source::Runtime:
        m_cuda.handleRuntime(c, f);
        break;
    case Source::Kernel:
    case Source::Memcpy:
    case Source::Memset:
    case Source::Graph:
        m_cuda.handleGpu(c, f);
        break;
    case Source::Sync:
        m_cuda.handleSync(c, f);
        break;
    case Source::Nvtx:
        m_nvtx.handle(c, f);
        break;
    case Source::Osrt:
        m_hostCalls.handleOsrt(c, f);
        break;
    case Source::HostCall:
        m_hostCalls.handleHostCall(c, f);
        break;
    case Source::CpuSample:
        m_cpuSamples.handle(c, f);
        break;
    case Source::Sched:
        m_scheduling.handle(c, f);
        break;
    case Source::Metric:
        m_gpuMetrics.handle(c);
        break;
    case Source::MemoryUsage:
        m_memoryUsage.handle(c);
        break;
    }
}

void NsysReader::run()
{
    const QString &path = m_ctx.input().path();
    readSessionStart(m_schema, m_sink);
    m_cuda.readEnums();
    readDevices(m_schema, m_sink, m_tracks);
    readExportMetadata(m_schema, m_sink);
    readNsysDiagnostics(m_schema, m_diag);
    m_gpuMetrics.readNames();
    m_tracks.readMpiRanks();
    std::future<std::vector<NsysNvtx::Name>> nvtxNames = m_nvtx.startNames(path);
    std::future<NsysCallchains> sampleStacks
        = NsysCallchains::start(m_schema, path, "SAMPLING_CALLCHAINS", "COMPOSITE_EVENTS", m_stopLoading);
    std::future<NsysCallchains> osrtStacks
        = NsysCallchains::start(m_schema, path, "OSRT_CALLCHAINS", "OSRT_API", m_stopLoading);
    std::future<NsysCallchains> cudaStacks = NsysCallchains::start(
        m_schema, path, "CUDA_CALLCHAINS", "CUPTI_ACTIVITY_KIND_RUNTIME", m_stopLoading);
    std::future<bool> corrScope = m_cuda.startCorrScope(path);
    openCursors();
    m_ctx.checkpoint();

    // Phase by phase (thread tracks, CUDA API tracks, GPU streams, sync tracks), merge the tables of
    // the phase on (track group, start). Loader threads, one per table or part, read and sort the next
    // phase's tables meanwhile, so that work overlaps the writer's instead of leaving it idle at each
    // phase start.
    constexpr int kPhases = 4;
    auto loadPhase = [this](int phase) {
        std::vector<std::future<void>> parts;
        for (auto &c : m_cursors) {
            if (c->spec->phase == phase) {
                parts.push_back(std::async(std::launch::async, [&st = *c->st] {
                    lowerThreadPriority();
                    st.load();
                }));
            }
        }
        for (auto &p : parts) {
            p.wait(); // all of them, even past an error: they use this reader
        }
        for (auto &p : parts) {
            p.get(); // the first error, if any
        }
    };
    std::future<void> loading = std::async(std::launch::async, loadPhase, 0);
    struct StopLoading {
        std::atomic<bool> &flag;
        ~StopLoading() { flag = true; } // on the way out (cancel, error): the loader stops early
    } stopLoading { m_stopLoading };
    for (int phase = 0; phase < kPhases; ++phase) {
        while (loading.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
            m_ctx.checkpoint();
        }
        loading.get(); // its error, if any
        if (phase == 0 && nvtxNames.valid()) {
            m_nvtx.setNames(nvtxNames.get());
        }
        if (phase == 0 && osrtStacks.valid()) {
            m_hostCalls.backtraces().set(osrtStacks.get());
        }
        if (phase == 1 && cudaStacks.valid()) {
            m_cuda.backtraces().set(cudaStacks.get());
        }
        if (phase == kLastPhase && sampleStacks.valid()) {
            m_cpuSamples.setBacktraces(sampleStacks.get());
        }
        if (phase == 1 && corrScope.valid()) {
            m_cuda.setCorrScope(corrScope.get());
        }
        if (phase + 1 < kPhases) {
            loading = std::async(std::launch::async, loadPhase, phase + 1);
        }
        std::vector<NsysCursor *> live;
        for (auto &c : m_cursors) {
            if (c->spec->phase != phase) {
                continue;
            }
            if (c->st->next()) {
                c->loadKey();
                live.push_back(c.get());
            } else {
                c->st.reset();
            }
        }
        while (!live.empty()) {
            size_t best = 0;
            for (size_t i = 1; i < live.size(); ++i) {
                if (*live[i] < *live[best]) {
                    best = i;
                }
            }
            NsysCursor &c = *live[best];
            if (c.isNull(Start)) {
                m_diag.skipped(QStringLiteral("missing-start"),
                    QStringLiteral("table %1").arg(QString::fromLatin1(c.spec->table)),
                    QStringLiteral("A row has no start time; it was skipped."));
            } else {
                handle(c);
            }
            if (c.st->next()) {
                c.loadKey();
            } else {
                c.st.reset();
                live.erase(live.begin() + ptrdiff_t(best));
            }
        }
    }
    m_scheduling.closeOpen();
    m_nvtx.project();
    m_sink.addCorrelationFlows(m_links.links());
    m_memoryUsage.report();
    m_nvtx.report();
    m_cuda.report();
    if (m_rows == 0) {
        m_diag.report(Severity::Warning, QStringLiteral("no-events"), {},
            QStringLiteral("The export holds no CUDA, NVTX or OS runtime events: nothing was traced "
                           "(check the nsys profile --trace option)."));
    }
    reportUnreadTables(
        m_schema, m_diag, { &m_cpuSamples.backtraces(), &m_hostCalls.backtraces(), &m_cuda.backtraces() });
    m_cursors.clear();
}

} // namespace plumb::nsys
