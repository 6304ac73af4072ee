// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/workspacereader.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QHash>

#include <algorithm>

namespace plumb {

WorkspaceReader::WorkspaceReader(Workspace &workspace)
    : m_ws(workspace)
{
}

WorkspaceSummary WorkspaceReader::summary()
{
    auto &db = m_ws.db();
    WorkspaceSummary s;
    s.path = m_ws.path();
    const QFileInfo info(s.path);
    s.fileBytes = info.size() + QFileInfo(s.path + QStringLiteral("-wal")).size();
    s.schemaVersion = m_ws.schemaVersion();
    s.sources = db.queryInt("SELECT count(*) FROM source");
    s.runs = db.queryInt("SELECT count(*) FROM run");
    s.traces = db.queryInt("SELECT count(*) FROM trace");
    s.slices = db.queryInt("SELECT coalesce(sum(slice_count), 0) FROM trace");
    SqliteStmt last(db, "SELECT name FROM source ORDER BY imported_at_ns DESC, id DESC LIMIT 1");
    if (last.step())
        s.lastImport = last.columnText(0);
    return s;
}

QList<SourceInfo> WorkspaceReader::sources()
{
    QList<SourceInfo> out;
    SqliteStmt st(m_ws.db(),
        "SELECT s.id, s.path, s.name, s.format, s.status, s.size_bytes, s.event_count, "
        "s.skipped_count, s.imported_at_ns, coalesce(s.import_ms, 0), "
        "(SELECT count(*) FROM diagnostic d WHERE d.source_id = s.id) "
        "FROM source s ORDER BY s.id");
    while (st.step()) {
        SourceInfo s;
        s.id = st.columnInt(0);
        s.path = st.columnText(1);
        s.name = st.columnText(2);
        s.format = st.columnText(3);
        s.status = st.columnText(4);
        s.sizeBytes = st.columnInt(5);
        s.events = st.columnInt(6);
        s.skipped = st.columnInt(7);
        s.importedAtNs = st.columnInt(8);
        s.importMs = st.columnInt(9);
        s.diagnostics = st.columnInt(10);
        out << s;
    }
    return out;
}

QString summariseDevices(const QStringList &names)
{
    // Each distinct name once, in order of first appearance, with how often it came.
    QStringList distinct;
    QHash<QString, int> counts;
    for (const QString &n : names)
        if (!n.isEmpty() && counts[n]++ == 0)
            distinct << n;
    // A name that occurs once and ends in an index joins the entry of the first such name with the
    // same text before the number; every other name is an entry of its own.
    struct Entry {
        QString text; // the name (with its count), or the numbers' common prefix
        QList<qint64> numbers; // empty for a plain name
    };
    QList<Entry> entries;
    for (const QString &n : distinct) {
        qsizetype digits = n.size();
        while (digits > 0 && n[digits - 1].isDigit())
            --digits;
        const qsizetype width = n.size() - digits;
        // Only an index after a separator ("GPU:3", "GPU 3"), not a model number ("Tesla V100").
        if (counts[n] > 1 || digits == 0 || width == 0 || width > 9 || n[digits - 1].isLetterOrNumber()) {
            entries.push_back({ counts[n] > 1 ? QStringLiteral("%1 x%2").arg(n).arg(counts[n]) : n, {} });
            continue;
        }
        const QString prefix = n.left(digits);
        const qint64 number = n.mid(digits).toLongLong();
        auto it = std::find_if(entries.begin(), entries.end(),
            [&](const Entry &e) { return !e.numbers.isEmpty() && e.text == prefix; });
        if (it == entries.end())
            entries.push_back({ prefix, { number } });
        else
            it->numbers << number;
    }
    QStringList parts;
    for (Entry &e : entries) {
        if (e.numbers.isEmpty()) {
            parts << e.text;
            continue;
        }
        std::sort(e.numbers.begin(), e.numbers.end());
        QStringList ranges;
        for (qsizetype i = 0; i < e.numbers.size();) {
            qsizetype j = i;
            while (j + 1 < e.numbers.size() && e.numbers[j + 1] == e.numbers[j] + 1)
                ++j;
            ranges << (j == i ? QString::number(e.numbers[i])
                              : QStringLiteral("%1-%2").arg(e.numbers[i]).arg(e.numbers[j]));
            i = j + 1;
        }
        parts << e.text + ranges.join(u',');
    }
    return parts.join(QStringLiteral(", "));
}

int64_t RunInfo::spanNs() const
{
    int64_t start = INT64_MAX, end = INT64_MIN, longest = 0;
    bool withBase = false, withoutBase = false;
    for (const TraceInfo &t : traces) {
        if (t.endNs <= t.startNs)
            continue;
        int64_t s = t.startNs, e = t.endNs;
        // A base that would overflow (a corrupt file's) is no base.
        const bool based = t.baseTimeNs && !__builtin_add_overflow(s, *t.baseTimeNs, &s)
            && !__builtin_add_overflow(e, *t.baseTimeNs, &e);
        if (!based) {
            s = t.startNs;
            e = t.endNs;
        }
        (based ? withBase : withoutBase) = true;
        start = std::min(start, s);
        end = std::max(end, e);
        longest = std::max(longest, t.endNs - t.startNs);
    }
    if (withBase && withoutBase)
        return longest;
    return end > start ? end - start : 0;
}

QList<RunInfo> WorkspaceReader::runs()
{
    QList<RunInfo> out;
    SqliteStmt runs(m_ws.db(), "SELECT id, name FROM run ORDER BY id");
    SqliteStmt traces(m_ws.db(),
        "SELECT t.id, t.source_id, t.name, t.format, coalesce(t.rank, -1), coalesce(t.world_size, -1), "
        "coalesce(t.start_ns, 0), coalesce(t.end_ns, 0), t.event_count, t.slice_count, "
        "t.kernel_count, t.gpu_op_count, t.flow_count, t.counter_count, "
        "(SELECT count(*) FROM track k WHERE k.trace_id = t.id), "
        "(SELECT count(*) FROM track k WHERE k.trace_id = t.id AND k.kind = 'gpu_stream'), "
        "t.base_time_ns, coalesce(t.device_type, '') "
        "FROM trace t WHERE t.run_id = ? ORDER BY coalesce(t.rank, -1), t.id");
    SqliteStmt devices(
        m_ws.db(), "SELECT coalesce(name, '') FROM device WHERE trace_id = ? ORDER BY device_index");
    while (runs.step()) {
        RunInfo r;
        r.id = runs.columnInt(0);
        r.name = runs.columnText(1);
        traces.bind(1, r.id);
        while (traces.step()) {
            TraceInfo t;
            t.id = traces.columnInt(0);
            t.runId = r.id;
            t.sourceId = traces.columnInt(1);
            t.name = traces.columnText(2);
            t.format = traces.columnText(3);
            t.rank = traces.columnInt(4);
            t.worldSize = traces.columnInt(5);
            t.startNs = traces.columnInt(6);
            t.endNs = traces.columnInt(7);
            t.events = traces.columnInt(8);
            t.slices = traces.columnInt(9);
            t.kernels = traces.columnInt(10);
            t.gpuOps = traces.columnInt(11);
            t.flows = traces.columnInt(12);
            t.counters = traces.columnInt(13);
            t.tracks = traces.columnInt(14);
            t.gpuStreams = traces.columnInt(15);
            if (!traces.columnIsNull(16))
                t.baseTimeNs = traces.columnInt(16);
            t.deviceType = traces.columnText(17);
            devices.bind(1, t.id);
            QStringList names;
            while (devices.step())
                names << devices.columnText(0);
            devices.reset();
            t.devices = summariseDevices(names);
            r.traces << t;
        }
        traces.reset();
        out << r;
    }
    return out;
}

QList<DiagnosticRow> WorkspaceReader::diagnostics(int64_t sourceId)
{
    QList<DiagnosticRow> out;
    SqliteStmt st(m_ws.db(),
        "SELECT d.id, d.source_id, s.name, d.severity, d.code, coalesce(d.location, ''), "
        "d.message, d.count FROM diagnostic d JOIN source s ON s.id = d.source_id "
        "WHERE ?1 < 0 OR d.source_id = ?1 "
        "ORDER BY d.source_id, CASE d.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 "
        "ELSE 2 END, d.id");
    st.bind(1, sourceId);
    while (st.step()) {
        DiagnosticRow d;
        d.id = st.columnInt(0);
        d.sourceId = st.columnInt(1);
        d.sourceName = st.columnText(2);
        d.severity = st.columnText(3);
        d.code = st.columnText(4);
        d.location = st.columnText(5);
        d.message = st.columnText(6);
        d.count = st.columnInt(7);
        out << d;
    }
    return out;
}

} // namespace plumb
