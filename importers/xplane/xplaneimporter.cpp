// SPDX-License-Identifier: GPL-3.0-or-later
#include "xplane/xplaneimporter.h"

#include "text/jsontext.h"

#include "ingest/corrlinks.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/tracesink.h"
#include "xplane.pb.h"
#include "xplane/wirereader.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace plumb {

namespace {

constexpr int64_t kEpochMinNs = 946'684'800'000'000'000; // 2000-01-01: below this, not epoch
constexpr int64_t kEpochMaxNs = 4'102'444'800'000'000'000; // 2100-01-01
constexpr size_t kReadChunk = 1 << 20; // stream buffer for the XSpace fields
constexpr uint64_t kMaxPlaneBytes = uint64_t(1) << 32; // protobuf writers stop at 2 GiB
constexpr uint64_t kMaxSpaceString = 16 << 20; // an XSpace error/warning/hostname kept
constexpr int64_t kCheckpointEvents = 1 << 16;

using WireError = WireReader::WireError;

// The first place where the input stopped making sense; turned into an ImportError by read().
struct Truncated {
    int64_t startOffset; // where the field that runs past the end begins
    uint64_t needed; // bytes it says it has
    int64_t endOffset; // where the input ended
};

int64_t floorDiv1000(int64_t v)
{
    return v >= 0 ? v / 1000 : -((-(v + 1)) / 1000) - 1;
}

template <typename T> void appendNumber(std::string &out, T v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void appendDouble(std::string &out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    appendNumber(out, v);
}

// A JSON number as written in the text (no leading zeros, optional fraction): kept as a number.
bool isJsonNumber(std::string_view s)
{
    size_t i = 0;
    if (i < s.size() && s[i] == '-')
        ++i;
    const size_t digits = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
        ++i;
    if (i == digits || (s[digits] == '0' && i - digits > 1))
        return false;
    if (i < s.size() && s[i] == '.') {
        const size_t frac = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == frac)
            return false;
    }
    return i == s.size();
}

// "regs:38 static_shared:0 grid:1,1,1 block:256,1,1" -> {"regs":38,"static_shared":0,"grid":"1,1,1",...}.
// A word without a colon continues the previous value; text with no key:value pair stays a string.
void appendDetails(std::string &out, std::string_view text)
{
    struct Pair {
        std::string_view key;
        const char *valueBegin;
        const char *valueEnd;
    };
    std::vector<Pair> pairs;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
            ++i;
        size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t' && text[j] != '\r')
            ++j;
        if (j == i)
            break;
        const std::string_view word = text.substr(i, j - i);
        const size_t colon = word.find(':');
        if (colon != std::string_view::npos && colon > 0)
            pairs.push_back({ word.substr(0, colon), word.data() + colon + 1, word.data() + word.size() });
        else if (!pairs.empty())
            pairs.back().valueEnd = word.data() + word.size();
        else {
            appendJsonString(out, text);
            return;
        }
        i = j;
    }
    if (pairs.empty()) {
        appendJsonString(out, text);
        return;
    }
    out.push_back('{');
    for (size_t k = 0; k < pairs.size(); ++k) {
        if (k)
            out.push_back(',');
        appendJsonString(out, pairs[k].key);
        out.push_back(':');
        const std::string_view value(pairs[k].valueBegin, size_t(pairs[k].valueEnd - pairs[k].valueBegin));
        if (isJsonNumber(value))
            out.append(value);
        else
            appendJsonString(out, value);
    }
    out.push_back('}');
}

// Category names shared with the Chrome-trace importer, so analyses see one vocabulary.
enum class Cat { Kernel, Memcpy, Memset, Runtime, Driver, CpuOp, Python, Count };
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
    if (line.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    int64_t v = 0;
    const char *b = line.data() + prefix.size();
    const auto r = std::from_chars(b, line.data() + line.size(), v);
    if (r.ec != std::errc() || r.ptr == b)
        return std::nullopt;
    return v;
}

bool containsNoCase(std::string_view hay, std::string_view needle)
{
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return (a >= 'A' && a <= 'Z' ? char(a + 32) : a) == b;
    }) != hay.end();
}

// Metadata id -> position, dense when the ids are (as writers make them) small and compact.
class IdIndex {
public:
    void build(const std::vector<int64_t> &ids)
    {
        m_dense.clear();
        m_sparse.clear();
        int64_t maxId = -1;
        bool dense = true;
        for (const int64_t id : ids) {
            dense &= id >= 0;
            maxId = std::max(maxId, id);
        }
        dense &= maxId < int64_t(ids.size()) * 4 + 1024;
        if (dense)
            m_dense.assign(size_t(maxId + 1), -1);
        for (size_t i = 0; i < ids.size(); ++i) {
            if (dense)
                m_dense[size_t(ids[i])] = int32_t(i);
            else
                m_sparse[ids[i]] = int32_t(i);
        }
    }
    [[nodiscard]] int32_t find(int64_t id) const
    {
        if (!m_sparse.empty()) {
            const auto it = m_sparse.find(id);
            return it == m_sparse.end() ? -1 : it->second;
        }
        return id >= 0 && id < int64_t(m_dense.size()) ? m_dense[size_t(id)] : -1;
    }

private:
    std::vector<int32_t> m_dense;
    std::unordered_map<int64_t, int32_t> m_sparse;
};

struct StatMeta {
    enum Role : uint8_t { Plain, Correlation, KernelDetails, MemcpyDetails };
    std::string name;
    std::string key; // "name": ready to append
    std::string refJson; // the name as a JSON value, for ref_value stats that point here
    std::string refDetailsJson; // the name parsed as details, for details stats that point here
    bool refDetailsDone = false;
    Role role = Plain;
};

struct EventMeta {
    std::string name; // display_name, else name
    int64_t nameId = kNoValue;
    std::string fragment; // constant args: long_name and the metadata's stats, without braces
    int64_t fragmentArgsId = kNoValue;
    bool fragmentInterned = false;
    int64_t corr = kNoValue;
    bool memcpyName = false, memsetName = false, pythonName = false, driverName = false;
    bool memcpyDetails = false;
};

enum class PlaneKind { Host, Gpu, Device, Other };
enum class LineKind { Thread, Stream, Derived };

// Reads the XSpace's own fields from the input stream: the plane bytes are copied into one buffer
// that is reused from plane to plane.
class SpaceStream {
public:
    explicit SpaceStream(InputFile &in)
        : m_in(in)
    {
        m_buf.resize(kReadChunk);
    }

    [[nodiscard]] int64_t offset() const { return m_offset; }
    bool atEnd() { return !fill(1); }

    uint64_t varint()
    {
        const int64_t start = m_offset;
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (!fill(1))
                throw Truncated { start, 1, m_offset };
            const auto b = static_cast<unsigned char>(m_buf[m_pos++]);
            ++m_offset;
            v |= uint64_t(b & 0x7f) << shift;
            if (b < 0x80)
                return v;
        }
        throw WireError { start, "a varint longer than 10 bytes" };
    }

    void read(std::string &out, uint64_t n)
    {
        const int64_t start = m_offset;
        out.resize(size_t(n));
        size_t done = std::min<size_t>(m_len - m_pos, size_t(n));
        std::memcpy(out.data(), m_buf.data() + m_pos, done);
        m_pos += done;
        while (done < n) {
            const int64_t got = m_in.read(out.data() + done, int64_t(n - done));
            if (got <= 0)
                throw Truncated { start, n, start + int64_t(done) };
            done += size_t(got);
        }
        m_offset += int64_t(n);
    }

    void skip(uint64_t n)
    {
        const int64_t start = m_offset;
        uint64_t left = n;
        while (left > 0) {
            if (!fill(1))
                throw Truncated { start, n, m_offset };
            const size_t step = std::min<uint64_t>(left, m_len - m_pos);
            m_pos += step;
            m_offset += int64_t(step);
            left -= step;
        }
    }

private:
    bool fill(size_t n)
    {
        if (m_len - m_pos >= n)
            return true;
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_len - m_pos);
        m_len -= m_pos;
        m_pos = 0;
        while (m_len < n) {
            const int64_t got = m_in.read(m_buf.data() + m_len, int64_t(m_buf.size() - m_len));
            if (got <= 0)
                return false;
            m_len += size_t(got);
        }
        return true;
    }

    InputFile &m_in;
    std::vector<char> m_buf;
    size_t m_pos = 0, m_len = 0;
    int64_t m_offset = 0;
};

class Reader {
public:
    explicit Reader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_sink(ctx.traceSink())
        , m_fileName(ctx.input().fileName())
    {
        m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
        setSessionJob(ctx.input().path());
        for (size_t i = 0; i < size_t(Cat::Count); ++i)
            m_catIds[i] = m_sink.intern(kCatNames[i]);
    }

    void run();

private:
    // TensorBoard's profile plugin (TensorFlow's and JAX's profilers) writes a session's profile as
    // <run>/plugins/profile/<session>/<host>.xplane.pb, one file per host: the hosts of a session are
    // one run, "<run>/<session>", as TensorBoard lists them.
    void setSessionJob(const QString &path)
    {
        QDir dir = QFileInfo(path).absoluteDir();
        const QString session = dir.absolutePath();
        const QString sessionName = dir.dirName();
        if (!dir.cdUp() || dir.dirName() != QLatin1String("profile") || !dir.cdUp()
            || dir.dirName() != QLatin1String("plugins") || !dir.cdUp())
            return;
        const QString run = dir.dirName();
        m_sink.setJob(QStringLiteral("xplane-session:") + session,
            run.isEmpty() ? sessionName : run + QLatin1Char('/') + sessionName);
    }

    struct Span {
        std::string_view bytes;
        int64_t offset; // absolute offset of bytes[0]
    };
    struct Line {
        int64_t id = 0;
        std::string_view name, displayName;
        int64_t timestampNs = 0;
    };

    static Span payload(WireReader &r)
    {
        const std::string_view b = r.bytes();
        return { b, r.offset() - int64_t(b.size()) };
    }
    static void expect(const WireReader &r, uint32_t wt, uint32_t want, const char *message)
    {
        if (wt != want)
            r.fail(message);
    }

    void readPlane(const std::string &bytes, int64_t base);
    void loadStatMetadata(const std::vector<Span> &entries);
    void loadEventMetadata(const std::vector<Span> &entries);
    // Appends one stat as `"key":value` (after a comma when `out` has content); the correlation id
    // goes to `corr` instead. Sets `memcpyDetails` when it is a memcpy_details stat.
    void appendStat(std::string &out, Span stat, int64_t &corr, bool &memcpyDetails);
    void readLine(Span line, int64_t lineIndex);
    EventMeta &eventMeta(int64_t id);
    StatMeta *statMeta(int64_t id);
    int64_t ensureProcess();
    void finishSpace();
    QString at(int64_t offset) const { return QStringLiteral("byte %1").arg(offset); }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    TraceSink &m_sink;
    QString m_fileName;
    int64_t m_catIds[size_t(Cat::Count)];

    // The plane being read.
    std::string_view m_planeName;
    int64_t m_planeId = 0;
    int64_t m_planeIndex = 0;
    PlaneKind m_planeKind = PlaneKind::Other;
    int64_t m_deviceIndex = kNoValue;
    int64_t m_process = kNoValue;
    std::vector<StatMeta> m_statMetas;
    IdIndex m_statIndex;
    std::vector<EventMeta> m_eventMetas;
    IdIndex m_eventIndex;
    std::unordered_map<int64_t, EventMeta> m_unknownEventMetas;
    std::unordered_map<int64_t, StatMeta> m_unknownStatMetas;
    int64_t m_planeEvents = 0;

    // Whole file.
    int64_t m_planes = 0;
    int64_t m_namedPlanes = 0;
    int64_t m_events = 0;
    int64_t m_sinceCheckpoint = 0;
    std::string m_planesJson; // "planes" of the trace metadata
    CorrLinkCounter m_links; // launch -> GPU op links, the trace's flows
    std::vector<std::string> m_errors, m_warnings, m_hostnames;

    // Scratch, reused.
    std::vector<Span> m_stats;
    std::string m_own, m_args, m_planeBuf;
};

void Reader::run()
{
    SpaceStream stream(m_ctx.input());
    InputFile &input = m_ctx.input();
    while (!stream.atEnd()) {
        const int64_t keyOffset = stream.offset();
        const uint64_t key = stream.varint();
        const uint32_t field = uint32_t(key >> 3);
        const uint32_t wt = uint32_t(key & 7);
        if (field == 0 || (wt != 0 && wt != 1 && wt != 2 && wt != 5))
            throw WireError { keyOffset, "a field key that protobuf does not write" };
        if (field >= 1 && field <= 4 && wt != WireReader::LengthDelimited)
            throw WireError { keyOffset,
                field == 1 ? "an XSpace plane that is not a message"
                           : "an XSpace string field that is not length-delimited" };
        if (wt == WireReader::Varint) {
            stream.varint();
            continue;
        }
        if (wt == WireReader::Fixed64 || wt == WireReader::Fixed32) {
            stream.skip(wt == WireReader::Fixed64 ? 8 : 4);
            continue;
        }
        const uint64_t len = stream.varint();
        const int64_t start = stream.offset();
        // Check the length against the file before allocating for it.
        if (!input.isGzip() && len > uint64_t(std::max<int64_t>(0, input.size() - start)))
            throw Truncated { start, len, input.size() };
        if (field == 1) {
            if (len > kMaxPlaneBytes)
                throw WireError { keyOffset, "an XPlane larger than 4 GiB (protobuf writes at most 2 GiB)" };
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
    if (m_planes == 0)
        throw ImportError(
            QStringLiteral("%1 holds no XPlane: it is not a TensorFlow/JAX profile (or an empty one)")
                .arg(m_fileName),
            at(stream.offset()));
    if (m_namedPlanes == 0 && m_events == 0)
        throw ImportError(
            QStringLiteral("%1 is protobuf, but its planes have no names and no events: it is a "
                           "message of another type, not an XPlane profile")
                .arg(m_fileName),
            at(0));
    finishSpace();
}

void Reader::readPlane(const std::string &bytes, int64_t base)
{
    ++m_planes;
    m_planeName = {};
    m_planeId = 0;
    m_process = kNoValue;
    m_planeEvents = 0;
    m_unknownEventMetas.clear();
    m_unknownStatMetas.clear();

    std::vector<Span> lines, eventEntries, statEntries, planeStats;
    WireReader r(bytes, base);
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        switch (field) {
        case 1:
            expect(r, wt, WireReader::Varint, "an XPlane id that is not a varint");
            m_planeId = int64_t(r.varint());
            break;
        case 2:
            expect(r, wt, WireReader::LengthDelimited, "an XPlane name that is not a string");
            m_planeName = r.bytes();
            if (!isValidUtf8(m_planeName))
                r.fail("an XPlane name that is not UTF-8 text");
            break;
        case 3:
            expect(r, wt, WireReader::LengthDelimited, "an XPlane line that is not a message");
            lines.push_back(payload(r));
            break;
        case 4:
            expect(
                r, wt, WireReader::LengthDelimited, "an XPlane event metadata entry that is not a message");
            eventEntries.push_back(payload(r));
            break;
        case 5:
            expect(r, wt, WireReader::LengthDelimited, "an XPlane stat metadata entry that is not a message");
            statEntries.push_back(payload(r));
            break;
        case 6:
            expect(r, wt, WireReader::LengthDelimited, "an XPlane stat that is not a message");
            planeStats.push_back(payload(r));
            break;
        default:
            r.skip(wt);
        }
    }
    if (!m_planeName.empty())
        ++m_namedPlanes;

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
            && res.ptr == m_planeName.data() + m_planeName.size())
            m_deviceIndex = n;
        m_planeKind = m_planeName.substr(kDevice.size(), 4) == "GPU:" && m_deviceIndex != kNoValue
            ? PlaneKind::Gpu
            : PlaneKind::Device;
    }

    loadStatMetadata(statEntries);
    loadEventMetadata(eventEntries);

    // Plane stats: device properties for a GPU, trace metadata for every plane.
    std::string statsJson = "{";
    for (const Span &s : planeStats) {
        int64_t corr = kNoValue;
        bool memcpy = false;
        appendStat(statsJson, s, corr, memcpy);
    }
    statsJson.push_back('}');
    if (m_planeKind == PlaneKind::Gpu)
        m_sink.addDevice(m_deviceIndex, QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size())),
            QByteArray::fromStdString(statsJson));

    for (size_t i = 0; i < lines.size(); ++i)
        readLine(lines[i], int64_t(i));

    m_planesJson.push_back(m_planesJson.empty() ? '[' : ',');
    m_planesJson += "{\"name\":";
    appendJsonString(m_planesJson, m_planeName);
    m_planesJson += ",\"id\":";
    appendNumber(m_planesJson, m_planeId);
    m_planesJson += ",\"lines\":";
    appendNumber(m_planesJson, lines.size());
    m_planesJson += ",\"events\":";
    appendNumber(m_planesJson, m_planeEvents);
    if (statsJson.size() > 2) {
        m_planesJson += ",\"stats\":";
        m_planesJson += statsJson;
    }
    m_planesJson.push_back('}');
    ++m_planeIndex;
}

void Reader::loadStatMetadata(const std::vector<Span> &entries)
{
    m_statMetas.clear();
    m_statMetas.reserve(entries.size());
    std::vector<int64_t> ids;
    ids.reserve(entries.size());
    xplane::XStatMetadata meta;
    for (const Span &e : entries) {
        WireReader r(e.bytes, e.offset);
        int64_t key = 0;
        bool hasKey = false;
        std::string_view value;
        int64_t valueOffset = e.offset;
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            if (field == 1 && wt == WireReader::Varint) {
                key = int64_t(r.varint());
                hasKey = true;
            } else if (field == 2 && wt == WireReader::LengthDelimited) {
                valueOffset = r.offset();
                value = r.bytes();
            } else {
                r.skip(wt);
            }
        }
        if (!meta.ParseFromArray(value.data(), int(value.size())))
            throw WireError { valueOffset, "a stat metadata entry that is not an XStatMetadata" };
        StatMeta m;
        m.name = meta.name();
        m.key.clear();
        appendJsonString(m.key, m.name);
        m.key.push_back(':');
        appendJsonString(m.refJson, m.name);
        if (m.name == "correlation_id")
            m.role = StatMeta::Correlation;
        else if (m.name == "kernel_details")
            m.role = StatMeta::KernelDetails;
        else if (m.name == "memcpy_details")
            m.role = StatMeta::MemcpyDetails;
        ids.push_back(hasKey ? key : meta.id());
        m_statMetas.push_back(std::move(m));
    }
    m_statIndex.build(ids);
}

void Reader::loadEventMetadata(const std::vector<Span> &entries)
{
    m_eventMetas.clear();
    m_eventMetas.reserve(entries.size());
    std::vector<int64_t> ids;
    ids.reserve(entries.size());
    xplane::XEventMetadata meta;
    std::string scratch;
    for (const Span &e : entries) {
        WireReader r(e.bytes, e.offset);
        int64_t key = 0;
        bool hasKey = false;
        Span value { {}, e.offset };
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            if (field == 1 && wt == WireReader::Varint) {
                key = int64_t(r.varint());
                hasKey = true;
            } else if (field == 2 && wt == WireReader::LengthDelimited) {
                value = payload(r);
            } else {
                r.skip(wt);
            }
        }
        if (!meta.ParseFromArray(value.bytes.data(), int(value.bytes.size())))
            throw WireError { value.offset, "an event metadata entry that is not an XEventMetadata" };
        EventMeta m;
        const std::string &shown = meta.display_name().empty() ? meta.name() : meta.display_name();
        m.name = shown;
        if (!meta.display_name().empty() && meta.display_name() != meta.name()) {
            m.fragment = "\"long_name\":";
            appendJsonString(m.fragment, meta.name());
        }
        if (meta.stats_size() > 0) {
            // The stats' bytes inside the entry, found again with the wire reader for their offsets.
            WireReader vr(value.bytes, value.offset);
            while (vr.next(field, wt)) {
                if (field == 5 && wt == WireReader::LengthDelimited)
                    appendStat(m.fragment, payload(vr), m.corr, m.memcpyDetails);
                else
                    vr.skip(wt);
            }
        }
        m.memcpyName = containsNoCase(shown, "memcpy");
        m.memsetName = containsNoCase(shown, "memset");
        m.pythonName = !shown.empty() && shown[0] == '$';
        m.driverName
            = shown.size() > 2 && shown[0] == 'c' && shown[1] == 'u' && shown[2] >= 'A' && shown[2] <= 'Z';
        ids.push_back(hasKey ? key : meta.id());
        m_eventMetas.push_back(std::move(m));
    }
    m_eventIndex.build(ids);
}

StatMeta *Reader::statMeta(int64_t id)
{
    const int32_t i = m_statIndex.find(id);
    if (i >= 0)
        return &m_statMetas[size_t(i)];
    auto [it, inserted] = m_unknownStatMetas.try_emplace(id);
    if (inserted) {
        m_diag.report(Severity::Warning, QStringLiteral("unknown-stat-metadata"),
            QStringLiteral("plane %1")
                .arg(QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size()))),
            QStringLiteral("A stat refers to stat metadata %1, which its plane does not define; it was "
                           "kept under the key \"#%1\".")
                .arg(id));
        it->second.name = "#" + std::to_string(id);
        appendJsonString(it->second.key, it->second.name);
        it->second.key.push_back(':');
        appendJsonString(it->second.refJson, it->second.name);
    }
    return &it->second;
}

EventMeta &Reader::eventMeta(int64_t id)
{
    const int32_t i = m_eventIndex.find(id);
    if (i >= 0)
        return m_eventMetas[size_t(i)];
    auto [it, inserted] = m_unknownEventMetas.try_emplace(id);
    if (inserted) {
        m_diag.report(Severity::Warning, QStringLiteral("unknown-event-metadata"),
            QStringLiteral("plane %1")
                .arg(QString::fromUtf8(m_planeName.data(), qsizetype(m_planeName.size()))),
            QStringLiteral("An event refers to event metadata %1, which its plane does not define; it "
                           "was imported with the name \"#%1\".")
                .arg(id));
        it->second.name = "#" + std::to_string(id);
    }
    return it->second;
}

void Reader::appendStat(std::string &out, Span stat, int64_t &corr, bool &memcpyDetails)
{
    WireReader r(stat.bytes, stat.offset);
    int64_t metadataId = 0;
    uint32_t valueField = 0;
    uint64_t num = 0;
    std::string_view text;
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        switch (field) {
        case 1:
            expect(r, wt, WireReader::Varint, "an XStat metadata id that is not a varint");
            metadataId = int64_t(r.varint());
            break;
        case 2:
            expect(r, wt, WireReader::Fixed64, "an XStat double that is not a fixed64");
            num = r.fixed64();
            valueField = field;
            break;
        case 3:
        case 4:
        case 7:
            expect(r, wt, WireReader::Varint, "an XStat integer that is not a varint");
            num = r.varint();
            valueField = field;
            break;
        case 5:
        case 6:
            expect(r, wt, WireReader::LengthDelimited, "an XStat string that is not length-delimited");
            text = r.bytes();
            valueField = field;
            break;
        default:
            r.skip(wt);
        }
    }
    StatMeta *meta = statMeta(metadataId);
    if (meta->role == StatMeta::Correlation && (valueField == 3 || valueField == 4)) {
        corr = int64_t(num);
        return;
    }
    const bool details = meta->role == StatMeta::KernelDetails || meta->role == StatMeta::MemcpyDetails;
    memcpyDetails |= meta->role == StatMeta::MemcpyDetails;
    if (!out.empty() && out.back() != '{')
        out.push_back(',');
    out += meta->key;
    switch (valueField) {
    case 2: {
        double d;
        std::memcpy(&d, &num, sizeof d);
        appendDouble(out, d);
        break;
    }
    case 3:
        appendNumber(out, num);
        break;
    case 4:
        appendNumber(out, int64_t(num));
        break;
    case 5:
        if (details)
            appendDetails(out, text);
        else
            appendJsonString(out, text);
        break;
    case 6:
        out += "\"<";
        appendNumber(out, text.size());
        out += " bytes>\"";
        break;
    case 7: {
        const int32_t i = m_statIndex.find(int64_t(num));
        if (i < 0) {
            if (!m_diag.bump(QStringLiteral("unknown-ref-value")))
                m_diag.report(Severity::Warning, QStringLiteral("unknown-ref-value"), at(stat.offset),
                    QStringLiteral("A stat's ref_value points at stat metadata %1, which its plane does "
                                   "not define; the value was kept as null.")
                        .arg(num));
            out += "null";
            break;
        }
        StatMeta &ref = m_statMetas[size_t(i)];
        if (details) {
            if (!ref.refDetailsDone) {
                appendDetails(ref.refDetailsJson, ref.name);
                ref.refDetailsDone = true;
            }
            out += ref.refDetailsJson;
        } else {
            out += ref.refJson;
        }
        break;
    }
    default:
        out += "null";
        break; // a stat with no value
    }
}

int64_t Reader::ensureProcess()
{
    if (m_process != kNoValue)
        return m_process;
    std::string label(m_planeName);
    if (label.empty())
        label = "plane " + std::to_string(m_planeId);
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

void Reader::readLine(Span lineSpan, int64_t lineIndex)
{
    // The line's own fields first: display_name (11) follows the events (4) on the wire.
    Line line;
    {
        WireReader r(lineSpan.bytes, lineSpan.offset);
        uint32_t field = 0, wt = 0;
        while (r.next(field, wt)) {
            switch (field) {
            case 1:
                expect(r, wt, WireReader::Varint, "an XLine id that is not a varint");
                line.id = int64_t(r.varint());
                break;
            case 2:
                expect(r, wt, WireReader::LengthDelimited, "an XLine name that is not a string");
                line.name = r.bytes();
                break;
            case 3:
                expect(r, wt, WireReader::Varint, "an XLine timestamp that is not a varint");
                line.timestampNs = int64_t(r.varint());
                break;
            case 4:
                expect(r, wt, WireReader::LengthDelimited, "an XLine event that is not a message");
                r.skip(wt);
                break;
            case 11:
                expect(r, wt, WireReader::LengthDelimited, "an XLine display name that is not a string");
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

    WireReader r(lineSpan.bytes, lineSpan.offset);
    uint32_t field = 0, wt = 0;
    while (r.next(field, wt)) {
        if (field != 4) {
            r.skip(wt);
            continue;
        }
        const Span ev = payload(r);
        WireReader er(ev.bytes, ev.offset);
        int64_t metadataId = 0, offsetPs = 0, durPs = 0;
        bool aggregated = false;
        m_stats.clear();
        while (er.next(field, wt)) {
            switch (field) {
            case 1:
                expect(er, wt, WireReader::Varint, "an XEvent metadata id that is not a varint");
                metadataId = int64_t(er.varint());
                break;
            case 2:
                expect(er, wt, WireReader::Varint, "an XEvent offset that is not a varint");
                offsetPs = int64_t(er.varint());
                break;
            case 3:
                expect(er, wt, WireReader::Varint, "an XEvent duration that is not a varint");
                durPs = int64_t(er.varint());
                break;
            case 4:
                expect(er, wt, WireReader::LengthDelimited, "an XEvent stat that is not a message");
                m_stats.push_back(payload(er));
                break;
            case 5:
                expect(er, wt, WireReader::Varint, "an XEvent occurrence count that is not a varint");
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
        EventMeta &meta = eventMeta(metadataId);

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
            || __builtin_add_overflow(line.timestampNs, floorDiv1000(endPs), &endNs))
            endNs = f.tsNs + durPs / 1000;
        f.durNs = endNs - f.tsNs;

        f.corr = meta.corr;
        bool memcpyDetails = meta.memcpyDetails;
        m_own.clear();
        for (const Span &s : m_stats)
            appendStat(m_own, s, f.corr, memcpyDetails);
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
        if (meta.nameId == kNoValue)
            meta.nameId = m_sink.intern(meta.name);
        f.nameId = meta.nameId;

        int64_t target = track;
        switch (kind) {
        case LineKind::Stream: {
            const Cat cat = memcpyDetails || meta.memcpyName ? Cat::Memcpy
                : meta.memsetName                            ? Cat::Memset
                                                             : Cat::Kernel;
            f.catId = m_catIds[size_t(cat)];
            ++m_sink.stats().gpuOps;
            if (cat == Cat::Kernel)
                ++m_sink.stats().kernels;
            if (f.corr != kNoValue)
                m_links.addOp(f.corr);
            break;
        }
        case LineKind::Derived:
            f.catId = derivedCat;
            break;
        case LineKind::Thread:
            if (f.corr != kNoValue && m_planeKind == PlaneKind::Host) {
                // A CUDA API call (the profiler names it after the kernel it launched, or the call).
                f.catId = m_catIds[size_t(meta.driverName ? Cat::Driver : Cat::Runtime)];
                if (apiTrack == kNoValue)
                    apiTrack = m_sink.companionTrack(track, TrackKind::CudaApi);
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

void Reader::finishSpace()
{
    // Launch -> GPU op links are slice.corr itself (XPlane has no flow events): they are its flows.
    m_sink.addCorrelationFlows(m_links.links());
    const TraceStats &st = m_sink.stats();
    if (st.startNs != INT64_MAX && st.startNs >= kEpochMinNs && st.startNs < kEpochMaxNs)
        m_sink.setBaseTimeNs(0); // slice.ts is already wall-clock time

    for (const std::string &e : m_errors)
        m_diag.report(Severity::Warning, QStringLiteral("profiler-error"), {},
            QStringLiteral("The profiler recorded an error: %1").arg(QString::fromStdString(e)));
    for (const std::string &w : m_warnings)
        m_diag.report(Severity::Info, QStringLiteral("profiler-warning"), {},
            QStringLiteral("The profiler recorded a warning: %1").arg(QString::fromStdString(w)));

    std::string json = "{\"format\":\"xplane\"";
    auto list = [&json](const char *key, const std::vector<std::string> &items) {
        if (items.empty())
            return;
        json += ",\"";
        json += key;
        json += "\":[";
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                json.push_back(',');
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

} // namespace

int XPlaneImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    // XSpace field 1 (planes), length-delimited: tag 0x0a, then the plane's length as a varint.
    if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x0a)
        return 0;
    uint64_t len = 0;
    qsizetype i = 1;
    for (int shift = 0;; shift += 7) {
        if (i >= head.size() || shift > 35)
            return 0;
        const auto b = static_cast<unsigned char>(head[i++]);
        len |= uint64_t(b & 0x7f) << shift;
        if (b < 0x80)
            break;
    }
    if (len == 0 || len > kMaxPlaneBytes || i >= head.size())
        return 0;
    // The plane's first key: a field XPlane has, with its wire type (id, name, lines, metadata, stats).
    const auto first = static_cast<unsigned char>(head[i]);
    const bool planeKey
        = first == 0x08 || first == 0x12 || first == 0x1a || first == 0x22 || first == 0x2a || first == 0x32;
    const bool planeName = head.indexOf("/host:") >= 0 || head.indexOf("/device:") >= 0;
    if (planeKey && planeName)
        return 90;
    // By name, any well-formed key will do: read() then says clearly what else the file is.
    const bool anyKey = (first & 7) == 0 || (first & 7) == 1 || (first & 7) == 2 || (first & 7) == 5;
    if (anyKey && (first >> 3) != 0 && fileName.endsWith(QStringLiteral(".xplane.pb"), Qt::CaseInsensitive))
        return 60;
    return 0;
}

void XPlaneImporter::read(ImportContext &ctx) const
{
    Reader reader(ctx);
    const QString file = ctx.input().fileName();
    try {
        reader.run();
    } catch (const WireError &e) {
        throw ImportError(
            QStringLiteral("%1 is not a readable XPlane profile: %2 at byte %3 (the file is corrupt, "
                           "or a protobuf of another message type)")
                .arg(file, QString::fromLatin1(e.what))
                .arg(e.offset),
            QStringLiteral("byte %1").arg(e.offset));
    } catch (const Truncated &t) {
        throw ImportError(
            QStringLiteral("%1 is cut short: a field starting at byte %2 needs %3 bytes, but the "
                           "file ends at byte %4")
                .arg(file)
                .arg(t.startOffset)
                .arg(t.needed)
                .arg(t.endOffset),
            QStringLiteral("byte %1").arg(t.endOffset));
    }
}

} // namespace plumb
