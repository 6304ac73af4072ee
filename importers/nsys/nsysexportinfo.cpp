// SPDX-License-Identifier: GPL-3.0-or-later
#include "nsys/nsysexportinfo.h"

#include "ingest/diagnosticlog.h"
#include "ingest/importerror.h"
#include "ingest/tracesink.h"
#include "nsys/nsysargs.h"
#include "nsys/nsysbacktraces.h"
#include "nsys/nsysschema.h"
#include "nsys/nsystables.h"
#include "nsys/nsystracks.h"
#include "store/foreignsqlitedb.h"
#include "text/textformat.h"

#include <QStringList>

#include <sqlite3.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace plumb::nsys {

namespace {

// Every column of a row as compact JSON (names as the export spells them).
std::string rowJson(ForeignSqliteDb::Stmt &st)
{
    NsysArgs a;
    for (int c = 0; c < st.columnCount(); ++c) {
        switch (st.type(c)) {
        case SQLITE_INTEGER:
            a.add(st.columnName(c), st.integer(c));
            break;
        case SQLITE_FLOAT:
            a.addRaw(st.columnName(c), st.text(c));
            break; // as SQLite renders it
        case SQLITE_TEXT:
            a.add(st.columnName(c), st.text(c));
            break;
        default:
            break;
        }
    }
    return std::string(a.finish());
}

} // namespace

void readSessionStart(NsysSchema &schema, TraceSink &sink)
{
    if (schema.hasColumns("TARGET_INFO_SESSION_START_TIME", { "utcEpochNs" })) {
        ForeignSqliteDb::Stmt st(schema.db(), "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME",
            "TARGET_INFO_SESSION_START_TIME");
        if (st.step() && !st.isNull(0)) {
            sink.setBaseTimeNs(st.integer(0));
        }
    }
}

void readDevices(NsysSchema &schema, TraceSink &sink, NsysTracks &tracks)
{
    // TARGET_INFO_GPU (2021+): one row per GPU, `id` is the deviceId the activity tables use.
    // Older exports describe CUDA devices only (TARGET_INFO_CUDA_DEVICE, keyed by gpuId/cudaId).
    for (const char *table : { "TARGET_INFO_GPU", "TARGET_INFO_CUDA_DEVICE" }) {
        if (!schema.hasTable(table)) {
            continue;
        }
        ForeignSqliteDb::Stmt st(schema.db(), std::string("SELECT * FROM ") + table, table);
        int idCol = -1, nameCol = -1;
        for (int c = 0; c < st.columnCount(); ++c) {
            const std::string_view n = st.columnName(c);
            if (idCol < 0 && (n == "id" || n == "gpuId" || n == "cudaId")) {
                idCol = c;
            }
            if (n == "name") {
                nameCol = c;
            }
        }
        if (idCol < 0) {
            continue;
        }
        bool any = false;
        while (st.step()) {
            if (st.isNull(idCol)) {
                continue;
            }
            const int64_t id = st.integer(idCol);
            const std::string name = nameCol >= 0 ? std::string(st.text(nameCol)) : std::string();
            sink.addDevice(id, QString::fromStdString(name), QByteArray::fromStdString(rowJson(st)));
            tracks.setDeviceName(id, name);
            any = true;
        }
        if (any) {
            break;
        }
    }
}

void readExportMetadata(NsysSchema &schema, TraceSink &sink)
{
    if (!schema.hasColumns("META_DATA_EXPORT", { "name", "value" })) {
        return;
    }
    ForeignSqliteDb::Stmt st(schema.db(), "SELECT name, value FROM META_DATA_EXPORT", "META_DATA_EXPORT");
    NsysArgs a;
    while (st.step()) {
        if (!st.isNull(0)) {
            a.add(st.text(0), st.text(1));
        }
    }
    const std::string_view json = a.finish();
    if (!json.empty()) {
        sink.setMetadataJson(QByteArray(json.data(), qsizetype(json.size())));
    }
}

void readNsysDiagnostics(NsysSchema &schema, DiagnosticLog &diag)
{
    if (!schema.hasColumns("DIAGNOSTIC_EVENT", { "severity", "text" })) {
        return;
    }
    const bool hasSource = schema.hasColumns("DIAGNOSTIC_EVENT", { "source" });
    // ENUM_DIAGNOSTIC_SEVERITY_LEVEL: 1 info, 2 warning, 3 error, 4 verbose.
    ForeignSqliteDb::Stmt st(schema.db(),
        std::string("SELECT severity, text, ") + (hasSource ? "source" : "NULL")
            + " FROM DIAGNOSTIC_EVENT WHERE severity IN (2, 3) ORDER BY rowid",
        "DIAGNOSTIC_EVENT");
    std::set<QString> seen;
    while (st.step()) {
        const std::string_view raw = st.text(1);
        const QString text = QString::fromUtf8(raw.data(), qsizetype(raw.size())).simplified();
        if (text.isEmpty() || !seen.insert(text).second) {
            continue;
        }
        const bool error = st.integer(0) == 3;
        const std::string from
            = st.isNull(2) ? std::string() : schema.enumLabel("ENUM_DIAGNOSTIC_SOURCE_TYPE", st.integer(2));
        const QString kind = error ? QStringLiteral("error") : QStringLiteral("warning");
        diag.report(Severity::Warning, QStringLiteral("nsys-%1-%2").arg(kind).arg(seen.size()),
            QStringLiteral("table DIAGNOSTIC_EVENT"),
            QStringLiteral("Nsight Systems %1%2: %3")
                .arg(kind,
                    from.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(from)),
                    text));
    }
}

void reportUnreadTables(
    NsysSchema &schema, DiagnosticLog &diag, std::initializer_list<const NsysBacktraces *> read)
{
    static const std::set<std::string_view> kLookups
        = { "StringIds", "ThreadNames", "PROCESSES", "ProcessStreams", "MPI_RANKS", "DIAGNOSTIC_EVENT",
              "NIC_ID_MAP", "PMU_EVENT_REQUESTS", "UCP_WORKERS" };
    static const std::string_view kLookupPrefixes[]
        = { "ENUM_", "TARGET_INFO_", "META_DATA_", "ANALYSIS_", "sqlite_", "NVTX_PAYLOAD_" };
    // What the common ones hold, for the message.
    static const std::pair<std::string_view, const char *> kContents[] = {
        { "SCHED_EVENTS", "thread scheduling" },
        { "CUDA_UM_", "unified memory page faults" },
        { "CUDA_GRAPH_", "CUDA graph construction" },
        { "CUDA_GPU_MEMORY_POOL_EVENTS", "GPU memory pool operations" },
        { "CUPTI_ACTIVITY_KIND_CUDA_EVENT", "CUDA event records" },
        { "OPENMP_", "OpenMP events" },
        { "OPENACC_", "OpenACC events" },
        { "NET_", "network metrics" },
        { "UCP_", "UCX calls" },
        { "NCCL_", "NCCL events" },
        { "OSRT_CALLCHAINS", "backtraces of OS runtime calls" },
        { "CUDA_CALLCHAINS", "backtraces of CUDA calls" },
        { "SAMPLING_CALLCHAINS", "backtraces of CPU samples" },
    };
    std::vector<std::string> tables(schema.tables().begin(), schema.tables().end());
    std::sort(tables.begin(), tables.end());
    QStringList events, backtraces;
    QString firstEvents, firstBacktraces; // the diagnostics' location
    int64_t eventRows = 0, backtraceRows = 0;
    for (const std::string &t : tables) {
        const std::string_view name = t;
        if (kLookups.count(name)
            || std::any_of(std::begin(kLookupPrefixes), std::end(kLookupPrefixes),
                [&](std::string_view p) { return hasPrefix(name, p); })
            || std::any_of(
                tableSpecs().begin(), tableSpecs().end(), [&](const TableSpec &s) { return name == s.table; })
            || std::any_of(read.begin(), read.end(),
                [&](const NsysBacktraces *b) { return b->isRead() && name == b->table(); })) {
            continue;
        }
        // Exports never delete rows, so the rowid range is the row count, in two b-tree descents (a
        // count(*) reads every page: CPU samples of a long capture run to tens of millions of rows).
        // A table without rowids is counted; one that cannot be read is listed without a count.
        // (Each of max() and min() alone in its SELECT: SQLite answers those from the b-tree's ends.)
        const std::string q = quoteIdentifier(t);
        int64_t rows = -1;
        std::string byRowids = "SELECT coalesce((SELECT max(rowid) FROM ";
        byRowids.append(q).append(") - (SELECT min(rowid) FROM ").append(q).append(") + 1, 0)");
        const std::string counts[] = { byRowids, "SELECT count(*) FROM " + q };
        for (const std::string &sql : counts) {
            try {
                ForeignSqliteDb::Stmt count(schema.db(), sql, t);
                if (count.step()) {
                    rows = count.integer(0);
                }
                break;
            } catch (const ImportError &) {
            }
        }
        if (rows == 0) {
            continue;
        }
        const char *what = nullptr;
        for (const auto &[prefix, contents] : kContents) {
            if (hasPrefix(name, prefix)) {
                what = contents;
            }
        }
        QStringList about;
        if (rows > 0) {
            about << QStringLiteral("%1 %2").arg(
                text::count(rows), rows == 1 ? QStringLiteral("row") : QStringLiteral("rows"));
        }
        if (what) {
            about << QLatin1String(what);
        }
        const QString entry = QString::fromStdString(t)
            + (about.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(about.join(QStringLiteral(": "))));
        const bool isBacktraces = name.size() > 11 && name.substr(name.size() - 11) == "_CALLCHAINS";
        (isBacktraces ? backtraces : events) << entry;
        QString &first = isBacktraces ? firstBacktraces : firstEvents;
        if (first.isEmpty()) {
            first = QStringLiteral("table %1").arg(QString::fromStdString(t));
        }
        (isBacktraces ? backtraceRows : eventRows) += std::max<int64_t>(rows, 0);
    }
    if (!events.isEmpty()) {
        const QString message
            = QStringLiteral("Not imported: %1. Plumb does not read these tables; their rows are "
                             "counted as skipped.")
                  .arg(events.join(QStringLiteral(", ")));
        if (eventRows > 0) {
            diag.skipped(QStringLiteral("nsys-tables-not-imported"), firstEvents, message, eventRows);
        } else {
            diag.report(Severity::Warning, QStringLiteral("nsys-tables-not-imported"), firstEvents, message);
        }
    }
    if (!backtraces.isEmpty()) {
        diag.report(Severity::Info, QStringLiteral("nsys-backtraces-not-imported"), firstBacktraces,
            QStringLiteral("Backtraces are not imported: %1.").arg(backtraces.join(QStringLiteral(", "))),
            std::max<int64_t>(backtraceRows, 1));
    }
}

} // namespace plumb::nsys
