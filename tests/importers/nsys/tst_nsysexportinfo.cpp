// SPDX-License-Identifier: GPL-3.0-or-later
// nsysexportinfo on its own: the session start (base time), the GPUs (TARGET_INFO_GPU, else
// TARGET_INFO_CUDA_DEVICE), the export's metadata, nsys' own warnings and errors, and the event and
// backtrace tables the importer does not read.

#include "nsys/nsysbacktraces.h"
#include "nsys/nsyscallchains.h"
#include "nsys/nsysexportinfo.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

QString messageOf(const DiagnosticLog &diag, const QString &code)
{
    for (const Diagnostic &d : diag.all()) {
        if (d.code == code) {
            return d.message;
        }
    }
    return {};
}

} // namespace

class TestNsysExportInfo : public QObject {
    Q_OBJECT
private slots:
    void sessionDevicesAndMetadata();
    void olderDeviceTable();
    void nsysDiagnostics();
    void unreadTables();
};

void TestNsysExportInfo::sessionDevicesAndMetadata()
{
    const MiniExport x(
        "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER);"
        "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000123456789);"
        "CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, smCount INTEGER, clockRate REAL, uuid TEXT);"
        "INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100', 132, 1.5, 'GPU-abc'), (1, 'NVIDIA A100', 108, "
        "NULL, "
        "NULL);"
        "CREATE TABLE TARGET_INFO_CUDA_DEVICE(gpuId INTEGER, name TEXT);"
        "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (0, 'not read: TARGET_INFO_GPU has the GPUs');"
        "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);"
        "INSERT INTO META_DATA_EXPORT VALUES ('ExportToolVersion', '2024.5.1'), (NULL, 'x'), ('ExportTime', "
        "'0');");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    readSessionStart(schema, s.sink());
    readDevices(schema, s.sink(), tracks);
    readExportMetadata(schema, s.sink());
    (void)tracks.streamTrack(0, 7); // the GPU's process, named by its device
    s.finish();
    QCOMPARE(s.rows("SELECT base_time_ns, metadata FROM trace"),
        QStringList { QStringLiteral(
            "1700000000123456789|{\"ExportToolVersion\":\"2024.5.1\",\"ExportTime\":\"0\"}") });
    QCOMPARE(s.rows("SELECT device_index, name, properties FROM device ORDER BY device_index"),
        (QStringList {
            QStringLiteral(
                "0|NVIDIA H100|{\"id\":0,\"name\":\"NVIDIA H100\",\"smCount\":132,\"clockRate\":1.5,"
                "\"uuid\":\"GPU-abc\"}"),
            QStringLiteral("1|NVIDIA A100|{\"id\":1,\"name\":\"NVIDIA A100\",\"smCount\":108}") }));
    QCOMPARE(s.rows("SELECT name FROM process"), QStringList { QStringLiteral("GPU 0: NVIDIA H100") });
}

void TestNsysExportInfo::olderDeviceTable()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT);" // present but empty
          "CREATE TABLE TARGET_INFO_CUDA_DEVICE(gpuId INTEGER, cudaId INTEGER, name TEXT);"
          "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (2, 0, 'Tesla V100');");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    readDevices(schema, s.sink(), tracks);
    s.finish();
    QCOMPARE(s.rows("SELECT device_index, name FROM device"), QStringList { QStringLiteral("2|Tesla V100") });
}

void TestNsysExportInfo::nsysDiagnostics()
{
    // Severity 1 info, 2 warning, 3 error, 4 verbose: only warnings and errors, each text once.
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE DIAGNOSTIC_EVENT(timestamp INTEGER, severity INTEGER, text TEXT, source INTEGER);"
          "INSERT INTO DIAGNOSTIC_EVENT VALUES (1, 1, 'Injected', NULL), (2, 2, '  CPU   sampling failed ', "
          "1),"
          " (3, 2, 'CPU sampling failed', 1), (4, 3, 'Out of buffers', NULL), (5, 4, 'verbose', NULL),"
          " (6, 2, '', NULL);"
          "CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
          "INSERT INTO ENUM_DIAGNOSTIC_SOURCE_TYPE VALUES (1, 'PROFILER', 'Profiler');");
    NsysSchema schema(x.path());
    DiagnosticLog diag;
    readNsysDiagnostics(schema, diag);
    QCOMPARE(int(diag.all().size()), 2);
    QCOMPARE(messageOf(diag, QStringLiteral("nsys-warning-1")),
        QStringLiteral("Nsight Systems warning (Profiler): CPU sampling failed"));
    QCOMPARE(messageOf(diag, QStringLiteral("nsys-error-2")),
        QStringLiteral("Nsight Systems error: Out of buffers"));
}

void TestNsysExportInfo::unreadTables()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS(start INTEGER);"
          "INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES (1), (2), (3);"
          "CREATE TABLE OPENMP_EVENT_KIND_TASK(start INTEGER);" // empty: not listed
          "CREATE TABLE MYSTERY_EVENTS(start INTEGER);"
          "INSERT INTO MYSTERY_EVENTS VALUES (1);"
          "CREATE TABLE ENUM_SOMETHING(id INTEGER, name TEXT);"
          "INSERT INTO ENUM_SOMETHING VALUES (1, 'a');"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER);" // read by the importer
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1);"
          "CREATE TABLE COMPOSITE_EVENTS(id INTEGER, start INTEGER, globalTid INTEGER);"
          "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER, symbol INTEGER, module INTEGER, stackDepth INTEGER);"
          "INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 1, 1, 0), (2, 1, 1, 0);"
          "CREATE TABLE OSRT_CALLCHAINS(id INTEGER, symbol INTEGER, module INTEGER, stackDepth INTEGER);"
          "INSERT INTO OSRT_CALLCHAINS VALUES (1, 1, 1, 0);");
    NsysSchema schema(x.path());
    NsysBacktraces samples("SAMPLING_CALLCHAINS"), osrt("OSRT_CALLCHAINS");
    samples.set(NsysCallchains {}); // read; the OS runtime calls' were not (no OSRT_API)
    DiagnosticLog diag;
    reportUnreadTables(schema, diag, { &samples, &osrt });
    QCOMPARE(diag.countOf(QStringLiteral("nsys-tables-not-imported")), int64_t(4)); // 3 + 1 rows skipped
    QCOMPARE(diag.skippedRecords(), int64_t(4));
    QCOMPARE(messageOf(diag, QStringLiteral("nsys-tables-not-imported")),
        QStringLiteral("Not imported: CUDA_UM_CPU_PAGE_FAULT_EVENTS (3 rows: unified memory page faults), "
                       "MYSTERY_EVENTS (1 row). Plumb does not read these tables; their rows are counted as "
                       "skipped."));
    QCOMPARE(messageOf(diag, QStringLiteral("nsys-backtraces-not-imported")),
        QStringLiteral(
            "Backtraces are not imported: OSRT_CALLCHAINS (1 row: backtraces of OS runtime calls)."));
}

QTEST_GUILESS_MAIN(TestNsysExportInfo)
#include "tst_nsysexportinfo.moc"
