// SPDX-License-Identifier: GPL-3.0-or-later
// NsysTracks on its own: host processes (named from PROCESSES, by globalPid or by pid, labelled with
// their MPI rank when the export holds several), thread tracks named from ThreadNames, GPU processes,
// stream and synchronisation tracks; an export of one MPI rank sets the trace's rank.

#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

class TestNsysTracks : public QObject {
    Q_OBJECT
private slots:
    void hostProcessesAndThreads();
    void processesByPidAndRanks();
    void oneRankSetsTheTrace();
    void gpuTracks();
};

void TestNsysTracks::hostProcessesAndThreads()
{
    const int64_t a = globalTid(100, 101), b = globalTid(100, 102);
    const MiniExport x(std::string(kBaseTables)
        + "INSERT INTO StringIds VALUES (5, 'python3'), (6, 'pt_autograd');"
        + "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
          "INSERT INTO PROCESSES VALUES ("
        + std::to_string(globalTid(100, 0))
        + ", 100, 'train.py');"
          "CREATE TABLE ThreadNames(nameId INTEGER, priority INTEGER, globalTid INTEGER);"
          "INSERT INTO ThreadNames VALUES (5, 0, "
        + std::to_string(a) + "), (6, 0, " + std::to_string(b) + ");");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysTracks::ThreadTracks &ta = tracks.threadTracks(a);
    QCOMPARE(&tracks.threadTracks(a), &ta); // made once
    QCOMPARE(ta.api, kNoValue);
    QCOMPARE(ta.samples, kNoValue);
    QCOMPARE(ta.onCpu, kNoValue);
    const int64_t tb = tracks.threadTracks(b).thread;
    QVERIFY(tb != ta.thread);
    QCOMPARE(
        tracks.threadTracks(globalTid(300, 301)).thread, tracks.threadTracks(globalTid(300, 301)).thread);
    QCOMPARE(tracks.hostProcess(100, globalTid(100, 0)), tracks.hostProcess(100, 0));
    s.finish();
    QCOMPARE(s.rows("SELECT p.pid, coalesce(p.name, ''), k.kind, k.tid, coalesce(k.name, '') FROM track k "
                    "JOIN process p ON p.id = k.process_id ORDER BY k.id"),
        (QStringList { QStringLiteral("100|train.py|thread|101|python3"),
            QStringLiteral("100|train.py|thread|102|pt_autograd"), QStringLiteral("300||thread|301|") }));
}

void TestNsysTracks::processesByPidAndRanks()
{
    // A layout without PROCESSES.globalPid: looked up by pid. Two ranks: each process says its rank.
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE PROCESSES(pid INTEGER, name TEXT);"
          "INSERT INTO PROCESSES VALUES (100, 'rank0.py'), (200, 'rank1.py');"
          "CREATE TABLE MPI_RANKS(globalTid INTEGER, rank INTEGER);"
          "INSERT INTO MPI_RANKS VALUES ("
        + std::to_string(globalTid(100, 101)) + ", 0), (" + std::to_string(globalTid(200, 201)) + ", 1), ("
        + std::to_string(globalTid(300, 301)) + ", NULL);");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    tracks.readMpiRanks();
    (void)tracks.hostProcess(100, globalTid(100, 0));
    (void)tracks.hostProcess(200, globalTid(200, 0));
    (void)tracks.hostProcess(400, globalTid(400, 0));
    s.finish();
    QCOMPARE(s.rows("SELECT pid, coalesce(name, '') FROM process ORDER BY pid"),
        (QStringList { QStringLiteral("100|rank0.py [rank 0]"), QStringLiteral("200|rank1.py [rank 1]"),
            QStringLiteral("400|") }));
    QCOMPARE(s.rows("SELECT coalesce(rank, 'none') FROM trace"), QStringList { QStringLiteral("none") });
}

void TestNsysTracks::oneRankSetsTheTrace()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE MPI_RANKS(globalTid INTEGER, rank INTEGER);"
          "INSERT INTO MPI_RANKS VALUES ("
        + std::to_string(globalTid(100, 101)) + ", 3), (" + std::to_string(globalTid(100, 102)) + ", 3);");
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    tracks.readMpiRanks();
    (void)tracks.hostProcess(100, globalTid(100, 0));
    s.finish();
    QCOMPARE(s.rows("SELECT rank FROM trace"), QStringList { QStringLiteral("3") });
    QCOMPARE(s.rows("SELECT coalesce(name, '') FROM process"), QStringList { QString() });
}

void TestNsysTracks::gpuTracks()
{
    const MiniExport x(kBaseTables);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    tracks.setDeviceName(0, "NVIDIA H100 80GB HBM3");
    const int64_t s7 = tracks.streamTrack(0, 7);
    QCOMPARE(tracks.streamTrack(0, 7), s7);
    QVERIFY(tracks.streamTrack(1, 7) != s7); // the same stream id on another device
    QVERIFY(tracks.syncTrack(0, 7) != s7);
    QCOMPARE(tracks.syncTrack(0, 7), tracks.syncTrack(0, 7));
    (void)tracks.syncTrack(0, kInvalidStream);
    QCOMPARE(tracks.gpuProcess(0), tracks.gpuProcess(0));
    s.finish();
    QCOMPARE(
        s.rows("SELECT p.name, p.kind, p.device_index, k.kind, k.name, coalesce(k.stream, '') FROM track k "
               "JOIN process p ON p.id = k.process_id ORDER BY k.id"),
        (QStringList { QStringLiteral("GPU 0: NVIDIA H100 80GB HBM3|gpu|0|gpu_stream|Stream 7|7"),
            QStringLiteral("GPU 1|gpu|1|gpu_stream|Stream 7|7"),
            QStringLiteral("GPU 0: NVIDIA H100 80GB HBM3|gpu|0|thread|Stream 7 synchronisation|7"),
            QStringLiteral("GPU 0: NVIDIA H100 80GB HBM3|gpu|0|thread|CUDA synchronisation|-1") }));
}

QTEST_GUILESS_MAIN(TestNsysTracks)
#include "tst_nsystracks.moc"
