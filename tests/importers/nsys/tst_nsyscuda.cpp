// SPDX-License-Identifier: GPL-3.0-or-later
// NsysCuda on its own: runtime and driver calls onto the thread's CUDA API track (names without their
// version suffix), kernels, memcpys, memsets and graph launches onto their stream with Kineto's names
// and args, synchronisation onto the sync tracks, a launch and its GPU op sharing slice.corr (per
// process when several processes made CUDA calls).

#include "ingest/corrlinks.h"
#include "ingest/rangeprojection.h"
#include "nsys/nsyscuda.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

const std::string kGt = std::to_string(globalTid(100, 101));
const std::string kGp = std::to_string(globalTid(100, 0));

const std::string kStrings = std::string(kBaseTables)
    + "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cuLaunchKernel'),"
      " (3, 'cudaMemcpyAsync_v3020'), (4, '_Z6kernelPf'), (5, 'kernel(float*)'), (6, 'kernel'),"
      " (7, 'cudaDeviceSynchronize_v3020');";

std::string cudaExport()
{
    const std::string gt = kGt, gp = kGp;
    return kStrings
        + "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, globalTid INTEGER, "
          "correlationId INTEGER, nameId INTEGER, eventClass INTEGER, returnValue INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 150, "
        + gt + ", 11, 1, 0, 0), (160, 170, " + gt + ", 12, 2, 1, 0), (200, 230, " + gt
        + ", 13, 3, 0, 0), (300, 400, " + gt
        + ", 14, 7, 0, 999);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, demangledName "
          "INTEGER, "
          "shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, "
          "blockZ INTEGER, registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory "
          "INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (140, 190, "
        + gp
        + ", 11, 0, 1, 7, 5, 6, 2, 1, 1, 128, 1, 1, 32, 0, 1024);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, bytes INTEGER, "
          "copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (240, 260, "
        + gp + ", 13, 0, 1, 7, 4096, 1, 0, 2), (270, 280, " + gp + ", NULL, 0, 1, 7, 8, 8, 2, 2), (285, 290, "
        + gp
        + ", NULL, 0, 1, 7, 16, 2, NULL, NULL);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, bytes INTEGER, "
          "value INTEGER, memKind INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (410, 420, "
        + gp
        + ", NULL, 0, 1, 7, 256, 0, 2);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, graphId INTEGER, "
          "graphExecId INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (500, 600, "
        + gp
        + ", NULL, 0, 1, 7, 3, 4);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, syncType INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (310, 390, "
        + gp + ", 14, 0, 1, 4294967295, 4), (320, 330, " + gp
        + ", NULL, 0, 1, 7, 3);"
          // Memory kinds by the export's labels.
          "CREATE TABLE ENUM_CUDA_MEM_KIND(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
          "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'PAGEABLE', 'Pageable host'), (2, 'DEVICE', 'Device');";
}

// The parts NsysReader gives NsysCuda.
struct CudaParts {
    explicit CudaParts(const QString &path, Scratch &s)
        : schema(path)
        , strings(schema.db(), s.sink(), s.diag())
        , tracks(schema, strings, s.sink())
        , cuda(schema, strings, tracks, args, s.sink(), s.diag(), projection, links)
    {
        cuda.readEnums();
        auto scope = cuda.startCorrScope(path);
        cuda.setCorrScope(scope.valid() && scope.get());
    }
    NsysSchema schema;
    NsysStrings strings;
    NsysTracks tracks;
    NsysArgs args;
    RangeProjection projection;
    CorrLinkCounter links;
    NsysCuda cuda;
};

} // namespace

class TestNsysCuda : public QObject {
    Q_OBJECT
private slots:
    void callsOpsAndSyncs();
    void corrPerProcessAndDriverByName();
};

void TestNsysCuda::callsOpsAndSyncs()
{
    const MiniExport x(cudaExport());
    Scratch s;
    CudaParts p(x.path(), s);
    auto gpu = [&](NsysCursor &c, SliceFields &f) { p.cuda.handleGpu(c, f); };
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_RUNTIME", p.args,
        [&](NsysCursor &c, SliceFields &f) { p.cuda.handleRuntime(c, f); });
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_KERNEL", p.args, gpu);
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_MEMCPY", p.args, gpu);
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_MEMSET", p.args, gpu);
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", p.args, gpu);
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", p.args,
        [&](NsysCursor &c, SliceFields &f) { p.cuda.handleSync(c, f); });
    p.cuda.report();
    QCOMPARE(s.sink().stats().kernels, int64_t(1));
    QCOMPARE(s.sink().stats().gpuOps, int64_t(6));
    QCOMPARE(p.links.links(), int64_t(3)); // 11 (kernel), 13 (memcpy), 14 (sync); 12 launched nothing
    s.finish();

    const QString dev = QStringLiteral("{\"device\":0,\"context\":1,\"stream\":7,");
    const QStringList expected {
        QStringLiteral("cuda_api||100|50|cudaLaunchKernel|cuda_runtime|11|"),
        QStringLiteral("cuda_api||160|10|cuLaunchKernel|cuda_driver|12|"),
        QStringLiteral("cuda_api||200|30|cudaMemcpyAsync|cuda_runtime|13|"),
        QStringLiteral("cuda_api||300|100|cudaDeviceSynchronize|cuda_runtime|14|{\"return value\":999}"),
        QStringLiteral("gpu_stream|Stream 7|140|50|kernel(float*)|kernel|11|") + dev
            + QStringLiteral(
                "\"grid\":[2,1,1],\"block\":[128,1,1],\"registers per thread\":32,\"shared "
                "memory\":1024,\"static shared memory\":0,\"dynamic shared memory\":1024,\"short "
                "name\":\"kernel\"}"),
        QStringLiteral("gpu_stream|Stream 7|240|20|Memcpy HtoD (Pageable host -> Device)|gpu_memcpy|13|")
            + dev
            + QStringLiteral(
                "\"bytes\":4096,\"copyKind\":\"HtoD\",\"srcKind\":\"Pageable host\",\"dstKind\":\"Device\"}"),
        QStringLiteral("gpu_stream|Stream 7|270|10|Memcpy DtoD (Device -> Device)|gpu_memcpy||") + dev
            + QStringLiteral(
                "\"bytes\":8,\"copyKind\":\"DtoD\",\"srcKind\":\"Device\",\"dstKind\":\"Device\"}"),
        QStringLiteral("gpu_stream|Stream 7|285|5|Memcpy DtoH|gpu_memcpy||") + dev
            + QStringLiteral("\"bytes\":16,\"copyKind\":\"DtoH\"}"),
        QStringLiteral("gpu_stream|Stream 7|410|10|Memset (Device)|gpu_memset||") + dev
            + QStringLiteral("\"bytes\":256,\"value\":0}"),
        QStringLiteral("gpu_stream|Stream 7|500|100|CUDA graph 3|cuda_graph||") + dev
            + QStringLiteral("\"graph id\":3,\"graph exec id\":4}"),
        // Sync rows are read by (device, stream): the no-stream track (0xffffffff) comes last.
        QStringLiteral(
            "thread|Stream 7 synchronisation|320|10|Stream Sync|cuda_sync||{\"device\":0,\"stream\":7}"),
        QStringLiteral("thread|CUDA synchronisation|310|80|Context Sync|cuda_sync|14|{\"device\":0}"),
    };
    QCOMPARE(s.rows(kSlicesSql), expected);
    QCOMPARE(s.diag().countOf(QStringLiteral("cuda-graph-trace")), int64_t(1));
    QVERIFY(!s.diag().has(QStringLiteral("corr-per-process")));
}

void TestNsysCuda::corrPerProcessAndDriverByName()
{
    // Two processes launch with the same correlation id; the runtime table has no eventClass, so the
    // driver calls are told by name (cu*, not cuda*).
    const std::string a = std::to_string(globalTid(100, 101)), b = std::to_string(globalTid(200, 201));
    const std::string pa = std::to_string(globalTid(100, 0)), pb = std::to_string(globalTid(200, 0));
    const MiniExport x(kStrings
        + "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, globalTid INTEGER, "
          "correlationId INTEGER, nameId INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 110, "
        + a + ", 5, 1), (100, 110, " + b
        + ", 5, 2);"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, globalPid INTEGER, "
          "correlationId INTEGER, deviceId INTEGER, streamId INTEGER, shortName INTEGER);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (120, 130, "
        + pa + ", 5, 0, 7, 6), (140, 150, " + pb + ", 5, 0, 7, 6);");
    Scratch s;
    CudaParts p(x.path(), s);
    QVERIFY(s.diag().has(QStringLiteral("corr-per-process")));
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_RUNTIME", p.args,
        [&](NsysCursor &c, SliceFields &f) { p.cuda.handleRuntime(c, f); });
    forEachRow(x.path(), "CUPTI_ACTIVITY_KIND_KERNEL", p.args,
        [&](NsysCursor &c, SliceFields &f) { p.cuda.handleGpu(c, f); });
    QCOMPARE(p.links.links(), int64_t(2));
    s.finish();
    const QString corrA = QString::number((int64_t(100) << 32) | 5),
                  corrB = QString::number((int64_t(200) << 32) | 5);
    const QStringList expected {
        QStringLiteral("cudaLaunchKernel|cuda_runtime|") + corrA,
        QStringLiteral("cuLaunchKernel|cuda_driver|") + corrB,
        QStringLiteral("kernel|kernel|") + corrA,
        QStringLiteral("kernel|kernel|") + corrB,
    };
    QCOMPARE(s.rows("SELECT n.str, c.str, s.corr FROM slice s JOIN string n ON n.id = s.name_id "
                    "JOIN string c ON c.id = s.cat_id ORDER BY c.str <> 'kernel' DESC, s.corr"),
        expected);
}

QTEST_GUILESS_MAIN(TestNsysCuda)
#include "tst_nsyscuda.moc"
