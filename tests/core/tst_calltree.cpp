// SPDX-License-Identifier: GPL-3.0-or-later
// The call tree of a trace's CPU work: totals, self times and counts on generated nested slices worked
// out by hand (top-down and bottom-up, recursion counted once, a CUDA call on its companion track
// nesting in its op, one thread, a clipped range, a step), the slices a node selects, and the real
// Nsight Systems export's CPU samples (../shared/data/traces/nsys/).
#include "analysis/calltree.h"
#include "importhelpers.h"
#include "present/calltreepresent.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int64_t us = 1000;

// Thread 1:                      Thread 2:
//   A [0, 100)                     D [200, 250)
//     B [10, 40)
//       C [15, 25)
//       cudaLaunchKernel [30, 35) (on the CUDA API companion track)
//     B [50, 70)
//     A [75, 95)
//       C [80, 90)
// With steps, thread 3 holds ProfilerStep#1 [0, 60) and ProfilerStep#2 [60, 120).
QByteArray nestedTrace(bool withSteps)
{
    QStringList events;
    const auto cpu = [&](const char *name, int tid, int ts, int dur) {
        events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%1\",\"pid\":100,\"tid\":%2,"
                                 "\"ts\":%3,\"dur\":%4}")
                      .arg(QLatin1String(name))
                      .arg(tid)
                      .arg(ts)
                      .arg(dur);
    };
    cpu("A", 1, 0, 100);
    cpu("B", 1, 10, 30);
    cpu("C", 1, 15, 10);
    cpu("B", 1, 50, 20);
    cpu("A", 1, 75, 20);
    cpu("C", 1, 80, 10);
    cpu("D", 2, 200, 50);
    events << QStringLiteral(
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,"
        "\"tid\":1,\"ts\":30,\"dur\":5,\"args\":{\"correlation\":7}}");
    events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":40,"
                             "\"dur\":5,\"args\":{\"device\":0,\"stream\":7,\"correlation\":7}}");
    if (withSteps) {
        cpu("ProfilerStep#1", 3, 0, 60);
        cpu("ProfilerStep#2", 3, 60, 60);
    }
    return "{\"traceEvents\": [\n" + events.join(QStringLiteral(",\n")).toUtf8() + "\n]}\n";
}

// The node at `path` (names, from the root's child down), -1 when absent.
int32_t find(const CallTree &t, std::initializer_list<const char *> path)
{
    int32_t node = 0;
    for (const char *name : path) {
        int32_t next = -1;
        for (const int32_t c : t.nodes[size_t(node)].children)
            if (t.nameOf(c) == QLatin1String(name))
                next = c;
        if (next < 0)
            return -1;
        node = next;
    }
    return node;
}

// "total/self/count" in µs.
QString figures(const CallTree &t, std::initializer_list<const char *> path)
{
    const int32_t n = find(t, path);
    if (n < 0)
        return QStringLiteral("absent");
    const CallTreeNode &node = t.nodes[size_t(n)];
    return QStringLiteral("%1/%2/%3").arg(node.totalNs / us).arg(node.selfNs / us).arg(node.count);
}

QString threadKeyWith(Workspace &ws, int64_t traceId, const char *name)
{
    for (const CallTreeThread &t : callTreeThreads(ws, traceId)) {
        CallTreeQuery q;
        q.traceId = traceId;
        q.threadKey = t.key;
        const CallTree tree = callTree(ws, q);
        if (find(tree, { name }) >= 0)
            return t.key;
    }
    return {};
}

} // namespace

class TestCallTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topDown();
    void bottomUp();
    void clippedRange();
    void oneThreadAndStep();
    void selectedSlices();
    void crossingSlice();
    void presented();
    void nsysSamples();
};

void TestCallTree::topDown()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(false));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeQuery q;
    q.traceId = 1;
    const CallTree t = callTree(ws, q);
    QCOMPARE(t.items, 8);
    QCOMPARE(t.nodes[0].totalNs, 150 * us); // A and D
    QCOMPARE(t.fromNs, 0);
    QCOMPARE(t.toNs, 250 * us);
    QCOMPARE(figures(t, { "A" }), QStringLiteral("100/30/1"));
    QCOMPARE(figures(t, { "A", "B" }), QStringLiteral("50/35/2"));
    QCOMPARE(figures(t, { "A", "B", "C" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "A", "B", "cudaLaunchKernel" }), QStringLiteral("5/5/1"));
    QCOMPARE(figures(t, { "A", "A" }), QStringLiteral("20/10/1"));
    QCOMPARE(figures(t, { "A", "A", "C" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "D" }), QStringLiteral("50/50/1"));
    QCOMPARE(figures(t, { "k" }), QStringLiteral("absent")); // GPU work is not the host's
    // Children come most total first.
    QCOMPARE(t.nameOf(t.nodes[0].children[0]), QStringLiteral("A"));
    QCOMPARE(t.path(find(t, { "A", "B", "C" })).size(), size_t(3));
}

void TestCallTree::bottomUp()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(false));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeQuery q;
    q.traceId = 1;
    const CallTree td = callTree(ws, q);
    const CallTree t = bottomUpTree(td);
    QVERIFY(t.bottomUp);
    // A: self 30 + 10 everywhere; total 100, the inner A (recursion) counted once.
    QCOMPARE(figures(t, { "A" }), QStringLiteral("100/40/1"));
    QCOMPARE(figures(t, { "A", "A" }), QStringLiteral("20/10/1")); // A called by A
    QCOMPARE(figures(t, { "B" }), QStringLiteral("50/35/2"));
    QCOMPARE(figures(t, { "B", "A" }), QStringLiteral("50/35/2"));
    QCOMPARE(figures(t, { "C" }), QStringLiteral("20/20/2"));
    QCOMPARE(figures(t, { "C", "B" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "C", "B", "A" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "C", "A" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "C", "A", "A" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "cudaLaunchKernel", "B", "A" }), QStringLiteral("5/5/1"));
    QCOMPARE(figures(t, { "D" }), QStringLiteral("50/50/1"));
    // The functions' self times add up to the work.
    int64_t self = 0;
    for (const int32_t c : t.nodes[0].children)
        self += t.nodes[size_t(c)].selfNs;
    QCOMPARE(self, td.nodes[0].totalNs);
    // The top-down nodes behind a bottom-up node.
    const std::vector<int32_t> c = topDownNodesOf(td, t, find(t, { "C" }));
    QCOMPARE(c.size(), size_t(2));
    const std::vector<int32_t> cb = topDownNodesOf(td, t, find(t, { "C", "B" }));
    QCOMPARE(cb, std::vector<int32_t> { find(td, { "A", "B", "C" }) });
}

void TestCallTree::clippedRange()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(false));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeQuery q;
    q.traceId = 1;
    q.fromNs = 20 * us;
    q.toNs = 85 * us;
    const CallTree t = callTree(ws, q);
    QCOMPARE(t.rangeNs(), 65 * us);
    QCOMPARE(t.nodes[0].totalNs, 65 * us);
    QCOMPARE(figures(t, { "A" }), QStringLiteral("65/15/1"));
    QCOMPARE(figures(t, { "A", "B" }), QStringLiteral("40/30/2"));
    QCOMPARE(figures(t, { "A", "B", "C" }), QStringLiteral("5/5/1"));
    QCOMPARE(figures(t, { "A", "B", "cudaLaunchKernel" }), QStringLiteral("5/5/1"));
    QCOMPARE(figures(t, { "A", "A" }), QStringLiteral("10/5/1"));
    QCOMPARE(figures(t, { "A", "A", "C" }), QStringLiteral("5/5/1"));
    QCOMPARE(figures(t, { "D" }), QStringLiteral("absent"));
    const CallTree b = bottomUpTree(t);
    QCOMPARE(figures(b, { "A" }), QStringLiteral("65/20/1"));
    QCOMPARE(figures(b, { "C" }), QStringLiteral("10/10/2"));
    // A range with nothing in it.
    q.fromNs = 120 * us;
    q.toNs = 190 * us;
    const CallTree empty = callTree(ws, q);
    QCOMPARE(empty.nodes.size(), size_t(1));
    QCOMPARE(empty.nodes[0].totalNs, 0);
}

void TestCallTree::oneThreadAndStep()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(true));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    const std::vector<CallTreeThread> threads = callTreeThreads(ws, 1);
    QCOMPARE(threads.size(), size_t(3));
    QCOMPARE(threads[0].sliceCount, 7); // thread 1 and its CUDA API track, most slices first
    QCOMPARE(threads[0].sliceTracks.size(), size_t(2));
    QVERIFY2(threads[0].label.contains(QLatin1String("1")), qPrintable(threads[0].label));
    CallTreeQuery q;
    q.traceId = 1;
    q.threadKey = threadKeyWith(ws, 1, "D");
    QVERIFY(!q.threadKey.isEmpty());
    CallTree t = callTree(ws, q);
    QCOMPARE(t.nodes[0].children.size(), size_t(1));
    QCOMPARE(figures(t, { "D" }), QStringLiteral("50/50/1"));

    const auto step = callTreeStepRange(ws, 1, QStringLiteral("ProfilerStep#2"));
    QVERIFY(step.has_value());
    QCOMPARE(step->first, 60 * us);
    QCOMPARE(step->second, 120 * us);
    QVERIFY(callTreeStepRange(ws, 1, QStringLiteral("1")).has_value());
    QVERIFY(!callTreeStepRange(ws, 1, QStringLiteral("ProfilerStep#9")).has_value());
    q.threadKey = threadKeyWith(ws, 1, "A");
    q.fromNs = step->first;
    q.toNs = step->second;
    t = callTree(ws, q);
    QCOMPARE(figures(t, { "A" }), QStringLiteral("40/10/1"));
    QCOMPARE(figures(t, { "A", "B" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "A", "A" }), QStringLiteral("20/10/1"));
}

void TestCallTree::selectedSlices()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(false));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeQuery q;
    q.traceId = 1;
    const CallTree td = callTree(ws, q);
    std::vector<CallTreeSlice> s = callTreeSlices(ws, q, { find(td, { "A", "B" }) });
    QCOMPARE(s.size(), size_t(2));
    QCOMPARE(s[0].tsNs, 10 * us);
    QCOMPARE(s[0].durNs, 30 * us);
    QCOMPARE(s[0].depth, 1);
    QCOMPARE(s[1].tsNs, 50 * us);
    // Bottom-up C: both Cs, wherever they were called from.
    const CallTree bu = bottomUpTree(td);
    s = callTreeSlices(ws, q, topDownNodesOf(td, bu, find(bu, { "C" })));
    QCOMPARE(s.size(), size_t(2));
    QCOMPARE(s[0].tsNs, 15 * us);
    QCOMPARE(s[1].tsNs, 80 * us);
    QCOMPARE(s[1].depth, 2);
    QVERIFY(callTreeSlices(ws, q, {}).empty());
    QCOMPARE(callTreeSlices(ws, q, { find(td, { "A", "B" }) }, 1).size(), size_t(1));
}

// A slice that starts inside a call and outlives it, as Kineto's ProfilerStep ranges start inside the
// Python frame of profiler.step(): it belongs to the caller that holds it, and what starts in it after
// the call returned nests in it.
void TestCallTree::crossingSlice()
{
    const QByteArray json
        = "{\"traceEvents\": [\n"
          "{\"ph\":\"X\",\"name\":\"run\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
          "{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},\n"
          "{\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":90},\n"
          "{\"ph\":\"X\",\"name\":\"forward\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":50}\n"
          "]}\n";
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), json);
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeQuery q;
    q.traceId = 1;
    const CallTree t = callTree(ws, q);
    // run's self: [0, 100) less step [0, 10) and ProfilerStep#1 [5, 95), the overlap once.
    QCOMPARE(figures(t, { "run" }), QStringLiteral("100/5/1"));
    QCOMPARE(figures(t, { "run", "step" }), QStringLiteral("10/10/1"));
    QCOMPARE(figures(t, { "run", "ProfilerStep#1" }), QStringLiteral("90/40/1"));
    QCOMPARE(figures(t, { "run", "ProfilerStep#1", "forward" }), QStringLiteral("50/50/1"));
}

// What `plumb calltree` prints: the tree of one thread and step as JSON and text, and what it says of a
// thread or step the trace does not have.
void TestCallTree::presented()
{
    QTemporaryDir dir;
    const QString path = importTestJson(dir.path(), QStringLiteral("t.json"), nestedTrace(true));
    QVERIFY(!path.isEmpty());
    Workspace ws(path, Workspace::Role::Reader);
    CallTreeLookup r = readCallTree(ws, QStringLiteral("1"), QStringLiteral("1"),
        QStringLiteral("ProfilerStep#2"), CallTreeSource::Slices, false);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QJsonObject json = callTreeJson(r.presentation);
    QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("plumb.calltree/1"));
    QCOMPARE(json.value(QLatin1String("step")).toString(), QStringLiteral("ProfilerStep#2"));
    QCOMPARE(json.value(QLatin1String("total_ns")).toDouble(), 40.0 * us);
    const QJsonArray nodes = json.value(QLatin1String("nodes")).toArray();
    QCOMPARE(nodes.size(), 4); // A > A > C, A > B
    const QJsonObject a = nodes.at(0).toObject();
    QCOMPARE(a.value(QLatin1String("name")).toString(), QStringLiteral("A"));
    QCOMPARE(a.value(QLatin1String("parent")).toInt(), -1);
    QCOMPARE(a.value(QLatin1String("self_ns")).toDouble(), 10.0 * us);
    QCOMPARE(nodes.at(2).toObject().value(QLatin1String("name")).toString(), QStringLiteral("C"));
    QCOMPARE(nodes.at(2).toObject().value(QLatin1String("parent")).toInt(), 1);
    QCOMPARE(nodes.at(2).toObject().value(QLatin1String("depth")).toInt(), 2);
    QCOMPARE(nodes.at(3).toObject().value(QLatin1String("parent")).toInt(), 0);
    const QString text = callTreeText(r.presentation);
    QVERIFY2(text.contains(QString::fromUtf8("   40.0 µs    10.0 µs        1  66.7  A\n")), qPrintable(text));
    r = readCallTree(ws, QStringLiteral("1"), {}, {}, CallTreeSource::Slices, true);
    json = callTreeJson(r.presentation);
    QCOMPARE(json.value(QLatin1String("bottom_up")).toBool(), true);
    // Most self first: a ProfilerStep (60 µs of its own on thread 3), then D (50), then A (40).
    QCOMPARE(json.value(QLatin1String("nodes"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QLatin1String("self_ns"))
                 .toDouble(),
        60.0 * us);
    QVERIFY(readCallTree(ws, QStringLiteral("1"), QStringLiteral("99"), {}, CallTreeSource::Slices, false)
                .error.contains(QLatin1String("no CPU thread 99")));
    QVERIFY(readCallTree(
        ws, QStringLiteral("1"), {}, QStringLiteral("ProfilerStep#9"), CallTreeSource::Slices, false)
                .error.contains(QLatin1String("no step ProfilerStep#9")));
    QVERIFY(!readCallTree(ws, QStringLiteral("7"), {}, {}, CallTreeSource::Slices, false).error.isEmpty());
}

void TestCallTree::nsysSamples()
{
    const QString file
        = QStringLiteral(PLUMB_SHARED_DATA) + QStringLiteral("/traces/nsys/cloverleaf_nsys2024.5.sqlite");
    if (!QFileInfo::exists(file))
        QSKIP("../shared/data/traces/nsys is absent (it sits beside the checkout)");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.plumb"));
    const QString error = importIntoWorkspace(path, { file });
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The export's own count of samples, read from it directly.
    int64_t exported = 0;
    {
        SqliteDb raw(file, SqliteDb::OpenMode::ReadOnly);
        exported = raw.queryInt("SELECT count(*) FROM COMPOSITE_EVENTS");
    }
    QCOMPARE(exported, 1531);
    Workspace ws(path, Workspace::Role::Reader);
    const int64_t traceId = ws.db().queryInt("SELECT min(id) FROM trace");
    CallTreeQuery q;
    q.traceId = traceId;
    q.source = CallTreeSource::Samples;
    const CallTree t = callTree(ws, q);
    QCOMPARE(t.items, exported);
    QCOMPARE(t.nodes[0].count, exported);
    QVERIFY(t.samplePeriodNs > 0);
    QCOMPARE(t.nodes[0].totalNs, exported * t.samplePeriodNs);
    // Every node: its samples are its own or its children's.
    for (const CallTreeNode &n : t.nodes) {
        int64_t children = 0;
        for (const int32_t c : n.children)
            children += t.nodes[size_t(c)].totalNs;
        QCOMPARE(n.totalNs, n.selfNs + children);
    }
    // Bottom-up, each function's self samples are the samples the importer named after it (the leaf).
    const CallTree b = bottomUpTree(t);
    QVERIFY(b.nodes[0].children.size() > 1);
    SqliteStmt named(ws.db(),
        "SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id JOIN string n ON n.id = s.name_id "
        "WHERE k.trace_id = ? AND k.kind = 'cpu_samples' AND n.str = ?");
    int64_t self = 0;
    for (const int32_t c : b.nodes[0].children) {
        named.bind(1, traceId).bind(2, b.nameOf(c));
        QVERIFY(named.step());
        QCOMPARE(b.nodes[size_t(c)].selfNs / t.samplePeriodNs, named.columnInt(0));
        named.reset();
        self += b.nodes[size_t(c)].selfNs;
    }
    QCOMPARE(self, t.nodes[0].totalNs);
    // Selecting a top-down node's samples gives as many as it counts.
    const int32_t first = t.nodes[0].children[0];
    QCOMPARE(int64_t(callTreeSlices(ws, q, { first }).size()), t.nodes[size_t(first)].count);
    const std::vector<CallTreeThread> threads = callTreeThreads(ws, traceId);
    QVERIFY(!threads.empty());
    int64_t withSamples = 0;
    for (const CallTreeThread &th : threads)
        withSamples += th.sampleCount;
    QCOMPARE(withSamples, exported);
}

QTEST_GUILESS_MAIN(TestCallTree)
#include "tst_calltree.moc"
