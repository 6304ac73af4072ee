// SPDX-License-Identifier: GPL-3.0-or-later
// NsysCallchains and NsysBacktraces on their own: callchain ids to stacks (dense and sparse), a
// callchain table read into distinct stacks (in storage order or not, at most kMaxFrames frames), and
// each stack as the JSON array the args carry.

#include "nsys/nsysbacktraces.h"
#include "nsys/nsyscallchains.h"
#include "nsysunitfixture.h"

#include <QtTest>

#include <atomic>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

// (id, depth, symbol, module, unresolved) rows of SAMPLING_CALLCHAINS; `deep`: id 6 has 18 frames.
std::string chainsExport(bool idsOutOfOrder)
{
    std::string rows = idsOutOfOrder
        ? "(2, 0, 20, 30, 0), (2, 1, 21, 31, 0), (1, 0, 20, 30, 0), (1, 1, 21, 31, 0),"
        : "(1, 0, 20, 30, 0), (1, 1, 21, 31, 0), (2, 0, 20, 30, 0), (2, 1, 21, 31, 0),";
    rows += "(3, 0, 22, 32, 1),";
    for (int d = 0; d < 18; ++d) {
        rows += "(6, " + std::to_string(d) + ", " + std::to_string(40 + d) + ", 31, 0),";
    }
    rows.back() = ';';
    std::string strings = "(20, 'compute'), (21, 'main'), (22, '0x7f00'), (30, '/app/libwork.so'), "
                          "(31, '/app/a.out'), (32, '/lib/libc.so.6')";
    for (int d = 0; d < 18; ++d) {
        strings += ", (" + std::to_string(40 + d) + ", 'f" + std::to_string(d) + "')";
    }
    return std::string(kBaseTables) + "INSERT INTO StringIds VALUES " + strings
        + ";"
          "CREATE TABLE COMPOSITE_EVENTS(id INTEGER, start INTEGER, globalTid INTEGER);"
          "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT "
          "NULL, unresolved INTEGER, stackDepth INTEGER NOT NULL);"
          "INSERT INTO SAMPLING_CALLCHAINS(id, stackDepth, symbol, module, unresolved) VALUES "
        + rows;
}

NsysCallchains readChains(const MiniExport &x)
{
    NsysSchema schema(x.path());
    std::atomic<bool> stop { false };
    auto f = NsysCallchains::start(schema, x.path(), "SAMPLING_CALLCHAINS", "COMPOSITE_EVENTS", stop);
    if (!f.valid()) {
        throw std::runtime_error("no callchains read");
    }
    return f.get();
}

} // namespace

class TestNsysCallchains : public QObject {
    Q_OBJECT
private slots:
    void denseAndSparseIds();
    void readsDistinctStacks_data();
    void readsDistinctStacks();
    void needsTheTables();
    void backtraceJson();
};

void TestNsysCallchains::denseAndSparseIds()
{
    NsysCallchains c;
    c.add(10, 0);
    c.add(11, 1);
    c.add(13, 2);
    QCOMPARE(c.find(10), 0u);
    QCOMPARE(c.find(11), 1u);
    QCOMPARE(c.find(12), NsysCallchains::kNone); // the gap
    QCOMPARE(c.find(13), 2u);
    QCOMPARE(c.find(9), NsysCallchains::kNone);
    QCOMPARE(c.find(14), NsysCallchains::kNone);
    c.add(10'000'000, 3); // far past the dense ids: kept as pairs from here on
    QCOMPARE(c.find(10), 0u);
    QCOMPARE(c.find(11), 1u);
    QCOMPARE(c.find(12), NsysCallchains::kNone);
    QCOMPARE(c.find(13), 2u);
    QCOMPARE(c.find(10'000'000), 3u);
    QCOMPARE(c.find(9'999'999), NsysCallchains::kNone);
}

void TestNsysCallchains::readsDistinctStacks_data()
{
    QTest::addColumn<bool>("outOfOrder");
    QTest::newRow("storage order") << false;
    QTest::newRow("ids out of order") << true;
}

void TestNsysCallchains::readsDistinctStacks()
{
    QFETCH(bool, outOfOrder);
    const MiniExport x(chainsExport(outOfOrder));
    const NsysCallchains c = readChains(x);
    QCOMPARE(c.stacks.size(), size_t(3)); // ids 1 and 2 share their stack
    QCOMPARE(c.find(1), c.find(2));
    QVERIFY(c.find(1) != NsysCallchains::kNone);
    QCOMPARE(c.find(4), NsysCallchains::kNone);
    const auto &two = c.stacks[c.find(1)];
    QCOMPARE(two.size(), size_t(2));
    QCOMPARE(two[0], (NsysCallchains::Frame { 20, 30, false })); // leaf first
    QCOMPARE(two[1], (NsysCallchains::Frame { 21, 31, false }));
    QCOMPARE(c.stacks[c.find(3)], (std::vector<NsysCallchains::Frame> { { 22, 32, true } }));
    const auto &deep = c.stacks[c.find(6)];
    QCOMPARE(deep.size(), NsysCallchains::kMaxFrames);
    QCOMPARE(std::get<0>(deep.back()), int64_t(40 + NsysCallchains::kMaxFrames - 1));
}

void TestNsysCallchains::needsTheTables()
{
    const MiniExport x(chainsExport(false));
    NsysSchema schema(x.path());
    std::atomic<bool> stop { false };
    QVERIFY(NsysCallchains::exists(schema, "SAMPLING_CALLCHAINS"));
    QVERIFY(!NsysCallchains::exists(schema, "OSRT_CALLCHAINS"));
    // No events to put the backtraces on, or no backtraces: nothing is read.
    QVERIFY(!NsysCallchains::start(schema, x.path(), "SAMPLING_CALLCHAINS", "OSRT_API", stop).valid());
    QVERIFY(!NsysCallchains::start(schema, x.path(), "OSRT_CALLCHAINS", "COMPOSITE_EVENTS", stop).valid());
}

void TestNsysCallchains::backtraceJson()
{
    const MiniExport x(chainsExport(false));
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    NsysBacktraces b("SAMPLING_CALLCHAINS");
    QVERIFY(!b.isRead());
    b.set(readChains(x));
    QVERIFY(b.isRead());
    QCOMPARE(b.json(b.chains().find(1), strings), std::string("[\"compute (libwork.so)\",\"main (a.out)\"]"));
    QCOMPARE(b.json(b.chains().find(3), strings), std::string("[\"0x7f00 (libc.so.6)\"]"));
}

QTEST_GUILESS_MAIN(TestNsysCallchains)
#include "tst_nsyscallchains.moc"
