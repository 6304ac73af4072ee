// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/chrometraceimporter.h"

#include "chrometrace/jsonstream.h"
#include "chrometrace/timestamp.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/tracesink.h"
#include "text/jsontext.h"
#include "text/textnumbers.h"

#include <simdjson.h>

#include <QFileInfo>

#include <charconv>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace plumb {

namespace od = simdjson::ondemand;

namespace {

constexpr size_t kChunkBytes = 512 * 1024; // events parsed per simdjson document
constexpr size_t kMaxMetadataBytes = 64 << 20; // top-level fields other than traceEvents
constexpr size_t kRecentCorrSlots = 1 << 16; // correlation ids remembered for launch flows

// Direct-mapped table keyed by a correlation or flow id, for ends that are usually matched a few
// events later: no allocation per event, and a key that lands in an occupied slot evicts the older
// entry (for launch flows that only means the evicted one is stored as an ordinary flow row).
class IdTable {
public:
    struct Entry {
        int64_t key = kNoValue;
        int64_t track = 0;
        int64_t ts = 0;
    };
    explicit IdTable(size_t slotCount)
        : m_slots(slotCount)
    {
    }
    [[nodiscard]] Entry *find(int64_t key)
    {
        Entry &e = slot(key);
        return e.key == key ? &e : nullptr;
    }
    // Stores the entry and returns what was in its slot before (key kNoValue when it was free).
    Entry exchange(const Entry &entry) { return std::exchange(slot(entry.key), entry); }
    static void erase(Entry *e) { e->key = kNoValue; }
    [[nodiscard]] std::vector<Entry> &entries() { return m_slots; }

private:
    Entry &slot(int64_t key)
    {
        return m_slots[size_t(uint64_t(key) * 0x9E3779B97F4A7C15ULL >> 48) & (m_slots.size() - 1)];
    }
    std::vector<Entry> m_slots;
};

enum class CatClass { Other, Kernel, Memcpy, Memset, GpuAnnotation, Runtime, CpuOp };

struct Category {
    std::string_view canonical;
    CatClass cls;
};

// Category spellings across PyTorch profiler versions (2021 "Kernel"/"Memcpy"/"Runtime"/"Operator",
// 2022 "async_cpu_to_gpu" flows) mapped onto today's names, so analyses see one vocabulary.
const Category *knownCategory(std::string_view cat, bool &legacy)
{
    static const std::unordered_map<std::string_view, std::pair<Category, bool>> table = {
        { "kernel", { { "kernel", CatClass::Kernel }, false } },
        { "Kernel", { { "kernel", CatClass::Kernel }, true } },
        { "gpu_memcpy", { { "gpu_memcpy", CatClass::Memcpy }, false } },
        { "Memcpy", { { "gpu_memcpy", CatClass::Memcpy }, true } },
        { "gpu_memset", { { "gpu_memset", CatClass::Memset }, false } },
        { "Memset", { { "gpu_memset", CatClass::Memset }, true } },
        { "gpu_user_annotation", { { "gpu_user_annotation", CatClass::GpuAnnotation }, false } },
        { "cuda_runtime", { { "cuda_runtime", CatClass::Runtime }, false } },
        { "Runtime", { { "cuda_runtime", CatClass::Runtime }, true } },
        { "cuda_driver", { { "cuda_driver", CatClass::Runtime }, false } },
        { "cpu_op", { { "cpu_op", CatClass::CpuOp }, false } },
        { "Operator", { { "cpu_op", CatClass::CpuOp }, true } },
        { "ac2g", { { "ac2g", CatClass::Other }, false } },
        { "async_cpu_to_gpu", { { "ac2g", CatClass::Other }, true } },
        { "fwdbwd", { { "fwdbwd", CatClass::Other }, false } },
        { "fwd_bwd", { { "fwdbwd", CatClass::Other }, true } },
        { "forward_backward", { { "fwdbwd", CatClass::Other }, true } },
    };
    auto it = table.find(cat);
    if (it == table.end())
        return nullptr;
    legacy = it->second.second;
    return &it->second.first;
}

inline bool isGpuClass(CatClass c)
{
    return c == CatClass::Kernel || c == CatClass::Memcpy || c == CatClass::Memset
        || c == CatClass::GpuAnnotation;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<int64_t> toInt(std::string_view s)
{
    return parseNumber<int64_t>(s);
}

std::optional<double> toDouble(std::string_view s)
{
    return parseNumber<double>(s);
}

// Appends `raw` (JSON text) without the whitespace outside strings.
void appendMinified(std::string &out, std::string_view raw)
{
    if (raw.find_first_of(" \n\r\t") == std::string_view::npos) {
        out.append(raw);
        return;
    }
    bool inString = false;
    for (size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (inString) {
            out.push_back(c);
            if (c == '\\' && i + 1 < raw.size())
                out.push_back(raw[++i]);
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out.push_back(c);
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out.push_back(c);
        }
    }
}

// Decodes a JSON string token's content (without quotes) into UTF-8.
std::string unescapeJson(std::string_view raw)
{
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        char c = raw[i];
        if (c != '\\' || i + 1 >= raw.size()) {
            out.push_back(c);
            continue;
        }
        c = raw[++i];
        switch (c) {
        case 'n':
            out.push_back('\n');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'u': {
            if (i + 4 >= raw.size() + 0 && i + 4 > raw.size() - 1 + 1)
                break;
            uint32_t cp = 0;
            std::from_chars(raw.data() + i + 1, raw.data() + i + 5, cp, 16);
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < raw.size() + 1 && raw.substr(i + 1, 2) == "\\u") {
                uint32_t lo = 0;
                std::from_chars(raw.data() + i + 3, raw.data() + i + 7, lo, 16);
                if (lo >= 0xdc00 && lo < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    i += 6;
                }
            }
            if (cp < 0x80) {
                out.push_back(char(cp));
            } else if (cp < 0x800) {
                out.push_back(char(0xc0 | (cp >> 6)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            } else if (cp < 0x10000) {
                out.push_back(char(0xe0 | (cp >> 12)));
                out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            } else {
                out.push_back(char(0xf0 | (cp >> 18)));
                out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
                out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
                out.push_back(char(0x80 | (cp & 0x3f)));
            }
            break;
        }
        default:
            out.push_back(c);
            break;
        }
    }
    return out;
}

struct Label {
    std::string_view text; // numbers as written, strings unescaped
    bool present = false;
};

enum class ArgKind { Int, Double, String, Bool, Null, Container };

struct ArgField {
    std::string_view key; // unescaped
    std::string_view raw; // JSON text (strings with quotes)
    ArgKind kind;
};

// One event's fields, collected before anything is written so that a malformed event has no effect.
struct Event {
    char ph = 0;
    std::string_view name;
    std::string_view cat;
    Label pid, tid;
    std::string_view ts, dur; // raw number text
    bool hasTs = false, hasDur = false;
    std::string_view idRaw; // raw token of "id", "id2" or "bind_id"
    bool hasId = false;
    bool bpEnclosing = false;
    char scope = 't';
    bool flowIn = false, flowOut = false;
    std::vector<ArgField> args;
    // Back to defaults, keeping the args vector's storage (one Event is reused for every event).
    void reset()
    {
        auto keep = std::move(args);
        keep.clear();
        *this = Event();
        args = std::move(keep);
    }
};

// Where an element of a chunk came from, for diagnostics.
struct Chunk {
    std::vector<char> bytes; // "[" elem "," elem ... "]" + padding
    std::vector<int64_t> offsets; // decompressed byte offset of each element
    std::vector<uint32_t> starts; // element start within bytes
    void clear()
    {
        bytes.clear();
        offsets.clear();
        starts.clear();
    }
};

class Reader {
public:
    explicit Reader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_sink(ctx.traceSink())
        , m_stream(ctx.input())
    {
        m_sink.setTraceName(QFileInfo(ctx.input().path()).fileName());
    }

    void run();

private:
    void readTopLevelObject();
    bool readEventsArray(bool arrayForm); // false when the input ended inside it
    void flushChunk();
    void parseChunkElementsSingly(size_t from);
    bool parseOne(od::object obj, int64_t offset);
    void dispatch(Event &e, int64_t offset);
    void applyMetadata();
    int64_t trackFor(const Label &pid, const Label &tid);
    void skip(const char *code, int64_t offset, const QString &message);
    QString at(int64_t offset) const { return QStringLiteral("byte %1").arg(offset); }
    int64_t flowKey(std::string_view raw);
    // The event's args as compact JSON, interned; with `promote`, the per-event ids go into its
    // columns instead (correlation, External id, Sequence number, Ev Idx, Record function id).
    int64_t internArgs(const Event &e, SliceFields *promote);
    const ArgField *arg(const Event &e, std::string_view key) const
    {
        for (const auto &a : e.args)
            if (a.key == key)
                return &a;
        return nullptr;
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    TraceSink &m_sink;
    JsonStream m_stream;
    od::parser m_parser;
    Chunk m_chunk;
    std::string m_metadata = "{";
    bool m_sawEvents = false;
    int64_t m_eventsSeen = 0;
    std::string m_argsJson;
    Event m_event;

    // 1-entry cache for (pid, tid) -> track: consecutive events mostly share a thread.
    std::string m_lastPid, m_lastTid;
    int64_t m_lastTrack = -1;
    std::unordered_set<int64_t> m_gpuTracks;
    std::unordered_map<int64_t, int64_t> m_apiTracks; // thread track -> its CUDA API track

    // Launch flows (ac2g): Kineto writes one per launch, s at the CUDA call and f at the GPU op, with
    // the correlation id as flow id. When both ends are exactly the slices carrying that correlation,
    // the flow is the slice.corr link itself and is only counted (see the flow table's comment).
    void launchFlow(char ph, int64_t cat, int64_t key, int64_t track, int64_t ts);
    void flushVerifiedEnd(bool isStart, const IdTable::Entry &end);
    void flushVerifiedEnds();
    IdTable m_recentLaunch { kRecentCorrSlots }; // corr -> CUDA API slice
    IdTable m_recentGpuOp { kRecentCorrSlots }; // corr -> GPU op slice
    IdTable m_verifiedStarts { kRecentCorrSlots }; // flow id -> start that matched its launch
    IdTable m_verifiedEnds { kRecentCorrSlots }; // flow id -> end that matched its GPU op
    int64_t m_ac2gCat = kNoValue;
    int64_t m_corrFlows = 0;
    std::unordered_map<std::string, int64_t> m_catIds;
};

void Reader::skip(const char *code, int64_t offset, const QString &message)
{
    m_diag.skipped(QString::fromLatin1(code), at(offset), message);
}

void Reader::run()
{
    const int c = m_stream.peek();
    if (c == '[') {
        m_stream.consume();
        readEventsArray(true);
    } else if (c == '{') {
        m_stream.consume();
        readTopLevelObject();
    } else {
        throw ImportError(QStringLiteral("%1 is not a trace: expected '{' or '[' at the start")
                              .arg(m_ctx.input().fileName()),
            at(m_stream.offset()));
    }
    if (m_ctx.input().truncated())
        m_diag.report(
            Severity::Warning, QStringLiteral("truncated-gzip"), {}, m_ctx.input().truncationDetail());
    if (!m_sawEvents)
        throw ImportError(
            QStringLiteral("%1 has no traceEvents array: it is JSON, but not a Chrome/PyTorch trace")
                .arg(m_ctx.input().fileName()),
            at(m_stream.offset()));
    applyMetadata();
    flushVerifiedEnds();
    m_sink.addCorrelationFlows(m_corrFlows);
    // Launch-to-kernel flows start (and, in some Kineto versions, also end) at a CUDA call, which
    // lives on the thread's CUDA API track, not on the thread's op track.
    const int64_t ac2g = m_sink.intern("ac2g");
    for (const auto &[thread, api] : m_apiTracks)
        if (!m_gpuTracks.count(thread))
            m_sink.relocateFlowEnds(thread, api, ac2g);
}

void Reader::readTopLevelObject()
{
    for (;;) {
        int c = m_stream.peek();
        if (c == ',') { // tolerate trailing or doubled commas
            m_stream.consume();
            continue;
        }
        if (c == '}') {
            m_stream.consume();
            break;
        }
        if (c < 0) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends before the top-level object is closed (it was cut "
                               "short); everything before the cut was imported."));
            return;
        }
        if (c != '"')
            throw ImportError(
                QStringLiteral("unexpected character '%1' where a field name was expected").arg(QChar(c)),
                at(m_stream.offset()));
        std::string_view keyView;
        if (m_stream.scanString(keyView) != JsonStream::Scan::Complete) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends inside a top-level field name (it was cut short)."));
            return;
        }
        const std::string key(keyView);
        if (m_stream.peek() != ':')
            throw ImportError(QStringLiteral("expected ':' after \"%1\"").arg(QString::fromStdString(key)),
                at(m_stream.offset()));
        m_stream.consume();
        c = m_stream.peek();
        if (key == "traceEvents") {
            if (c != '[')
                throw ImportError(QStringLiteral("traceEvents is not an array"), at(m_stream.offset()));
            m_stream.consume();
            if (!readEventsArray(false))
                return;
            continue;
        }
        if (c < 0) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                QStringLiteral("The file ends inside the top-level field \"%1\" (it was cut short).")
                    .arg(QString::fromStdString(key)));
            return;
        }
        const int64_t valueOffset = m_stream.offset();
        std::string_view value;
        const auto r = m_stream.scanValue(value);
        if (r != JsonStream::Scan::Complete) {
            m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(valueOffset),
                r == JsonStream::Scan::TooLarge
                    ? QStringLiteral("The top-level field \"%1\" is larger than 256 MiB; the rest of "
                                     "the file was not read.")
                          .arg(QString::fromStdString(key))
                    : QStringLiteral("The file ends inside the top-level field \"%1\" (it was cut "
                                     "short).")
                          .arg(QString::fromStdString(key)));
            return;
        }
        if (value == "}" || value == "]" || value == ",") { // `"key": }`: no value at all
            m_diag.report(Severity::Warning, QStringLiteral("malformed-field"), at(valueOffset),
                QStringLiteral("The top-level field \"%1\" has no value; it was ignored.")
                    .arg(QString::fromStdString(key)));
            continue;
        }
        if (m_metadata.size() + value.size() > kMaxMetadataBytes) {
            m_diag.report(Severity::Warning, QStringLiteral("metadata-too-large"), at(valueOffset),
                QStringLiteral("Top-level fields beyond 64 MiB were not kept as trace metadata."));
            continue;
        }
        if (m_metadata.size() > 1)
            m_metadata.push_back(',');
        appendJsonString(m_metadata, key);
        m_metadata.push_back(':');
        m_metadata.append(value);
    }
}

bool Reader::readEventsArray(bool arrayForm)
{
    m_sawEvents = true;
    bool expectComma = false;
    for (;;) {
        const int c = m_stream.peek();
        if (c < 0) {
            flushChunk();
            if (!arrayForm)
                m_diag.report(Severity::Warning, QStringLiteral("truncated"), at(m_stream.offset()),
                    QStringLiteral("The file ends inside traceEvents (it was cut short); the %1 events "
                                   "before the cut were imported.")
                        .arg(m_eventsSeen));
            else
                m_diag.report(Severity::Info, QStringLiteral("unterminated-array"), at(m_stream.offset()),
                    QStringLiteral("The event array has no closing ']' (allowed by the format for "
                                   "streaming writers)."));
            return false;
        }
        if (c == ']') {
            m_stream.consume();
            flushChunk();
            return true;
        }
        if (c == ',') {
            m_stream.consume();
            if (!expectComma)
                m_diag.report(Severity::Info, QStringLiteral("extra-comma"), at(m_stream.offset() - 1),
                    QStringLiteral("Extra or trailing commas between events were ignored."));
            expectComma = false;
            continue;
        }
        if (expectComma)
            m_diag.report(Severity::Warning, QStringLiteral("missing-comma"), at(m_stream.offset()),
                QStringLiteral("Events not separated by a comma; read as separate events."));
        const int64_t offset = m_stream.offset();
        std::string_view value;
        const auto r = m_stream.scanValue(value);
        if (r == JsonStream::Scan::TooLarge) {
            flushChunk();
            throw ImportError(
                QStringLiteral("an event larger than 256 MiB: the file is corrupt"), at(offset));
        }
        if (r == JsonStream::Scan::Truncated) {
            flushChunk();
            m_diag.skipped(QStringLiteral("truncated"), at(offset),
                QStringLiteral("The file was cut short inside an event at byte %1; the %2 events "
                               "before the cut were imported and the partial one was skipped.")
                    .arg(offset)
                    .arg(m_eventsSeen));
            ++m_ctx.recordsRead;
            return false;
        }
        expectComma = true;
        auto &bytes = m_chunk.bytes;
        bytes.push_back(bytes.empty() ? '[' : ',');
        m_chunk.starts.push_back(uint32_t(bytes.size()));
        m_chunk.offsets.push_back(offset);
        bytes.insert(bytes.end(), value.begin(), value.end());
        if (bytes.size() >= kChunkBytes)
            flushChunk();
    }
}

void Reader::flushChunk()
{
    if (m_chunk.offsets.empty())
        return;
    auto &bytes = m_chunk.bytes;
    bytes.push_back(']');
    const size_t len = bytes.size();
    bytes.resize(len + simdjson::SIMDJSON_PADDING, '\0');

    size_t done = 0;
    od::document doc;
    od::array arr;
    bool failed = m_parser.iterate(bytes.data(), len, bytes.size()).get(doc) != simdjson::SUCCESS
        || doc.get_array().get(arr) != simdjson::SUCCESS;
    if (!failed) {
        for (auto elem : arr) {
            od::object obj;
            if (elem.get_object().get(obj) != simdjson::SUCCESS || !parseOne(obj, m_chunk.offsets[done])) {
                failed = true;
                break;
            }
            if (++done == m_chunk.offsets.size())
                break;
        }
        if (!failed && done < m_chunk.offsets.size())
            failed = true;
    }
    if (failed)
        parseChunkElementsSingly(done);
    m_chunk.clear();
    m_ctx.checkpoint();
}

// Slow path after a parse error in a chunk: each remaining element on its own, so one bad event
// costs one event. Invalid UTF-8 is repaired rather than dropping the event.
void Reader::parseChunkElementsSingly(size_t from)
{
    const auto &bytes = m_chunk.bytes;
    for (size_t i = from; i < m_chunk.offsets.size(); ++i) {
        const size_t start = m_chunk.starts[i];
        const size_t end = i + 1 < m_chunk.starts.size() ? m_chunk.starts[i + 1] - 1
                                                         : bytes.size() - simdjson::SIMDJSON_PADDING - 1;
        std::string one(bytes.data() + start, end - start);
        for (int attempt = 0; attempt < 2; ++attempt) {
            const size_t len = one.size();
            one.resize(len + simdjson::SIMDJSON_PADDING, '\0');
            od::document doc;
            od::object obj;
            auto err = m_parser.iterate(one.data(), len, one.size()).get(doc);
            if (!err)
                err = doc.get_object().get(obj);
            if (!err && parseOne(obj, m_chunk.offsets[i]))
                break;
            one.resize(len);
            if (attempt == 0 && (err == simdjson::UTF8_ERROR || err == simdjson::SUCCESS)) {
                // SUCCESS here means parseOne failed on a field; retry only for encoding problems.
                if (err == simdjson::UTF8_ERROR && sanitizeUtf8(one) > 0) {
                    m_diag.report(Severity::Warning, QStringLiteral("invalid-utf8"), at(m_chunk.offsets[i]),
                        QStringLiteral("Text that is not valid UTF-8 was replaced by U+FFFD."));
                    continue;
                }
            }
            ++m_eventsSeen;
            ++m_ctx.recordsRead;
            ++m_sink.stats().events;
            skip("malformed-event", m_chunk.offsets[i],
                err == simdjson::SUCCESS ? QStringLiteral(
                    "An event could not be read (a field has the wrong type); it was skipped.")
                                         : QStringLiteral("An event is not valid JSON (%1); it was skipped.")
                                               .arg(QString::fromUtf8(simdjson::error_message(err))));
            break;
        }
    }
}

// Reads one event object; false on a JSON error (nothing was written for it).
bool Reader::parseOne(od::object obj, int64_t offset)
{
    Event &e = m_event;
    e.reset();
    auto labelOf = [](od::value v, Label &out) -> bool {
        od::json_type t;
        if (v.type().get(t))
            return false;
        if (t == od::json_type::string) {
            std::string_view s;
            if (v.get_string().get(s))
                return false;
            out.text = s;
        } else {
            std::string_view raw;
            raw = v.raw_json_token();
            out.text = trim(raw);
        }
        out.present = true;
        return true;
    };
    auto numberText = [](od::value v, std::string_view &out) -> bool {
        od::json_type t;
        if (v.type().get(t))
            return false;
        if (t == od::json_type::string)
            return !v.get_string().get(out);
        out = trim(v.raw_json_token());
        return true;
    };

    for (auto field : obj) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        od::value v;
        if (field.value().get(v))
            return false;
        if (key.empty())
            continue;
        switch (key[0]) {
        case 'p':
            if (key == "ph") {
                std::string_view ph;
                if (v.get_string().get(ph))
                    return false;
                e.ph = ph.empty() ? '?' : ph[0];
            } else if (key == "pid") {
                if (!labelOf(v, e.pid))
                    return false;
            }
            break;
        case 'n':
            if (key == "name" && v.get_string().get(e.name))
                return false;
            break;
        case 'c':
            if (key == "cat" && v.get_string().get(e.cat))
                return false;
            break;
        case 't':
            if (key == "tid") {
                if (!labelOf(v, e.tid))
                    return false;
            } else if (key == "ts") {
                if (!numberText(v, e.ts))
                    return false;
                e.hasTs = true;
            }
            break;
        case 'd':
            if (key == "dur") {
                if (!numberText(v, e.dur))
                    return false;
                e.hasDur = true;
            }
            break;
        case 'i':
            if (key == "id" || key == "id2") {
                od::json_type t;
                if (v.type().get(t))
                    return false;
                if (t == od::json_type::object) {
                    od::object o;
                    if (v.get_object().get(o) || o.raw_json().get(e.idRaw))
                        return false;
                } else {
                    e.idRaw = v.raw_json_token();
                }
                e.idRaw = trim(e.idRaw);
                e.hasId = true;
            }
            break;
        case 'b':
            if (key == "bp") {
                std::string_view bp;
                if (v.get_string().get(bp))
                    return false;
                e.bpEnclosing = bp == "e";
            } else if (key == "bind_id") {
                e.idRaw = trim(v.raw_json_token());
                e.hasId = true;
            }
            break;
        case 's':
            if (key == "s") {
                std::string_view s;
                if (v.get_string().get(s))
                    return false;
                e.scope = s.empty() ? 't' : s[0];
            }
            break;
        case 'f':
            if (key == "flow_in" || key == "flow_out") {
                bool b = false;
                if (v.get_bool().get(b))
                    return false;
                (key == "flow_in" ? e.flowIn : e.flowOut) = b;
            }
            break;
        case 'a':
            if (key == "args") {
                od::object args;
                if (v.get_object().get(args))
                    return false;
                for (auto af : args) {
                    ArgField a;
                    if (af.unescaped_key().get(a.key))
                        return false;
                    od::value av;
                    od::json_type t;
                    if (af.value().get(av) || av.type().get(t))
                        return false;
                    switch (t) {
                    case od::json_type::object: {
                        od::object o;
                        if (av.get_object().get(o) || o.raw_json().get(a.raw))
                            return false;
                        a.kind = ArgKind::Container;
                        break;
                    }
                    case od::json_type::array: {
                        od::array o;
                        if (av.get_array().get(o) || o.raw_json().get(a.raw))
                            return false;
                        a.kind = ArgKind::Container;
                        break;
                    }
                    default: {
                        a.raw = trim(av.raw_json_token());
                        if (t == od::json_type::string) {
                            a.kind = ArgKind::String;
                            // raw_json_token does not validate: make sure the string is well formed.
                            std::string_view check;
                            if (av.get_string().get(check))
                                return false;
                        } else if (t == od::json_type::boolean) {
                            a.kind = ArgKind::Bool;
                        } else if (t == od::json_type::null) {
                            a.kind = ArgKind::Null;
                        } else {
                            a.kind = a.raw.find_first_of(".eE") == std::string_view::npos ? ArgKind::Int
                                                                                          : ArgKind::Double;
                        }
                    }
                    }
                    e.args.push_back(a);
                }
            }
            break;
        default:
            break;
        }
    }
    ++m_eventsSeen;
    ++m_ctx.recordsRead;
    ++m_sink.stats().events;
    dispatch(e, offset);
    return true;
}

int64_t Reader::trackFor(const Label &pid, const Label &tid)
{
    const std::string_view p = pid.present ? pid.text : std::string_view("0");
    std::string_view t = tid.present ? tid.text : std::string_view("0");
    // Older Kineto writes GPU streams as "stream 7" in some events and 7 in others: one stream.
    if (t.size() > 7 && t.substr(0, 7) == "stream " && toInt(trim(t.substr(7))))
        t = trim(t.substr(7));
    if (m_lastTrack >= 0 && p == m_lastPid && t == m_lastTid)
        return m_lastTrack;
    m_lastPid.assign(p);
    m_lastTid.assign(t);
    m_lastTrack = m_sink.thread(m_sink.process(p), t);
    return m_lastTrack;
}

int64_t Reader::internArgs(const Event &e, SliceFields *promote)
{
    m_argsJson.clear();
    for (const auto &a : e.args) {
        if (promote && a.kind == ArgKind::Int) {
            int64_t *column = nullptr;
            if (a.key == "correlation")
                column = &promote->corr;
            else if (a.key == "External id" || a.key == "external id")
                column = &promote->extId;
            else if (a.key == "Sequence number")
                column = &promote->seqNr;
            else if (a.key == "Ev Idx" || a.key == "Profiler Event Index")
                column = &promote->evIdx;
            else if (a.key == "Record function id")
                column = &promote->rfId;
            if (column) {
                if (auto v = toInt(a.raw)) {
                    *column = *v;
                    continue;
                }
            }
        }
        m_argsJson.push_back(m_argsJson.empty() ? '{' : ',');
        appendJsonString(m_argsJson, a.key);
        m_argsJson.push_back(':');
        if (a.kind == ArgKind::Container)
            appendMinified(m_argsJson, a.raw);
        else
            m_argsJson.append(a.raw);
    }
    if (m_argsJson.empty())
        return kNoValue;
    m_argsJson.push_back('}');
    return m_sink.internArgs(m_argsJson);
}

int64_t Reader::flowKey(std::string_view raw)
{
    if (auto v = toInt(raw))
        return *v;
    std::string_view s = raw;
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
        if (ec == std::errc() && ptr == s.data() + s.size())
            return int64_t(v);
    }
    return int64_t(std::hash<std::string_view>()(s) & 0x7fffffffffffffffULL);
}

void Reader::dispatch(Event &e, int64_t offset)
{
    if (e.ph == 0) {
        skip("missing-phase", offset, QStringLiteral("An event has no \"ph\" (phase); it was skipped."));
        return;
    }
    if (e.ph == 'M') {
        const int64_t process = m_sink.process(e.pid.present ? e.pid.text : std::string_view("0"));
        const ArgField *a = nullptr;
        if (e.name == "process_name" && (a = arg(e, "name")) && a->kind == ArgKind::String) {
            m_sink.setProcessName(process, unescapeJson(a->raw.substr(1, a->raw.size() - 2)));
        } else if (e.name == "thread_name" && (a = arg(e, "name")) && a->kind == ArgKind::String) {
            m_sink.setTrackName(trackFor(e.pid, e.tid), unescapeJson(a->raw.substr(1, a->raw.size() - 2)));
        } else if (e.name == "process_sort_index" && (a = arg(e, "sort_index")) && a->kind == ArgKind::Int) {
            m_sink.setProcessSortIndex(process, toInt(a->raw).value_or(0));
        } else if (e.name == "thread_sort_index" && (a = arg(e, "sort_index")) && a->kind == ArgKind::Int) {
            m_sink.setTrackSortIndex(trackFor(e.pid, e.tid), toInt(a->raw).value_or(0));
        } else if (e.name == "process_labels" && (a = arg(e, "labels")) && a->kind == ArgKind::String) {
            const std::string labels = unescapeJson(a->raw.substr(1, a->raw.size() - 2));
            m_sink.setProcessLabels(process, labels);
            // Kineto labels device processes "GPU n": that is what makes them devices.
            if (labels.rfind("GPU ", 0) == 0)
                m_sink.setProcessKind(
                    process, ProcessKind::Gpu, toInt(std::string_view(labels).substr(4)).value_or(kNoValue));
        } else {
            m_diag.report(Severity::Info, QStringLiteral("metadata-ignored"), at(offset),
                QStringLiteral("Metadata events of other kinds (e.g. %1) carry nothing Plumb shows.")
                    .arg(QString::fromUtf8(e.name.data(), qsizetype(e.name.size()))));
        }
        return;
    }

    std::optional<int64_t> ts;
    if (e.hasTs)
        ts = parseMicrosToNs(e.ts);
    if (!ts) {
        skip(e.hasTs ? "bad-timestamp" : "missing-timestamp", offset,
            e.hasTs ? QStringLiteral("An event's \"ts\" is not a number; it was skipped.")
                    : QStringLiteral("An event has no \"ts\"; it was skipped."));
        return;
    }

    bool legacy = false;
    const Category *known = e.cat.empty() ? nullptr : knownCategory(e.cat, legacy);
    if (legacy && !m_diag.bump(QStringLiteral("legacy-category")))
        m_diag.report(Severity::Info, QStringLiteral("legacy-category"), at(offset),
            QStringLiteral("Category names of an older PyTorch profiler (e.g. \"%1\") were read as "
                           "today's (\"%2\").")
                .arg(QString::fromUtf8(e.cat.data(), qsizetype(e.cat.size())),
                    QString::fromUtf8(known->canonical.data(), qsizetype(known->canonical.size()))));
    const std::string_view catName = known ? known->canonical : e.cat;
    const CatClass cls = known ? known->cls : CatClass::Other;
    const int64_t catId = catName.empty() ? kNoValue : m_sink.intern(catName);

    switch (e.ph) {
    case 'X':
    case 'B':
    case 'i':
    case 'I':
    case 'R': {
        const bool instant = e.ph != 'X' && e.ph != 'B';
        int64_t track = 0;
        if (instant && e.scope == 'g')
            track = m_sink.globalTrack("Global instants");
        else if (instant && e.scope == 'p')
            track = m_sink.thread(
                m_sink.process(e.pid.present ? e.pid.text : std::string_view("0")), "process instants");
        else
            track = trackFor(e.pid, e.tid);
        SliceFields f;
        f.tsNs = *ts;
        f.nameId = m_sink.intern(e.name);
        f.catId = catId;
        if (e.ph == 'X') {
            if (e.hasDur) {
                if (auto d = parseMicrosToNs(e.dur); d && *d >= 0) {
                    f.durNs = *d;
                } else {
                    m_diag.report(Severity::Warning, QStringLiteral("bad-duration"), at(offset),
                        QStringLiteral("A complete event's \"dur\" is negative or not a number; it "
                                       "was imported with duration 0."));
                }
            } else {
                m_diag.report(Severity::Warning, QStringLiteral("missing-duration"), at(offset),
                    QStringLiteral("A complete (X) event has no \"dur\"; it was imported with "
                                   "duration 0."));
            }
        }
        f.argsId = internArgs(e, &f);
        int64_t device = kNoValue, stream = kNoValue;
        if (const ArgField *a = arg(e, "device"); a && a->kind == ArgKind::Int)
            device = toInt(a->raw).value_or(kNoValue);
        if (const ArgField *a = arg(e, "stream"); a && a->kind == ArgKind::Int)
            stream = toInt(a->raw).value_or(kNoValue);
        if (isGpuClass(cls) || cls == CatClass::Runtime) {
            // Kineto writes a thread's CUDA calls, and a stream's annotations, in their own sections
            // after the ops they belong with; on companion tracks each stays in time order.
            if (cls == CatClass::GpuAnnotation)
                track = m_sink.companionTrack(track, TrackKind::GpuAnnotation);
            else if (cls == CatClass::Runtime) {
                const int64_t thread = track;
                track = m_sink.companionTrack(thread, TrackKind::CudaApi);
                m_apiTracks.emplace(thread, track);
            }
        }
        if (isGpuClass(cls)) {
            if (m_gpuTracks.insert(track).second) {
                const int64_t process = m_sink.process(e.pid.present ? e.pid.text : std::string_view("0"));
                const int64_t dev = device != kNoValue ? device : toInt(e.pid.text).value_or(kNoValue);
                m_sink.setProcessKind(process, ProcessKind::Gpu, dev);
                std::string_view tidText = e.tid.text;
                if (tidText.substr(0, 7) == "stream ")
                    tidText.remove_prefix(7);
                const int64_t streamId
                    = stream != kNoValue ? stream : toInt(trim(tidText)).value_or(kNoValue);
                if (cls == CatClass::GpuAnnotation)
                    m_sink.setTrackStream(track, streamId);
                else
                    m_sink.setTrackGpuStream(track, streamId);
            }
            if (cls != CatClass::GpuAnnotation)
                ++m_sink.stats().gpuOps;
            if (cls == CatClass::Kernel)
                ++m_sink.stats().kernels;
        }
        if (f.corr != kNoValue && e.ph == 'X') {
            if (cls == CatClass::Runtime)
                m_recentLaunch.exchange({ f.corr, track, f.tsNs });
            else if (isGpuClass(cls) && cls != CatClass::GpuAnnotation)
                m_recentGpuOp.exchange({ f.corr, track, f.tsNs });
        }
        if (e.ph == 'B') {
            m_sink.beginSlice(track, f);
        } else if (e.ph == 'X') {
            m_sink.addSlice(track, f);
        } else {
            m_sink.addSlice(track, f);
            // PyTorch's memory instants also become counter tracks, so memory shows over time.
            if (e.name == "[memory]") {
                const ArgField *total = arg(e, "Total Allocated");
                const ArgField *devId = arg(e, "Device Id");
                if (total && (total->kind == ArgKind::Int || total->kind == ArgKind::Double)) {
                    const int64_t d = devId ? toInt(devId->raw).value_or(-1) : -1;
                    const std::string name = d >= 0 ? "Memory allocated, device " + std::to_string(d)
                                                    : std::string("Memory allocated, CPU");
                    const int64_t process
                        = m_sink.process(e.pid.present ? e.pid.text : std::string_view("0"));
                    m_sink.addCounter(
                        m_sink.counterTrack(process, name), *ts, toDouble(total->raw).value_or(0));
                }
            }
        }
        if ((e.flowIn || e.flowOut) && e.hasId && e.ph == 'X') {
            const int64_t flowCat = m_sink.intern("flow");
            if (e.flowIn)
                m_sink.flowEnd(flowCat, flowKey(e.idRaw), track, *ts);
            if (e.flowOut)
                m_sink.flowStart(flowCat, flowKey(e.idRaw), track, *ts);
        }
        return;
    }
    case 'E': {
        const int64_t track = trackFor(e.pid, e.tid);
        if (!m_sink.endSlice(track, *ts, internArgs(e, nullptr)))
            skip("unmatched-end", offset,
                QStringLiteral("An E (end) event has no open B event on its thread; it was skipped."));
        return;
    }
    case 'C': {
        const int64_t process = m_sink.process(e.pid.present ? e.pid.text : std::string_view("0"));
        size_t numeric = 0;
        for (const auto &a : e.args)
            numeric += a.kind == ArgKind::Int || a.kind == ArgKind::Double;
        if (numeric == 0) {
            skip("empty-counter", offset,
                QStringLiteral("A counter (C) event has no numeric values; skipped."));
            return;
        }
        for (const auto &a : e.args) {
            if (a.kind != ArgKind::Int && a.kind != ArgKind::Double)
                continue;
            std::string name(e.name);
            if (numeric > 1 || (a.key != "value" && a.key != e.name)) {
                if (!name.empty())
                    name.push_back(' ');
                name.append(a.key);
            }
            m_sink.addCounter(m_sink.counterTrack(process, name), *ts, toDouble(a.raw).value_or(0));
        }
        return;
    }
    case 's':
    case 't':
    case 'f': {
        if (!e.hasId) {
            skip("flow-without-id", offset, QStringLiteral("A flow event has no \"id\"; it was skipped."));
            return;
        }
        const int64_t track = trackFor(e.pid, e.tid);
        const int64_t key = flowKey(e.idRaw);
        const int64_t cat = catId != kNoValue ? catId : m_sink.intern("flow");
        if (catName == "ac2g" && e.ph != 't') {
            m_ac2gCat = cat;
            launchFlow(e.ph, cat, key, track, *ts);
            return;
        }
        if (e.ph != 's')
            m_sink.flowEnd(cat, key, track, *ts);
        if (e.ph != 'f')
            m_sink.flowStart(cat, key, track, *ts);
        return;
    }
    default: {
        const QString phase = QString::fromLatin1(&e.ph, 1);
        m_diag.skipped(QStringLiteral("unsupported-phase-") + phase, at(offset),
            QStringLiteral("Events of phase \"%1\" (async, object or sample events) are not "
                           "imported yet; they were counted and skipped.")
                .arg(phase));
        return;
    }
    }
}

// Each end is checked against the slice written just before it (Kineto writes a launch's s right
// after the CUDA call, a kernel's f right after the kernel) and waits, verified, for the other end,
// which may come first. Anything that does not match goes to the sink as an ordinary flow end.
void Reader::launchFlow(char ph, int64_t cat, int64_t key, int64_t track, int64_t ts)
{
    const bool isStart = ph == 's';
    int64_t endTrack = track;
    bool verified = false;
    if (isStart) {
        const auto api = m_apiTracks.find(track);
        const IdTable::Entry *launch = m_recentLaunch.find(key);
        verified = api != m_apiTracks.end() && launch && launch->track == api->second && launch->ts == ts;
        if (verified)
            endTrack = api->second;
    } else {
        const IdTable::Entry *op = m_recentGpuOp.find(key);
        verified = op && op->track == track && op->ts == ts;
    }
    IdTable &mine = isStart ? m_verifiedStarts : m_verifiedEnds;
    IdTable &other = isStart ? m_verifiedEnds : m_verifiedStarts;
    if (IdTable::Entry *partner = other.find(key)) {
        if (verified) {
            IdTable::erase(partner);
            ++m_corrFlows;
            return;
        }
        // The other end was verified, this one is not: both go in as rows.
        flushVerifiedEnd(!isStart, *partner);
        IdTable::erase(partner);
    }
    if (!verified) {
        if (isStart)
            m_sink.flowStart(cat, key, track, ts);
        else
            m_sink.flowEnd(cat, key, track, ts);
        return;
    }
    m_ac2gCat = cat;
    const IdTable::Entry evicted = mine.exchange({ key, endTrack, ts });
    if (evicted.key != kNoValue)
        flushVerifiedEnd(isStart, evicted);
}

void Reader::flushVerifiedEnd(bool isStart, const IdTable::Entry &end)
{
    if (isStart)
        m_sink.flowStart(m_ac2gCat, end.key, end.track, end.ts);
    else
        m_sink.flowEnd(m_ac2gCat, end.key, end.track, end.ts);
}

void Reader::flushVerifiedEnds()
{
    for (bool isStart : { true, false }) {
        for (IdTable::Entry &end : (isStart ? m_verifiedStarts : m_verifiedEnds).entries()) {
            if (end.key != kNoValue)
                flushVerifiedEnd(isStart, end);
            IdTable::erase(&end);
        }
    }
}

void Reader::applyMetadata()
{
    m_metadata.push_back('}');
    if (m_metadata.size() <= 2)
        return;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(m_metadata).get(root) != simdjson::SUCCESS) {
        m_diag.report(Severity::Warning, QStringLiteral("bad-metadata"), {},
            QStringLiteral("The top-level fields outside traceEvents are not valid JSON; they were "
                           "not kept."));
        return;
    }
    const std::string minified = simdjson::minify(root);
    m_sink.setMetadataJson(QByteArray::fromStdString(minified));

    simdjson::dom::array devices;
    if (root["deviceProperties"].get(devices) == simdjson::SUCCESS) {
        int64_t fallbackIndex = 0;
        for (auto dev : devices) {
            int64_t id = fallbackIndex++;
            if (dev["id"].get(id) != simdjson::SUCCESS)
                id = fallbackIndex - 1;
            std::string_view name;
            if (dev["name"].get(name) != simdjson::SUCCESS)
                name = {};
            const std::string json = simdjson::minify(dev);
            m_sink.addDevice(
                id, QString::fromUtf8(name.data(), qsizetype(name.size())), QByteArray::fromStdString(json));
        }
    }
    simdjson::dom::object dist;
    if (root["distributedInfo"].get(dist) == simdjson::SUCCESS) {
        int64_t rank = kNoValue, world = kNoValue;
        if (dist["rank"].get(rank) != simdjson::SUCCESS)
            rank = kNoValue;
        if (dist["world_size"].get(world) != simdjson::SUCCESS)
            world = kNoValue;
        if (rank != kNoValue)
            m_sink.setRank(rank, world);
    }
    simdjson::dom::element base;
    if (root["baseTimeNanoseconds"].get(base) == simdjson::SUCCESS) {
        int64_t ns = 0;
        uint64_t uns = 0;
        std::string_view s;
        if (base.get(ns) == simdjson::SUCCESS)
            m_sink.setBaseTimeNs(ns);
        else if (base.get(uns) == simdjson::SUCCESS)
            m_sink.setBaseTimeNs(int64_t(uns));
        else if (base.get(s) == simdjson::SUCCESS)
            if (auto v = toInt(s))
                m_sink.setBaseTimeNs(*v);
    }
}

} // namespace

int ChromeTraceImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    qsizetype i = 0;
    if (head.startsWith("\xef\xbb\xbf"))
        i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    if (i >= head.size())
        return 0;
    const QByteArrayView rest = head.sliced(i);
    const bool traceName = fileName.contains(QStringLiteral(".pt.trace.json"))
        || fileName.contains(QStringLiteral("trace.json"));
    if (rest[0] == '{') {
        if (rest.indexOf("\"traceEvents\"") >= 0)
            return 95;
        // Kineto writes device properties (possibly many KiB) before the events.
        if (rest.indexOf("\"schemaVersion\"") >= 0 && rest.indexOf("\"deviceProperties\"") >= 0)
            return 80;
        if (traceName && rest.indexOf("\"ph\"") >= 0)
            return 60;
        return 0;
    }
    if (rest[0] == '[') {
        qsizetype j = 1;
        while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\n' || rest[j] == '\r' || rest[j] == '\t'))
            ++j;
        if (j < rest.size() && rest[j] == '{' && rest.indexOf("\"ph\"") >= 0)
            return 90;
        if (j >= rest.size() || rest[j] == ']')
            return traceName ? 50 : 0; // an empty trace
    }
    return 0;
}

void ChromeTraceImporter::read(ImportContext &ctx) const
{
    Reader reader(ctx);
    reader.run();
}

} // namespace plumb
