// SPDX-License-Identifier: GPL-3.0-or-later
#include "tfevents/eventreader.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/protowire.h"
#include "tfevents.pb.h"
#include "tfevents/tfrecordreader.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace plumb {

namespace {

constexpr int64_t kCheckpointRecords = 1 << 14;
// Summary.Value fields
constexpr uint32_t kValueTag = 1, kValueSimple = 2, kValueOldHisto = 3, kValueImage = 4, kValueHisto = 5,
                   kValueAudio = 6, kValueTensor = 8, kValueMetadata = 9;

} // namespace

EventReader::EventReader(ImportContext &ctx)
    : m_ctx(ctx)
    , m_diag(ctx.diagnostics())
    , m_sink(ctx.metricSink())
    , m_file(ctx.input().fileName())
    , m_hparams(m_sink, m_diag, [this] { return run(); })
{
}

QString EventReader::here() const
{
    if (m_ctx.input().startOffset() > 0) { // records are counted from there: the offset says it all
        return QStringLiteral("byte %1").arg(m_recordOffset);
    }
    return QStringLiteral("byte %1 (record %2)").arg(m_recordOffset).arg(m_recordNumber);
}

// The run is created with its first param, point or metadata: an event file that holds nothing
// Plumb imports (TensorFlow's *.profile-empty marker, say) adds no empty run.
int64_t EventReader::run()
{
    if (m_run == 0) {
        openRun();
    }
    return m_run;
}

void EventReader::openRun()
{
    const QFileInfo info(m_ctx.input().path());
    const QString dir = info.absolutePath();
    const QDir folder(dir);
    QDir parent(dir);
    QString name = folder.dirName();
    if (parent.cdUp() && !parent.dirName().isEmpty()) {
        name = parent.dirName() + QLatin1Char('/') + name;
    }
    m_run = m_sink.openRun(QStringLiteral("tfevents:") + dir, name, dir);
}

void EventReader::read()
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
            if (status == S::End || status == S::TruncatedTail) {
                throw ImportError(
                    QStringLiteral("%1 ends before its first record is complete: it is not an event "
                                   "file, or a writer has only just created it (import it again "
                                   "later)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
            }
            if (status == S::BadLength) {
                throw ImportError(
                    QStringLiteral("%1 is not a TensorBoard event file: its first 12 bytes are not a "
                                   "TFRecord header (the length's checksum does not match)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
            }
            if (status != S::Record) {
                throw ImportError(
                    QStringLiteral("%1 is not a readable TensorBoard event file: the checksum of its "
                                   "first record does not match (the file is corrupt)")
                        .arg(m_file),
                    QStringLiteral("byte 0"));
            }
        }
        if (status == S::End) {
            break;
        }
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
        if (m_records % kCheckpointRecords == 0) {
            m_ctx.checkpoint();
        }
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
        } catch (const ProtoWire::Error &e) {
            if (first) {
                throw ImportError(
                    QStringLiteral("%1 is a TFRecord file but not of TensorBoard events: its first record "
                                   "is not an Event (%2)")
                        .arg(m_file, QString::fromLatin1(e.what)),
                    QStringLiteral("byte 0"));
            }
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

void EventReader::event(std::string_view bytes)
{
    ProtoWire r(bytes);
    uint32_t f, wt;
    double wallTime = 0;
    int64_t step = 0;
    std::string_view summaryBytes;
    bool hasSummary = false;
    while (r.next(f, wt)) {
        switch (f) {
        case kEventWallTime:
            r.expect(wt, ProtoWire::Fixed64, "wall_time is not a double");
            wallTime = r.float64();
            break;
        case kEventStep:
            r.expect(wt, ProtoWire::Varint, "step is not an integer");
            step = int64_t(r.varint());
            break;
        case kEventFileVersion: {
            r.expect(wt, ProtoWire::LengthDelimited, "file_version is not a string");
            const std::string_view version = r.bytes();
            if (version.substr(0, kFileVersionPrefix.size()) != kFileVersionPrefix) {
                m_diag.report(Severity::Warning, QStringLiteral("file-version"), here(),
                    QStringLiteral("The file says it is version '%1', not 'brain.Event:N'; read as "
                                   "version 2.")
                        .arg(QString::fromUtf8(version.data(), qsizetype(version.size()))));
            }
            break;
        }
        case kEventSummary:
            r.expect(wt, ProtoWire::LengthDelimited, "summary is not a message");
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
    if (hasSummary) {
        summary(summaryBytes, step, wallNs);
    }
}

void EventReader::summary(std::string_view bytes, int64_t step, int64_t wallNs)
{
    ProtoWire r(bytes);
    uint32_t f, wt;
    while (r.next(f, wt)) {
        if (f == 1 && wt == ProtoWire::LengthDelimited) {
            value(r.bytes(), step, wallNs);
        } else {
            r.skip(wt);
        }
    }
}

EventReader::TagState &EventReader::tagState(std::string_view tag)
{
    auto it = m_tags.find(tag);
    if (it == m_tags.end()) {
        TagState t;
        // A continued import does not see the value that named the plugin: the series that value
        // started says which it was.
        if (m_ctx.input().startOffset() > 0) {
            if (m_sink.hasSeries(run(), tag, SeriesKind::Scalar)) {
                t.plugin = Plugin::Scalars;
            } else if (m_sink.hasSeries(run(), tag, SeriesKind::Histogram)) {
                t.plugin = Plugin::Histograms;
            }
        }
        it = m_tags.emplace(std::string(tag), t).first;
    }
    return it->second;
}

void EventReader::value(std::string_view bytes, int64_t step, int64_t wallNs)
{
    ProtoWire r(bytes);
    uint32_t f, wt;
    std::string_view tag, metadata, payload;
    uint32_t kind = 0;
    float simple = 0;
    while (r.next(f, wt)) {
        switch (f) {
        case kValueTag:
            r.expect(wt, ProtoWire::LengthDelimited, "tag is not a string");
            tag = r.bytes();
            break;
        case kValueSimple:
            r.expect(wt, ProtoWire::Fixed32, "simple_value is not a float");
            simple = r.float32();
            kind = f;
            break;
        case kValueMetadata:
            r.expect(wt, ProtoWire::LengthDelimited, "metadata is not a message");
            metadata = r.bytes();
            break;
        case kValueOldHisto:
        case kValueImage:
        case kValueHisto:
        case kValueAudio:
        case kValueTensor:
            r.expect(wt, ProtoWire::LengthDelimited, "a summary value is not a message");
            payload = r.bytes();
            kind = f;
            break;
        default:
            r.skip(wt);
        }
    }
    TagState &t = tagState(tag);
    if (!metadata.empty() && (t.plugin == Plugin::Unknown || t.plugin == Plugin::HParams)) {
        readMetadata(t, tag, metadata);
    }
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
        if (t.plugin != Plugin::HParams) {
            notImported("empty-value", QStringLiteral("Summary values with no data"));
        }
    }
}

// A tag's plugin, named on its first value (and on every hparams value, whose data it carries).
void EventReader::readMetadata(TagState &t, std::string_view tag, std::string_view bytes)
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
    if (name == "scalars" || (name.empty() && meta.data_class() == tfevents::DATA_CLASS_SCALAR)) {
        t.plugin = Plugin::Scalars;
    } else if (name == "histograms") {
        t.plugin = Plugin::Histograms;
    } else if (name == "hparams") {
        t.plugin = Plugin::HParams;
    } else if (!name.empty()) {
        t.plugin = Plugin::Other;
    }
    if (t.plugin == Plugin::HParams) {
        m_hparams.read(meta.plugin_data().content(), here());
    }
}

void EventReader::scalar(TagState &t, std::string_view tag, int64_t step, int64_t wallNs, double value)
{
    if (t.scalarSeries < 0) {
        t.scalarSeries = m_sink.series(run(), tag, SeriesKind::Scalar);
    }
    if (m_sink.addScalar(t.scalarSeries, step, wallNs, value)) {
        m_diag.report(Severity::Info, QStringLiteral("restart"), here(),
            QStringLiteral("The step of tag '%1' went back to %2: the job restarted (from a checkpoint, "
                           "say). Both stretches are kept as segments; where they overlap, the later one "
                           "is what TensorBoard shows.")
                .arg(tagText(tag))
                .arg(step));
    }
}

void EventReader::histogram(TagState &t, std::string_view tag, int64_t step, int64_t wallNs,
    const double *buckets, size_t k, const HistogramStats *stats)
{
    if (t.histogramSeries < 0) {
        t.histogramSeries = m_sink.series(run(), tag, SeriesKind::Histogram);
    }
    if (m_sink.addHistogram(t.histogramSeries, step, wallNs, buckets, k, stats)) {
        m_diag.report(Severity::Info, QStringLiteral("restart"), here(),
            QStringLiteral("The step of tag '%1' went back to %2: the job restarted (from a checkpoint, "
                           "say). Both stretches are kept as segments; where they overlap, the later one "
                           "is what TensorBoard shows.")
                .arg(tagText(tag))
                .arg(step));
    }
}

// A legacy HistogramProto, normalised as TensorBoard does: empty buckets at both ends dropped, the
// first kept bucket starting at min and the last ending at max.
void EventReader::legacyHistogram(
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
    while (start < n && !(h.bucket(start) > 0)) {
        ++start;
    }
    int end = n - 1;
    while (end >= 0 && !(h.bucket(end) > 0)) {
        --end;
    }
    m_buckets.clear();
    for (int i = start; i <= end; ++i) {
        m_buckets.push_back(i == start ? h.min() : h.bucket_limit(i - 1));
        m_buckets.push_back(i == end ? h.max() : h.bucket_limit(i));
        m_buckets.push_back(h.bucket(i));
    }
    const HistogramStats stats { h.min(), h.max(), h.num(), h.sum(), h.sum_squares() };
    histogram(t, tag, step, wallNs, m_buckets.data(), m_buckets.size() / 3, &stats);
}

void EventReader::tensorValue(
    TagState &t, std::string_view tag, std::string_view bytes, int64_t step, int64_t wallNs)
{
    if (t.plugin == Plugin::HParams) {
        return; // the data was in the metadata
    }
    if (t.plugin == Plugin::Other) {
        notImported(nullptr, QString::fromStdString(t.pluginName));
        return;
    }
    const char *why = nullptr;
    if (!m_tensor.decode(bytes, why)) {
        if (t.plugin == Plugin::Unknown) {
            notImported("unknown-tensor", QStringLiteral("Tensors of tags that name no plugin"));
            return;
        }
        m_diag.skipped(QStringLiteral("bad-tensor"), here(),
            QStringLiteral("A value of tag '%1' is %2; it was skipped.")
                .arg(tagText(tag), QLatin1String(why)));
        return;
    }
    const auto &dims = m_tensor.dims();
    switch (t.plugin) {
    case Plugin::Unknown:
        if (dims.empty() && m_tensor.values().size() == 1) {
            m_diag.report(Severity::Info, QStringLiteral("scalar-without-plugin"), here(),
                QStringLiteral("Tag '%1' holds single-number tensors but never named its plugin (the value "
                               "that named it may be lost); read as a scalar.")
                    .arg(tagText(tag)));
            scalar(t, tag, step, wallNs, m_tensor.values().front());
        } else {
            notImported("unknown-tensor", QStringLiteral("Tensors of tags that name no plugin"));
        }
        return;
    case Plugin::Scalars:
        if (m_tensor.values().size() != 1) {
            m_diag.skipped(QStringLiteral("bad-scalar"), here(),
                QStringLiteral("A value of scalar tag '%1' holds %2 numbers, not one; it was skipped.")
                    .arg(tagText(tag))
                    .arg(m_tensor.values().size()));
            return;
        }
        scalar(t, tag, step, wallNs, m_tensor.values().front());
        return;
    case Plugin::Histograms:
        if (dims.size() != 2 || dims[1] != 3) {
            m_diag.skipped(QStringLiteral("bad-histogram"), here(),
                QStringLiteral("A value of histogram tag '%1' is not a [k,3] tensor of (left, right, count) "
                               "rows; it was skipped.")
                    .arg(tagText(tag)));
            return;
        }
        histogram(t, tag, step, wallNs, m_tensor.values().data(), size_t(dims[0]), nullptr);
        return;
    default:
        return;
    }
}

// Content Plumb does not import, counted per kind. `what` null: a plugin by name.
void EventReader::notImported(const char *what, const QString &kind)
{
    const QString code = QStringLiteral("not-imported-") + (what ? QLatin1String(what) : kind);
    if (m_diag.bump(code)) {
        return;
    }
    m_diag.report(Severity::Info, code, here(),
        what ? QStringLiteral("%1 are not imported (the count is how many were passed over).").arg(kind)
             : QStringLiteral("Values of the '%1' plugin are not imported (the count is how many were "
                              "passed over).")
                   .arg(kind));
}

} // namespace plumb
