// SPDX-License-Identifier: GPL-3.0-or-later
// NsysHostCalls and NsysCpuSamples on their own, with the NsysTracks they land on: OS runtime calls
// (return value, backtrace) and library calls (category by table, MPI fields) on the thread's track,
// named from ThreadNames in its process named from PROCESSES; CPU samples on the thread's "CPU samples"
// track named by their leaf frame (an unresolved one by its module).

#include "nsys/nsyscallchains.h"
#include "nsys/nsyscpusamples.h"
#include "nsys/nsyshostcalls.h"
#include "nsysunitfixture.h"

#include <QtTest>

#include <atomic>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

const std::string kGt = std::to_string(globalTid(100, 101));

std::string hostExport()
{
    const std::string gt = kGt, gp = std::to_string(globalTid(100, 0));
    return std::string(kBaseTables)
        + "INSERT INTO StringIds VALUES (1, 'ioctl'), (2, 'cublasSgemm_v2'), (3, 'MPI_Send'), (4, "
          "'MPI_Bcast'),"
          " (5, 'python3'), (20, 'compute'), (21, 'main'), (22, '0x7f00'), (23, '0xffff'), (30, "
          "'/app/libwork.so'), (31, '/app/a.out'), (32, '/lib/libc.so.6'), (33, '[kernel.kallsyms]');"
          "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
          "INSERT INTO PROCESSES VALUES ("
        + gp
        + ", 100, 'train.py');"
          "CREATE TABLE ThreadNames(nameId INTEGER, priority INTEGER, globalTid INTEGER);"
          "INSERT INTO ThreadNames VALUES (5, 0, "
        + gt
        + ");"
          "CREATE TABLE OSRT_API(start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER, returnValue "
          "INTEGER, callchainId INTEGER);"
          "INSERT INTO OSRT_API VALUES (100, 110, "
        + gt + ", 1, -1, 1), (112, 115, " + gt
        + ", 1, 0, NULL);"
          "CREATE TABLE OSRT_CALLCHAINS(id INTEGER, symbol INTEGER, module INTEGER, stackDepth INTEGER);"
          "INSERT INTO OSRT_CALLCHAINS VALUES (1, 20, 30, 0), (1, 21, 31, 1);"
          "CREATE TABLE CUBLAS_EVENTS(start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER);"
          "INSERT INTO CUBLAS_EVENTS VALUES (120, 130, "
        + gt
        + ", 2);"
          "CREATE TABLE MPI_P2P_EVENTS(start INTEGER, end INTEGER, globalTid INTEGER, textId INTEGER, size "
          "INTEGER, tag INTEGER, remoteRank INTEGER);"
          "INSERT INTO MPI_P2P_EVENTS VALUES (140, 150, "
        + gt
        + ", 3, 4096, 7, 1);"
          "CREATE TABLE MPI_COLLECTIVES_EVENTS(start INTEGER, end INTEGER, globalTid INTEGER, textId "
          "INTEGER, "
          "size INTEGER, recvSize INTEGER, rootRank INTEGER);"
          "INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (160, 170, "
        + gt
        + ", 4, 64, NULL, 0);"
          "CREATE TABLE COMPOSITE_EVENTS(id INTEGER, start INTEGER, globalTid INTEGER);"
          "INSERT INTO COMPOSITE_EVENTS VALUES (1, 200, "
        + gt + "), (2, 300, " + gt + "), (3, 400, " + gt + "), (99, 500, " + gt
        + ");"
          "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER, symbol INTEGER, module INTEGER, unresolved INTEGER, "
          "stackDepth INTEGER);"
          "INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 20, 30, 0, 0), (1, 21, 31, 0, 1), (2, 22, 32, 1, 0),"
          " (3, 23, 33, 1, 0);";
}

NsysCallchains readChains(NsysSchema &schema, const QString &path, const char *table, const char *events)
{
    std::atomic<bool> stop { false };
    auto f = NsysCallchains::start(schema, path, table, events, stop);
    return f.valid() ? f.get() : NsysCallchains {};
}

} // namespace

class TestNsysHostCalls : public QObject {
    Q_OBJECT
private slots:
    void hostCalls();
    void cpuSamples();
};

void TestNsysHostCalls::hostCalls()
{
    const MiniExport x(hostExport());
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysArgs args;
    NsysHostCalls calls(strings, tracks, args, s.sink());
    calls.backtraces().set(readChains(schema, x.path(), "OSRT_CALLCHAINS", "OSRT_API"));
    auto host = [&](NsysCursor &c, SliceFields &f) { calls.handleHostCall(c, f); };
    forEachRow(x.path(), "OSRT_API", args, [&](NsysCursor &c, SliceFields &f) { calls.handleOsrt(c, f); });
    forEachRow(x.path(), "CUBLAS_EVENTS", args, host);
    forEachRow(x.path(), "MPI_P2P_EVENTS", args, host);
    forEachRow(x.path(), "MPI_COLLECTIVES_EVENTS", args, host);
    s.finish();
    const QStringList expected {
        QStringLiteral("thread|python3|100|10|ioctl|osrt||{\"return value\":-1,\"backtrace\":[\"compute "
                       "(libwork.so)\",\"main (a.out)\"]}"),
        QStringLiteral("thread|python3|112|3|ioctl|osrt||"),
        QStringLiteral("thread|python3|120|10|cublasSgemm_v2|cublas||"),
        QStringLiteral("thread|python3|140|10|MPI_Send|mpi||{\"bytes\":4096,\"tag\":7,\"peer rank\":1}"),
        QStringLiteral("thread|python3|160|10|MPI_Bcast|mpi||{\"bytes\":64,\"root rank\":0}"),
    };
    QCOMPARE(s.rows(kSlicesSql), expected);
    QCOMPARE(s.rows("SELECT pid, name FROM process"), QStringList { QStringLiteral("100|train.py") });
}

void TestNsysHostCalls::cpuSamples()
{
    const MiniExport x(hostExport());
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysArgs args;
    NsysCpuSamples samples(strings, tracks, args, s.sink());
    samples.setBacktraces(readChains(schema, x.path(), "SAMPLING_CALLCHAINS", "COMPOSITE_EVENTS"));
    forEachRow(
        x.path(), "COMPOSITE_EVENTS", args, [&](NsysCursor &c, SliceFields &f) { samples.handle(c, f); });
    s.finish();
    const QStringList expected {
        QStringLiteral("cpu_samples||200|0|compute|cpu_sample||{\"backtrace\":[\"compute "
                       "(libwork.so)\",\"main (a.out)\"]}"),
        QStringLiteral("cpu_samples||300|0|[libc.so.6]|cpu_sample||{\"backtrace\":[\"0x7f00 (libc.so.6)\"]}"),
        QStringLiteral("cpu_samples||400|0|[kernel.kallsyms]|cpu_sample||{\"backtrace\":[\"0xffff "
                       "([kernel.kallsyms])\"]}"),
        QStringLiteral("cpu_samples||500|0|[no backtrace]|cpu_sample||"),
    };
    QCOMPARE(s.rows(kSlicesSql), expected);
}

QTEST_GUILESS_MAIN(TestNsysHostCalls)
#include "tst_nsyshostcalls.moc"
