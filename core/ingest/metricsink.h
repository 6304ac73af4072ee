// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include "ingest/batchwriter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plumb {

class SqliteDb;
class DiagnosticLog;

enum class ParamKind {
    Number,
    String,
    Bool,
    Null,
    Json,
    Tag
}; // Tag: a label the run was given (MLflow tags)
enum class SeriesKind { Scalar, Histogram };

// The summary statistics a legacy histogram carries besides its buckets.
struct HistogramStats {
    double min = 0;
    double max = 0;
    double num = 0;
    double sum = 0;
    double sumSquares = 0;
};

// The write side of one experiment-log import (runs, params, scalar series, histograms), shared by
// every experiment-log importer as TraceSink is by the trace importers.
//
// Maps what an importer reads onto the workspace model: runs are found or created by key (so that
// the second event file of a folder, imported later in its own transaction, continues the same
// run), tags are interned in the workspace's string table, and each (run, tag, kind) is a series
// whose points get their segment and dup here: a step lower than the series' last one starts a new
// segment (a restart; both segments are kept), a repeated step gets the next dup. A series that
// continues a run from an earlier import picks up where that one stopped.
//
// Points go to a writer thread in batches sorted by the table's key, so parsing and SQLite inserts
// overlap; runs, params and per-segment summaries are written at finish(). The DB connection
// belongs to the writer while a batch is being written: the sink itself waits for it (and never
// the caller) before it touches the connection on the caller's thread. Destroying an unfinished
// sink stops the thread and leaves the caller to roll back the transaction.
class MetricSink {
public:
    MetricSink(SqliteDb &db, DiagnosticLog &diagnostics);
    ~MetricSink();
    MetricSink(const MetricSink &) = delete;
    MetricSink &operator=(const MetricSink &) = delete;

    // The run with this key, created (named `name`, folder `path`) when the workspace has none.
    [[nodiscard]] int64_t openRun(const QString &key, const QString &name, const QString &path);
    // A param of the run; a later value for the same key replaces the earlier one, unless `copy`:
    // a logger's copy of the configuration (TensorBoard's hparams plugin, which turns None into
    // "None" and booleans into numbers) never replaces a value already stored, so the configuration
    // file itself (Lightning's hparams.yaml) wins whichever of the two is imported first.
    void setParam(int64_t run, const QString &key, const QString &value, ParamKind kind, bool copy = false);
    void setRunStatus(int64_t run, const QString &status);
    void setRunGroup(int64_t run, const QString &groupName);
    // Widens the run's [start, end] wall-clock span to include `wallNs` (epoch ns).
    void noteRunTime(int64_t run, int64_t wallNs);
    // Top-level members of `jsonObject` replace those of the run's metadata JSON.
    void mergeRunMetadata(int64_t run, const QByteArray &jsonObject);

    // A series handle for addScalar()/addHistogram().
    [[nodiscard]] int64_t series(int64_t run, std::string_view key, SeriesKind kind);
    // True when the run has a series of this key and kind, from an earlier import or this one.
    [[nodiscard]] bool hasSeries(int64_t run, std::string_view key, SeriesKind kind) const;
    // Points the series got from earlier imports (all segments): a reader of a log that is only
    // ever appended to skips that many from its start when it reads the log again.
    [[nodiscard]] int64_t pointsBefore(int64_t series) const { return m_series[size_t(series)].pointsBefore; }
    // Both return true when the point starts a new segment: its step is lower than the series'
    // last one (a restart), which the importer reports with the place in its input.
    bool addScalar(int64_t series, int64_t step, int64_t wallNs, double value);
    // `buckets`: bucketCount x (left edge, right edge, count). `stats` may be null.
    bool addHistogram(int64_t series, int64_t step, int64_t wallNs, const double *buckets, size_t bucketCount,
        const HistogramStats *stats);

    [[nodiscard]] int64_t scalarPoints() const { return m_scalarPoints; }
    [[nodiscard]] int64_t histogramPoints() const { return m_histogramPoints; }

    // Drains the writer and writes run, param and series rows. Throws SqlError.
    void finish();

    // Rows per batch handed to the writer thread.
    static constexpr size_t kBatchRows = 8192;

    struct MetricRow {
        int64_t run, key, segment, step, dup, wallNs;
        double value;
        uint32_t series; // handle, for ordering a batch
    };
    struct HistogramRow {
        int64_t run, key, segment, step, dup, wallNs;
        size_t firstBucket; // index into Batch::buckets (3 doubles per bucket)
        size_t bucketCount;
        bool hasStats;
        HistogramStats stats;
    };
    struct Batch {
        std::vector<MetricRow> metrics;
        std::vector<HistogramRow> histograms;
        std::vector<double> buckets;
        std::vector<MetricRow> scratch; // for ordering `metrics`
        [[nodiscard]] size_t rows() const { return metrics.size() + histograms.size(); }
        void clear();
    };

private:
    struct SegmentStats {
        int64_t points = 0;
        int64_t firstStep = 0;
        int64_t lastStep = 0;
        int64_t firstWallNs = 0;
        int64_t lastWallNs = 0;
        double minValue = 0; // over finite values; valid when finiteValues > 0
        double maxValue = 0;
        double lastValue = 0;
        int64_t finiteValues = 0;
        bool lastIsNull = true;
    };
    struct SeriesState {
        SeriesState(int64_t run, int64_t key, SeriesKind kind)
            : run(run)
            , key(key)
            , kind(kind)
        {
        }
        int64_t run;
        int64_t key;
        SeriesKind kind;
        int64_t segment = 0;
        int64_t lastStep = 0;
        int64_t lastDup = 0;
        bool hasPoints = false; // in this import or an earlier one
        int64_t pointsBefore = 0; // stored by earlier imports, all segments
        bool dirty = false; // the current segment's row must be written at finish()
        SegmentStats stats; // of the current segment, including points of earlier imports
        std::vector<std::pair<int64_t, SegmentStats>> finished; // segments closed in this import
    };
    struct Param {
        QString key, value;
        ParamKind kind;
        bool copy;
    };
    struct RunState {
        int64_t id;
        QString status;
        QString groupName;
        int64_t startNs = INT64_MAX;
        int64_t endNs = INT64_MIN;
        std::vector<QByteArray> metadataPatches;
        std::vector<Param> params;
        bool hasParams = false; // set when a param was stored: a trial
    };
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    using StringMap = std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>>;

    RunState &runState(int64_t run);
    int64_t internKey(std::string_view key);
    void loadSeriesOfRun(int64_t run);
    bool place(SeriesState &s, int64_t step, int64_t wallNs, int64_t &dup);
    void orderBatch(Batch &b);
    void pushBatch();
    void quiesce();
    void releaseBatches();
    struct Statements;
    void writeBatch(Batch &batch); // on the writer thread
    void writeSeriesRows();
    void writeRunRows();

    SqliteDb &m_db;
    DiagnosticLog &m_diag;
    bool m_finished = false;
    int64_t m_nanValues = 0;
    int64_t m_scalarPoints = 0;
    int64_t m_histogramPoints = 0;

    StringMap m_keys; // tag -> string id
    bool m_allStringsLoaded = false;
    std::vector<RunState> m_runs;
    std::vector<SeriesState> m_series;
    struct SeriesKey {
        int64_t run, key;
        SeriesKind kind;
        bool operator==(const SeriesKey &) const = default;
    };
    struct SeriesKeyHash {
        size_t operator()(const SeriesKey &k) const noexcept
        {
            return std::hash<uint64_t>()(
                (uint64_t(k.run) * 1000003u + uint64_t(k.key)) * 2 + uint64_t(k.kind));
        }
    };
    std::unordered_map<SeriesKey, int64_t, SeriesKeyHash> m_seriesByKey;
    std::vector<uint32_t> m_rowsOfSeries; // per series: rows in the batch being ordered
    std::vector<uint32_t> m_touched; // series present in that batch

    std::unique_ptr<Batch> m_current; // being filled
    std::unique_ptr<Statements> m_statements; // the writer's, prepared on its first batch
    BatchWriter<Batch> m_writer;
};

} // namespace plumb
