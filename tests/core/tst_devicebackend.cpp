// SPDX-License-Identifier: GPL-3.0-or-later
// The accelerator backend table (analysis/devicebackend.h), the workspace's copy of it, and a
// generated Kineto trace per non-CUDA backend (ROCm/HIP, MTIA, Intel XPU) as Kineto writes them:
// device ops found and classed, runtime calls on the API tracks under the category the file wrote,
// launches linked, synchronising calls counted as synchronisation, the device type stored.
#include "analysis/devicebackend.h"
#include "analysis/doctorreport.h"
#include "analysis/gpuops.h"
#include "analysis/hostanalysis.h"
#include "analysis/steptime.h"
#include "analysis/temporalbreakdown.h"
#include "importhelpers.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace plumb;

namespace {

// A ROCm trace: CUDA's categories with hip* calls; one step: a kernel 15..315 us, a copy 320..420 us,
// hipDeviceSynchronize 30..430 us (the device is idle under it at 315..320 and 420..430: 15 us).
const char *kHipTrace = R"({"schemaVersion":1,
 "deviceProperties":[{"id":0,"name":"AMD Instinct MI300X","gcnArchName":"gfx942:sramecc+:xnack-"}],
 "traceEvents":[
  {"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},
  {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"hipMemcpyAsync","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"cuda_runtime","name":"hipDeviceSynchronize","pid":1,"tid":1,"ts":30,"dur":400,"args":{"correlation":3}},
  {"ph":"X","cat":"kernel","name":"Cijk_Alik_Bljk_gemm","pid":0,"tid":"stream 0","ts":15,"dur":300,"args":{"correlation":1,"stream":0,"device":0}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":"stream 0","ts":320,"dur":100,"args":{"correlation":2,"stream":0,"device":0,"bytes":4096}},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":10,"cat":"ac2g","name":"ac2g"},
  {"ph":"f","id":1,"pid":0,"tid":"stream 0","ts":15,"cat":"ac2g","name":"ac2g","bp":"e"}
 ]})";

// An MTIA trace as MTIAActivityProfiler writes it: mtia_ccp_events device ops on a process per device
// with args.stream (written first), then mtia_runtime calls (pid 865); ac2g flows from call to op with
// the correlation as id, an f at each op (so before its s) and one s per call, whose copy made two dma
// ops. remote 200..500 us, pe_exe 450..510 us (no correlation), dma_request 520..570 and 575..580 us;
// synchronizeStream 120..620 us. No ProfilerStep.
const char *kMtiaTrace = R"({"schemaVersion":1,
 "deviceProperties":[{"id":17,"name":"ARTEMIS","runtimeMajorVersion":1}],
 "traceEvents":[
  {"ph":"M","name":"process_name","pid":17,"tid":0,"args":{"name":"MTIA 17"}},
  {"ph":"M","name":"thread_name","pid":17,"tid":3536,"args":{"name":"Stream 101"}},
  {"ph":"X","cat":"mtia_ccp_events","name":"remote","pid":17,"tid":3536,"ts":200,"dur":300,"args":{"correlation":5,"stream":101,"column":"0","row":"0"}},
  {"ph":"f","id":5,"pid":17,"tid":3536,"ts":200,"cat":"ac2g","name":"ac2g","bp":"e"},
  {"ph":"X","cat":"mtia_ccp_events","name":"pe_exe","pid":17,"tid":3536,"ts":450,"dur":60,"args":{"stream":101,"column":"0","row":"0"}},
  {"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":17,"tid":3536,"ts":520,"dur":50,"args":{"correlation":6,"stream":101,"direction":"HOST_TO_DEVICE","size":1024}},
  {"ph":"f","id":6,"pid":17,"tid":3536,"ts":520,"cat":"ac2g","name":"ac2g","bp":"e"},
  {"ph":"X","cat":"mtia_ccp_events","name":"dma_request","pid":17,"tid":3536,"ts":575,"dur":5,"args":{"correlation":6,"stream":101,"direction":"HOST_TO_DEVICE","size":64}},
  {"ph":"f","id":6,"pid":17,"tid":3536,"ts":575,"cat":"ac2g","name":"ac2g","bp":"e"},
  {"ph":"X","cat":"mtia_runtime","name":"runFunction - job_prep_and_submit_for_execution","pid":865,"tid":1828,"ts":100,"dur":8,"args":{"correlation":5,"device":17,"stream_id":"101","executable_name":"remote"}},
  {"ph":"s","id":5,"pid":865,"tid":1828,"ts":100,"cat":"ac2g","name":"ac2g"},
  {"ph":"X","cat":"mtia_runtime","name":"enqueueCommand memcpyHtoDAsync","pid":865,"tid":1828,"ts":110,"dur":1,"args":{"correlation":6,"device":17,"stream_id":101,"mem size":"1088 bytes"}},
  {"ph":"s","id":6,"pid":865,"tid":1828,"ts":110,"cat":"ac2g","name":"ac2g"},
  {"ph":"X","cat":"mtia_runtime","name":"synchronizeStream","pid":865,"tid":1828,"ts":120,"dur":500,"args":{"correlation":7,"device":17,"stream_id":101}}
 ]})";

// An Intel XPU trace (XPUPTI): xpu_runtime calls of the Unified Runtime, device ops as kernel and
// gpu_memcpy; the same shape and times as the HIP one, urQueueFinish the sync.
const char *kXpuTrace = R"({"schemaVersion":1,
 "deviceProperties":[{"id":0,"name":"Intel(R) Data Center GPU Max 1550","totalGlobalMem":68719476736}],
 "traceEvents":[
  {"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},
  {"ph":"X","cat":"xpu_runtime","name":"urEnqueueKernelLaunch","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"xpu_runtime","name":"urEnqueueUSMMemcpy","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"xpu_runtime","name":"urQueueFinish","pid":1,"tid":1,"ts":30,"dur":400,"args":{"correlation":3}},
  {"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":"stream 1","ts":15,"dur":300,"args":{"correlation":1,"stream":1,"device":0}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy M2D","pid":0,"tid":"stream 1","ts":320,"dur":100,"args":{"correlation":2,"stream":1,"device":0,"bytes":4096}},
  {"ph":"s","id":1,"pid":1,"tid":1,"ts":10,"cat":"ac2g","name":"ac2g"},
  {"ph":"f","id":1,"pid":0,"tid":"stream 1","ts":15,"cat":"ac2g","name":"ac2g","bp":"e"}
 ]})";

QString queryText(SqliteDb &db, const std::string &sql)
{
    SqliteStmt st(db, sql);
    QStringList rows;
    while (st.step()) {
        QStringList cells;
        for (int c = 0; c < st.columnCount(); ++c)
            cells << (st.columnIsNull(c) ? QStringLiteral("NULL") : st.columnText(c));
        rows << cells.join(u'|');
    }
    return rows.join(u';');
}

} // namespace

class TestDeviceBackend : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void table()
    {
        std::set<std::string_view> seen;
        for (const BackendCategory &c : backendCategories())
            QVERIFY2(seen.insert(c.category).second, c.category.data());
        QCOMPARE(int(categoryRole("kernel")), int(CategoryRole::Kernel));
        QCOMPARE(int(categoryRole("mtia_ccp_events")), int(CategoryRole::Kernel));
        QCOMPARE(int(categoryRole("mtia_runtime")), int(CategoryRole::Runtime));
        QCOMPARE(int(categoryRole("xpu_runtime")), int(CategoryRole::Runtime));
        QCOMPARE(int(categoryRole("xpu_driver")), int(CategoryRole::Driver));
        QCOMPARE(int(categoryRole("xpu_sync")), int(CategoryRole::Sync));
        QCOMPARE(int(categoryRole("cuda_sync")), int(CategoryRole::Sync));
        QCOMPARE(int(categoryRole("privateuse1_runtime")), int(CategoryRole::Runtime));
        QCOMPARE(int(categoryRole("cpu_op")), int(CategoryRole::None));
        QCOMPARE(backendCategory("mtia_ccp_events")->memoryNamePrefixes.size(), size_t(1));

        for (const char *sync : { "cudaDeviceSynchronize", "cuStreamSynchronize", "hipDeviceSynchronize",
                 "hipStreamSynchronize", "hipEventSynchronize", "synchronizeStream", "synchronize",
                 "urQueueFinish", "zeCommandQueueSynchronize" })
            QVERIFY2(isSyncCall(sync), sync);
        for (const char *notSync :
            { "hipLaunchKernel", "cudaLaunchKernel", "recordEvent", "urEnqueueKernelLaunch" })
            QVERIFY2(!isSyncCall(notSync), notSync);
        QVERIFY(isLaunchCall("hipLaunchKernel"));
        QVERIFY(isLaunchCall("runFunction - job_prep_and_submit_for_execution"));
        QVERIFY(isMemcpyCall("hipMemcpyAsync"));
        QVERIFY(isMemcpyCall("enqueueCommand memcpyHtoDAsync"));
        QVERIFY(!isMemcpyCall("hipLaunchKernel"));
        QCOMPARE(classifyHostName(QStringLiteral("hipStreamSynchronize")), HostActivity::Synchronization);
        QCOMPARE(classifyHostName(QStringLiteral("synchronizeStream")), HostActivity::Synchronization);
        QCOMPARE(classifyHostName(QStringLiteral("urQueueFinish")), HostActivity::Synchronization);

        for (const DeviceBackendInfo &b : deviceBackends())
            QCOMPARE(int(deviceBackendFromId(deviceTypeId(b.backend))), int(b.backend));
        QCOMPARE(deviceTypeId(DeviceBackend::Rocm), QStringLiteral("rocm"));
        QCOMPARE(deviceTypeName(DeviceBackend::Xpu), QStringLiteral("Intel XPU"));
        QCOMPARE(deviceNoun(DeviceBackend::Cuda), QStringLiteral("GPU"));
        QCOMPARE(deviceNoun(DeviceBackend::Rocm), QStringLiteral("GPU"));
        QCOMPARE(deviceNoun(DeviceBackend::Mtia), QStringLiteral("device"));
        QCOMPARE(deviceNoun(DeviceBackend::Unknown), QStringLiteral("device"));
    }

    void guess()
    {
        BackendEvidence none;
        QCOMPARE(int(guessDeviceBackend(none)), int(DeviceBackend::Unknown));
        BackendEvidence cuda;
        cuda.add("kernel", "gemm");
        cuda.add("cuda_runtime", "cudaLaunchKernel");
        cuda.add("cuda_sync", "Stream Sync");
        QCOMPARE(int(guessDeviceBackend(cuda)), int(DeviceBackend::Cuda));
        BackendEvidence hip;
        hip.add("kernel", "gemm");
        hip.add("cuda_runtime", "hipLaunchKernel");
        QCOMPARE(int(guessDeviceBackend(hip)), int(DeviceBackend::Rocm));
        BackendEvidence amdDevice; // kernels only, the device says AMD
        amdDevice.add("kernel", "gemm");
        amdDevice.deviceName = QStringLiteral("AMD Instinct MI300X VF");
        QCOMPARE(int(guessDeviceBackend(amdDevice)), int(DeviceBackend::Rocm));
        BackendEvidence mtia;
        mtia.add("mtia_ccp_events", "merge");
        mtia.add("cpu_op", "aten::mm");
        QCOMPARE(int(guessDeviceBackend(mtia)), int(DeviceBackend::Mtia));
        BackendEvidence xpu;
        xpu.add("kernel", "gemm");
        xpu.add("xpu_runtime", "urEnqueueKernelLaunch");
        QCOMPARE(int(guessDeviceBackend(xpu)), int(DeviceBackend::Xpu));
    }

    // The workspace's device_category (which the SQL views read) is the C++ table.
    void workspaceTable()
    {
        QTemporaryDir tmp;
        Workspace ws(tmp.filePath(QStringLiteral("w.plumb")), Workspace::Role::Writer);
        QStringList expected;
        for (const BackendCategory &c : backendCategories()) {
            const std::string_view role = categoryRoleName(c.role);
            expected << QStringLiteral("%1|%2|%3|%4")
                            .arg(QString::fromUtf8(c.category.data(), qsizetype(c.category.size())),
                                QString::fromUtf8(role.data(), qsizetype(role.size())),
                                c.backend == DeviceBackend::Unknown ? QStringLiteral("NULL")
                                                                    : deviceTypeId(c.backend),
                                c.memoryNamePrefixes.empty()
                                    ? QStringLiteral("NULL")
                                    : QString::fromUtf8(c.memoryNamePrefixes.front().data(),
                                        qsizetype(c.memoryNamePrefixes.front().size())));
            QVERIFY(c.memoryNamePrefixes.size() <= 1); // the table has one column for it
        }
        expected.sort();
        QCOMPARE(queryText(ws.db(),
                     "SELECT category, role, coalesce(backend, 'NULL'), coalesce(memory_prefix, 'NULL') "
                     "FROM device_category ORDER BY category")
                     .split(u';'),
            expected);
    }

    // Traces of a workspace from before schema 13: rocm where a runtime call is named hip*, cuda where
    // there are GPU ops, else none.
    void migration()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("w.plumb"));
        {
            SqliteDb db = createWorkspaceAtSchema(path, 12);
            db.exec("INSERT INTO run(id, key, name, created_at_ns) VALUES (1, 'r', 'r', 0);"
                    "INSERT INTO trace(id, run_id, source_id, format, name, gpu_op_count) VALUES "
                    "(1, 1, 1, 'chrometrace', 'cuda', 5), (2, 1, 1, 'chrometrace', 'rocm', 3), "
                    "(3, 1, 1, 'chrometrace', 'cpu', 0);"
                    "INSERT INTO string(id, str) VALUES (1, 'hipLaunchKernel'), (2, 'cudaLaunchKernel');"
                    "INSERT INTO track(id, trace_id, kind) VALUES (1, 1, 'cuda_api'), (2, 2, 'cuda_api');"
                    "INSERT INTO slice(track_id, ts, id, dur, depth, name_id) VALUES (1, 0, 1, 5, 0, 2), "
                    "(2, 0, 2, 5, 0, 1);");
        }
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.schemaVersion(), Workspace::currentSchemaVersion());
        QCOMPARE(queryText(ws.db(),
                     "SELECT trace_id || ':' || coalesce(device_type, 'NULL') FROM traces ORDER BY 1"),
            QStringLiteral("1:cuda;2:rocm;3:NULL"));
    }

    // MTIA's event_wait (a stream waiting on another's event) is no device work in Plumb's own modes
    // and computation in HTA's, as HTA counts it; the doctor says "device", never "GPU", of an MTIA.
    void mtiaWaitsAndWording()
    {
        QByteArray json(kMtiaTrace);
        const QByteArray wait
            = R"(  {"ph":"X","cat":"mtia_ccp_events","name":"event_wait","pid":17,"tid":3536,"ts":600,"dur":100,"args":{"stream":101,"wait_on_stream":104}},
)";
        json.insert(json.indexOf(R"(  {"ph":"X","cat":"mtia_ccp_events","name":"dma_request")"), wait);
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), json);
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        QCOMPARE(readGpuOps(ws, 1, GpuOpMode::EveryOp).size(), size_t(4));
        QCOMPARE(temporalBreakdown(ws, 1, GpuOpMode::EveryOp).computeNs, Q_INT64_C(310000));
        const TemporalBreakdown hta = temporalBreakdown(ws, 1, GpuOpMode::Hta);
        QCOMPARE(hta.busyNs, Q_INT64_C(465000));
        QCOMPARE(hta.computeNs, Q_INT64_C(400000));
        const DoctorReport r = doctorReport(ws, 1, GpuOpMode::EveryOp);
        QCOMPARE(r.deviceNoun, QStringLiteral("device"));
        const QString said = r.verdict.headline + u'\n' + r.verdict.evidence.join(u'\n') + u'\n'
            + r.verdict.tunables.join(u'\n');
        QVERIFY2(!said.contains(QStringLiteral("GPU")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("device")), qPrintable(said));
        QCOMPARE(sayDevice(QStringLiteral("the GPU computes; more GPUs; NVGPU"), QStringLiteral("device")),
            QStringLiteral("the device computes; more devices; NVGPU"));
        QCOMPARE(sayDevice(QStringLiteral("the GPU"), QStringLiteral("GPU")), QStringLiteral("the GPU"));
    }

    void generated_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("deviceType");
        QTest::addColumn<QString>("runtimeCategory");
        QTest::addColumn<QString>("opKinds"); // gpu_ops kinds in start order
        QTest::addColumn<qint64>("syncNs"); // the step's synchronisation (HIP, XPU), or host sync time (MTIA)
        QTest::newRow("rocm") << QByteArray(kHipTrace) << QStringLiteral("rocm")
                              << QStringLiteral("cuda_runtime") << QStringLiteral("kernel;memcpy")
                              << qint64(15000);
        QTest::newRow("mtia") << QByteArray(kMtiaTrace) << QStringLiteral("mtia")
                              << QStringLiteral("mtia_runtime")
                              << QStringLiteral("kernel;kernel;memcpy;memcpy") << qint64(500000);
        QTest::newRow("xpu") << QByteArray(kXpuTrace) << QStringLiteral("xpu")
                             << QStringLiteral("xpu_runtime") << QStringLiteral("kernel;memcpy")
                             << qint64(15000);
    }

    void generated()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, deviceType);
        QFETCH(QString, runtimeCategory);
        QFETCH(QString, opKinds);
        QFETCH(qint64, syncNs);
        QTemporaryDir tmp;
        const QString wsPath = importTestJson(tmp.path(), QStringLiteral("t.json"), json);
        QVERIFY(!wsPath.isEmpty());
        Workspace ws(wsPath, Workspace::Role::Reader);
        SqliteDb &db = ws.db();

        QCOMPARE(queryText(db, "SELECT device_type FROM traces"), deviceType);
        QCOMPARE(int(traceDeviceBackend(ws, 1)), int(deviceBackendFromId(deviceType)));
        // Device ops, on device streams of a device process, under the category the file wrote.
        QCOMPARE(queryText(db, "SELECT kind FROM gpu_ops ORDER BY ts_ns"), opKinds);
        QCOMPARE(queryText(db,
                     "SELECT DISTINCT p.kind FROM gpu_ops o JOIN track k ON k.id = o.track_id "
                     "JOIN process p ON p.id = k.process_id"),
            QStringLiteral("gpu"));
        // Runtime calls on the threads' API tracks, their category kept.
        QCOMPARE(queryText(db,
                     "SELECT DISTINCT track_kind || ':' || category FROM slices "
                     "WHERE category NOT IN ('cpu_op') ORDER BY 1")
                     .split(u';')
                     .filter(QStringLiteral("_runtime")),
            QStringList { QStringLiteral("cuda_api:") + runtimeCategory });

        // Every op is found and classed; the ones launched are linked to their call.
        const std::vector<GpuOp> ops = readGpuOps(ws, 1, GpuOpMode::EveryOp);
        QCOMPARE(qsizetype(ops.size()), opKinds.count(u';') + 1);
        int memory = 0, linked = 0;
        for (const GpuOp &op : ops) {
            memory += op.kind == GpuOp::Kind::Memory;
            linked += op.launchNs >= 0;
            QVERIFY(!op.untyped);
        }
        QCOMPARE(memory, int(opKinds.count(QLatin1String("memcpy"))));
        QCOMPARE(linked, memory + 1); // all but MTIA's pe_exe
        // Each launch flow is the correlation link of its call and op (MTIA: one call, two ops, two f
        // and one s): none is left dangling.
        QCOMPARE(queryText(db, "SELECT kind || ':' || count(*) FROM flows GROUP BY kind"),
            QStringLiteral("correlation:%1").arg(linked));
        QCOMPARE(queryText(db, "SELECT count(*) FROM diagnostics WHERE code = 'dangling-flow'"),
            QStringLiteral("0"));

        // The synchronising call is synchronisation.
        const HostAnalysis host = hostAnalysis(ws, 1, ops);
        QCOMPARE(host.synchronization.count, Q_INT64_C(1));
        if (deviceType == QLatin1String("mtia")) {
            // No steps: the host's synchronisation is the call. HTA's view: pe_exe (450..510 us,
            // outside remote for 10 us) is busy but not computation; every op otherwise.
            QCOMPARE(host.synchronization.timeNs, syncNs);
            const TemporalBreakdown every = temporalBreakdown(ws, 1, GpuOpMode::EveryOp);
            QCOMPARE(every.computeNs, Q_INT64_C(310000));
            const TemporalBreakdown hta = temporalBreakdown(ws, 1, GpuOpMode::Hta);
            QCOMPARE(hta.busyNs, Q_INT64_C(365000));
            QCOMPARE(hta.computeNs, Q_INT64_C(300000));
            QCOMPARE(hta.memoryNs, Q_INT64_C(55000));
            QCOMPARE(hta.commNs, Q_INT64_C(0));
        } else {
            const StepTimeBreakdown steps = stepTimeBreakdown(ws, 1);
            QCOMPARE(steps.steps.size(), size_t(1));
            QCOMPARE(steps.total.synchronizationNs, syncNs);
            QCOMPARE(steps.total.computeNs, Q_INT64_C(300000));
            QCOMPARE(steps.total.exposedMemoryNs, Q_INT64_C(100000));
        }
    }
};

QTEST_GUILESS_MAIN(TestDeviceBackend)
#include "tst_devicebackend.moc"
