// SPDX-License-Identifier: GPL-3.0-or-later
// NsysScheduling on its own: SCHED_EVENTS rows paired into intervals on a CPU (scheduled in, then out)
// on the thread's "On CPU" track, the state labels from the enum tables, a thread scheduled in twice or
// out without an in, and threads still on a CPU at the end (closeOpen()).

#include "nsys/nsysscheduling.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

constexpr int64_t kA = globalTid(100, 101);
constexpr int64_t kB = globalTid(100, 102);
constexpr int64_t kC = globalTid(200, 201);

std::string schedExport()
{
    auto row = [](int64_t start, int64_t tid, int cpu, int in, int state, int block) {
        return "(" + std::to_string(start) + "," + std::to_string(tid) + "," + std::to_string(cpu) + ","
            + std::to_string(in) + "," + std::to_string(state) + "," + std::to_string(block) + "),";
    };
    std::string rows;
    // A: in on CPU 3, out waiting on a futex; in on 1, in again on 2 (the first is dropped), out preempted.
    rows += row(100, kA, 3, 1, 0, 0) + row(250, kA, 3, 0, 2, 3);
    rows += row(300, kA, 1, 1, 0, 0) + row(400, kA, 2, 1, 0, 0) + row(450, kA, 2, 0, 1, 1);
    // B: out without an in (it was running when the capture began), then in on CPU 0 until the end.
    rows += row(50, kB, 5, 0, 1, 1) + row(500, kB, 0, 1, 0, 0);
    // C: an interval that ends last, an unknown state (no label) and no block reason.
    rows += row(600, kC, 7, 1, 0, 0) + row(900, kC, 7, 0, 9, 0);
    rows.back() = ';';
    return std::string(kBaseTables)
        + "CREATE TABLE SCHED_EVENTS(start INTEGER NOT NULL, globalTid INTEGER, cpu INTEGER, isSchedIn "
          "INTEGER, threadState INTEGER, threadBlock INTEGER);"
          "INSERT INTO SCHED_EVENTS(start, globalTid, cpu, isSchedIn, threadState, threadBlock) VALUES "
        + rows
        + "CREATE TABLE ENUM_SAMPLING_THREAD_STATE(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
          "INSERT INTO ENUM_SAMPLING_THREAD_STATE VALUES (0, 'UNKNOWN', 'Unknown'), (1, 'RUNNING', "
          "'Running'),"
          " (2, 'INTERRUPTIBLE', 'Interruptible');"
          "CREATE TABLE ENUM_SCHEDULING_THREAD_BLOCK(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
          "INSERT INTO ENUM_SCHEDULING_THREAD_BLOCK VALUES (0, 'UNKNOWN', 'Unknown'), (1, 'NON_BLOCKED',"
          " 'Not blocked'), (3, 'FUTEX', 'Futex');";
}

} // namespace

class TestNsysScheduling : public QObject {
    Q_OBJECT
private slots:
    void pairsInAndOut();
};

void TestNsysScheduling::pairsInAndOut()
{
    const MiniExport x(schedExport());
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysTracks tracks(schema, strings, s.sink());
    NsysArgs args;
    NsysScheduling sched(schema, tracks, args, s.sink(), s.diag());
    forEachRow(x.path(), "SCHED_EVENTS", args, [&](NsysCursor &c, SliceFields &f) { sched.handle(c, f); });
    sched.closeOpen();
    s.finish();

    const QStringList expected {
        QStringLiteral("on_cpu|100|101|100|150|CPU 3|sched|{\"cpu\":3,\"state when scheduled "
                       "out\":\"Interruptible\",\"blocked on\":\"Futex\"}"),
        QStringLiteral(
            "on_cpu|100|101|400|50|CPU 2|sched|{\"cpu\":2,\"state when scheduled out\":\"Running\"}"),
        QStringLiteral(
            "on_cpu|100|102|500|400|CPU 0|sched|{\"cpu\":0,\"state when scheduled out\":\"still on "
            "the CPU when the capture ended\"}"),
        QStringLiteral("on_cpu|200|201|600|300|CPU 7|sched|{\"cpu\":7}"),
    };
    const QStringList got = s.rows("SELECT k.kind, p.pid, k.tid, s.ts, s.dur, n.str, c.str, a.json "
                                   "FROM slice s JOIN track k ON k.id = s.track_id "
                                   "JOIN process p ON p.id = k.process_id JOIN string n ON n.id = s.name_id "
                                   "JOIN string c ON c.id = s.cat_id JOIN args a ON a.id = s.args_id "
                                   "ORDER BY p.pid, k.tid, s.ts");
    QCOMPARE(got, expected);
    QCOMPARE(s.diag().countOf(QStringLiteral("sched-in-twice")), int64_t(1));
    QCOMPARE(s.diag().countOf(QStringLiteral("sched-out-without-in")), int64_t(1));
    QCOMPARE(s.diag().countOf(QStringLiteral("sched-open-at-end")), int64_t(1));
    QCOMPARE(s.diag().skippedRecords(), int64_t(2));
}

QTEST_GUILESS_MAIN(TestNsysScheduling)
#include "tst_nsysscheduling.moc"
