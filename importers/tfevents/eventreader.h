// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/metricsink.h"
#include "tfevents/hparamsreader.h"
#include "tfevents/numerictensor.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class DiagnosticLog;
class ImportContext;

// Maps one event file, read from the import's input, to its run's series (TfEventsImporter's
// comment says how): reads the TFRecords (damage becomes diagnostics), decodes each Event and
// its Summary.Values field by field, remembers each tag's plugin, and sends scalars and histograms
// to the MetricSink, hparams data to HParamsReader. The run is the file's folder, opened with the
// first thing stored.
//
// A file whose first record is not an intact TFRecord of an Event throws ImportError.
class EventReader {
public:
    explicit EventReader(ImportContext &ctx);

    void read();

    // Event fields, and the file_version every writer puts in a file's first record.
    static constexpr uint32_t kEventWallTime = 1, kEventStep = 2, kEventFileVersion = 3, kEventGraphDef = 4,
                              kEventSummary = 5, kEventLogMessage = 6, kEventSessionLog = 7,
                              kEventRunMetadata = 8, kEventMetaGraph = 9;
    static constexpr std::string_view kFileVersionPrefix = "brain.Event:";

private:
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

    [[nodiscard]] int64_t run();
    void openRun();
    void event(std::string_view bytes);
    // Inline (defined in the .cpp, their only user): per value, and event() is faster with them in it.
    inline void summary(std::string_view bytes, int64_t step, int64_t wallNs);
    inline void value(std::string_view bytes, int64_t step, int64_t wallNs);
    TagState &tagState(std::string_view tag);
    void readMetadata(TagState &t, std::string_view tag, std::string_view bytes);
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
    NumericTensor m_tensor;
    std::vector<double> m_buckets;
    HParamsReader m_hparams;
};

} // namespace plumb
