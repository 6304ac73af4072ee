// SPDX-License-Identifier: GPL-3.0-or-later
// Flow pairing of a trace import (core/ingest/trace/flowtracker.h): ends paired by (category, id) in
// either order, single ends kept and counted, ends moved between tracks after the load.
#include "ingest/diagnosticlog.h"
#include "ingest/trace/flowtracker.h"
#include "ingest/trace/tracewriter.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestFlowTracker : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void pairing()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("p.plumb")), Workspace::Role::Writer);
        TraceWriter writer(ws.db(), 1);
        TraceStats stats;
        FlowTracker flows(writer, stats, 50);
        const auto &rows = writer.batch().flows;
        flows.flowStart(1, 7, 10, 100);
        QVERIFY(rows.empty());
        flows.flowEnd(1, 7, 11, 150);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].id, int64_t(50));
        QCOMPARE(rows[0].srcTrack, int64_t(10));
        QCOMPARE(rows[0].srcTs, int64_t(100));
        QCOMPARE(rows[0].dstTrack, int64_t(11));
        QCOMPARE(rows[0].dstTs, int64_t(150));
        flows.flowEnd(1, 8, 11, 300); // the end first
        flows.flowStart(1, 8, 10, 200);
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].srcTs, int64_t(200));
        QCOMPARE(rows[1].dstTs, int64_t(300));
        flows.flowStart(2, 7, 10, 400); // same id, other category: its own flow
        flows.flowStart(2, 7, 10, 500); // a second start: the first dangles
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[2].srcTs, int64_t(400));
        QCOMPARE(rows[2].dstTrack, kNoValue);
        flows.flowEnd(2, 7, 11, 600);
        QCOMPARE(rows.size(), size_t(4));
        QCOMPARE(rows[3].srcTs, int64_t(500));
        QCOMPARE(rows[3].dstTs, int64_t(600));
        flows.flowEnd(3, 1, 11, 700); // never started
        DiagnosticLog diag;
        flows.finish(diag);
        QCOMPARE(rows.size(), size_t(5));
        QCOMPARE(rows[4].srcTrack, kNoValue);
        QCOMPARE(rows[4].dstTs, int64_t(700));
        QCOMPARE(flows.danglingFlows(), int64_t(2));
        QCOMPARE(diag.countOf(QStringLiteral("dangling-flow")), int64_t(2));
        QCOMPARE(stats.flows, int64_t(5));
    }

    // Ends of one category on one track move to another once the rows are in; others stay.
    void relocation()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("r.plumb")), Workspace::Role::Writer);
        {
            TraceWriter writer(ws.db(), 4);
            TraceStats stats;
            FlowTracker flows(writer, stats, 1);
            flows.flowStart(1, 1, 10, 0);
            flows.flowEnd(1, 1, 20, 5);
            flows.flowStart(2, 1, 10, 0);
            flows.flowEnd(2, 1, 20, 5);
            flows.relocateEnds(10, 30, 1);
            flows.relocateEnds(20, 40, 1);
            DiagnosticLog diag;
            flows.finish(diag);
            QVERIFY(diag.all().empty());
            writer.flush();
            writer.finish();
            flows.applyRelocations(ws.db(), 4);
        }
        QCOMPARE(
            ws.db().queryInt("SELECT src_track * 100 + dst_track FROM flow WHERE cat_id = 1"), int64_t(3040));
        QCOMPARE(
            ws.db().queryInt("SELECT src_track * 100 + dst_track FROM flow WHERE cat_id = 2"), int64_t(1020));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestFlowTracker)
#include "tst_flowtracker.moc"
