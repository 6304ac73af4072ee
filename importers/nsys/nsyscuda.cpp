// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsyscuda.h"

#include "ingest/corrlinks.h"
#include "ingest/diagnosticlog.h"
#include "ingest/rangeprojection.h"
#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysschema.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystracks.h"
#include "store/foreignsqlitedb.h"

#include <string_view>

namespace plumb::nsys {

namespace {

constexpr size_t kMaxGpuKeys = 1 << 16; // distinct GPU-op names+args remembered (~10 MB)

// Copy and memory kinds as Nsight numbers them (ENUM_CUDA_MEMCPY_OPER, ENUM_CUDA_MEM_KIND); used
// when an export has no enum tables. Short copy-kind spellings are Kineto's ("HtoD").
const char *copyKindText(int64_t k)
{
    static const char *names[] = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD",
        "HtoH", "PtoP", "UVM HtoD", "UVM DtoH", "UVM DtoD" };
    return k >= 0 && k < int64_t(std::size(names)) ? names[k] : "Unknown";
}

const char *memKindText(int64_t k)
{
    static const char *names[] = { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
        "Managed Static", "Unknown" };
    return k >= 0 && k < int64_t(std::size(names)) ? names[k] : "Unknown";
}

// CUPTI synchronisation types, named as Kineto names its cuda_sync events.
const char *syncName(int64_t t)
{
    switch (t) {
    case 1:
        return "Event Sync";
    case 2:
        return "Stream Wait Event";
    case 3:
        return "Stream Sync";
    case 4:
        return "Context Sync";
    default:
        return "Unknown Sync";
    }
}

} // namespace

NsysCuda::NsysCuda(NsysSchema &schema, NsysStrings &strings, NsysTracks &tracks, NsysArgs &args,
    TraceSink &sink, DiagnosticLog &diag, RangeProjection &projection, CorrLinkCounter &links)
    : m_schema(schema)
    , m_strings(strings)
    , m_tracks(tracks)
    , m_args(args)
    , m_sink(sink)
    , m_diag(diag)
    , m_projection(projection)
    , m_links(links)
    , m_catRuntime(sink.intern("cuda_runtime"))
    , m_catDriver(sink.intern("cuda_driver"))
    , m_catKernel(sink.intern("kernel"))
    , m_catMemcpy(sink.intern("gpu_memcpy"))
    , m_catMemset(sink.intern("gpu_memset"))
    , m_catSync(sink.intern("cuda_sync"))
    , m_catGraph(sink.intern("cuda_graph"))
{
}

void NsysCuda::readEnums()
{
    // The driver's event class, from the enum table when there is one (1 in every layout seen).
    m_driverClass[1] = true;
    if (m_schema.hasTable("ENUM_NSYS_EVENT_CLASS")) {
        ForeignSqliteDb::Stmt st(
            m_schema.db(), "SELECT * FROM ENUM_NSYS_EVENT_CLASS", "ENUM_NSYS_EVENT_CLASS");
        int idCol = -1, nameCol = -1;
        for (int c = 0; c < st.columnCount(); ++c) {
            if (st.columnName(c) == "id") {
                idCol = c;
            } else if (st.columnName(c) == "name") {
                nameCol = c;
            }
        }
        if (idCol >= 0 && nameCol >= 0) {
            m_driverClass.clear();
            while (st.step()) {
                if (st.text(nameCol) == "TRACE_PROCESS_EVENT_CUDA_DRIVER") {
                    m_driverClass[st.integer(idCol)] = true;
                }
            }
        }
    }
    for (size_t k = 0; k < m_copyKinds.size(); ++k) {
        m_copyKinds[k] = copyKindText(int64_t(k));
    }
    for (size_t k = 0; k < m_memKinds.size(); ++k) {
        const std::string label = m_schema.enumLabel("ENUM_CUDA_MEM_KIND", int64_t(k));
        m_memKinds[k] = label.empty() ? memKindText(int64_t(k)) : label;
    }
}

// Correlation ids are counted per process: with several CUDA processes in one export the same id
// names different launches, so slice.corr gets the pid in its high bits. Known by the time the
// runtime calls (the first table that links) are merged: the scan, a whole table's when one process
// made every call, runs on a connection of its own while the first phases load.
std::future<bool> NsysCuda::startCorrScope(const QString &path)
{
    if (!m_schema.hasColumns("CUPTI_ACTIVITY_KIND_RUNTIME", { "globalTid" })) {
        return {};
    }
    return std::async(std::launch::async, [path] {
        ForeignSqliteDb db(path);
        // Stops at the first call from a second process.
        ForeignSqliteDb::Stmt st(db,
            "SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid >> 24 <> "
            "(SELECT globalTid >> 24 FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid IS NOT NULL "
            "LIMIT 1) LIMIT 1",
            "CUPTI_ACTIVITY_KIND_RUNTIME");
        return st.step();
    });
}

void NsysCuda::setCorrScope(bool perProcess)
{
    m_corrPerProcess = perProcess;
    if (m_corrPerProcess) {
        m_diag.report(Severity::Info, QStringLiteral("corr-per-process"), {},
            QStringLiteral("Several processes made CUDA calls: correlation ids are stored as "
                           "pid << 32 | correlationId so each launch links to its own GPU work."));
    }
}

int64_t NsysCuda::corrOf(const NsysCursor &c, F pidField) const
{
    const int64_t corr = c.get(Corr);
    if (corr == kNoValue || !m_corrPerProcess) {
        return corr;
    }
    const int64_t g = c.get(pidField);
    return g == kNoValue ? corr : (pidOf(g) << 32) | (corr & 0xffffffff);
}

void NsysCuda::handleRuntime(NsysCursor &c, SliceFields &f)
{
    const int64_t nameId = c.get(NameId, 0);
    f.nameId = m_strings.apiNameOf(nameId);
    bool driver = false;
    if (c.has(EventClass)) {
        driver = m_driverClass.count(c.get(EventClass, -1)) != 0;
    } else {
        // No event class (older layouts): the driver API is the cu* functions.
        auto it = m_driverByName.find(nameId);
        if (it == m_driverByName.end()) {
            const std::string_view name = m_strings.lookup(nameId);
            it = m_driverByName.emplace(nameId, hasPrefix(name, "cu") && !hasPrefix(name, "cuda")).first;
        }
        driver = it->second;
    }
    f.catId = driver ? m_catDriver : m_catRuntime;
    f.corr = corrOf(c, GlobalTid);
    if (const int64_t ret = c.get(ReturnValue, 0); ret != 0) {
        m_args.add("return value", ret);
    }
    m_stacks.addTo(m_args, c, m_strings);
    if (const std::string_view json = m_args.finish(); !json.empty()) {
        f.argsId = m_sink.internArgs(json);
    }
    if (f.corr != kNoValue) {
        m_projection.addLaunch(f.corr, c.get(GlobalTid, 0), f.tsNs);
        m_links.addLaunch(f.corr);
    }
    NsysTracks::ThreadTracks &t = m_tracks.threadTracks(c.get(GlobalTid, 0));
    if (t.api == kNoValue) {
        t.api = m_sink.companionTrack(t.thread, TrackKind::CudaApi);
    }
    m_sink.addSlice(t.api, f);
}

void NsysCuda::handleGpu(NsysCursor &c, SliceFields &f)
{
    const Source source = c.spec->source;
    const int64_t device = c.get(Device, 0);
    const int64_t stream = c.get(Stream, 0);
    const int64_t context = c.has(Context) ? c.get(Context, 0) : kNoValue;
    f.corr = corrOf(c, GlobalPid);

    // Every value the name and args are made of (kNoValue: not in the table): rows that agree on
    // them get the same name and args, without building and hashing the JSON again.
    GpuKey key;
    key.fill(kNoValue);
    key[0] = int64_t(source);
    key[1] = device;
    key[2] = context;
    key[3] = stream;
    int64_t demangled = kNoValue, shortName = kNoValue;
    switch (source) {
    case Source::Kernel:
        demangled = c.get(Demangled);
        shortName = c.get(Short);
        if (c.has(GridX)) {
            key[4] = c.get(GridX, 0);
            key[5] = c.get(GridY, 1);
            key[6] = c.get(GridZ, 1);
        }
        if (c.has(BlockX)) {
            key[7] = c.get(BlockX, 0);
            key[8] = c.get(BlockY, 1);
            key[9] = c.get(BlockZ, 1);
        }
        if (c.has(Registers)) {
            key[10] = c.get(Registers, 0);
        }
        if (c.has(StaticSmem) || c.has(DynamicSmem)) {
            key[11] = c.get(StaticSmem, 0);
            key[12] = c.get(DynamicSmem, 0);
        }
        if (shortName != kNoValue && demangled != kNoValue) {
            key[13] = shortName;
        }
        break;
    case Source::Memcpy:
        key[4] = c.get(CopyKind, 0);
        key[5] = c.get(SrcKind);
        key[6] = c.get(DstKind);
        key[7] = c.get(Bytes, 0);
        break;
    case Source::Graph:
        key[4] = c.get(GraphId);
        key[5] = c.get(GraphExecId);
        break;
    case Source::Memset:
        key[4] = c.get(MemKind);
        key[5] = c.get(Bytes, 0);
        if (c.has(Value)) {
            key[6] = c.get(Value, 0);
        }
        break;
    default:
        break;
    }

    auto cached = m_gpuNames.find(key);
    if (cached == m_gpuNames.end()) {
        if (m_gpuNames.size() >= kMaxGpuKeys) {
            m_gpuNames.clear();
        }
        cached = m_gpuNames.emplace(key, gpuNameAndArgs(key)).first;
    }
    f.nameId = source == Source::Kernel ? m_strings.nameOf(demangled != kNoValue ? demangled
                       : shortName != kNoValue                                   ? shortName
                                                                                 : 0)
                                        : cached->second.nameId;
    f.argsId = cached->second.argsId;
    if (source == Source::Kernel) {
        f.catId = m_catKernel;
        ++m_sink.stats().kernels;
    } else if (source == Source::Graph) {
        f.catId = m_catGraph;
        ++m_graphLaunches;
    } else {
        f.catId = source == Source::Memcpy ? m_catMemcpy : m_catMemset;
    }
    ++m_sink.stats().gpuOps;
    const int64_t track = m_tracks.streamTrack(device, stream);
    if (f.corr != kNoValue) {
        m_projection.addOp(f.corr, track, f.tsNs, f.tsNs + f.durNs);
        m_links.addOp(f.corr);
    }
    m_sink.addSlice(track, f);
}

NsysCuda::GpuNames NsysCuda::gpuNameAndArgs(const GpuKey &key)
{
    GpuNames out;
    m_args.clear();
    m_args.add("device", key[1]);
    if (key[2] != kNoValue) {
        m_args.add("context", key[2]);
    }
    m_args.add("stream", key[3]);
    switch (Source(key[0])) {
    case Source::Kernel: {
        if (key[4] != kNoValue) {
            m_args.add3("grid", key[4], key[5], key[6]);
        }
        if (key[7] != kNoValue) {
            m_args.add3("block", key[7], key[8], key[9]);
        }
        if (key[10] != kNoValue) {
            m_args.add("registers per thread", key[10]);
        }
        if (key[11] != kNoValue) {
            m_args.add("shared memory", key[11] + key[12]);
            m_args.add("static shared memory", key[11]);
            m_args.add("dynamic shared memory", key[12]);
        }
        if (const int64_t shortName = key[13]; shortName != kNoValue) {
            auto it = m_shortNames.find(shortName);
            if (it == m_shortNames.end()) {
                it = m_shortNames.emplace(shortName, std::string(m_strings.lookup(shortName))).first;
            }
            m_args.add("short name", it->second);
        }
        break;
    }
    case Source::Memcpy: {
        const int64_t kind = key[4];
        const std::string_view kindText = kind >= 0 && kind < int64_t(m_copyKinds.size())
            ? std::string_view(m_copyKinds[size_t(kind)])
            : std::string_view("Unknown");
        const int64_t src = key[5], dst = key[6];
        auto memKind = [this](int64_t k) {
            return k >= 0 && k < int64_t(m_memKinds.size()) ? std::string_view(m_memKinds[size_t(k)])
                                                            : std::string_view("Unknown");
        };
        // Named as Kineto names them: "Memcpy HtoD (Pageable -> Device)".
        std::string name = "Memcpy ";
        name += kindText;
        if (src != kNoValue && dst != kNoValue) {
            name += " (";
            name += memKind(src);
            name += " -> ";
            name += memKind(dst);
            name += ')';
        }
        out.nameId = m_sink.intern(name);
        m_args.add("bytes", key[7]);
        m_args.add("copyKind", kindText);
        if (src != kNoValue) {
            m_args.add("srcKind", memKind(src));
        }
        if (dst != kNoValue) {
            m_args.add("dstKind", memKind(dst));
        }
        break;
    }
    case Source::Graph: {
        // Named by its graph, as Nsight Systems' timeline labels a whole-graph range.
        out.nameId = m_sink.intern(
            key[4] == kNoValue ? std::string("CUDA graph") : "CUDA graph " + std::to_string(key[4]));
        if (key[4] != kNoValue) {
            m_args.add("graph id", key[4]);
        }
        if (key[5] != kNoValue) {
            m_args.add("graph exec id", key[5]);
        }
        break;
    }
    case Source::Memset: {
        const int64_t kind = key[4];
        std::string name = "Memset";
        if (kind != kNoValue) {
            name += " (";
            name += kind >= 0 && kind < int64_t(m_memKinds.size()) ? m_memKinds[size_t(kind)]
                                                                   : std::string("Unknown");
            name += ')';
        }
        out.nameId = m_sink.intern(name);
        m_args.add("bytes", key[5]);
        if (key[6] != kNoValue) {
            m_args.add("value", key[6]);
        }
        break;
    }
    default:
        break;
    }
    out.argsId = m_sink.internArgs(m_args.finish());
    return out;
}

void NsysCuda::handleSync(NsysCursor &c, SliceFields &f)
{
    const int64_t device = c.get(Device, 0);
    const int64_t stream = c.get(Stream, kInvalidStream);
    f.nameId = m_sink.intern(syncName(c.get(SyncType, 0)));
    f.catId = m_catSync;
    f.corr = corrOf(c, GlobalPid);
    m_args.add("device", device);
    if (stream != kInvalidStream) {
        m_args.add("stream", stream);
    }
    f.argsId = m_sink.internArgs(m_args.finish());
    if (f.corr != kNoValue) {
        m_links.addOp(f.corr);
    }
    m_sink.addSlice(m_tracks.syncTrack(device, stream), f);
}

void NsysCuda::report()
{
    if (m_graphLaunches > 0) {
        m_diag.report(Severity::Info, QStringLiteral("cuda-graph-trace"),
            QStringLiteral("table CUPTI_ACTIVITY_KIND_GRAPH_TRACE"),
            QStringLiteral("CUDA graphs were traced as whole launches (nsys --cuda-graph-trace=graph): "
                           "each is one 'CUDA graph N' op on its stream, its kernels not shown one by "
                           "one. Profile with --cuda-graph-trace=node to see them."),
            m_graphLaunches);
    }
}

} // namespace plumb::nsys
