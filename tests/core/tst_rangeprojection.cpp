// SPDX-License-Identifier: GPL-3.0-or-later
// Host ranges projected onto GPU lanes (core/rangeprojection.h), the rule the Nsight importer and the
// CUPTI collector share.
#include "ingest/rangeprojection.h"

#include <QtTest>

using plumb::RangeProjection;

namespace {

QStringList text(const std::vector<RangeProjection::Span> &spans)
{
    QStringList out;
    for (const auto &s : spans)
        out << QStringLiteral("lane %1: range %2 [%3, %4) %5 ops")
                   .arg(s.lane)
                   .arg(s.range)
                   .arg(s.start)
                   .arg(s.end)
                   .arg(s.ops);
    return out;
}

} // namespace

class TestRangeProjection : public QObject {
    Q_OBJECT

private slots:
    // A range spans the ops its calls launched, lane by lane; every range around a call projects, so
    // nesting carries over; a call outside every range and a range without calls project nothing.
    void nesting()
    {
        RangeProjection p(10);
        QCOMPARE(p.addRange(1, 0, 100), 0); // A
        QCOMPARE(p.addRange(1, 10, 40), 1); // B, in A
        QCOMPARE(p.addRange(1, 50, 90), 2); // C, in A
        QCOMPARE(p.addRange(1, 300, 400), 3); // D: no call inside
        p.addLaunch(1, 1, 5); // in A
        p.addLaunch(2, 1, 20); // in B
        p.addLaunch(6, 1, 40); // B closed at 40 exactly: in A
        p.addLaunch(3, 1, 60); // in C
        p.addLaunch(4, 1, 95); // in A again, after C closed
        p.addLaunch(5, 1, 200); // in nothing
        p.addOp(1, 7, 110, 120);
        p.addOp(2, 7, 120, 130);
        p.addOp(3, 8, 125, 140);
        p.addOp(4, 7, 150, 160);
        p.addOp(5, 7, 300, 310);
        p.addOp(9, 7, 320, 330); // no such call
        QCOMPARE(text(p.spans()),
            QStringList({
                QStringLiteral("lane 7: range 0 [110, 160) 3 ops"),
                QStringLiteral("lane 7: range 1 [120, 130) 1 ops"),
                QStringLiteral("lane 8: range 0 [125, 140) 1 ops"),
                QStringLiteral("lane 8: range 2 [125, 140) 1 ops"),
            }));
    }

    // For the same start the longer range comes first and encloses the other; ops of one lane may
    // arrive between another lane's, and a call key far above the table goes to the sorted list.
    void sameStartSparseKeysAndInterleavedOps()
    {
        RangeProjection p(4);
        QCOMPARE(p.addRange(1, 0, 50), 0);
        QCOMPARE(p.addRange(1, 0, 20), 1);
        QCOMPARE(p.addRange(2, 0, 100), 2);
        const int64_t far = (int64_t(9200) << 32) | 1; // a process-widened key
        p.addLaunch(1, 1, 5);
        p.addLaunch(2, 1, 30);
        p.addLaunch(far, 2, 10);
        p.addOp(1, 3, 10, 20);
        p.addOp(far, 4, 12, 18);
        p.addOp(2, 3, 40, 60);
        p.addOp(far, 4, 30, 35);
        p.addOp(1, 3, 60, 70);
        QCOMPARE(text(p.spans()),
            QStringList({
                QStringLiteral("lane 3: range 0 [10, 70) 3 ops"),
                QStringLiteral("lane 3: range 1 [10, 70) 2 ops"),
                QStringLiteral("lane 4: range 2 [12, 35) 2 ops"),
            }));
    }

    // What is not kept: an empty range, and a thread's ranges arriving in a second run.
    void rangesNotKept()
    {
        RangeProjection p;
        QCOMPARE(p.addRange(1, 10, 10), -1);
        QCOMPARE(p.addRange(1, 10, 20), 0);
        QCOMPARE(p.addRange(2, 0, 5), 1);
        QCOMPARE(p.addRange(1, 30, 40), -1);
        QVERIFY(p.hasRanges());
        QVERIFY(!p.hasLaunches());
        p.addLaunch(1, 1, 35); // inside the range that was not kept: nothing
        QVERIFY(!p.hasLaunches());
        p.addOp(1, 1, 0, 1);
        QVERIFY(p.spans().empty());
    }
};

QTEST_APPLESS_MAIN(TestRangeProjection)
#include "tst_rangeprojection.moc"
