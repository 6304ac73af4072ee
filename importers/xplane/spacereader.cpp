// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/spacereader.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/tracesink.h"
#include "text/jsontext.h"
#include "xplane/spacestream.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

namespace plumb {

namespace {

constexpr int64_t kEpochMinNs = 946'684'800'000'000'000; // 2000-01-01: below this, not epoch
constexpr int64_t kEpochMaxNs = 4'102'444'800'000'000'000; // 2100-01-01
constexpr uint64_t kMaxSpaceString = 16 << 20; // an XSpace error/warning/hostname kept
constexpr int64_t kCheckpointEvents = 1 << 16;

using Truncated = SpaceStream::Truncated;

int64_t floorDiv1000(int64_t v)
{
    return v >= 0 ? v / 1000 : -((-(v + 1)) / 1000) - 1;
}

constexpr std::string_view kCatNames[]
    = { "kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "cpu_op", "python_function" };

// Lines that the profiler derives on a device (and sometimes the host) plane.
std::string_view derivedCategory(std::string_view line)
{
    static const std::unordered_map<std::string_view, std::string_view> table = {
        { "Steps", "step" },
        { "XLA Modules", "xla_module" },
        { "XLA Ops", "xla_op" },
        { "Async XLA Ops", "xla_op" },
        { "XLA TraceMe", "xla_traceme" },
        { "TensorFlow Ops", "tf_op" },
        { "Framework Ops", "tf_op" },
        { "TensorFlow Name Scope", "tf_name_scope" },
        { "Framework Name Scope", "tf_name_scope" },
        { "Source code", "source_code" },
        { "Launch Stats", "launch_stats" },
    };
    const auto it = table.find(line);
    return it == table.end() ? std::string_view() : it->second;
}

// "Stream #134(Compute)" -> 134.
std::optional<int64_t> streamNumber(std::string_view line)
{
    constexpr std::string_view prefix = "Stream #";
    if (line.substr(0, prefix.size()) != prefix) {
        return std::nullopt;
    }
    int64_t v = 0;
    const char *b = line.data() + prefix.size();
    const auto r = std::from_chars(b, line.data() + line.size(), v);
    if (r.ec != std::errc() || r.ptr == b) {
        return std::nullopt;
    }
    return v;
}

QString at(int64_t offset)
{
    return QStringLiteral("byte %1").arg(offset);
}

enum class LineKind { Thread, Stream, Derived };

// An XLine's own fields.
struct Line {
    int64_t id = 0;
    std::string_view name, displayName;
    int64_t timestampNs = 0;
};

} // namespace

SpaceReader::SpaceReader(ImportContext &ctx)
    : m_ctx(ctx)
    , m_diag(ctx.diagnostics())
    , m_sink(ctx.traceSink())
    , m_fileName(ctx.input().fileName())
    , m_stats(ctx.diagnostics())
    , m_eventMetas(ctx.diagnostics())
{
    m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
    setSessionJob(ctx.input().path());
    for (size_t i = 0; i < size_t(Cat::Count); ++i) {
        m_catIds[i] = m_sink.intern(kCatNames[i]);
    }
}

// TensorBoard's profile plugin (TensorFlow's and JAX's profilers) writes a session's profile as
// <run>/plugins/profile/<session>/<host>.xplane.pb, one file per host: the hosts of a session are
// one run, "<run>/<session>", as TensorBoard lists them.
void SpaceReader::setSessionJob(const QString &path)
{
    QDir dir = QFileInfo(path).absoluteDir();
    const QString session = dir.absolutePath();
    const QString sessionName = dir.dirName();
    if (!dir.cdUp() || dir.dirName() != QLatin1String("profile") || !dir.cdUp()
        || dir.dirName() != QLatin1String("plugins") || !dir.cdUp()) {
        return;
    }
    const QString run = dir.dirName();
    m_sink.setJob(QStringLiteral("xplane-session:") + session,
        run.isEmpty() ? sessionName : run + QLatin1Char('/') + sessionName);
}

void SpaceReader::run()
{
    SpaceStream stream(m_ctx.input());
    InputFile &input = m_ctx.input();
    while (!stream.atEnd()) {
        const int64_t keyOffset = stream.offset();
        const uint64_t key = stream.varint();
        const uint32_t field = uint32_t(key >> 3);
        const uint32_t wt = uint32_t(key & 7);
        if (field == 0 || (wt != 0 && wt != 1 && wt != 2 && wt != 5)) {
            throw ProtoWire::Error { keyOffset, "a field key that protobuf does not write" };
        }
        if (field >= 1 && field <= 4 && wt != ProtoWire::LengthDelimited) {
            throw ProtoWire::Error { keyOffset,
                field == 1 ? "an XSpace plane that is not a message"
                           : "an XSpace string field that is not length-delimited" };
        }
        if (wt == ProtoWire::Varint) {
            stream.varint();
            continue;
        }
        if (wt == ProtoWire::Fixed64 || wt == ProtoWire::Fixed32) {
            stream.skip(wt == ProtoWire::Fixed64 ? 8 : 4);
            continue;
        }
        const uint64_t len = stream.varint();
        const int64_t start = stream.offset();
        // Check the length against the file before allocating for it.
        if (!input.isGzip() && len > uint64_t(std::max<int64_t>(0, input.size() - start))) {
            throw Truncated { start, len, input.size() };
        }
        if (field == 1) {
            if (len > kMaxPlaneBytes) {
                throw ProtoWire::Error { keyOffset,
                    "an XPlane larger than 4 GiB (protobuf writes at most 2 GiB)" };
            }
            stream.read(m_planeBuf, len);
            readPlane(m_planeBuf, start);
            m_ctx.checkpoint();
        } else if (field <= 4 && len <= kMaxSpaceString) {
            std::string s;
            stream.read(s, len);
            (field == 2 ? m_errors : field == 3 ? m_warnings : m_hostnames).push_back(std::move(s));
        } else {
            stream.skip(len);
        }
    }
    if (m_planes == 0) {
        throw ImportError(
            QStringLiteral("%1 holds no XPlane: it is not a TensorFlow/JAX profile (or an empty one)")
                .arg(m_fileName),
            at(stream.offset()));
    }
    if (m_namedPlanes == 0 && m_events == 0) {
        throw ImportError(
            QStringLiteral("%1 is protobuf, but its planes have no names and no events: it is a "
                           "message of another type, not an XPlane profile")
                .arg(m_fileName),
            at(0));
    }
    finishSpace();
}

void SpaceReader::readPlane(const std::string &bytes, int64_t base)
{
    ++m_planes;
    m_planeName = {};
    m_planeId = 0;
    m_process = kNoValue;
    m_planeEvents = 0;

    std::vector<ProtoWire::Span> lines, eventEntries, statEntries, planeStats;
    ProtoWire r(bytes, base);
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        switch (field) {
        case 1:
            r.expect(wt, ProtoWire::Varint, "an XPlane id that is not a varint");
            m_planeId = int64_t(r.varint());
            break;
        case 2:
            r.expect(wt, ProtoWire::LengthDelimited, "an XPlane name that is not a string");
            m_planeName = r.bytes();
            if (!isValidUtf8(m_planeName)) {
                r.fail("an XPlane name that is not UTF-8 text");
            }
            break;
        case 3:
            r.expect(wt, ProtoWire::LengthDelimited, "an XPlane line that is not a message");
            lines.push_back(r.span());
            break;
        case 4:
            r.expect(wt, ProtoWire::LengthDelimited, "an XPlane event metadata entry that is not a message");
            eventEntries.push_back(r.span());
            break;
        case 5:
            r.expect(wt, ProtoWire::LengthDelimited, "an XPlane stat metadata entry that is not a message");
            statEntries.push_back(r.span());
            break;
        case 6:
            r.expect(wt, ProtoWire::LengthDelimited, "an XPlane stat that is not a message");
            planeStats.push_back(r.span());
            break;
        default:
            r.skip(wt);
        }
    }
    if (!m_planeName.empty()) {
        ++m_namedPlanes;
    }

    // Plane kind from its name: "/host:CPU", "/device:GPU:3", "/device:TPU:0", anything else.
    m_planeKind = PlaneKind::Other;
    m_deviceIndex = kNoValue;
    constexpr std::string_view kDevice = "/device:";
    if (m_planeName == "/host:CPU") {
        m_planeKind = PlaneKind::Host;
    } else if (m_planeName.substr(0, kDevice.size()) == kDevice) {
        const size_t colon = m_planeName.rfind(':');
        int64_t n = 0;
        const auto res
            = std::from_chars(m_planeName.data() + colon + 1, m_planeName.data() + m_planeName.size(), n);
        if (colon > kDevice.size() && res.ec == std::errc()
            && res.ptr == m_planeName.data() + m_planeName.size()) {
            m_deviceIndex = n;
        }
        m_planeKind = m_planeName.substr(kDevice.size(), 4) == "GPU:" && m_deviceIndex != kNoValue
            ? PlaneKind::Gpu
            : PlaneKind::Device;
    }

    m_stats.loadPlane(statEntries, m_planeName);
    m_eventMetas.loadPlane(eventEntries, m_stats, m_planeName);

    // Plane stats: device properties for a GPU, trace metadata for every plane.
    std::string statsJson = "{";
    for (const ProtoWire::Span &s : planeStats) {
        int64_t corr = kNoValue;
        bool memcpy = false;
        m_stats.append(statsJson, s, corr, memcpy);
    }
    statsJson.push_back('}');
    if (m_planeKind == PlaneKind::Gpu) {
        m_sink.addDevice(m_deviceIndex, QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size())),
            QByteArray::fromStdString(statsJson));
    }

    for (size_t i = 0; i < lines.size(); ++i) {
        readLine(lines[i], int64_t(i));
    }

    m_planesJson.push_back(m_planesJson.empty() ? '[' : ',');
    m_planesJson += "{\"name\":";
    appendJsonString(m_planesJson, m_planeName);
    m_planesJson += ",\"id\":";
    m_planesJson += std::to_string(m_planeId);
    m_planesJson += ",\"lines\":";
    m_planesJson += std::to_string(lines.size());
    m_planesJson += ",\"events\":";
    m_planesJson += std::to_string(m_planeEvents);
    if (statsJson.size() > 2) {
        m_planesJson += ",\"stats\":";
        m_planesJson += statsJson;
    }
    m_planesJson.push_back('}');
    ++m_planeIndex;
}

int64_t SpaceReader::ensureProcess()
{
    if (m_process != kNoValue) {
        return m_process;
    }
    std::string label(m_planeName);
    if (label.empty()) {
        label = "plane " + std::to_string(m_planeId);
    }
    m_process = m_sink.process(label);
    m_sink.setProcessName(m_process, label);
    m_sink.setProcessSortIndex(m_process, m_planeIndex);
    switch (m_planeKind) {
    case PlaneKind::Host:
        m_sink.setProcessKind(m_process, ProcessKind::Cpu);
        break;
    case PlaneKind::Gpu:
        m_sink.setProcessKind(m_process, ProcessKind::Gpu, m_deviceIndex);
        break;
    case PlaneKind::Device:
        m_sink.setProcessKind(m_process, ProcessKind::Other, m_deviceIndex);
        break;
    case PlaneKind::Other:
        m_sink.setProcessKind(m_process, ProcessKind::Other);
        break;
    }
    return m_process;
}

void SpaceReader::readLine(ProtoWire::Span lineSpan, int64_t lineIndex)
{
    // The line's own fields first: display_name (11) follows the events (4) on the wire.
    Line line;
    {
        ProtoWire r(lineSpan.bytes, lineSpan.offset);
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            switch (field) {
            case 1:
                r.expect(wt, ProtoWire::Varint, "an XLine id that is not a varint");
                line.id = int64_t(r.varint());
                break;
            case 2:
                r.expect(wt, ProtoWire::LengthDelimited, "an XLine name that is not a string");
                line.name = r.bytes();
                break;
            case 3:
                r.expect(wt, ProtoWire::Varint, "an XLine timestamp that is not a varint");
                line.timestampNs = int64_t(r.varint());
                break;
            case 4:
                r.expect(wt, ProtoWire::LengthDelimited, "an XLine event that is not a message");
                r.skip(wt);
                break;
            case 11:
                r.expect(wt, ProtoWire::LengthDelimited, "an XLine display name that is not a string");
                line.displayName = r.bytes();
                break;
            default:
                r.skip(wt);
            }
        }
    }
    const std::string_view shownName = line.displayName.empty() ? line.name : line.displayName;
    const int64_t process = ensureProcess();
    const int64_t track = m_sink.thread(process, std::to_string(line.id));
    m_sink.setTrackName(track, shownName);
    m_sink.setTrackSortIndex(track, lineIndex);

    LineKind kind = LineKind::Thread;
    int64_t derivedCat = kNoValue;
    const std::string_view derived = derivedCategory(line.name);
    if (!derived.empty()) {
        kind = LineKind::Derived;
        derivedCat = m_sink.intern(derived);
    } else if (m_planeKind == PlaneKind::Gpu) {
        if (const auto stream = streamNumber(line.name)) {
            kind = LineKind::Stream;
            m_sink.setTrackGpuStream(track, *stream);
        } else {
            kind = LineKind::Derived; // a device line of a kind not named above
            derivedCat = m_sink.intern("annotation");
        }
    }
    int64_t apiTrack = kNoValue;

    ProtoWire r(lineSpan.bytes, lineSpan.offset);
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        if (field != 4) {
            r.skip(wt);
            continue;
        }
        const ProtoWire::Span ev = r.span();
        ProtoWire er(ev.bytes, ev.offset);
        int64_t metadataId = 0, offsetPs = 0, durPs = 0;
        bool aggregated = false;
        m_eventStats.clear();
        while (er.next(field, wt)) {
            switch (field) {
            case 1:
                er.expect(wt, ProtoWire::Varint, "an XEvent metadata id that is not a varint");
                metadataId = int64_t(er.varint());
                break;
            case 2:
                er.expect(wt, ProtoWire::Varint, "an XEvent offset that is not a varint");
                offsetPs = int64_t(er.varint());
                break;
            case 3:
                er.expect(wt, ProtoWire::Varint, "an XEvent duration that is not a varint");
                durPs = int64_t(er.varint());
                break;
            case 4:
                er.expect(wt, ProtoWire::LengthDelimited, "an XEvent stat that is not a message");
                m_eventStats.push_back(er.span());
                break;
            case 5:
                er.expect(wt, ProtoWire::Varint, "an XEvent occurrence count that is not a varint");
                er.varint();
                aggregated = true;
                break;
            default:
                er.skip(wt);
            }
        }
        ++m_events;
        ++m_planeEvents;
        ++m_ctx.recordsRead;
        ++m_sink.stats().events;
        if (++m_sinceCheckpoint >= kCheckpointEvents) {
            m_sinceCheckpoint = 0;
            m_ctx.checkpoint();
        }
        if (aggregated) {
            m_diag.skipped(QStringLiteral("aggregated-event"), at(ev.offset),
                QStringLiteral("An aggregated event (a count of occurrences, no time of its own) "
                               "cannot be placed on a timeline; it was skipped."));
            continue;
        }
        EventMeta &meta = m_eventMetas.find(metadataId);

        SliceFields f;
        int64_t endNs = 0;
        if (__builtin_add_overflow(line.timestampNs, floorDiv1000(offsetPs), &f.tsNs)) {
            m_diag.skipped(QStringLiteral("bad-timestamp"), at(ev.offset),
                QStringLiteral("An event's time (line timestamp + offset) does not fit in 64 bits; it "
                               "was skipped."));
            continue;
        }
        if (durPs < 0) {
            m_diag.report(Severity::Warning, QStringLiteral("bad-duration"), at(ev.offset),
                QStringLiteral("An event has a negative duration; it was imported with duration 0."));
            durPs = 0;
        }
        // The end is floored like the start, so events that nest in picoseconds nest in ns too.
        int64_t endPs = 0;
        if (__builtin_add_overflow(offsetPs, durPs, &endPs)
            || __builtin_add_overflow(line.timestampNs, floorDiv1000(endPs), &endNs)) {
            endNs = f.tsNs + durPs / 1000;
        }
        f.durNs = endNs - f.tsNs;

        f.corr = meta.corr;
        bool memcpyDetails = meta.memcpyDetails;
        m_own.clear();
        for (const ProtoWire::Span &s : m_eventStats) {
            m_stats.append(m_own, s, f.corr, memcpyDetails);
        }
        if (m_own.empty()) {
            if (!meta.fragmentInterned) {
                meta.fragmentArgsId
                    = meta.fragment.empty() ? kNoValue : m_sink.internArgs("{" + meta.fragment + "}");
                meta.fragmentInterned = true;
            }
            f.argsId = meta.fragmentArgsId;
        } else {
            m_args.assign(1, '{');
            if (!meta.fragment.empty()) {
                m_args += meta.fragment;
                m_args.push_back(',');
            }
            m_args += m_own;
            m_args.push_back('}');
            f.argsId = m_sink.internArgs(m_args);
        }
        if (meta.nameId == kNoValue) {
            meta.nameId = m_sink.intern(meta.name);
        }
        f.nameId = meta.nameId;

        int64_t target = track;
        switch (kind) {
        case LineKind::Stream: {
            const Cat cat = memcpyDetails || meta.memcpyName ? Cat::Memcpy
                : meta.memsetName                            ? Cat::Memset
                                                             : Cat::Kernel;
            f.catId = m_catIds[size_t(cat)];
            ++m_sink.stats().gpuOps;
            if (cat == Cat::Kernel) {
                ++m_sink.stats().kernels;
            }
            if (f.corr != kNoValue) {
                m_links.addOp(f.corr);
            }
            break;
        }
        case LineKind::Derived:
            f.catId = derivedCat;
            break;
        case LineKind::Thread:
            if (f.corr != kNoValue && m_planeKind == PlaneKind::Host) {
                // A CUDA API call (the profiler names it after the kernel it launched, or the call).
                f.catId = m_catIds[size_t(meta.driverName ? Cat::Driver : Cat::Runtime)];
                if (apiTrack == kNoValue) {
                    apiTrack = m_sink.companionTrack(track, TrackKind::CudaApi);
                }
                target = apiTrack;
                m_links.addLaunch(f.corr);
            } else {
                f.catId = m_catIds[size_t(meta.pythonName ? Cat::Python : Cat::CpuOp)];
            }
            break;
        }
        m_sink.addSlice(target, f);
    }
}

void SpaceReader::finishSpace()
{
    // Launch -> GPU op links are slice.corr itself (XPlane has no flow events): they are its flows.
    m_sink.addCorrelationFlows(m_links.links());
    const TraceStats &st = m_sink.stats();
    if (st.startNs != INT64_MAX && st.startNs >= kEpochMinNs && st.startNs < kEpochMaxNs) {
        m_sink.setBaseTimeNs(0); // slice.ts is already wall-clock time
    }

    for (const std::string &e : m_errors) {
        m_diag.report(Severity::Warning, QStringLiteral("profiler-error"), {},
            QStringLiteral("The profiler recorded an error: %1").arg(QString::fromStdString(e)));
    }
    for (const std::string &w : m_warnings) {
        m_diag.report(Severity::Info, QStringLiteral("profiler-warning"), {},
            QStringLiteral("The profiler recorded a warning: %1").arg(QString::fromStdString(w)));
    }

    std::string json = "{\"format\":\"xplane\"";
    auto list = [&json](const char *key, const std::vector<std::string> &items) {
        if (items.empty()) {
            return;
        }
        json += ",\"";
        json += key;
        json += "\":[";
        for (size_t i = 0; i < items.size(); ++i) {
            if (i) {
                json.push_back(',');
            }
            appendJsonString(json, items[i]);
        }
        json.push_back(']');
    };
    list("hostnames", m_hostnames);
    list("errors", m_errors);
    list("warnings", m_warnings);
    json += ",\"planes\":";
    json += m_planesJson;
    json += "]}";
    m_sink.setMetadataJson(QByteArray::fromStdString(json));
}

} // namespace plumb
