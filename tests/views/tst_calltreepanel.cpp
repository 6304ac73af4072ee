// SPDX-License-Identifier: GPL-3.0-or-later
// The Call Tree tab: its model under QAbstractItemModelTester (top-down, bottom-up, behind the search
// proxy), the flame graph's boxes, and in the window: the tree of a generated trace, a click on a node
// (in the tree and in the flame graph) outlining exactly its slices in the timeline, the search, the
// bottom-up toggle, the timeline's Call Tree button, a range and a step.
#include "analysis/calltree.h"
#include "builtinimporters.h"
#include "calltree/calltreemodel.h"
#include "calltree/calltreepanel.h"
#include "calltree/flamegraphwidget.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "mainwindow.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int kTimeoutMs = 20000;
constexpr int64_t us = 1000;

// Two steps on thread 1 of A > B > C calls (B twice a step), a launch under each C, thread 2's D.
QByteArray trace()
{
    QStringList events;
    const auto cpu = [&](const QString &name, int tid, int ts, int dur) {
        events << QStringLiteral("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%1\",\"pid\":100,\"tid\":%2,"
                                 "\"ts\":%3,\"dur\":%4}")
                      .arg(name)
                      .arg(tid)
                      .arg(ts)
                      .arg(dur);
    };
    for (int step = 0; step < 2; ++step) {
        const int t0 = step * 1000;
        cpu(QStringLiteral("ProfilerStep#%1").arg(step + 1), 1, t0, 1000);
        cpu(QStringLiteral("A"), 1, t0 + 10, 900);
        for (int b = 0; b < 2; ++b) {
            const int tb = t0 + 20 + b * 400;
            cpu(QStringLiteral("B"), 1, tb, 300);
            cpu(QStringLiteral("C"), 1, tb + 10, 100);
            events << QStringLiteral(
                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                "\"pid\":100,\"tid\":1,\"ts\":%1,\"dur\":20,\"args\":{\"correlation\":%2}}")
                          .arg(tb + 20)
                          .arg(step * 10 + b + 1);
        }
    }
    cpu(QStringLiteral("D"), 2, 100, 50);
    return "{\"traceEvents\": [\n" + events.join(QStringLiteral(",\n")).toUtf8() + "\n]}\n";
}

int32_t childNamed(const CallTree &t, int32_t node, const char *name)
{
    for (const int32_t c : t.nodes[size_t(node)].children)
        if (t.nameOf(c) == QLatin1String(name))
            return c;
    return -1;
}

} // namespace

class TestCallTreePanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        registerBuiltinImporters(m_registry);
        QVERIFY(m_dir.isValid());
        m_ws = importTestJson(m_dir.path(), QStringLiteral("t.json"), trace());
        QVERIFY(!m_ws.isEmpty());
    }

    void modelUnderTester()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        CallTreeQuery q;
        q.traceId = 1;
        auto top = std::make_shared<CallTree>(callTree(ws, q));
        auto bottom = std::make_shared<CallTree>(bottomUpTree(*top));
        CallTreeModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy.setSortRole(CallTreeModel::SortRole);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(top);
        QCOMPARE(model.rowCount(), 3); // ProfilerStep#1, ProfilerStep#2, D
        proxy.sort(CallTreeModel::TotalColumn, Qt::DescendingOrder);
        proxy.setFilterFixedString(QStringLiteral("launch"));
        QVERIFY(proxy.rowCount() > 0);
        proxy.setFilterFixedString({});
        model.setTree(bottom);
        const QModelIndex c = model.indexOf(childNamed(*bottom, 0, "C"), CallTreeModel::SelfColumn);
        QVERIFY(c.isValid());
        QCOMPARE(c.data(CallTreeModel::SortRole).toLongLong(),
            4 * 80 * us); // 4 Cs of 100 µs, each launching for 20
        QCOMPARE(model.indexOf(childNamed(*bottom, 0, "C")).data().toString(), QStringLiteral("C"));
        model.setTree(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void flameBoxesFollowTotals()
    {
        CallTree t;
        t.nodes.resize(4);
        t.names = { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") };
        t.nodes[0].totalNs = 100;
        t.nodes[0].children = { 1, 2 };
        t.nodes[1] = { 0, 0, 75, 25, 1, { 3 } };
        t.nodes[2] = { 0, 1, 25, 25, 1, {} };
        t.nodes[3] = { 1, 2, 1, 1, 1, {} }; // 1% of 200 px: 2 px, drawn; of 100 px: not
        std::vector<FlameBox> boxes = flameBoxes(t, 0, 200, 2);
        QCOMPARE(boxes.size(), size_t(4));
        QCOMPARE(boxes[1].x, 0.0);
        QCOMPARE(boxes[1].width, 150.0);
        QCOMPARE(boxes[2].x, 150.0);
        QCOMPARE(boxes[2].depth, 1);
        QCOMPARE(boxes[3].depth, 2);
        QCOMPARE(flameBoxes(t, 0, 100, 2).size(), size_t(3));
        boxes = flameBoxes(t, 1, 300, 2); // zoomed into a: it spans the width
        QCOMPARE(boxes[0].width, 300.0);
        QCOMPARE(boxes[1].width, 4.0);
    }

    void clickOutlinesSlicesInTimeline()
    {
        MainWindow window(m_registry, m_ws);
        window.resize(1400, 900);
        window.show();
        QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
        QVERIFY(loaded.wait(kTimeoutMs));
        CallTreePanel *panel = window.callTreePanel();
        QSignalSpy ready(panel, &CallTreePanel::treeReady);
        window.openCallTree(1);
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(window.findChild<QTabWidget *>()->currentWidget(), panel);
        const CallTree &t = *panel->topDown();
        QCOMPARE(panel->threadBox()->count(), 3); // all, thread 1, thread 2
        QCOMPARE(panel->threadBox()->currentIndex(), 1); // the busiest thread
        QCOMPARE(t.nodes[0].totalNs, 2000 * us);
        QVERIFY(panel->rangeBox()->findText(QStringLiteral("ProfilerStep#2")) >= 0);

        // A click on ProfilerStep#1 > A > B in the tree: its 2 slices outlined in the timeline.
        const int32_t step = childNamed(t, 0, "ProfilerStep#1");
        const int32_t b = childNamed(t, childNamed(t, step, "A"), "B");
        QVERIFY(b > 0);
        QSignalSpy selected(panel, &CallTreePanel::slicesSelected);
        const QModelIndex row = panel->proxy()->mapFromSource(panel->model()->indexOf(b));
        panel->treeView()->scrollTo(row);
        QTest::mouseClick(
            panel->treeView()->viewport(), Qt::LeftButton, {}, panel->treeView()->visualRect(row).center());
        QVERIFY(selected.wait(kTimeoutMs));
        TimelineView *view = window.timelinePanel()->view();
        std::vector<CriticalPathSlice> outlined = view->highlightedSlices();
        QCOMPARE(outlined.size(), size_t(2));
        QCOMPARE(outlined[0].startNs, 20 * us);
        QCOMPARE(outlined[0].endNs, 320 * us);
        QCOMPARE(outlined[0].depth, 2);
        QCOMPARE(outlined[1].startNs, 420 * us);
        QCOMPARE(panel->flameGraph()->selectedNode(), b);

        // A click in the flame graph on C (bottom-up: every C, both steps).
        panel->bottomUpButton()->click();
        QVERIFY(panel->shown()->bottomUp);
        FlameGraphWidget *flame = panel->flameGraph();
        const int32_t c = childNamed(*panel->shown(), 0, "C");
        QTRY_VERIFY(!flame->boxOf(c).isEmpty());
        QTest::mouseClick(flame, Qt::LeftButton, {}, flame->boxOf(c).center().toPoint());
        QVERIFY(selected.wait(kTimeoutMs));
        outlined = view->highlightedSlices();
        QCOMPARE(outlined.size(), size_t(4));
        QCOMPARE(outlined[0].startNs, 30 * us);
        QCOMPARE(outlined[3].startNs, 1430 * us);
        QCOMPARE(panel->treeView()->currentIndex().data().toString(), QStringLiteral("C"));

        // Show in Timeline: the timeline over those slices, still outlined.
        QSignalSpy opened(view, &TimelineView::opened);
        panel->timelineButton()->click();
        QCOMPARE(window.findChild<QTabWidget *>()->currentWidget(), window.timelinePanel());
        QCOMPARE(view->highlightedSlices().size(), size_t(4));

        // The search keeps what matches and what leads to it.
        panel->bottomUpButton()->click();
        panel->searchField()->setText(QStringLiteral("launch"));
        QCOMPARE(panel->proxy()->rowCount(), 2); // the steps lead to launches, D does not
    }

    // The timeline's Call Tree button: the range selected there, in the Call Tree tab.
    void timelineRangeOpensCallTree()
    {
        MainWindow window(m_registry, m_ws);
        window.show();
        QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
        QVERIFY(loaded.wait(kTimeoutMs));
        TimelinePanel *timeline = window.timelinePanel();
        QSignalSpy opened(timeline->view(), &TimelineView::opened);
        window.openTimeline(1);
        QVERIFY(opened.wait(kTimeoutMs));
        QVERIFY(!timeline->callTreeButton()->isEnabled());
        const int64_t offset = timeline->view()->tracks().front().offsetNs;
        timeline->view()->setRange(offset + 1000 * us, offset + 1250 * us, {});
        QVERIFY(timeline->callTreeButton()->isEnabled());
        QSignalSpy ready(window.callTreePanel(), &CallTreePanel::treeReady);
        timeline->callTreeButton()->click();
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(window.findChild<QTabWidget *>()->currentWidget(), window.callTreePanel());
        QCOMPARE(window.callTreePanel()->topDown()->fromNs, 1000 * us);
        QCOMPARE(window.callTreePanel()->topDown()->rangeNs(), 250 * us);
        QVERIFY(
            window.callTreePanel()->rangeBox()->currentText().startsWith(QStringLiteral("Timeline range")));
    }

    void rangeAndStep()
    {
        MainWindow window(m_registry, m_ws);
        window.show();
        QSignalSpy loaded(&window, &MainWindow::workspaceLoaded);
        QVERIFY(loaded.wait(kTimeoutMs));
        CallTreePanel *panel = window.callTreePanel();
        QSignalSpy ready(panel, &CallTreePanel::treeReady);
        window.openCallTree(1, 1000 * us, 1500 * us, QStringLiteral("half of step 2"));
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(panel->rangeBox()->currentText(), QStringLiteral("half of step 2"));
        QCOMPARE(panel->topDown()->rangeNs(), 500 * us);
        QCOMPARE(panel->topDown()->nodes[0].totalNs, 500 * us); // ProfilerStep#2's first half
        QVERIFY(panel->showStep(QStringLiteral("ProfilerStep#1")));
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(panel->topDown()->rangeNs(), 1000 * us);
        QCOMPARE(childNamed(*panel->topDown(), 0, "D"), -1); // thread 1's
        panel->threadBox()->setCurrentIndex(0); // every thread's
        QVERIFY(ready.wait(kTimeoutMs));
        QVERIFY(childNamed(*panel->topDown(), 0, "D") > 0);
        // One thread: thread 2 alone.
        panel->threadBox()->setCurrentIndex(panel->threadBox()->count() - 1);
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(panel->topDown()->nodes[0].children.size(), size_t(1));
        QCOMPARE(panel->topDown()->nameOf(panel->topDown()->nodes[0].children[0]), QStringLiteral("D"));
    }

private:
    ImporterRegistry m_registry;
    QTemporaryDir m_dir;
    QString m_ws;
};

QTEST_MAIN(TestCallTreePanel)
#include "tst_calltreepanel.moc"
