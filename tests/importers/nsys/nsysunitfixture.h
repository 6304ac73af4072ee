// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Set-up shared by the unit tests of the Nsight Systems importer's parts (NsysSchema, NsysStrings and
// each table family): a tiny "export" written from SQL into a temporary file, a scratch workspace with
// a TraceSink writing into it, and cursors over one event table opened as NsysReader::openCursors()
// opens them, so a test drives one class directly and then queries the workspace it wrote.

#include "ingest/diagnosticlog.h"
#include "ingest/tracesink.h"
#include "nsys/nsysargs.h"
#include "nsys/nsyscursor.h"
#include "nsys/nsysschema.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystables.h"
#include "nsys/nsystracks.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace plumb::nsys::test {

// An export made of the SQL given: just the tables and columns the class under test reads.
class MiniExport {
public:
    explicit MiniExport(std::string_view sql)
    {
        m_path = m_dir.filePath(QStringLiteral("export.sqlite"));
        SqliteDb db(m_path, SqliteDb::OpenMode::ReadWriteCreate);
        db.exec(sql);
    }
    [[nodiscard]] const QString &path() const { return m_path; }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

// The tables every export has, so NsysSchema accepts the file.
constexpr const char *kBaseTables = "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
                                    "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER);";

// A scratch workspace, a transaction on it and a TraceSink writing into it; finish() writes the trace
// so the workspace can be queried.
class Scratch {
public:
    Scratch()
        : m_ws(m_dir.filePath(QStringLiteral("scratch.plumb")), Workspace::Role::Writer)
    {
        m_tx.emplace(m_ws.db());
        m_sink = std::make_unique<TraceSink>(
            m_ws.db(), m_diag, 1, QStringLiteral("export.sqlite"), QStringLiteral("nsys"));
    }
    [[nodiscard]] TraceSink &sink() { return *m_sink; }
    [[nodiscard]] DiagnosticLog &diag() { return m_diag; }
    [[nodiscard]] SqliteDb &db() { return m_ws.db(); }
    void finish()
    {
        m_sink->finish();
        m_tx->commit();
        m_tx.reset();
    }
    // The rows of `sql`, each row's columns joined by '|' (NULL as "NULL").
    [[nodiscard]] QStringList rows(std::string_view sql)
    {
        QStringList out;
        SqliteStmt st(m_ws.db(), sql);
        while (st.step()) {
            QStringList cols;
            for (int i = 0; i < st.columnCount(); ++i) {
                cols << (st.columnIsNull(i) ? QStringLiteral("NULL") : st.columnText(i));
            }
            out << cols.join(QLatin1Char('|'));
        }
        return out;
    }

private:
    QTemporaryDir m_dir;
    Workspace m_ws;
    DiagnosticLog m_diag;
    std::optional<SqliteTransaction> m_tx;
    std::unique_ptr<TraceSink> m_sink;
};

// The slices written, in track and time order: track kind, track name, ts, dur, name, category, corr,
// args.
constexpr const char *kSlicesSql
    = "SELECT k.kind, coalesce(k.name, ''), s.ts, s.dur, n.str, coalesce(c.str, ''), coalesce(s.corr, ''), "
      "coalesce(a.json, '') FROM slice s JOIN track k ON k.id = s.track_id JOIN string n ON n.id = s.name_id "
      "LEFT JOIN string c ON c.id = s.cat_id LEFT JOIN args a ON a.id = s.args_id ORDER BY k.id, s.ts, s.id";

// The counter samples written, per track: process name, track name, ts, value.
constexpr const char *kCountersSql
    = "SELECT coalesce(p.name, ''), k.name, c.ts, c.value FROM counter c JOIN track k ON k.id = c.track_id "
      "LEFT JOIN process p ON p.id = k.process_id ORDER BY k.id, c.ts, c.id";

// The spec NsysReader reads `table` with.
inline const TableSpec &specOf(const char *table)
{
    for (const TableSpec &spec : tableSpecs()) {
        if (std::strcmp(spec.table, table) == 0) {
            return spec;
        }
    }
    throw std::logic_error(std::string("no table spec for ") + table);
}

// A cursor over `table` of the export, its rows in merge order, opened as NsysReader::openCursors()
// opens one (its callchainId read whenever the table has one; without the 2021 layout's NOT NULL
// defaults).
inline std::unique_ptr<NsysCursor> openCursor(const QString &path, const char *table)
{
    const TableSpec &spec = specOf(table);
    ForeignSqliteDb db(path);
    const auto cols = db.columns(table);
    auto cursor = std::make_unique<NsysCursor>();
    cursor->spec = &spec;
    cursor->col.fill(-1);
    std::vector<SortedTableReader::Column> select;
    for (const F f : spec.fields) {
        for (const FieldSpec &fs : fieldSpecs()) {
            if (fs.field != f) {
                continue;
            }
            for (const char *cand : fs.candidates) {
                if (!cand || std::find(cols.begin(), cols.end(), cand) == cols.end()) {
                    continue;
                }
                cursor->col[f] = int(select.size());
                select.push_back({ quoteIdentifier(cand), f == Text || f == JsonText,
                    (f == Value && spec.source == Source::Metric) || f == PayloadDouble
                        || f == PayloadFloat });
                break;
            }
        }
    }
    std::vector<int> ascending;
    for (const F g : { spec.group1, spec.group2 }) {
        if (g != FieldCount && cursor->col[g] >= 0) {
            ascending.push_back(cursor->col[g]);
        }
    }
    ascending.push_back(cursor->col[Start]);
    cursor->st = std::make_unique<SortedTableReader>(std::make_unique<ForeignSqliteDb>(path), table, select,
        ascending, cursor->col[End], 1000, size_t(16) << 20);
    return cursor;
}

// Hands each row of `table` to `handle(cursor, fields)` with the fields NsysReader::handle() sets
// (start, duration) and the args buffer cleared.
template <typename Handle>
void forEachRow(const QString &path, const char *table, NsysArgs &args, Handle handle)
{
    auto c = openCursor(path, table);
    while (c->st->next()) {
        c->loadKey();
        SliceFields f;
        f.tsNs = c->start;
        f.durNs = std::max<int64_t>(0, c->get(End, c->start) - c->start);
        args.clear();
        handle(*c, f);
    }
}

// globalTid of pid `pid`, tid `tid`.
constexpr int64_t globalTid(int64_t pid, int64_t tid)
{
    return (pid << 24) | tid;
}

} // namespace plumb::nsys::test
