// SPDX-License-Identifier: GPL-3.0-or-later
// The launch -> GPU op links of a trace without flow events (core/corrlinks.h): what the Nsight and
// XPlane importers report as the trace's flows.
#include "ingest/corrlinks.h"

#include <QtTest>

using plumb::CorrLinkCounter;

class TestCorrLinks : public QObject {
    Q_OBJECT

private slots:
    // Calls before their ops, as the Nsight importer reads them: each op whose call was seen counts,
    // ops of one call each (a memcpy and a kernel, or a graph's kernels), an op of no call does not.
    void callsFirst()
    {
        CorrLinkCounter c;
        for (int64_t k = 1; k <= 5; ++k)
            c.addLaunch(k);
        c.addOp(1);
        c.addOp(2);
        c.addOp(2);
        c.addOp(9); // its call is not in the trace
        c.addOp(0);
        QCOMPARE(c.links(), int64_t(3));
    }

    // Ops before their calls (an XSpace with the GPU planes before the host's): the same count.
    void opsFirst()
    {
        CorrLinkCounter c;
        c.addOp(3);
        c.addOp(4);
        c.addOp(70);
        c.addLaunch(4);
        c.addLaunch(3);
        c.addLaunch(1);
        QCOMPARE(c.links(), int64_t(2));
    }

    // Keys widened with a process id (pid << 32 | id): the same id in two processes is two calls,
    // and an op links only to its own process's call.
    void perProcessKeys()
    {
        const auto key = [](int64_t pid, int64_t id) { return pid << 32 | id; };
        CorrLinkCounter c;
        c.addLaunch(key(100, 1));
        c.addLaunch(key(200, 2));
        c.addOp(key(100, 1));
        c.addOp(key(200, 1)); // process 200 made no call 1
        c.addOp(key(200, 2));
        c.addOp(key(100, 2)); // nor process 100 a call 2
        QCOMPARE(c.links(), int64_t(2));
    }

    // Keys no table holds (a low part past 2^27, negative ids): kept aside, and still matched.
    void sparseKeys()
    {
        CorrLinkCounter c;
        const int64_t big = (int64_t(1) << 31) + 7;
        c.addLaunch(big);
        c.addLaunch(-5);
        c.addOp(big);
        c.addOp(big + 1);
        c.addOp(-5);
        c.addOp(-6);
        QCOMPARE(c.links(), int64_t(2));
    }
};

QTEST_APPLESS_MAIN(TestCorrLinks)
#include "tst_corrlinks.moc"
