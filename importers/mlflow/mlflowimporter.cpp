// SPDX-License-Identifier: GPL-3.0-or-later
#include "mlflow/mlflowimporter.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importcontext.h"
#include "ingest/importerror.h"
#include "ingest/inputfile.h"
#include "ingest/metricsink.h"
#include "store/foreignsqlitedb.h"
#include "text/textnumbers.h"
#include "text/yamldocument.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

namespace plumb {

namespace {

constexpr int64_t kNsPerMs = 1000000;
constexpr int64_t kCheckpointRows = 1 << 14;
constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);
const QString kMetaYaml = QStringLiteral("meta.yaml");

enum class Store { None, RunMeta, ExperimentMeta, LoggedModelMeta, Sql };

bool hasKey(std::string_view text, std::string_view key)
{
    // A top-level key: at the start of the text or of a line.
    for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1))
        if (at == 0 || text[at - 1] == '\n')
            return true;
    return false;
}

Store storeOf(QByteArrayView head, const QString &fileName)
{
    const std::string_view h(head.data(), size_t(head.size()));
    if (h.substr(0, kSqliteMagic.size()) == kSqliteMagic)
        return Store::Sql;
    if (fileName != kMetaYaml)
        return Store::None;
    const bool run = hasKey(h, "run_uuid:") || hasKey(h, "run_id:");
    if (run && hasKey(h, "experiment_id:") && hasKey(h, "lifecycle_stage:"))
        return Store::RunMeta;
    // MLflow 3: <experiment>/models/<model id>/meta.yaml, which also names an experiment and a location.
    if (hasKey(h, "model_id:") && hasKey(h, "experiment_id:"))
        return Store::LoggedModelMeta;
    if (!run && hasKey(h, "experiment_id:") && hasKey(h, "artifact_location:") && hasKey(h, "name:"))
        return Store::ExperimentMeta;
    return Store::None;
}

// RunStatus in the file store is the protobuf enum number, in the SQL store its name.
QString mlflowStatus(const QString &s)
{
    static const char *const names[] = { nullptr, "RUNNING", "SCHEDULED", "FINISHED", "FAILED", "KILLED" };
    bool isNumber = false;
    const int n = s.toInt(&isNumber);
    if (isNumber)
        return n >= 1 && n <= 5 ? QLatin1String(names[n]) : QString();
    return s.toUpper();
}

// The workspace's trial statuses (those of TensorBoard's hparams sessions).
QString workspaceStatus(const QString &mlflow)
{
    if (mlflow == QLatin1String("FINISHED"))
        return QStringLiteral("success");
    if (mlflow == QLatin1String("FAILED") || mlflow == QLatin1String("KILLED"))
        return QStringLiteral("failure");
    if (mlflow == QLatin1String("RUNNING"))
        return QStringLiteral("running");
    return QStringLiteral("unknown");
}

bool parseDouble(std::string_view s, double &v)
{
    if (s.empty())
        return false;
    if (s.front() == '+')
        s.remove_prefix(1);
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parseInt(std::string_view s, int64_t &v)
{
    if (s.empty())
        return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size())
        return true;
    double d; // steps and timestamps written as floats ("3.0")
    if (!parseDouble(s, d) || !std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 9e18)
        return false;
    v = int64_t(d);
    return true;
}

// MLflow params are strings; one that is a plain finite number is stored as a number, verbatim.
ParamKind paramKind(const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    double v;
    return parseDouble(std::string_view(utf8.constData(), size_t(utf8.size())), v) && std::isfinite(v)
        ? ParamKind::Number
        : ParamKind::String;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The top-level `key: value` pairs of a meta.yaml (MLflow's file store writes them with PyYAML): each
// scalar as its text, null as an empty string; a nested list or map is left out (no key read is one).
// YAML that cannot be read is no pairs, and `error` says why.
QHash<QString, QString> metaOf(const QByteArray &text, YamlDocument::Error &error)
{
    QHash<QString, QString> out;
    const std::optional<YamlDocument::Node> doc = YamlDocument::parse(text, error);
    if (!doc) {
        return out;
    }
    for (const auto &m : doc->members) {
        if (m.value.isScalar() && !m.value.isNull()) {
            out.insert(m.key, m.value.text);
        } else if (m.value.isNull()) {
            out.insert(m.key, QString());
        }
    }
    return out;
}

// Files under `dir`, each with its path relative to `dir` ("a/b" for a nested key), sorted.
std::vector<std::pair<QString, QString>> filesUnder(const QString &dir)
{
    std::vector<std::pair<QString, QString>> out;
    const QDir base(dir);
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        out.emplace_back(base.relativeFilePath(f), f);
    }
    std::sort(out.begin(), out.end());
    return out;
}

QByteArray metadataJson(const QJsonObject &mlflow)
{
    return QJsonDocument(QJsonObject { { QStringLiteral("mlflow"), mlflow } }).toJson(QJsonDocument::Compact);
}

// MLflow's metric logs are only appended to: a run imported again (its meta.yaml or its database
// changed) skips the points an earlier import stored, so that they are not stored twice.
void noteEarlierPoints(DiagnosticLog &diag, int64_t count)
{
    if (count > 0)
        diag.report(Severity::Info, QStringLiteral("points-imported-before"), {},
            QStringLiteral(
                "Runs imported before: their first %1 metric points were already stored and were not "
                "stored again.")
                .arg(count),
            count);
}

// One run of the file store, from its meta.yaml (the input) and the files beside it.
class FileRunReader {
public:
    explicit FileRunReader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_sink(ctx.metricSink())
    {
    }

    void read()
    {
        QByteArray text;
        char buf[65536];
        for (int64_t n; (n = m_ctx.input().read(buf, sizeof buf)) > 0;)
            text.append(buf, qsizetype(n));
        YamlDocument::Error error;
        const QHash<QString, QString> meta = metaOf(text, error);
        if (!error.message.isEmpty()) {
            throw ImportError(error.text(m_ctx.input().path()) + QStringLiteral(" (nothing was imported)"));
        }
        const QString runId = meta.value(QStringLiteral("run_uuid"), meta.value(QStringLiteral("run_id")));
        if (runId.isEmpty())
            throw ImportError(QStringLiteral("%1 names no run_uuid: not the meta.yaml of an MLflow run")
                                  .arg(m_ctx.input().path()));

        const QFileInfo info(m_ctx.input().path());
        const QString runDir = info.absolutePath();
        QDir expDir(runDir);
        expDir.cdUp();
        YamlDocument::Error expError;
        const QHash<QString, QString> exp = metaOf(readFile(expDir.filePath(kMetaYaml)), expError);
        if (!expError.message.isEmpty()) {
            m_diag.report(Severity::Warning, QStringLiteral("bad-experiment-meta"), {},
                QStringLiteral("The experiment's meta.yaml cannot be read (%1): its name is not known.")
                    .arg(expError.text(expDir.filePath(kMetaYaml))));
        }
        QDir storeDir(expDir);
        storeDir.cdUp();
        const bool inTrash = storeDir.dirName() == QLatin1String(".trash");
        const bool deleted = inTrash
            || meta.value(QStringLiteral("lifecycle_stage")) == QLatin1String("deleted")
            || exp.value(QStringLiteral("lifecycle_stage")) == QLatin1String("deleted");
        const QString experimentId = meta.value(QStringLiteral("experiment_id"));
        const QString group = exp.value(QStringLiteral("name"), experimentId);

        const auto tags = filesUnder(runDir + QStringLiteral("/tags"));
        QString name = meta.value(QStringLiteral("run_name"));
        if (name.isEmpty())
            for (const auto &[key, path] : tags)
                if (key == QLatin1String("mlflow.runName"))
                    name = QString::fromUtf8(readFile(path));
        if (name.isEmpty())
            name = meta.value(QStringLiteral("name"));
        if (name.isEmpty())
            name = runId;

        m_run = m_sink.openRun(QStringLiteral("mlflow:") + runDir, name, runDir);
        m_sink.setRunGroup(m_run, group);
        const QString status = mlflowStatus(meta.value(QStringLiteral("status")));
        m_sink.setRunStatus(m_run, workspaceStatus(status));
        for (const char *k : { "start_time", "end_time" }) {
            bool ok = false;
            const qint64 ms = meta.value(QLatin1String(k)).toLongLong(&ok);
            if (const auto ns = scaledNs(ms, kNsPerMs); ok && ms > 0 && ns)
                m_sink.noteRunTime(m_run, *ns);
        }
        QJsonObject md { { QStringLiteral("run_id"), runId },
            { QStringLiteral("experiment_id"), experimentId }, { QStringLiteral("experiment_name"), group },
            { QStringLiteral("lifecycle_stage"),
                deleted ? QStringLiteral("deleted") : QStringLiteral("active") } };
        if (!status.isEmpty())
            md.insert(QStringLiteral("status"), status);
        for (const char *k : { "user_id", "artifact_uri" })
            if (!meta.value(QLatin1String(k)).isEmpty())
                md.insert(QLatin1String(k), meta.value(QLatin1String(k)));
        m_sink.mergeRunMetadata(m_run, metadataJson(md));

        // Tags first: a param of the same name replaces its tag.
        for (const auto &[key, path] : tags) {
            m_sink.setParam(m_run, key, QString::fromUtf8(readFile(path)), ParamKind::Tag);
            ++m_records;
        }
        for (const auto &[key, path] : filesUnder(runDir + QStringLiteral("/params"))) {
            const QString value = QString::fromUtf8(readFile(path));
            m_sink.setParam(m_run, key, value, paramKind(value));
            ++m_records;
        }
        for (const auto &[key, path] : filesUnder(runDir + QStringLiteral("/metrics"))) {
            m_ctx.checkpoint();
            metricFile(key, path);
        }
        noteEarlierPoints(m_diag, m_pointsBefore);
        m_ctx.recordsRead = m_records;
    }

private:
    void metricFile(const QString &key, const QString &path)
    {
        const QByteArray data = readFile(path);
        const QByteArray keyUtf8 = key.toUtf8();
        const int64_t series = m_sink.series(
            m_run, std::string_view(keyUtf8.constData(), size_t(keyUtf8.size())), SeriesKind::Scalar);
        const std::string_view all(data.constData(), size_t(data.size()));
        int64_t lineNo = 0;
        int64_t skip = m_sink.pointsBefore(series); // an earlier import of this run stored them
        bool restartNoted = false;
        for (size_t pos = 0; pos < all.size();) {
            const size_t end = all.find('\n', pos);
            if (end == std::string_view::npos) {
                // MLflow ends every line: this one is still being written. The next import reads it.
                m_diag.report(Severity::Info, QStringLiteral("unterminated-metric-line"),
                    QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo + 1),
                    QStringLiteral("A metric file's last line has no line end yet (still being written): it "
                                   "was left for a later import."));
                break;
            }
            std::string_view line = all.substr(pos, end - pos);
            pos = end + 1;
            ++lineNo;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            if (line.find_first_not_of(" \t") == std::string_view::npos)
                continue;
            // "timestamp value [step]", and since MLflow 3 "timestamp value step dataset-name digest"
            // for a value measured on an evaluation dataset (the name may hold spaces).
            std::string_view fields[4];
            int n = 0;
            for (size_t p = 0; p < line.size();) {
                const size_t s = line.find_first_not_of(" \t", p);
                if (s == std::string_view::npos)
                    break;
                const size_t e = std::min(line.find_first_of(" \t", s), line.size());
                if (n < 4)
                    fields[n] = line.substr(s, e - s);
                ++n;
                p = e;
            }
            int64_t ts = 0, step = 0;
            double value = 0;
            if (n < 2 || n == 4 || !parseInt(fields[0], ts) || !parseDouble(fields[1], value)
                || (n >= 3 && !parseInt(fields[2], step))) {
                m_diag.skipped(QStringLiteral("bad-metric-line"),
                    QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo),
                    QStringLiteral(
                        "A metric line is not \"timestamp value [step [dataset digest]]\"; the line "
                        "was skipped."));
                continue;
            }
            if (skip > 0) {
                --skip;
                ++m_pointsBefore;
                continue;
            }
            if (n >= 5 && !m_diag.bump(QStringLiteral("dataset-metric-line")))
                m_diag.report(Severity::Info, QStringLiteral("dataset-metric-line"),
                    QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo),
                    QStringLiteral(
                        "Metric lines that name the evaluation dataset (MLflow 3) are read under the "
                        "metric's key, as MLflow's SQL store keeps them; the dataset is not kept."));
            if (n == 2 && !m_diag.bump(QStringLiteral("legacy-metric-line")))
                m_diag.report(Severity::Info, QStringLiteral("legacy-metric-line"),
                    QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo),
                    QStringLiteral(
                        "Metric lines without a step (written by MLflow before 1.0) are read as step 0."));
            ++m_records;
            const auto wallNs = scaledNs(ts, kNsPerMs);
            if (!wallNs) {
                m_diag.skipped(QStringLiteral("bad-metric-line"),
                    QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo),
                    QStringLiteral("A metric line's timestamp is out of range; the line was skipped."));
                continue;
            }
            if (m_sink.addScalar(series, step, *wallNs, value) && !restartNoted) {
                restartNoted = true;
                if (!m_diag.bump(QStringLiteral("step-restart")))
                    m_diag.report(Severity::Info, QStringLiteral("step-restart"),
                        QStringLiteral("metrics/%1 line %2").arg(key).arg(lineNo),
                        QStringLiteral("A metric's step went back (a restart): both segments are kept."));
            }
        }
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    MetricSink &m_sink;
    int64_t m_run = 0;
    int64_t m_records = 0;
    int64_t m_pointsBefore = 0; // skipped: stored by an earlier import
};

// The SQL store: a SQLite database MLflow's SqlAlchemyStore created (any revision).
class SqlStoreReader {
public:
    explicit SqlStoreReader(ImportContext &ctx)
        : m_ctx(ctx)
        , m_diag(ctx.diagnostics())
        , m_db(ctx.input().path())
    {
        noteWriteAheadLog(m_db, m_diag);
    }

    void read()
    {
        checkSchema();
        MetricSink &sink = m_ctx.metricSink();
        const QString dbPath = QFileInfo(m_ctx.input().path()).absoluteFilePath();

        struct Experiment {
            QString name;
            bool deleted = false;
        };
        std::map<std::string, Experiment> experiments;
        {
            const bool stage = has("experiments", "lifecycle_stage");
            ForeignSqliteDb::Stmt st(m_db,
                std::string("SELECT experiment_id, name, ") + (stage ? "lifecycle_stage" : "NULL")
                    + " FROM experiments",
                "experiments");
            while (st.step())
                experiments[std::string(st.text(0))] = { text(st, 1), st.text(2) == "deleted" };
        }
        std::unordered_map<std::string, QString> runNames; // from the mlflow.runName tag
        if (has("tags", "key")) {
            ForeignSqliteDb::Stmt st(
                m_db, "SELECT run_uuid, value FROM tags WHERE key = 'mlflow.runName'", "tags");
            while (st.step())
                runNames[std::string(st.text(0))] = text(st, 1);
        }

        const auto opt = [this](const char *column) { return has("runs", column) ? column : "NULL"; };
        ForeignSqliteDb::Stmt runs(m_db,
            std::string("SELECT run_uuid, experiment_id, ") + opt("name") + ", " + opt("status") + ", "
                + opt("start_time") + ", " + opt("end_time") + ", " + opt("lifecycle_stage") + ", "
                + opt("user_id") + ", " + opt("artifact_uri") + " FROM runs ORDER BY start_time, run_uuid",
            "runs");
        while (runs.step()) {
            const std::string uuid(runs.text(0));
            const QString runId = text(runs, 0);
            const QString experimentId = text(runs, 1);
            const auto exp = experiments.find(std::string(runs.text(1)));
            const QString group = exp != experiments.end() ? exp->second.name : experimentId;
            QString name = text(runs, 2);
            if (name.isEmpty())
                name = runNames[uuid];
            if (name.isEmpty())
                name = runId;
            const int64_t run
                = sink.openRun(QStringLiteral("mlflow:") + dbPath + QLatin1Char('#') + runId, name, dbPath);
            m_runs[uuid] = run;
            sink.setRunGroup(run, group);
            const QString status = mlflowStatus(text(runs, 3));
            sink.setRunStatus(run, workspaceStatus(status));
            for (int c : { 4, 5 })
                if (const auto ns = scaledNs(runs.integer(c), kNsPerMs);
                    !runs.isNull(c) && runs.integer(c) > 0 && ns)
                    sink.noteRunTime(run, *ns);
            const bool deleted
                = runs.text(6) == "deleted" || (exp != experiments.end() && exp->second.deleted);
            QJsonObject md { { QStringLiteral("run_id"), runId },
                { QStringLiteral("experiment_id"), experimentId },
                { QStringLiteral("experiment_name"), group },
                { QStringLiteral("lifecycle_stage"),
                    deleted ? QStringLiteral("deleted") : QStringLiteral("active") } };
            if (!status.isEmpty())
                md.insert(QStringLiteral("status"), status);
            if (!runs.isNull(7))
                md.insert(QStringLiteral("user_id"), text(runs, 7));
            if (!runs.isNull(8))
                md.insert(QStringLiteral("artifact_uri"), text(runs, 8));
            sink.mergeRunMetadata(run, metadataJson(md));
            ++m_records;
        }

        keyValues(sink, "tags", true);
        keyValues(sink, "params", false);
        datasetInputs(sink);
        metrics(sink);
        m_ctx.recordsRead = m_records;
    }

private:
    static QString text(const ForeignSqliteDb::Stmt &st, int col)
    {
        const std::string_view t = st.text(col);
        return QString::fromUtf8(t.data(), qsizetype(t.size()));
    }

    bool has(const std::string &table, const char *column) const
    {
        const auto it = m_columns.find(table);
        return it != m_columns.end()
            && std::find(it->second.begin(), it->second.end(), column) != it->second.end();
    }

    void checkSchema()
    {
        for (const std::string &t : m_db.tables())
            m_columns[t] = m_db.columns(t);
        static const std::pair<const char *, std::vector<const char *>> required[] = {
            { "experiments", { "experiment_id", "name" } },
            { "runs", { "run_uuid", "experiment_id" } },
            { "metrics", { "key", "value", "timestamp", "run_uuid" } },
        };
        QStringList missing;
        for (const auto &[table, columns] : required) {
            if (!m_columns.count(table)) {
                missing << QStringLiteral("table %1").arg(QLatin1String(table));
                continue;
            }
            for (const char *c : columns)
                if (!has(table, c))
                    missing << QStringLiteral("column %1.%2").arg(QLatin1String(table), QLatin1String(c));
        }
        if (!missing.isEmpty())
            throw ImportError(
                QStringLiteral("%1 is an SQLite database but not an MLflow tracking store (it lacks %2); "
                               "nothing was imported")
                    .arg(m_ctx.input().fileName(), missing.join(QStringLiteral(", "))));
    }

    int64_t runOf(std::string_view uuid, const char *table)
    {
        const auto it = m_runs.find(std::string(uuid));
        if (it != m_runs.end())
            return it->second;
        m_diag.skipped(QStringLiteral("unknown-run"), QString::fromLatin1(table),
            QStringLiteral("A row names a run_uuid that is not in the runs table; it was skipped."));
        return 0;
    }

    void keyValues(MetricSink &sink, const char *table, bool tags)
    {
        if (!has(table, "key") || !has(table, "value") || !has(table, "run_uuid"))
            return;
        ForeignSqliteDb::Stmt st(m_db,
            std::string("SELECT run_uuid, key, value FROM ") + table + " ORDER BY run_uuid, key", table);
        while (st.step()) {
            const int64_t run = runOf(st.text(0), table);
            if (!run)
                continue;
            const QString value = text(st, 2);
            sink.setParam(run, text(st, 1), value, tags ? ParamKind::Tag : paramKind(value));
            ++m_records;
        }
    }

    // Datasets logged as a run's inputs (MLflow 2.4+, mlflow.log_input): a json param
    // "mlflow.dataset.<name>" with the digest, source type, source and context, so that a
    // configuration diff shows a changed dataset.
    void datasetInputs(MetricSink &sink)
    {
        for (const auto &[table, columns] :
            std::initializer_list<std::pair<const char *, std::vector<const char *>>> {
                { "inputs",
                    { "input_uuid", "source_type", "source_id", "destination_type", "destination_id" } },
                { "datasets",
                    { "dataset_uuid", "name", "digest", "dataset_source_type", "dataset_source" } } })
            for (const char *c : columns)
                if (!has(table, c))
                    return;
        const bool tags
            = has("input_tags", "input_uuid") && has("input_tags", "name") && has("input_tags", "value");
        ForeignSqliteDb::Stmt st(m_db,
            std::string(
                "SELECT i.destination_id, d.name, d.digest, d.dataset_source_type, d.dataset_source, ")
                + (tags ? "(SELECT t.value FROM input_tags t WHERE t.input_uuid = i.input_uuid AND "
                          "t.name = 'mlflow.data.context')"
                        : "NULL")
                + " FROM inputs i JOIN datasets d ON d.dataset_uuid = i.source_id "
                  "WHERE i.source_type = 'DATASET' AND i.destination_type = 'RUN' ORDER BY i.destination_id, "
                  "d.name",
            "inputs");
        while (st.step()) {
            const int64_t run = runOf(st.text(0), "inputs");
            if (!run)
                continue;
            QJsonObject o { { QStringLiteral("digest"), text(st, 2) },
                { QStringLiteral("source_type"), text(st, 3) }, { QStringLiteral("source"), text(st, 4) } };
            if (!st.isNull(5))
                o.insert(QStringLiteral("context"), text(st, 5));
            sink.setParam(run, QStringLiteral("mlflow.dataset.") + text(st, 1),
                QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)), ParamKind::Json);
            ++m_records;
        }
    }

    void metrics(MetricSink &sink)
    {
        const bool step = has("metrics", "step"), isNan = has("metrics", "is_nan");
        ForeignSqliteDb::Stmt st(m_db,
            std::string("SELECT run_uuid, key, value, timestamp, ") + (step ? "step" : "0") + ", "
                + (isNan ? "is_nan" : "0") + " FROM metrics ORDER BY run_uuid, key, timestamp, "
                + (step ? "step" : "rowid"),
            "metrics");
        std::string lastUuid, lastKey;
        int64_t run = 0, series = -1;
        int64_t rows = 0, skip = 0, pointsBefore = 0;
        while (st.step()) {
            if (++rows % kCheckpointRows == 0)
                m_ctx.checkpoint();
            const std::string_view uuid = st.text(0);
            if (uuid != lastUuid) {
                lastUuid = uuid;
                lastKey.clear();
                series = -1;
                run = runOf(uuid, "metrics");
            }
            if (!run)
                continue;
            const std::string_view key = st.text(1);
            if (series < 0 || key != lastKey) {
                lastKey = key;
                series = sink.series(run, key, SeriesKind::Scalar);
                skip = sink.pointsBefore(series);
            }
            if (skip > 0) {
                --skip;
                ++pointsBefore;
                continue;
            }
            double value = st.real(2);
            if (st.integer(5) != 0)
                value = std::numeric_limits<double>::quiet_NaN();
            else if (value == DBL_MAX || value == -DBL_MAX)
                value = value > 0 ? std::numeric_limits<double>::infinity()
                                  : -std::numeric_limits<double>::infinity();
            const auto wallNs = scaledNs(st.integer(3), kNsPerMs);
            if (!wallNs) {
                m_diag.skipped(QStringLiteral("bad-metric-row"),
                    QStringLiteral("metrics: run %1, key %2, step %3")
                        .arg(QString::fromUtf8(uuid.data(), qsizetype(uuid.size())),
                            QString::fromUtf8(key.data(), qsizetype(key.size())))
                        .arg(st.integer(4)),
                    QStringLiteral("A metric's timestamp is out of range; the value was skipped."));
                continue;
            }
            if (sink.addScalar(series, st.integer(4), *wallNs, value)
                && !m_diag.bump(QStringLiteral("step-restart")))
                m_diag.report(Severity::Info, QStringLiteral("step-restart"),
                    QStringLiteral("metrics: run %1, key %2, step %3")
                        .arg(QString::fromUtf8(uuid.data(), qsizetype(uuid.size())),
                            QString::fromUtf8(key.data(), qsizetype(key.size())))
                        .arg(st.integer(4)),
                    QStringLiteral("A metric's step went back (a restart): both segments are kept."));
            ++m_records;
        }
        noteEarlierPoints(m_diag, pointsBefore);
    }

    ImportContext &m_ctx;
    DiagnosticLog &m_diag;
    ForeignSqliteDb m_db;
    std::map<std::string, std::vector<std::string>> m_columns;
    std::unordered_map<std::string, int64_t> m_runs; // run_uuid -> workspace run
    int64_t m_records = 0;
};

} // namespace

int MlflowImporter::sniff(QByteArrayView head, const QString &fileName) const
{
    switch (storeOf(head, fileName)) {
    case Store::RunMeta:
    case Store::ExperimentMeta:
    case Store::LoggedModelMeta:
        return 100;
    case Store::Sql: {
        // The schema usually sits in the first pages: MLflow's table and column names.
        const std::string_view h(head.data(), size_t(head.size()));
        int found = 0;
        for (const std::string_view marker : { "experiments", "run_uuid", "lifecycle_stage", "is_nan" })
            found += h.find(marker) != std::string_view::npos;
        if (found >= 3)
            return 95;
        // Named like an MLflow store: read() says clearly what it is not.
        return fileName.contains(QStringLiteral("mlflow"), Qt::CaseInsensitive) ? 30 : 0;
    }
    case Store::None:
        break;
    }
    return 0;
}

void MlflowImporter::read(ImportContext &ctx) const
{
    const QByteArray head = InputFile::peek(ctx.input().path(), 64 * 1024);
    switch (storeOf(head, ctx.input().fileName())) {
    case Store::RunMeta: {
        FileRunReader reader(ctx);
        reader.read();
        return;
    }
    case Store::ExperimentMeta:
        // An experiment with no runs: its name is only ever the group of its runs.
        ctx.diagnostics().report(Severity::Info, QStringLiteral("empty-experiment"), {},
            QStringLiteral("This MLflow experiment has no runs: nothing to import."));
        return;
    case Store::LoggedModelMeta: {
        // Its metric files repeat what its run logged (MLflow writes each value to both).
        YamlDocument::Error error; // unreadable: no name said
        const QHash<QString, QString> meta = metaOf(readFile(ctx.input().path()), error);
        const QString run = meta.value(QStringLiteral("source_run_id"));
        ctx.diagnostics().report(Severity::Info, QStringLiteral("logged-model"), {},
            QStringLiteral(
                "An MLflow logged model (%1): its metrics are the values its run%2 logged, which are "
                "imported with that run; nothing else to import.")
                .arg(meta.value(QStringLiteral("name"), meta.value(QStringLiteral("model_id"))),
                    run.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(run)));
        return;
    }
    case Store::Sql: {
        if (ctx.input().isGzip())
            throw ImportError(QStringLiteral("%1 is a compressed SQLite file: decompress it first (gunzip)")
                                  .arg(ctx.input().fileName()));
        SqlStoreReader reader(ctx);
        reader.read();
        return;
    }
    case Store::None:
        break;
    }
    throw ImportError(QStringLiteral("%1 is not an MLflow run's meta.yaml or an MLflow database")
                          .arg(ctx.input().fileName()));
}

QStringList MlflowImporter::companionFiles(const QString &path) const
{
    const QFileInfo info(path);
    if (info.fileName() != kMetaYaml)
        return writeAheadLogOf(path); // the SQL store
    const QString runDir = info.absolutePath();
    QStringList out;
    for (const char *sub : { "metrics", "params", "tags", "inputs", "outputs" })
        for (const auto &[key, file] : filesUnder(runDir + QLatin1Char('/') + QLatin1String(sub)))
            out << file;
    // The experiment's meta.yaml is read for its name (it sorts after the run folders).
    QDir expDir(runDir);
    if (expDir.cdUp() && QFileInfo::exists(expDir.filePath(kMetaYaml))
        && storeOf(InputFile::peek(path, 64 * 1024), kMetaYaml) == Store::RunMeta)
        out << expDir.filePath(kMetaYaml);
    return out;
}

QString MlflowImporter::companionOwner(const QString &path) const
{
    if (QString store = storeOfWriteAheadLog(path); !store.isEmpty())
        return store;
    // <run>/metrics/<key...>: nested keys are folders, so look up a few levels for the one under the run.
    QDir dir = QFileInfo(path).absoluteDir();
    for (int depth = 0; depth < 16; ++depth) {
        const QString name = dir.dirName();
        if (!dir.cdUp())
            break;
        for (const char *sub : { "metrics", "params", "tags", "inputs", "outputs" })
            if (name == QLatin1String(sub) && QFileInfo::exists(dir.filePath(kMetaYaml)))
                return dir.filePath(kMetaYaml);
    }
    return {};
}

} // namespace plumb
