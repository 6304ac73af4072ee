// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/tfeventsimporter.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "tfevents.pb.h"
#include "tfevents/crc32c.h"
#include "tfevents/protoreader.h"
#include "tfevents/tfrecordreader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace plumb {

namespace {

constexpr int64_t kCheckpointRecords = 1 << 14;
constexpr std::string_view kFileVersionPrefix = "brain.Event:";

// Event fields
constexpr uint32_t kEventWallTime = 1, kEventStep = 2, kEventFileVersion = 3, kEventGraphDef = 4,
                   kEventSummary = 5, kEventLogMessage = 6, kEventSessionLog = 7, kEventRunMetadata = 8,
                   kEventMetaGraph = 9;
// Summary.Value fields
constexpr uint32_t kValueTag = 1, kValueSimple = 2, kValueOldHisto = 3, kValueImage = 4, kValueHisto = 5,
                   kValueAudio = 6, kValueTensor = 8, kValueMetadata = 9;
// TensorFlow DataType values (tfevents.proto)
enum DType : int {
    DtFloat = 1,
    DtDouble = 2,
    DtInt32 = 3,
    DtUint8 = 4,
    DtInt16 = 5,
    DtInt8 = 6,
    DtInt64 = 9,
    DtBool = 10,
    DtBfloat16 = 14,
    DtUint16 = 17,
    DtHalf = 19,
    DtUint32 = 22,
    DtUint64 = 23
};

enum class Plugin { Unknown, Scalars, Histograms, HParams, Other };

struct TagState {
    Plugin plugin = Plugin::Unknown;
    std::string pluginName;
    int64_t scalarSeries = -1;
    int64_t histogramSeries = -1;
};

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

// A numeric tensor: shape and values as doubles. Buffers are reused from value to value.
struct Tensor {
    int dtype = 0;
    std::vector<int64_t> dims;
    std::vector<double> values;
    bool halfBits = false; // values hold half_val bit patterns until the dtype is known
};

double halfToDouble(uint32_t h)
{
    const int exp = int((h >> 10) & 0x1f);
    const int mant = int(h & 0x3ff);
    double v;
    if (exp == 0)
        v = std::ldexp(double(mant), -24);
    else if (exp == 31)
        v = mant ? std::nan("") : INFINITY;
    else
        v = std::ldexp(double(mant + 1024), exp - 25);
    return (h & 0x8000) ? -v : v;
}

double bfloat16ToDouble(uint32_t h)
{
    const uint32_t bits = (h & 0xffff) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

size_t elementBytes(int dtype)
{
    switch (dtype) {
    case DtFloat:
    case DtInt32:
    case DtUint32:
        return 4;
    case DtDouble:
    case DtInt64:
    case DtUint64:
        return 8;
    case DtInt16:
    case DtUint16:
    case DtHalf:
    case DtBfloat16:
        return 2;
    case DtInt8:
    case DtUint8:
    case DtBool:
        return 1;
    default:
        return 0;
    }
}

template <typename T> T load(const char *p)
{
    T v;
    std::memcpy(&v, p, sizeof v); // little-endian hosts, as tensor_content is
    return v;
}

double elementAt(const char *p, int dtype)
{
    switch (dtype) {
    case DtFloat:
        return load<float>(p);
    case DtDouble:
        return load<double>(p);
    case DtInt32:
        return load<int32_t>(p);
    case DtUint32:
        return load<uint32_t>(p);
    case DtInt64:
        return double(load<int64_t>(p));
    case DtUint64:
        return double(load<uint64_t>(p));
    case DtInt16:
        return load<int16_t>(p);
    case DtUint16:
        return load<uint16_t>(p);
    case DtHalf:
        return halfToDouble(load<uint16_t>(p));
    case DtBfloat16:
        return bfloat16ToDouble(load<uint16_t>(p));
    case DtInt8:
        return load<int8_t>(p);
    case DtUint8:
        return load<uint8_t>(p);
    case DtBool:
        return *p ? 1.0 : 0.0;
    default:
        return 0;
    }
}

// Decodes a TensorProto of numbers; false with `why` when it is not one.
bool decodeTensor(std::string_view bytes, Tensor &t, const char *&why)
{
    t.dtype = 0;
    t.dims.clear();
    t.values.clear();
    t.halfBits = false;
    std::string_view content;
    bool unknownRank = false;
    ProtoReader r(bytes);
    uint32_t f, wt;
    while (r.next(f, wt)) {
        switch (f) {
        case 1:
            t.dtype = int(r.varint());
            break;
        case 2: {
            ProtoReader shape(r.bytes());
            uint32_t sf, swt;
            while (shape.next(sf, swt)) {
                if (sf == 2 && swt == ProtoReader::LengthDelimited) {
                    ProtoReader dim(shape.bytes());
                    uint32_t df, dwt;
                    int64_t size = 0;
                    while (dim.next(df, dwt)) {
                        if (df == 1 && dwt == ProtoReader::Varint)
                            size = int64_t(dim.varint());
                        else
                            dim.skip(dwt);
                    }
                    t.dims.push_back(size);
                } else if (sf == 3 && swt == ProtoReader::Varint) {
                    unknownRank = shape.varint() != 0;
                } else {
                    shape.skip(swt);
                }
            }
            break;
        }
        case 4:
            content = r.bytes();
            break;
        case 5: // float_val
            if (wt == ProtoReader::LengthDelimited) {
                ProtoReader p(r.bytes());
                while (!p.atEnd())
                    t.values.push_back(p.float32());
            } else if (wt == ProtoReader::Fixed32) {
                t.values.push_back(r.float32());
            } else {
                r.skip(wt);
            }
            break;
        case 6: // double_val
            if (wt == ProtoReader::LengthDelimited) {
                ProtoReader p(r.bytes());
                while (!p.atEnd())
                    t.values.push_back(p.float64());
            } else if (wt == ProtoReader::Fixed64) {
                t.values.push_back(r.float64());
            } else {
                r.skip(wt);
            }
            break;
        case 7: // int_val (int32, negative ones sign-extended to 64 bits)
        case 10: // int64_val
        case 11: // bool_val
        case 13: // half_val (bit patterns)
        case 16: // uint32_val
        case 17: // uint64_val
        {
            auto convert = [f](uint64_t v) -> double {
                switch (f) {
                case 7:
                    return double(int32_t(uint32_t(v)));
                case 10:
                    return double(int64_t(v));
                case 11:
                    return v ? 1.0 : 0.0;
                case 13:
                    return double(uint32_t(v) & 0xffff);
                default:
                    return double(v);
                }
            };
            if (f == 13)
                t.halfBits = true;
            if (wt == ProtoReader::LengthDelimited) {
                ProtoReader p(r.bytes());
                while (!p.atEnd())
                    t.values.push_back(convert(p.varint()));
            } else if (wt == ProtoReader::Varint) {
                t.values.push_back(convert(r.varint()));
            } else {
                r.skip(wt);
            }
            break;
        }
        default:
            r.skip(wt);
        }
    }
    if (unknownRank) {
        why = "a tensor of unknown rank";
        return false;
    }
    int64_t count = 1;
    for (const int64_t d : t.dims) {
        if (d < 0) {
            why = "a tensor with a dimension of unknown size";
            return false;
        }
        count *= d;
    }
    if (!content.empty()) {
        const size_t size = elementBytes(t.dtype);
        if (size == 0) {
            why = "a tensor whose element type is not a number";
            return false;
        }
        if (content.size() != size * size_t(count)) {
            why = "a tensor whose content does not match its shape";
            return false;
        }
        t.values.resize(size_t(count));
        for (int64_t i = 0; i < count; ++i)
            t.values[size_t(i)] = elementAt(content.data() + size_t(i) * size, t.dtype);
        return true;
    }
    if (t.halfBits)
        for (double &v : t.values)
            v = t.dtype == DtBfloat16 ? bfloat16ToDouble(uint32_t(v)) : halfToDouble(uint32_t(v));
    if (t.values.size() == 1 && count > 1)
        t.values.resize(size_t(count), t.values.front()); // one typed value fills the shape
    if (int64_t(t.values.size()) != count) {
        why = count == 1 && t.values.empty() ? "a tensor with no value"
                                             : "a tensor whose values do not match its shape";
        return false;
    }
    return true;
}

// Shortest round-trip text of a number: integers without a fraction, others positional for
// decimal exponents -4..15 and scientific beyond ("0.0001", "3e-05", "1e+16").
QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (v == std::trunc(v) && std::fabs(v) < 1e16)
        return QString::number(int64_t(v));
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, size_t(res.ptr - buf));
    const size_t e = sci.find('e');
    const int exp = std::stoi(std::string(sci.substr(e + 1)));
    if (exp < -4 || exp >= 16)
        return QString::fromLatin1(sci.data(), qsizetype(sci.size()));
    std::string digits;
    bool negative = false;
    for (const char c : sci.substr(0, e)) {
        if (c == '-')
            negative = true;
        else if (c != '.')
            digits.push_back(c);
    }
    std::string out = negative ? "-" : "";
    if (exp < 0) {
        out += "0." + std::string(size_t(-exp - 1), '0') + digits;
    } else {
        if (digits.size() <= size_t(exp) + 1)
            digits.append(size_t(exp) + 2 - digits.size(), '0');
        out += digits.substr(0, size_t(exp) + 1) + '.' + digits.substr(size_t(exp) + 1);
    }
    return QString::fromStdString(out);
}

QJsonValue jsonOf(const tfevents::JsonValue &v)
{
    using K = tfevents::JsonValue::KindCase;
    switch (v.kind_case()) {
    case K::kNumberValue:
        return std::isfinite(v.number_value()) ? QJsonValue(v.number_value()) : QJsonValue();
    case K::kStringValue:
        return QString::fromStdString(v.string_value());
    case K::kBoolValue:
        return v.bool_value();
    case K::kStructValue: {
        QJsonObject o;
        for (const auto &[key, value] : v.struct_value().fields())
            o.insert(QString::fromStdString(key), jsonOf(value));
        return o;
    }
    case K::kListValue: {
        QJsonArray a;
        for (const auto &value : v.list_value().values())
            a.append(jsonOf(value));
        return a;
    }
    default:
        return QJsonValue();
    }
}

class Reader {
public:
    explicit Reader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_sink(ctx.metricSink())
        , m_file(ctx.input().fileName())
    {
    }

    void read();

private:
    [[nodiscard]] int64_t run();
    void openRun();
    void event(std::string_view bytes);
    void summary(std::string_view bytes, int64_t step, int64_t wallNs);
    void value(std::string_view bytes, int64_t step, int64_t wallNs);
    TagState &tagState(std::string_view tag);
    void readMetadata(TagState &t, std::string_view tag, std::string_view bytes);
    void hparams(std::string_view content);
    void scalar(TagState &t, std::string_view tag, int64_t step, int64_t wallNs, double value);
    void histogram(TagState &t, std::string_view tag, int64_t step, int64_t wallNs, const double *buckets,
        size_t k, const HistogramStats *stats);
    void legacyHistogram(
        TagState &t, std::string_view tag, std::string_view bytes, int64_t step, int64_t wallNs);
    void tensorValue(TagState &t, std::string_view tag, std::string_view bytes, int64_t step, int64_t wallNs);
    void notImported(const char *what, const QString &kind);
    [[nodiscard]] QString here() const;
    [[nodiscard]] QString tagText(std::string_view tag) const
    {
        return QString::fromUtf8(tag.data(), qsizetype(tag.size()));
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    MetricSink &m_sink;
    QString m_file;
    int64_t m_run = 0;
    int64_t m_records = 0; // complete records read
    int64_t m_recordNumber = 0; // 1-based number of the record being read
    int64_t m_recordOffset = 0;
    int64_t m_startNs = INT64_MAX;
    int64_t m_endNs = INT64_MIN;
    std::unordered_map<std::string, TagState, StringHash, std::equal_to<>> m_tags;
    Tensor m_tensor;
    std::vector<double> m_buckets;
    bool m_sessionEnded = false;
};

QString Reader::here() const
{
    if (m_ctx.input().startOffset() > 0) // records are counted from there: the offset says it all
        return QStringLiteral("byte %1").arg(m_recordOffset);
    return QStringLiteral("byte %1 (record %2)").arg(m_recordOffset).arg(m_recordNumber);
}

// The run is created with its first param, point or metadata: an event file that holds nothing
// Plumb imports (TensorFlow's *.profile-empty marker, say) adds no empty run.
int64_t Reader::run()
{
    if (m_run == 0)
        openRun();
    return m_run;
}

void Reader::openRun()
{
    const QFileInfo info(m_ctx.input().path());
    const QString dir = info.absolutePath();
    const QDir folder(dir);
    QDir parent(dir);
    QString name = folder.dirName();
    if (parent.cdUp() && !parent.dirName().isEmpty())
        name = parent.dirName() + QLatin1Char('/') + name;
    m_run = m_sink.openRun(QStringLiteral("tfevents:") + dir, name, dir);
}

void Reader::read()
{
    TfRecordReader records(m_ctx.input());
    std::string_view data;
    // A continued import starts at a record boundary of a file already known to be an event file.
    const bool continued = m_ctx.input().startOffset() > 0;
    bool first = !continued;
    for (;;) {
        const auto status = records.next(data);
        m_recordOffset = records.recordOffset();
        m_recordNumber = m_records + 1;
        using S = TfRecordReader::Status;
        // Where a later import of this file, grown, continues: after what was read, at the start
        // of an incomplete record, or (after damage that hides the next record) at the end.
        m_ctx.resumeOffset = status == S::TruncatedTail ? m_recordOffset
            : status == S::BadLength                    ? m_ctx.input().size()
                                                        : records.position();
        if (first) {
            // The whole file is refused unless it starts as an event file does.
            if (status == S::End || status == S::TruncatedTail)
                throw ImportError(
                    QStringLiteral("%1 ends before its first record is complete: it is not an event "
                                   "file, or a writer has only just created it (import it again "
                                   "later)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
            if (status == S::BadLength)
                throw ImportError(
                    QStringLiteral("%1 is not a TensorBoard event file: its first 12 bytes are not a "
                                   "TFRecord header (the length's checksum does not match)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
            if (status != S::Record)
                throw ImportError(
                    QStringLiteral("%1 is not a readable TensorBoard event file: the checksum of its "
                                   "first record does not match (the file is corrupt)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
        }
        if (status == S::End)
            break;
        if (status == S::TruncatedTail) {
            m_diag.report(Severity::Info, QStringLiteral("truncated-tail"), here(),
                QStringLiteral("The file ends inside a record (%1 bytes of it): a writer that is still "
                               "running, or was stopped, leaves this. Everything before it was read.")
                    .arg(records.tailBytes()));
            break;
        }
        if (status == S::BadLength) {
            const QString rest = m_ctx.input().isGzip()
                ? QString()
                : QStringLiteral(" (%1 bytes)").arg(m_ctx.input().size() - m_recordOffset);
            m_diag.report(Severity::Error, QStringLiteral("corrupt-record-header"), here(),
                QStringLiteral("A record header's checksum does not match, so the next record cannot be "
                               "found: the rest of the file%1 was not read.")
                    .arg(rest));
            break;
        }
        ++m_records;
        if (m_records % kCheckpointRecords == 0)
            m_ctx.checkpoint();
        if (status == S::BadDataCrc) {
            m_diag.skipped(QStringLiteral("record-checksum"), here(),
                QStringLiteral("The data of the record at byte %1 of %2 does not match its checksum "
                               "(%3 bytes); the record was skipped.")
                    .arg(m_recordOffset)
                    .arg(m_file)
                    .arg(records.recordLength()));
            continue;
        }
        if (status == S::TooLarge) {
            m_diag.skipped(QStringLiteral("record-too-large"), here(),
                QStringLiteral("A record of %1 bytes is larger than any summary; it was skipped unread.")
                    .arg(records.recordLength()));
            continue;
        }
        try {
            event(data);
        } catch (const ProtoReader::Error &e) {
            if (first)
                throw ImportError(
                    QStringLiteral("%1 is a TFRecord file but not of TensorBoard events: its first record "
                                   "is not an Event (%2)")
                        .arg(m_file, QString::fromLatin1(e.what)),
                    QStringLiteral("byte 0"));
            m_diag.skipped(QStringLiteral("bad-event"), here(),
                QStringLiteral("A record is not a readable Event (%1); what followed the damage in it "
                               "was skipped.")
                    .arg(QString::fromLatin1(e.what)));
        }
        first = false;
    }
    m_ctx.recordsRead = m_records;
    if (m_run && m_startNs <= m_endNs) {
        m_sink.noteRunTime(m_run, m_startNs);
        m_sink.noteRunTime(m_run, m_endNs);
    }
}

void Reader::event(std::string_view bytes)
{
    ProtoReader r(bytes);
    uint32_t f, wt;
    double wallTime = 0;
    int64_t step = 0;
    std::string_view summaryBytes;
    bool hasSummary = false;
    while (r.next(f, wt)) {
        switch (f) {
        case kEventWallTime:
            if (wt != ProtoReader::Fixed64)
                throw ProtoReader::Error { "wall_time is not a double" };
            wallTime = r.float64();
            break;
        case kEventStep:
            if (wt != ProtoReader::Varint)
                throw ProtoReader::Error { "step is not an integer" };
            step = int64_t(r.varint());
            break;
        case kEventFileVersion: {
            if (wt != ProtoReader::LengthDelimited)
                throw ProtoReader::Error { "file_version is not a string" };
            const std::string_view version = r.bytes();
            if (version.substr(0, kFileVersionPrefix.size()) != kFileVersionPrefix)
                m_diag.report(Severity::Warning, QStringLiteral("file-version"), here(),
                    QStringLiteral("The file says it is version '%1', not 'brain.Event:N'; read as "
                                   "version 2.")
                        .arg(QString::fromUtf8(version.data(), qsizetype(version.size()))));
            break;
        }
        case kEventSummary:
            if (wt != ProtoReader::LengthDelimited)
                throw ProtoReader::Error { "summary is not a message" };
            summaryBytes = r.bytes();
            hasSummary = true;
            break;
        case kEventGraphDef:
        case kEventMetaGraph:
        case kEventRunMetadata:
            r.skip(wt);
            notImported("graph", QStringLiteral("Graphs and run metadata"));
            break;
        case kEventSessionLog:
        case kEventLogMessage:
            r.skip(wt);
            notImported("session-log", QStringLiteral("Session log messages (start, stop, checkpoint)"));
            break;
        default:
            r.skip(wt);
        }
    }
    const int64_t wallNs = std::isfinite(wallTime) ? int64_t(std::llround(wallTime * 1e9)) : 0;
    if (wallNs > 0) {
        m_startNs = std::min(m_startNs, wallNs);
        m_endNs = std::max(m_endNs, wallNs);
    }
    if (hasSummary)
        summary(summaryBytes, step, wallNs);
}

void Reader::summary(std::string_view bytes, int64_t step, int64_t wallNs)
{
    ProtoReader r(bytes);
    uint32_t f, wt;
    while (r.next(f, wt)) {
        if (f == 1 && wt == ProtoReader::LengthDelimited)
            value(r.bytes(), step, wallNs);
        else
            r.skip(wt);
    }
}

TagState &Reader::tagState(std::string_view tag)
{
    auto it = m_tags.find(tag);
    if (it == m_tags.end()) {
        TagState t;
        // A continued import does not see the value that named the plugin: the series that value
        // started says which it was.
        if (m_ctx.input().startOffset() > 0) {
            if (m_sink.hasSeries(run(), tag, SeriesKind::Scalar))
                t.plugin = Plugin::Scalars;
            else if (m_sink.hasSeries(run(), tag, SeriesKind::Histogram))
                t.plugin = Plugin::Histograms;
        }
        it = m_tags.emplace(std::string(tag), t).first;
    }
    return it->second;
}

void Reader::value(std::string_view bytes, int64_t step, int64_t wallNs)
{
    ProtoReader r(bytes);
    uint32_t f, wt;
    std::string_view tag, metadata, payload;
    uint32_t kind = 0;
    float simple = 0;
    while (r.next(f, wt)) {
        switch (f) {
        case kValueTag:
            if (wt != ProtoReader::LengthDelimited)
                throw ProtoReader::Error { "tag is not a string" };
            tag = r.bytes();
            break;
        case kValueSimple:
            if (wt != ProtoReader::Fixed32)
                throw ProtoReader::Error { "simple_value is not a float" };
            simple = r.float32();
            kind = f;
            break;
        case kValueMetadata:
            if (wt != ProtoReader::LengthDelimited)
                throw ProtoReader::Error { "metadata is not a message" };
            metadata = r.bytes();
            break;
        case kValueOldHisto:
        case kValueImage:
        case kValueHisto:
        case kValueAudio:
        case kValueTensor:
            if (wt != ProtoReader::LengthDelimited)
                throw ProtoReader::Error { "a summary value is not a message" };
            payload = r.bytes();
            kind = f;
            break;
        default:
            r.skip(wt);
        }
    }
    TagState &t = tagState(tag);
    if (!metadata.empty() && (t.plugin == Plugin::Unknown || t.plugin == Plugin::HParams))
        readMetadata(t, tag, metadata);
    switch (kind) {
    case kValueSimple:
        scalar(t, tag, step, wallNs, double(simple));
        break;
    case kValueHisto:
        legacyHistogram(t, tag, payload, step, wallNs);
        break;
    case kValueTensor:
        tensorValue(t, tag, payload, step, wallNs);
        break;
    case kValueImage:
        notImported("image", QStringLiteral("Images"));
        break;
    case kValueAudio:
        notImported("audio", QStringLiteral("Audio clips"));
        break;
    case kValueOldHisto:
        notImported("old-histogram", QStringLiteral("Pre-2016 histograms (obsolete_old_style_histogram)"));
        break;
    default:
        // The hparams plugin writes its data in the metadata of values that carry nothing else.
        if (t.plugin != Plugin::HParams)
            notImported("empty-value", QStringLiteral("Summary values with no data"));
    }
}

// A tag's plugin, named on its first value (and on every hparams value, whose data it carries).
void Reader::readMetadata(TagState &t, std::string_view tag, std::string_view bytes)
{
    tfevents::SummaryMetadata meta;
    if (!meta.ParseFromArray(bytes.data(), int(bytes.size()))) {
        m_diag.report(Severity::Warning, QStringLiteral("bad-metadata"), here(),
            QStringLiteral("The plugin metadata of tag '%1' is not readable; its values are read by their "
                           "form.")
                .arg(tagText(tag)));
        return;
    }
    const std::string &name = meta.plugin_data().plugin_name();
    t.pluginName = name;
    if (name == "scalars" || (name.empty() && meta.data_class() == tfevents::DATA_CLASS_SCALAR))
        t.plugin = Plugin::Scalars;
    else if (name == "histograms")
        t.plugin = Plugin::Histograms;
    else if (name == "hparams")
        t.plugin = Plugin::HParams;
    else if (!name.empty())
        t.plugin = Plugin::Other;
    if (t.plugin == Plugin::HParams)
        hparams(meta.plugin_data().content());
}

void Reader::hparams(std::string_view content)
{
    tfevents::HParamsPluginData data;
    if (!data.ParseFromArray(content.data(), int(content.size()))) {
        m_diag.report(Severity::Warning, QStringLiteral("bad-hparams"), here(),
            QStringLiteral("An hparams summary is not readable; it was skipped."));
        return;
    }
    using D = tfevents::HParamsPluginData::DataCase;
    switch (data.data_case()) {
    case D::kExperiment: {
        const auto &e = data.experiment();
        QJsonObject x;
        auto setText = [](QJsonObject &o, const char *key, const std::string &s) {
            if (!s.empty())
                o.insert(QLatin1String(key), QString::fromStdString(s));
        };
        setText(x, "name", e.name());
        setText(x, "description", e.description());
        setText(x, "user", e.user());
        if (e.time_created_secs() > 0)
            x.insert(QStringLiteral("time_created_secs"), e.time_created_secs());
        QJsonArray hps;
        for (const auto &h : e.hparam_infos()) {
            QJsonObject o;
            setText(o, "name", h.name());
            setText(o, "display_name", h.display_name());
            setText(o, "description", h.description());
            static const char *const types[] = { "", "string", "bool", "float64" };
            if (h.type() > 0 && h.type() < 4)
                o.insert(QStringLiteral("type"), QLatin1String(types[h.type()]));
            if (h.has_domain_discrete()) {
                QJsonArray values;
                for (const auto &v : h.domain_discrete().values())
                    values.append(jsonOf(v));
                o.insert(QStringLiteral("domain"), values);
            } else if (h.has_domain_interval()) {
                o.insert(QStringLiteral("domain"),
                    QJsonObject { { QStringLiteral("min"), h.domain_interval().min_value() },
                        { QStringLiteral("max"), h.domain_interval().max_value() } });
            }
            hps.append(o);
        }
        x.insert(QStringLiteral("hparams"), hps);
        QJsonArray metrics;
        for (const auto &m : e.metric_infos()) {
            QJsonObject o;
            setText(o, "group", m.name().group());
            setText(o, "tag", m.name().tag());
            setText(o, "display_name", m.display_name());
            setText(o, "description", m.description());
            if (m.dataset_type() == tfevents::DATASET_TRAINING)
                o.insert(QStringLiteral("dataset"), QStringLiteral("training"));
            else if (m.dataset_type() == tfevents::DATASET_VALIDATION)
                o.insert(QStringLiteral("dataset"), QStringLiteral("validation"));
            metrics.append(o);
        }
        x.insert(QStringLiteral("metrics"), metrics);
        m_sink.mergeRunMetadata(run(),
            QJsonDocument(QJsonObject { { QStringLiteral("hparams_experiment"), x } })
                .toJson(QJsonDocument::Compact));
        break;
    }
    case D::kSessionStartInfo: {
        const auto &s = data.session_start_info();
        using K = tfevents::JsonValue::KindCase;
        // The hparams plugin's copy of the configuration: a params file of the run wins over it.
        const auto set = [&](const QString &k, const QString &value, ParamKind kind) {
            m_sink.setParam(run(), k, value, kind, /*copy=*/true);
        };
        for (const auto &[key, v] : s.hparams()) {
            const QString k = QString::fromStdString(key);
            switch (v.kind_case()) {
            case K::kNumberValue:
                set(k, formatNumber(v.number_value()), ParamKind::Number);
                break;
            case K::kStringValue:
                set(k, QString::fromStdString(v.string_value()), ParamKind::String);
                break;
            case K::kBoolValue:
                set(k, v.bool_value() ? QStringLiteral("true") : QStringLiteral("false"), ParamKind::Bool);
                break;
            case K::kStructValue:
            case K::kListValue: {
                const QJsonValue j = jsonOf(v);
                const QByteArray text = j.isArray()
                    ? QJsonDocument(j.toArray()).toJson(QJsonDocument::Compact)
                    : QJsonDocument(j.toObject()).toJson(QJsonDocument::Compact);
                set(k, QString::fromUtf8(text), ParamKind::Json);
                break;
            }
            default:
                set(k, QString(), ParamKind::Null);
            }
        }
        if (!s.group_name().empty())
            m_sink.setRunGroup(run(), QString::fromStdString(s.group_name()));
        if (s.start_time_secs() > 0)
            m_sink.noteRunTime(run(), int64_t(std::llround(s.start_time_secs() * 1e9)));
        if (!m_sessionEnded)
            m_sink.setRunStatus(run(), QStringLiteral("unknown"));
        break;
    }
    case D::kSessionEndInfo: {
        const auto &s = data.session_end_info();
        static const char *const names[] = { "unknown", "success", "failure", "running" };
        const int st = s.status();
        m_sink.setRunStatus(run(), QLatin1String(st >= 0 && st < 4 ? names[st] : "unknown"));
        m_sessionEnded = true;
        if (s.end_time_secs() > 0)
            m_sink.noteRunTime(run(), int64_t(std::llround(s.end_time_secs() * 1e9)));
        break;
    }
    default:
        m_diag.report(Severity::Info, QStringLiteral("empty-hparams"), here(),
            QStringLiteral("An hparams summary holds no experiment, session start or session end."));
    }
}

void Reader::scalar(TagState &t, std::string_view tag, int64_t step, int64_t wallNs, double value)
{
    if (t.scalarSeries < 0)
        t.scalarSeries = m_sink.series(run(), tag, SeriesKind::Scalar);
    if (m_sink.addScalar(t.scalarSeries, step, wallNs, value))
        m_diag.report(Severity::Info, QStringLiteral("restart"), here(),
            QStringLiteral("The step of tag '%1' went back to %2: the job restarted (from a checkpoint, "
                           "say). Both stretches are kept as segments; where they overlap, the later one "
                           "is what TensorBoard shows.")
                .arg(tagText(tag))
                .arg(step));
}

void Reader::histogram(TagState &t, std::string_view tag, int64_t step, int64_t wallNs, const double *buckets,
    size_t k, const HistogramStats *stats)
{
    if (t.histogramSeries < 0)
        t.histogramSeries = m_sink.series(run(), tag, SeriesKind::Histogram);
    if (m_sink.addHistogram(t.histogramSeries, step, wallNs, buckets, k, stats))
        m_diag.report(Severity::Info, QStringLiteral("restart"), here(),
            QStringLiteral("The step of tag '%1' went back to %2: the job restarted (from a checkpoint, "
                           "say). Both stretches are kept as segments; where they overlap, the later one "
                           "is what TensorBoard shows.")
                .arg(tagText(tag))
                .arg(step));
}

// A legacy HistogramProto, normalised as TensorBoard does: empty buckets at both ends dropped, the
// first kept bucket starting at min and the last ending at max.
void Reader::legacyHistogram(
    TagState &t, std::string_view tag, std::string_view bytes, int64_t step, int64_t wallNs)
{
    tfevents::HistogramProto h;
    if (!h.ParseFromArray(bytes.data(), int(bytes.size())) || h.bucket_limit_size() != h.bucket_size()) {
        m_diag.skipped(QStringLiteral("bad-histogram"), here(),
            QStringLiteral("A histogram of tag '%1' is not readable (or its bucket limits and counts "
                           "differ in number); it was skipped.")
                .arg(tagText(tag)));
        return;
    }
    const int n = h.bucket_size();
    int start = 0;
    while (start < n && !(h.bucket(start) > 0))
        ++start;
    int end = n - 1;
    while (end >= 0 && !(h.bucket(end) > 0))
        --end;
    m_buckets.clear();
    for (int i = start; i <= end; ++i) {
        m_buckets.push_back(i == start ? h.min() : h.bucket_limit(i - 1));
        m_buckets.push_back(i == end ? h.max() : h.bucket_limit(i));
        m_buckets.push_back(h.bucket(i));
    }
    const HistogramStats stats { h.min(), h.max(), h.num(), h.sum(), h.sum_squares() };
    histogram(t, tag, step, wallNs, m_buckets.data(), m_buckets.size() / 3, &stats);
}

void Reader::tensorValue(
    TagState &t, std::string_view tag, std::string_view bytes, int64_t step, int64_t wallNs)
{
    if (t.plugin == Plugin::HParams)
        return; // the data was in the metadata
    if (t.plugin == Plugin::Other) {
        notImported(nullptr, QString::fromStdString(t.pluginName));
        return;
    }
    const char *why = nullptr;
    if (!decodeTensor(bytes, m_tensor, why)) {
        if (t.plugin == Plugin::Unknown) {
            notImported("unknown-tensor", QStringLiteral("Tensors of tags that name no plugin"));
            return;
        }
        m_diag.skipped(QStringLiteral("bad-tensor"), here(),
            QStringLiteral("A value of tag '%1' is %2; it was skipped.")
                .arg(tagText(tag), QLatin1String(why)));
        return;
    }
    const auto &dims = m_tensor.dims;
    switch (t.plugin) {
    case Plugin::Unknown:
        if (dims.empty() && m_tensor.values.size() == 1) {
            m_diag.report(Severity::Info, QStringLiteral("scalar-without-plugin"), here(),
                QStringLiteral("Tag '%1' holds single-number tensors but never named its plugin (the value "
                               "that named it may be lost); read as a scalar.")
                    .arg(tagText(tag)));
            scalar(t, tag, step, wallNs, m_tensor.values.front());
        } else {
            notImported("unknown-tensor", QStringLiteral("Tensors of tags that name no plugin"));
        }
        return;
    case Plugin::Scalars:
        if (m_tensor.values.size() != 1) {
            m_diag.skipped(QStringLiteral("bad-scalar"), here(),
                QStringLiteral("A value of scalar tag '%1' holds %2 numbers, not one; it was skipped.")
                    .arg(tagText(tag))
                    .arg(m_tensor.values.size()));
            return;
        }
        scalar(t, tag, step, wallNs, m_tensor.values.front());
        return;
    case Plugin::Histograms:
        if (dims.size() != 2 || dims[1] != 3) {
            m_diag.skipped(QStringLiteral("bad-histogram"), here(),
                QStringLiteral("A value of histogram tag '%1' is not a [k,3] tensor of (left, right, count) "
                               "rows; it was skipped.")
                    .arg(tagText(tag)));
            return;
        }
        histogram(t, tag, step, wallNs, m_tensor.values.data(), size_t(dims[0]), nullptr);
        return;
    default:
        return;
    }
}

// Content Plumb does not import, counted per kind. `what` null: a plugin by name.
void Reader::notImported(const char *what, const QString &kind)
{
    const QString code = QStringLiteral("not-imported-") + (what ? QLatin1String(what) : kind);
    if (m_diag.bump(code))
        return;
    m_diag.report(Severity::Info, code, here(),
        what ? QStringLiteral("%1 are not imported (the count is how many were passed over).").arg(kind)
             : QStringLiteral("Values of the '%1' plugin are not imported (the count is how many were "
                              "passed over).")
                   .arg(kind));
}

} // namespace

int TfEventsImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    // TensorBoard's writers name files "events.out.tfevents.<time>.<host>[...]".
    const bool eventName = fileName.contains(QStringLiteral("tfevents"));
    uint64_t length = 0;
    if (head.size() < 12 || !TfRecordReader::headerValid(head.data(), length))
        return eventName ? 20 : 0; // read() then says clearly what the file is not
    if (uint64_t(head.size()) < 16 + length)
        return eventName ? 70 : 0; // a TFRecord; its first record is larger than the head
    const char *data = head.data() + 12;
    uint32_t stored;
    std::memcpy(&stored, data + length, 4);
    if (maskCrc32c(crc32c(data, size_t(length))) != stored)
        return eventName ? 60 : 0;
    // An Event: wall_time, and in a file's first record file_version "brain.Event:N".
    bool wallTime = false, fileVersion = false;
    try {
        ProtoReader r(std::string_view(data, size_t(length)));
        uint32_t f, wt;
        while (r.next(f, wt)) {
            if (f == kEventWallTime && wt == ProtoReader::Fixed64)
                wallTime = true;
            if (f == kEventFileVersion && wt == ProtoReader::LengthDelimited)
                fileVersion = r.bytes().substr(0, kFileVersionPrefix.size()) == kFileVersionPrefix;
            else
                r.skip(wt);
        }
    } catch (const ProtoReader::Error &) {
        return eventName ? 60 : 0;
    }
    if (wallTime && fileVersion)
        return 100;
    if (wallTime)
        return eventName ? 90 : 50;
    return eventName ? 60 : 0;
}

void TfEventsImporter::read(ImportContext &ctx) const
{
    Reader reader(ctx);
    reader.read();
}

} // namespace plumb
