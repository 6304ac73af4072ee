// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace/tracerecord.h"

#include "ingest/diagnosticlog.h"
#include "store/sqlitedb.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstring>

namespace plumb {

namespace {

void bindNullable(SqliteStmt &st, int index, int64_t v)
{
    if (v == kNoValue) {
        st.bindNull(index);
    } else {
        st.bind(index, v);
    }
}

} // namespace

QString traceRunName(const QString &traceName)
{
    QString name = traceName;
    for (const char *suffix : { ".gz", ".json", ".pt.trace", ".sqlite", ".xplane.pb" }) {
        if (name.endsWith(QLatin1String(suffix))) {
            name.chop(qsizetype(strlen(suffix)));
        }
    }
    return name;
}

int64_t rankFromFileName(const QString &fileName)
{
    static const QRegularExpression rankInName(
        QStringLiteral("(?:^|[^a-z])rank[-_]?([0-9]+)"), QRegularExpression::CaseInsensitiveOption);
    const auto match = rankInName.match(fileName);
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

int64_t findOrAddRun(SqliteDb &db, const QString &key, const QString &name, int64_t createdNs)
{
    SqliteStmt find(db, "SELECT id FROM main.run WHERE key = ?");
    find.bind(1, key);
    if (find.step()) {
        return find.columnInt(0);
    }
    SqliteStmt ins(db, "INSERT INTO main.run(key, name, created_at_ns) VALUES (?, ?, ?)");
    ins.bind(1, key).bind(2, name).bind(3, createdNs).run();
    return db.queryInt("SELECT last_insert_rowid()");
}

TraceRecord::TraceRecord(int64_t sourceId, const QString &sourcePath, const QString &format)
    : m_sourceId(sourceId)
    , m_sourcePath(sourcePath)
    , m_format(format)
    , m_traceName(QFileInfo(sourcePath).fileName())
{
}

void TraceRecord::addDevice(int64_t index, const QString &name, const QByteArray &propertiesJson)
{
    for (auto &d : m_devices) {
        if (d.index == index) {
            d = Device { index, name, propertiesJson };
            return;
        }
    }
    m_devices.push_back(Device { index, name, propertiesJson });
}

void TraceRecord::resolveRun(SqliteDb &db, DiagnosticLog &diagnostics, QString *key, QString *name)
{
    const QFileInfo info(m_sourcePath);
    if (m_rank == kNoValue) {
        // Per-rank files without a rank inside (older profilers) usually say it in their name.
        if (const int64_t rank = rankFromFileName(info.fileName()); rank >= 0) {
            m_rank = rank;
            diagnostics.report(Severity::Warning, QStringLiteral("rank-from-file-name"), {},
                QStringLiteral("The trace does not say which rank wrote it; rank %1 was taken from the "
                               "file name.")
                    .arg(m_rank));
        }
    }
    if (m_rank != kNoValue && m_worldSize != 1) {
        QString pattern = info.fileName();
        static const QRegularExpression digits(QStringLiteral("[0-9]+"));
        pattern.replace(digits, QStringLiteral("*"));
        *key = QStringLiteral("trace-job:%1:%2:%3")
                   .arg(info.absolutePath(),
                       m_worldSize == kNoValue ? QStringLiteral("?") : QString::number(m_worldSize), pattern);
        // The run is named after the folder the ranks are in (what the user calls the job), not after
        // the files' common prefix ("rank*"); a second job in the same folder adds its file pattern.
        // A file whose name has no number to vary (one file with a rank) keeps its own name.
        *name = pattern.contains(u'*') ? info.absoluteDir().dirName() : QString();
        if (name->isEmpty())
            *name = pattern;
        SqliteStmt taken(db, "SELECT count(*) FROM run WHERE name = ? AND key <> ?");
        taken.bind(1, *name).bind(2, *key);
        if (taken.step() && taken.columnInt(0) > 0)
            *name = QStringLiteral("%1/%2").arg(*name, traceRunName(pattern));
        // A second file with a rank the run already has is another job.
        SqliteStmt dup(
            db, "SELECT count(*) FROM trace t JOIN run r ON r.id = t.run_id WHERE r.key = ? AND t.rank = ?");
        dup.bind(1, *key).bind(2, m_rank);
        if (dup.step() && dup.columnInt(0) > 0) {
            *key = QStringLiteral("source:%1").arg(m_sourceId);
            *name = m_traceName;
        }
    } else if (!m_jobKey.isEmpty()) {
        *key = QStringLiteral("trace-job:") + m_jobKey; // kept by a parallel import's merge
        *name = m_jobName;
    } else {
        *key = QStringLiteral("source:%1").arg(m_sourceId);
        *name = m_traceName;
    }
    *name = traceRunName(*name);
}

void TraceRecord::write(SqliteDb &db, DiagnosticLog &diagnostics, int64_t traceId, const TraceStats &stats)
{
    QString runKey, runName;
    resolveRun(db, diagnostics, &runKey, &runName);
    const int64_t runId
        = findOrAddRun(db, runKey, runName, int64_t(QDateTime::currentMSecsSinceEpoch()) * 1000000);

    SqliteStmt trace(db,
        "INSERT INTO trace(id, run_id, source_id, format, name, rank, world_size, "
        "base_time_ns, start_ns, end_ns, event_count, slice_count, kernel_count, "
        "gpu_op_count, flow_count, counter_count, metadata, corr_flow_count, device_type) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    trace.bind(1, traceId).bind(2, runId).bind(3, m_sourceId).bind(4, m_format).bind(5, m_traceName);
    bindNullable(trace, 6, m_rank);
    bindNullable(trace, 7, m_worldSize);
    bindNullable(trace, 8, m_baseTimeNs);
    bindNullable(trace, 9, stats.startNs == INT64_MAX ? kNoValue : stats.startNs);
    bindNullable(trace, 10, stats.endNs == INT64_MIN ? kNoValue : stats.endNs);
    trace.bind(11, stats.events).bind(12, stats.slices).bind(13, stats.kernels).bind(14, stats.gpuOps);
    trace.bind(15, stats.flows).bind(16, stats.counters).bind(18, stats.corrFlows);
    if (m_metadataJson.isEmpty()) {
        trace.bindNull(17);
    } else {
        trace.bind(17, std::string_view(m_metadataJson.constData(), size_t(m_metadataJson.size())));
    }
    if (m_deviceType.isEmpty()) {
        trace.bindNull(19);
    } else {
        trace.bind(19, m_deviceType);
    }
    trace.run();

    SqliteStmt dev(db, "INSERT INTO device(trace_id, device_index, name, properties) VALUES (?,?,?,?)");
    for (const auto &d : m_devices) {
        dev.bind(1, traceId).bind(2, d.index).bind(3, d.name);
        dev.bind(4, std::string_view(d.json.constData(), size_t(d.json.size()))).run();
    }
}

} // namespace plumb
