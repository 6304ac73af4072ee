// SPDX-License-Identifier: GPL-3.0-or-later
// The Memory tab on generated memory traces (tests/support/memorytracegen.h): the timeline loads off the
// GUI thread into the figures, the chart (the peak marked where it was) and the two allocation tables,
// whose models pass QAbstractItemModelTester and sort on numbers; the device box switches device; a
// double-click on an allocation asks for the timeline around it; a trace without memory events says so.

#include "charts/memorychart.h"
#include "importhelpers.h"
#include "memory/memoryallocationmodel.h"
#include "memory/memorypanel.h"
#include "memorytracegen.h"
#include "store/workspace.h"
#include "text/textformat.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestMemoryPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_ws;
    MemoryTimeline m_expected;

private Q_SLOTS:
    void initTestCase()
    {
        testgen::MemoryTraceSpec spec;
        spec.events = 4000;
        spec.devices = 2;
        spec.seed = 11;
        spec.preCaptureBytes = 32 << 20;
        m_ws = importTestJson(m_tmp.path(), QStringLiteral("mem.json"), testgen::memoryTraceJson(spec));
        QVERIFY(!m_ws.isEmpty());
        Workspace ws(m_ws, Workspace::Role::Reader);
        m_expected = memoryTimeline(ws, 1);
        QCOMPARE(m_expected.devices.size(), size_t(2));
    }

    void loads()
    {
        MemoryPanel panel;
        QAbstractItemModelTester liveTester(
            panel.liveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester largestTester(
            panel.largestModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            panel.liveTable()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &MemoryPanel::loaded);
        panel.resize(1000, 700);
        panel.show();
        panel.open(m_ws, 1, QStringLiteral("mem.json"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(!panel.isEmptyShown());
        QCOMPARE(panel.deviceIndex(), 0);
        const DeviceMemory &d = m_expected.devices[0];
        QCOMPARE(panel.liveModel()->rowCount(), int(d.liveAtPeak.size()));
        QCOMPARE(panel.largestModel()->rowCount(), int(d.largest.size()));
        QVERIFY(panel.summaryText().contains(text::bytes(d.peakAllocatedBytes)));
        // The peak is marked where it happened, in the chart's unit.
        const QPointF peak = panel.chart()->peakMark();
        QCOMPARE(peak.x(), double(d.peakNs - m_expected.startNs) / 1e6);
        QVERIFY(peak.y() > 0);

        // Sorted by size, largest first, on the numbers.
        QAbstractItemModel *proxy = panel.liveTable()->model();
        for (int row = 1; row < proxy->rowCount(); ++row)
            QVERIFY(proxy->index(row - 1, MemoryAllocationModel::BytesColumn)
                        .data(MemoryAllocationModel::SortRole)
                        .toLongLong()
                >= proxy->index(row, MemoryAllocationModel::BytesColumn)
                       .data(MemoryAllocationModel::SortRole)
                       .toLongLong());
        // By the time it was freed: those never freed last.
        panel.liveTable()->sortByColumn(MemoryAllocationModel::FreedColumn, Qt::AscendingOrder);
        const int last = proxy->rowCount() - 1;
        QVERIFY(last > 0);
        const qint64 lastFreed = proxy->index(last, MemoryAllocationModel::FreedColumn)
                                     .data(MemoryAllocationModel::SortRole)
                                     .toLongLong();
        for (int row = 0; row < last; ++row)
            QVERIFY(proxy->index(row, MemoryAllocationModel::FreedColumn)
                        .data(MemoryAllocationModel::SortRole)
                        .toLongLong()
                <= lastFreed);

        // A double-click asks for the timeline around the allocation.
        QSignalSpy timeline(&panel, &MemoryPanel::showInTimeline);
        const QModelIndex first = proxy->index(0, MemoryAllocationModel::OpColumn);
        const qint64 ts = first.data(MemoryAllocationModel::TimeRole).toLongLong();
        Q_EMIT panel.liveTable()->doubleClicked(first); // as QAbstractItemView emits it
        QCOMPARE(timeline.count(), 1);
        QCOMPARE(timeline.at(0).at(0).toLongLong(), qint64(1));
        QCOMPARE(timeline.at(0).at(1).toLongLong(), ts - MemoryPanel::kTimelineMarginNs);
        QCOMPARE(timeline.at(0).at(2).toLongLong(), ts + MemoryPanel::kTimelineMarginNs);

        // The records exported: a header, then raw bytes and times after the trace's start.
        const QList<QStringList> records = panel.liveModel()->records({ 0 });
        QCOMPARE(records.size(), 2);
        QCOMPARE(records[0].first(), QStringLiteral("bytes"));
        QCOMPARE(records[1].first(), QString::number(panel.liveModel()->allocation(0).bytes));

        // The second GPU.
        panel.selectDevice(1);
        QCOMPARE(panel.deviceIndex(), 1);
        QCOMPARE(panel.liveModel()->rowCount(), int(m_expected.devices[1].liveAtPeak.size()));
        QCOMPARE(
            panel.chart()->peakMark().x(), double(m_expected.devices[1].peakNs - m_expected.startNs) / 1e6);
    }

    void noMemory()
    {
        QTemporaryDir tmp;
        const QString ws = importTestJson(tmp.path(), QStringLiteral("ops.json"),
            "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"
            "\"ts\":0,"
            "\"dur\":10}]}");
        QVERIFY(!ws.isEmpty());
        MemoryPanel panel;
        QSignalSpy loaded(&panel, &MemoryPanel::loaded);
        panel.open(ws, 1, QStringLiteral("ops.json"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(panel.isEmptyShown());
        QCOMPARE(panel.liveModel()->rowCount(), 0);
        panel.close();
        QVERIFY(panel.isEmptyShown());
    }
};

QTEST_MAIN(TestMemoryPanel)
#include "tst_memorypanel.moc"
