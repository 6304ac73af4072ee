// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/tracemerge.h"

#include "ingest/tracesink.h"
#include "store/sqlitedb.h"

#include <map>
#include <string>

namespace plumb {

const std::vector<MergedColumn> &mergedColumns()
{
    // Table order is copy order: what a row refers to is copied before it.
    static const std::vector<MergedColumn> columns = {
        { "string", "id", "string" },
        { "args", "id", "args" },
        { "trace", "id", "trace" },
        { "trace", "run_id", "run" },
        { "trace", "source_id", "source" },
        { "device", "trace_id", "trace" },
        { "process", "id", "process" },
        { "process", "trace_id", "trace" },
        { "track", "id", "track" },
        { "track", "trace_id", "trace" },
        { "track", "process_id", "process" },
        { "slice", "track_id", "track" },
        { "slice", "id", "slice" },
        { "slice", "args_id", "args" },
        { "slice", "name_id", "string" },
        { "slice", "cat_id", "string" },
        { "slice", "ext_id", "value" }, // the profiler's External and record function ids, not rows
        { "slice", "rf_id", "value" },
        { "flow", "id", "flow" },
        { "flow", "trace_id", "trace" },
        { "flow", "src_track", "track" },
        { "flow", "dst_track", "track" },
        { "flow", "cat_id", "string" },
        { "counter", "track_id", "track" },
        { "counter", "id", "counter" },
        { "slice_lod", "track_id", "track" },
        { "slice_corr_tile", "track_id", "track" },
        { "counter_lod", "track_id", "track" },
    };
    return columns;
}

QStringList mergedTables()
{
    QStringList tables;
    for (const auto &c : mergedColumns())
        if (!tables.contains(QLatin1String(c.table)))
            tables << QLatin1String(c.table);
    return tables;
}

static QStringList columnsOf(SqliteDb &db, const QString &table)
{
    QStringList names;
    SqliteStmt st(db, "SELECT name FROM pragma_table_info(?, 'main') ORDER BY cid");
    st.bind(1, table);
    while (st.step())
        names << st.columnText(0);
    return names;
}

int64_t mergeScratchTrace(SqliteDb &db, int64_t sourceId)
{
    if (db.queryInt("SELECT count(*) FROM scratch.trace") == 0)
        return 0;
    if (db.queryInt("SELECT count(*) FROM scratch.trace") > 1)
        throw SqlError(
            QStringLiteral("a scratch workspace of a parallel import holds more than one trace"), 0);

    // The run: the multi-rank job's when this rank is new to it, else the trace's own.
    QString key, name;
    int64_t createdNs = 0, rank = kNoValue;
    QString traceName;
    {
        SqliteStmt st(db,
            "SELECT r.key, r.name, r.created_at_ns, t.rank, t.name FROM scratch.trace t "
            "JOIN scratch.run r ON r.id = t.run_id");
        if (!st.step())
            throw SqlError(QStringLiteral("the trace of a parallel import has no run"), 0);
        key = st.columnText(0);
        name = st.columnText(1);
        createdNs = st.columnInt(2);
        rank = st.columnIsNull(3) ? kNoValue : st.columnInt(3);
        traceName = st.columnText(4);
    }
    bool ownRun = !key.startsWith(QLatin1String("trace-job:"));
    if (!ownRun && rank != kNoValue) {
        SqliteStmt dup(db,
            "SELECT count(*) FROM main.trace t JOIN main.run r ON r.id = t.run_id "
            "WHERE r.key = ? AND t.rank = ?");
        dup.bind(1, key).bind(2, rank);
        ownRun = dup.step() && dup.columnInt(0) > 0;
    }
    if (ownRun) {
        key = QStringLiteral("source:%1").arg(sourceId);
        name = traceRunName(traceName);
    }
    const int64_t runId = findOrAddRun(db, key, name, createdNs);

    // Shifts: a fresh scratch workspace numbers every id space from 1.
    const auto nextId = [&](const char *schema, const char *key) {
        SqliteStmt st(db, std::string("SELECT value FROM ") + schema + ".workspace_info WHERE key = ?");
        st.bind(1, std::string_view(key));
        return st.step() ? st.columnInt(0) : 1;
    };
    std::map<std::string, int64_t> shift;
    for (const char *space : { "trace", "process", "track", "flow", "args" })
        shift[space] = db.queryInt(std::string("SELECT max(id) FROM main.") + space, 0);
    shift["slice"] = nextId("main", "next_slice_id") - 1;
    shift["counter"] = nextId("main", "next_counter_id") - 1;

    for (const QString &table : mergedTables()) {
        const QStringList columns = columnsOf(db, table);
        QStringList values;
        for (const QString &c : columns) {
            const MergedColumn *m = nullptr;
            for (const auto &mc : mergedColumns())
                if (table == QLatin1String(mc.table) && c == QLatin1String(mc.column))
                    m = &mc;
            const std::string space = m ? m->space : "";
            if (space == "run")
                values << QString::number(runId);
            else if (space == "source")
                values << QString::number(sourceId);
            else if (shift.count(space))
                values << QStringLiteral("%1 + %2").arg(c).arg(shift[space]);
            else
                values << c;
        }
        const QString verb = table == QLatin1String("string") ? QStringLiteral("INSERT OR IGNORE")
                                                              : QStringLiteral("INSERT");
        db.exec(QStringLiteral("%1 INTO main.%2(%3) SELECT %4 FROM scratch.%2")
                    .arg(verb, table, columns.join(QLatin1Char(',')), values.join(QLatin1Char(',')))
                    .toStdString());
    }
    SqliteStmt store(db, "INSERT OR REPLACE INTO main.workspace_info(key, value) VALUES (?, ?)");
    store.bind(1, std::string_view("next_slice_id"))
        .bind(2, shift["slice"] + nextId("scratch", "next_slice_id"))
        .run();
    store.bind(1, std::string_view("next_counter_id"))
        .bind(2, shift["counter"] + nextId("scratch", "next_counter_id"))
        .run();
    return 1;
}

} // namespace plumb
