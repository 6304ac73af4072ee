// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/metricsink.h"

#include "ingest/diagnosticlog.h"
#include "store/sqlitedb.h"

#include <QDateTime>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace plumb {

namespace {

constexpr int kRowsPerInsert = 64; // multi-row VALUES: fewer statement steps
constexpr int kMetricColumns = 7;
constexpr size_t kMaxQueuedBatches = 3;
constexpr size_t kPooledBatches = 6;

// Batches outlive a sink: a logdir is hundreds of files, each its own import and sink, and fresh
// memory costs a page fault per 4 KiB on first touch (DESIGN.md), as much as the parsing of it.
std::mutex g_poolMutex;
std::vector<std::unique_ptr<MetricSink::Batch>> g_pool;

std::unique_ptr<MetricSink::Batch> takeBatch()
{
    {
        std::lock_guard lock(g_poolMutex);
        if (!g_pool.empty()) {
            auto b = std::move(g_pool.back());
            g_pool.pop_back();
            return b;
        }
    }
    auto b = std::make_unique<MetricSink::Batch>();
    b->metrics.reserve(MetricSink::kBatchRows);
    return b;
}

void returnBatch(std::unique_ptr<MetricSink::Batch> b)
{
    if (!b)
        return;
    b->clear();
    std::lock_guard lock(g_poolMutex);
    if (g_pool.size() < kPooledBatches)
        g_pool.push_back(std::move(b));
}

std::string multiRowInsert(const char *head, int columns)
{
    std::string row = "(?";
    for (int c = 1; c < columns; ++c)
        row += ",?";
    row += ')';
    std::string sql = head;
    for (int r = 0; r < kRowsPerInsert; ++r)
        sql += (r ? "," : "") + row;
    return sql;
}

std::string_view kindName(SeriesKind k)
{
    return k == SeriesKind::Scalar ? "scalar" : "histogram";
}

std::string_view paramKindName(ParamKind k)
{
    switch (k) {
    case ParamKind::Number:
        return "number";
    case ParamKind::String:
        return "string";
    case ParamKind::Bool:
        return "bool";
    case ParamKind::Null:
        return "null";
    case ParamKind::Json:
        return "json";
    case ParamKind::Tag:
        return "tag";
    }
    return "string";
}

void bindOptional(SqliteStmt &st, int index, bool present, double v)
{
    if (present)
        st.bind(index, v);
    else
        st.bindNull(index);
}

} // namespace

void MetricSink::Batch::clear()
{
    metrics.clear();
    histograms.clear();
    buckets.clear();
}

MetricSink::MetricSink(SqliteDb &db, DiagnosticLog &diagnostics)
    : m_db(db)
    , m_diag(diagnostics)
    , m_writer(kMaxQueuedBatches, [this](Batch &b) { writeBatch(b); })
{
    // The tags of earlier experiment-log imports: a logdir's runs share them, so the usual new
    // file needs no scan of the whole string table (which traces fill with kernel names).
    SqliteStmt st(
        db, "SELECT s.id, s.str FROM string s WHERE s.id IN (SELECT DISTINCT key_id FROM metric_series)");
    while (st.step())
        m_keys.emplace(std::string(st.columnView(1)), st.columnInt(0));
    m_current = takeBatch();
}

MetricSink::~MetricSink()
{
    // Abandoned (error or cancel) when not finished: the caller rolls back, so queued rows need not
    // be written.
    m_writer.abandon();
    releaseBatches();
}

void MetricSink::releaseBatches()
{
    returnBatch(std::move(m_current));
    for (auto &b : m_writer.takeBatches())
        returnBatch(std::move(b));
}

MetricSink::RunState &MetricSink::runState(int64_t run)
{
    for (auto &r : m_runs)
        if (r.id == run)
            return r;
    m_runs.push_back(RunState { run, {}, {}, INT64_MAX, INT64_MIN, {}, {}, false });
    return m_runs.back();
}

int64_t MetricSink::openRun(const QString &key, const QString &name, const QString &path)
{
    quiesce();
    int64_t id = 0;
    {
        SqliteStmt find(m_db, "SELECT id FROM run WHERE key = ?");
        find.bind(1, key);
        if (find.step())
            id = find.columnInt(0);
    }
    if (id) {
        bool seen = false;
        for (const auto &r : m_runs)
            seen = seen || r.id == id;
        if (!seen)
            loadSeriesOfRun(id);
    } else {
        SqliteStmt ins(m_db, "INSERT INTO run(key, name, created_at_ns, path) VALUES (?, ?, ?, ?)");
        ins.bind(1, key).bind(2, name).bind(3, int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000);
        if (path.isEmpty())
            ins.bindNull(4);
        else
            ins.bind(4, path);
        ins.run();
        id = m_db.queryInt("SELECT last_insert_rowid()");
    }
    runState(id);
    return id;
}

// A run that earlier imports wrote to: each series continues its last segment.
void MetricSink::loadSeriesOfRun(int64_t run)
{
    SqliteStmt st(m_db,
        "SELECT key_id, kind, segment, points, first_step, last_step, first_wall_ns, last_wall_ns, "
        "min_value, max_value, last_value FROM metric_series WHERE run_id = ? "
        "ORDER BY key_id, kind, segment");
    st.bind(1, run);
    while (st.step()) {
        const SeriesKind kind = st.columnView(1) == "scalar" ? SeriesKind::Scalar : SeriesKind::Histogram;
        const SeriesKey k { run, st.columnInt(0), kind };
        auto it = m_seriesByKey.find(k);
        if (it == m_seriesByKey.end()) {
            it = m_seriesByKey.emplace(k, int64_t(m_series.size())).first;
            m_series.emplace_back(run, k.key, kind);
        }
        SeriesState &s = m_series[size_t(it->second)];
        s.segment = st.columnInt(2);
        s.hasPoints = true;
        SegmentStats &g = s.stats;
        g.points = st.columnInt(3);
        s.pointsBefore += g.points;
        g.firstStep = st.columnInt(4);
        g.lastStep = st.columnInt(5);
        g.firstWallNs = st.columnInt(6);
        g.lastWallNs = st.columnInt(7);
        g.finiteValues = st.columnIsNull(8) ? 0 : 1;
        g.minValue = st.columnDouble(8);
        g.maxValue = st.columnDouble(9);
        g.lastIsNull = st.columnIsNull(10);
        g.lastValue = st.columnDouble(10);
        s.lastStep = g.lastStep;
    }
    SqliteStmt metricDup(
        m_db, "SELECT max(dup) FROM metric WHERE run_id = ? AND key_id = ? AND segment = ? AND step = ?");
    SqliteStmt histDup(
        m_db, "SELECT max(dup) FROM histogram WHERE run_id = ? AND key_id = ? AND segment = ? AND step = ?");
    for (auto &s : m_series) {
        if (s.run != run)
            continue;
        SqliteStmt &q = s.kind == SeriesKind::Scalar ? metricDup : histDup;
        q.bind(1, run).bind(2, s.key).bind(3, s.segment).bind(4, s.lastStep);
        s.lastDup = q.step() ? q.columnInt(0) : 0;
        q.reset();
    }
}

int64_t MetricSink::internKey(std::string_view key)
{
    auto it = m_keys.find(key);
    if (it != m_keys.end())
        return it->second;
    quiesce();
    if (!m_allStringsLoaded) {
        // Once per import, and only for a tag no experiment log used before: tags are interned in
        // the one string table, so a tag that is also a kernel name keeps that string's id.
        m_allStringsLoaded = true;
        SqliteStmt st(m_db, "SELECT id, str FROM string");
        while (st.step())
            m_keys.emplace(std::string(st.columnView(1)), st.columnInt(0));
        it = m_keys.find(key);
        if (it != m_keys.end())
            return it->second;
    }
    SqliteStmt ins(m_db, "INSERT INTO string(str) VALUES (?)");
    ins.bind(1, key).run();
    const int64_t id = m_db.queryInt("SELECT last_insert_rowid()");
    m_keys.emplace(std::string(key), id);
    return id;
}

void MetricSink::setParam(int64_t run, const QString &key, const QString &value, ParamKind kind, bool copy)
{
    RunState &r = runState(run);
    r.hasParams = true;
    for (auto &p : r.params) {
        if (p.key == key) {
            if (copy && !p.copy)
                return;
            p.value = value;
            p.kind = kind;
            p.copy = copy;
            return;
        }
    }
    r.params.push_back(Param { key, value, kind, copy });
}

void MetricSink::setRunStatus(int64_t run, const QString &status)
{
    runState(run).status = status;
}

void MetricSink::setRunGroup(int64_t run, const QString &groupName)
{
    runState(run).groupName = groupName;
}

void MetricSink::noteRunTime(int64_t run, int64_t wallNs)
{
    RunState &r = runState(run);
    r.startNs = std::min(r.startNs, wallNs);
    r.endNs = std::max(r.endNs, wallNs);
}

void MetricSink::mergeRunMetadata(int64_t run, const QByteArray &jsonObject)
{
    runState(run).metadataPatches.push_back(jsonObject);
}

int64_t MetricSink::series(int64_t run, std::string_view key, SeriesKind kind)
{
    const SeriesKey k { run, internKey(key), kind };
    auto it = m_seriesByKey.find(k);
    if (it != m_seriesByKey.end())
        return it->second;
    const int64_t h = int64_t(m_series.size());
    m_series.emplace_back(run, k.key, kind);
    m_seriesByKey.emplace(k, h);
    return h;
}

bool MetricSink::hasSeries(int64_t run, std::string_view key, SeriesKind kind) const
{
    const auto k = m_keys.find(key);
    return k != m_keys.end() && m_seriesByKey.count(SeriesKey { run, k->second, kind }) > 0;
}

// Segment and dup of the next point of `s`; true when it starts a new segment.
bool MetricSink::place(SeriesState &s, int64_t step, int64_t wallNs, int64_t &dup)
{
    bool restart = false;
    if (!s.hasPoints) {
        s.hasPoints = true;
        dup = 0;
    } else if (step < s.lastStep) {
        if (s.dirty)
            s.finished.emplace_back(s.segment, s.stats);
        ++s.segment;
        s.stats = SegmentStats {};
        dup = 0;
        restart = true;
    } else if (step == s.lastStep) {
        dup = ++s.lastDup;
    } else {
        dup = 0;
    }
    if (dup == 0)
        s.lastDup = 0;
    s.lastStep = step;
    s.dirty = true;
    SegmentStats &g = s.stats;
    if (g.points++ == 0) {
        g.firstStep = step;
        g.firstWallNs = wallNs;
    }
    g.lastStep = step;
    g.lastWallNs = wallNs;
    return restart;
}

bool MetricSink::addScalar(int64_t series, int64_t step, int64_t wallNs, double value)
{
    SeriesState &s = m_series[size_t(series)];
    int64_t dup = 0;
    const bool restart = place(s, step, wallNs, dup);
    SegmentStats &g = s.stats;
    g.lastValue = value;
    g.lastIsNull = std::isnan(value);
    m_nanValues += g.lastIsNull;
    if (std::isfinite(value)) {
        if (g.finiteValues++ == 0) {
            g.minValue = value;
            g.maxValue = value;
        } else {
            g.minValue = std::min(g.minValue, value);
            g.maxValue = std::max(g.maxValue, value);
        }
    }
    m_current->metrics.push_back(
        MetricRow { s.run, s.key, s.segment, step, dup, wallNs, value, uint32_t(series) });
    ++m_scalarPoints;
    if (m_current->rows() >= kBatchRows)
        pushBatch();
    return restart;
}

bool MetricSink::addHistogram(int64_t series, int64_t step, int64_t wallNs, const double *buckets,
    size_t bucketCount, const HistogramStats *stats)
{
    SeriesState &s = m_series[size_t(series)];
    int64_t dup = 0;
    const bool restart = place(s, step, wallNs, dup);
    Batch &b = *m_current;
    HistogramRow row { s.run, s.key, s.segment, step, dup, wallNs, b.buckets.size(), bucketCount,
        stats != nullptr, stats ? *stats : HistogramStats {} };
    b.buckets.insert(b.buckets.end(), buckets, buckets + bucketCount * 3);
    b.histograms.push_back(row);
    ++m_histogramPoints;
    // Bucket arrays count towards the batch too, so that wide histograms do not pile up.
    if (b.rows() + b.buckets.size() / 16 >= kBatchRows)
        pushBatch();
    return restart;
}

// In key order, the writer appends to each series' range of the clustered table instead of hopping
// between the tags of a run, which arrive interleaved step by step. A series' rows arrive in key
// order already (segment, then step, then dup only grow), so grouping them by series, the series in
// (run, key) order, is a counting sort: linear, where a comparison sort was 5% of an import.
void MetricSink::orderBatch(Batch &b)
{
    auto &rows = b.metrics;
    if (rows.size() < 2)
        return;
    if (m_rowsOfSeries.size() < m_series.size())
        m_rowsOfSeries.resize(m_series.size(), 0);
    m_touched.clear();
    for (const auto &r : rows)
        if (m_rowsOfSeries[r.series]++ == 0)
            m_touched.push_back(r.series);
    std::sort(m_touched.begin(), m_touched.end(), [this](uint32_t a, uint32_t c) {
        const SeriesState &x = m_series[a], &y = m_series[c];
        return std::tie(x.run, x.key) < std::tie(y.run, y.key);
    });
    uint32_t at = 0;
    for (const uint32_t s : m_touched) {
        const uint32_t n = m_rowsOfSeries[s];
        m_rowsOfSeries[s] = at; // from here on: the next free slot of the series
        at += n;
    }
    b.scratch.resize(rows.size());
    for (const auto &r : rows)
        b.scratch[m_rowsOfSeries[r.series]++] = r;
    rows.swap(b.scratch);
    for (const uint32_t s : m_touched)
        m_rowsOfSeries[s] = 0;
    auto byKey = [](const HistogramRow &x, const HistogramRow &y) {
        return std::tie(x.run, x.key, x.segment, x.step, x.dup)
            < std::tie(y.run, y.key, y.segment, y.step, y.dup);
    };
    std::sort(b.histograms.begin(), b.histograms.end(), byKey);
}

void MetricSink::pushBatch()
{
    orderBatch(*m_current);
    std::unique_ptr<Batch> next = m_writer.push(std::move(m_current));
    m_current = next ? std::move(next) : takeBatch();
}

// Hands the connection back to this thread: every queued batch written, the writer idle.
void MetricSink::quiesce()
{
    if (!m_writer.started())
        return; // nothing was handed over: the connection is this thread's
    if (m_current->rows())
        pushBatch();
    m_writer.drain();
}

// Prepared once per writer thread, which owns the connection while it writes a batch. OR FAIL on
// the multi-row INSERT: no statement journal (see TraceSink::Statements).
struct MetricSink::Statements {
    explicit Statements(SqliteDb &db)
        : metricMulti(db,
            multiRowInsert("INSERT OR FAIL INTO metric(run_id, key_id, segment, step, dup, "
                           "wall_time_ns, value) VALUES ",
                kMetricColumns))
        , metric(db,
              "INSERT INTO metric(run_id, key_id, segment, step, dup, wall_time_ns, value) "
              "VALUES (?,?,?,?,?,?,?)")
        , histogram(db,
              "INSERT INTO histogram(run_id, key_id, segment, step, dup, wall_time_ns, bucket_count, "
              "buckets, min, max, num, sum, sum_squares) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
    {
    }
    SqliteStmt metricMulti, metric, histogram;
};

void MetricSink::writeBatch(Batch &b)
{
    if (!m_statements)
        m_statements = std::make_unique<Statements>(m_db);
    Statements &st = *m_statements;
    auto bindRow = [](SqliteStmt &stmt, int base, const MetricRow &r) {
        stmt.bind(base + 1, r.run).bind(base + 2, r.key).bind(base + 3, r.segment).bind(base + 4, r.step);
        stmt.bind(base + 5, r.dup).bind(base + 6, r.wallNs).bind(base + 7, r.value); // NaN binds as NULL
    };
    size_t i = 0;
    const size_t n = b.metrics.size();
    for (; i + kRowsPerInsert <= n; i += kRowsPerInsert) {
        for (int r = 0; r < kRowsPerInsert; ++r)
            bindRow(st.metricMulti, r * kMetricColumns, b.metrics[i + size_t(r)]);
        st.metricMulti.step();
        st.metricMulti.resetKeepBindings();
    }
    for (; i < n; ++i) {
        bindRow(st.metric, 0, b.metrics[i]);
        st.metric.step();
        st.metric.resetKeepBindings();
    }
    for (const auto &h : b.histograms) {
        SqliteStmt &q = st.histogram;
        q.bind(1, h.run).bind(2, h.key).bind(3, h.segment).bind(4, h.step).bind(5, h.dup).bind(6, h.wallNs);
        q.bind(7, int64_t(h.bucketCount));
        // Little-endian float64 triples: the hosts Plumb builds for (x86-64, aarch64) store doubles so.
        // An empty histogram is an empty blob, not NULL (which a null pointer would bind).
        static const double kNone = 0;
        q.bindBlob(
            8, h.bucketCount ? b.buckets.data() + h.firstBucket : &kNone, h.bucketCount * 3 * sizeof(double));
        bindOptional(q, 9, h.hasStats, h.stats.min);
        bindOptional(q, 10, h.hasStats, h.stats.max);
        bindOptional(q, 11, h.hasStats, h.stats.num);
        bindOptional(q, 12, h.hasStats, h.stats.sum);
        bindOptional(q, 13, h.hasStats, h.stats.sumSquares);
        q.run();
    }
}

void MetricSink::finish()
{
    if (m_finished)
        return;
    if (m_current->rows())
        pushBatch();
    m_writer.finish();
    m_statements.reset();
    m_finished = true;
    releaseBatches();
    if (m_nanValues)
        m_diag.report(Severity::Info, QStringLiteral("nan-values"), {},
            QStringLiteral("Scalar values that are NaN (a diverged loss, say) are stored as empty "
                           "values; their steps are kept."),
            m_nanValues);
    writeSeriesRows();
    writeRunRows();
}

void MetricSink::writeSeriesRows()
{
    SqliteStmt st(m_db,
        "INSERT OR REPLACE INTO metric_series(run_id, key_id, kind, segment, points, first_step, "
        "last_step, first_wall_ns, last_wall_ns, min_value, max_value, last_value) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    auto write = [&st](const SeriesState &s, int64_t segment, const SegmentStats &g) {
        st.bind(1, s.run).bind(2, s.key).bind(3, kindName(s.kind)).bind(4, segment).bind(5, g.points);
        st.bind(6, g.firstStep).bind(7, g.lastStep).bind(8, g.firstWallNs).bind(9, g.lastWallNs);
        const bool scalar = s.kind == SeriesKind::Scalar;
        bindOptional(st, 10, scalar && g.finiteValues > 0, g.minValue);
        bindOptional(st, 11, scalar && g.finiteValues > 0, g.maxValue);
        bindOptional(st, 12, scalar && !g.lastIsNull, g.lastValue);
        st.run();
    };
    for (const auto &s : m_series) {
        for (const auto &[segment, stats] : s.finished)
            write(s, segment, stats);
        if (s.dirty)
            write(s, s.segment, s.stats);
    }
}

void MetricSink::writeRunRows()
{
    SqliteStmt update(m_db,
        "UPDATE run SET status = coalesce(?2, status), group_name = coalesce(?3, group_name), "
        "start_ns = min(coalesce(start_ns, ?4), ?4), end_ns = max(coalesce(end_ns, ?5), ?5) "
        "WHERE id = ?1");
    SqliteStmt meta(m_db, "UPDATE run SET metadata = json_patch(coalesce(metadata, '{}'), ?2) WHERE id = ?1");
    SqliteStmt param(m_db, "INSERT OR REPLACE INTO param(run_id, key, value, kind) VALUES (?,?,?,?)");
    SqliteStmt paramCopy(m_db, "INSERT OR IGNORE INTO param(run_id, key, value, kind) VALUES (?,?,?,?)");
    for (const auto &r : m_runs) {
        update.bind(1, r.id);
        if (r.status.isEmpty())
            update.bindNull(2);
        else
            update.bind(2, r.status);
        if (r.groupName.isEmpty())
            update.bindNull(3);
        else
            update.bind(3, r.groupName);
        if (r.startNs <= r.endNs) {
            update.bind(4, r.startNs).bind(5, r.endNs);
        } else {
            update.bindNull(4).bindNull(5);
        }
        update.run();
        for (const auto &patch : r.metadataPatches)
            meta.bind(1, r.id).bind(2, std::string_view(patch.constData(), size_t(patch.size()))).run();
        for (const auto &p : r.params)
            (p.copy ? paramCopy : param)
                .bind(1, r.id)
                .bind(2, p.key)
                .bind(3, p.value)
                .bind(4, paramKindName(p.kind))
                .run();
    }

    // Trials and their sub-runs (Keras writes a trial's hparams in its folder and its metrics in
    // train/ and validation/ beneath it): whichever is imported first, the link is made here.
    SqliteStmt path(
        m_db, "SELECT path, EXISTS (SELECT 1 FROM param WHERE run_id = ?1) FROM run WHERE id = ?1");
    SqliteStmt beneath(m_db,
        "SELECT id, path FROM run WHERE path IS NOT NULL AND parent_run_id IS NULL "
        "AND id <> ?1 AND substr(path, 1, length(?2) + 1) = ?2 || '/'");
    SqliteStmt findParent(m_db,
        "SELECT r.id FROM run r WHERE r.path IS NOT NULL AND r.id <> ?1 "
        "AND substr(?2, 1, length(r.path) + 1) = r.path || '/' "
        "AND EXISTS (SELECT 1 FROM param p WHERE p.run_id = r.id) "
        "ORDER BY length(r.path) DESC LIMIT 1");
    SqliteStmt setParent(m_db, "UPDATE run SET parent_run_id = ?2 WHERE id = ?1 AND parent_run_id IS NULL");
    // Only a folder is a trial or its sub-run: a run read from one file (a serving benchmark, a
    // lifecycle log) that lies in a trial's folder is a run of its own.
    const auto isFolder = [](const QString &path) { return QFileInfo(path).isDir(); };
    for (const auto &r : m_runs) {
        path.bind(1, r.id);
        if (!path.step() || path.columnIsNull(0)) {
            path.reset();
            continue;
        }
        const QString dir = path.columnText(0);
        const bool isTrial = path.columnInt(1) != 0;
        path.reset();
        if (!isFolder(dir))
            continue;
        if (isTrial) {
            std::vector<int64_t> children;
            for (beneath.bind(1, r.id).bind(2, dir); beneath.step();)
                if (isFolder(beneath.columnText(1)))
                    children.push_back(beneath.columnInt(0));
            beneath.reset();
            for (int64_t child : children)
                setParent.bind(1, child).bind(2, r.id).run();
        }
        findParent.bind(1, r.id).bind(2, dir);
        if (findParent.step()) {
            const int64_t parent = findParent.columnInt(0);
            findParent.reset();
            setParent.bind(1, r.id).bind(2, parent).run();
        } else {
            findParent.reset();
        }
    }
}

} // namespace plumb
