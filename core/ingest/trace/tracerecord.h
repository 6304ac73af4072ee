// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace/tracebatch.h"
#include "ingest/trace/tracestats.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace plumb {

class DiagnosticLog;
class SqliteDb;

// The name of the run a single trace forms: its file name without the trace format's extensions.
[[nodiscard]] QString traceRunName(const QString &traceName);
// The rank a per-rank file's name gives ("rank3", "rank-3", "trace_rank_3.json"), or -1.
[[nodiscard]] int64_t rankFromFileName(const QString &fileName);
// The id of the run with `key`, added (with `name`, created at `createdNs`) when there is none.
int64_t findOrAddRun(SqliteDb &db, const QString &key, const QString &name, int64_t createdNs);

// The trace-level facts of one trace import (name, rank, job, base time, metadata, devices): maps
// them, with the counts of TraceStats, onto the trace row, its device rows, and the run the trace
// belongs to. Run: the ranks of one multi-rank job (same folder, same world size, file names that
// differ only in their numbers, e.g. rank-0.json / rank-1.json) form one run named after their folder
// (with the file pattern when another run of the workspace has that name already), as do the files of a
// job named by setJob(); any other trace is its own run. A trace with no rank takes one from its file
// name ("rank3"), with a warning.
class TraceRecord {
public:
    TraceRecord(int64_t sourceId, const QString &sourcePath, const QString &format);

    void setTraceName(const QString &name) { m_traceName = name; }
    void setRank(int64_t rank, int64_t worldSize)
    {
        m_rank = rank;
        m_worldSize = worldSize;
    }
    void setJob(const QString &key, const QString &name)
    {
        m_jobKey = key;
        m_jobName = name;
    }
    void setBaseTimeNs(int64_t ns) { m_baseTimeNs = ns; }
    void setMetadataJson(const QByteArray &json) { m_metadataJson = json; }
    // The accelerator backend's id (analysis/devicebackend.h: "cuda", "rocm", "mtia", ...); empty: unknown.
    void setDeviceType(const QString &id) { m_deviceType = id; }
    // A second device with the same index replaces the first.
    void addDevice(int64_t index, const QString &name, const QByteArray &propertiesJson);

    // Finds or adds the run, then writes the trace row (id `traceId`) and its device rows.
    void write(SqliteDb &db, DiagnosticLog &diagnostics, int64_t traceId, const TraceStats &stats);

    [[nodiscard]] int64_t rank() const { return m_rank; }

private:
    // The key and name of the run the trace belongs to.
    void resolveRun(SqliteDb &db, DiagnosticLog &diagnostics, QString *key, QString *name);

    int64_t m_sourceId;
    QString m_sourcePath;
    QString m_format;
    QString m_traceName;
    int64_t m_rank = kNoValue;
    int64_t m_worldSize = kNoValue;
    QString m_jobKey, m_jobName; // see setJob()
    int64_t m_baseTimeNs = kNoValue;
    QByteArray m_metadataJson;
    QString m_deviceType;
    struct Device {
        int64_t index;
        QString name;
        QByteArray json;
    };
    std::vector<Device> m_devices;
};

} // namespace plumb
