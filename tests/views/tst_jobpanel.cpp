// SPDX-License-Identifier: GPL-3.0-or-later
// The Job tab (issue 36) on a generated 8-rank job (rankjobgen: rank 5 the straggler, rank 2
// input-bound) imported in 2 shards and merged: the tab appears for the job workspace, with its figures,
// verdict, ranks table (the straggler first by waited-for time) and heat map; a rank's timeline opens
// from its shard, its Doctor from the job's summaries; and a workspace without a job hides the tab.

#include "builtinimporters.h"
#include "charts/rankheatmapchart.h"
#include "doctor/doctorpanel.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "job/jobmerge.h"
#include "job/jobpanel.h"
#include "job/jobranksmodel.h"
#include "job/shard.h"
#include "mainwindow.h"
#include "rankjobgen.h"
#include "timeline/timelinepanel.h"
#include "timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace plumb;

class TestJobPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_job;
    ImporterRegistry m_registry;

private Q_SLOTS:
    void initTestCase()
    {
        registerBuiltinImporters(m_registry);
        bench::RankJobOptions o;
        o.ranks = 8;
        o.inputBoundRank = 2;
        std::string error;
        QVERIFY2(bench::writeRankJob(m_tmp.filePath(QStringLiteral("job")).toStdString(), o, &error),
            error.c_str());
        for (int i = 0; i < 2; ++i)
            importShard(m_registry, { m_tmp.filePath(QStringLiteral("job")) }, { i, 2 },
                m_tmp.filePath(QStringLiteral("shards/shard-%1.plumb").arg(i)));
        m_job = m_tmp.filePath(QStringLiteral("job.plumb"));
        QVERIFY(mergeShards(m_tmp.filePath(QStringLiteral("shards")), m_job).complete());
    }

    void panelShowsTheJob()
    {
        JobPanel panel;
        QSignalSpy loaded(&panel, &JobPanel::loaded);
        panel.setWorkspace(m_job);
        QVERIFY(loaded.wait(10'000));
        QVERIFY(panel.hasJob());
        const JobView &job = panel.job();
        QCOMPARE(job.ranks.size(), size_t(8));
        QVERIFY2(job.verdict.contains(QLatin1String("rank 5")), qPrintable(job.verdict));
        const QList<QLabel *> labels = panel.findChildren<QLabel *>();
        QVERIFY(
            std::any_of(labels.begin(), labels.end(), [&](QLabel *l) { return l->text() == job.verdict; }));

        auto *table = panel.findChild<QTableView *>();
        QVERIFY(table);
        QAbstractItemModelTester tester(
            table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(table->model()->rowCount(), 8);
        // Sorted by the time the others waited for it, descending: the straggler first.
        table->sortByColumn(JobRanksModel::WaitColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, JobRanksModel::RankColumn).data().toString(), QStringLiteral("5"));
        QVERIFY(table->model()
                    ->index(0, JobRanksModel::VerdictColumn)
                    .data()
                    .toString()
                    .contains(QLatin1String("straggler")));
        QCOMPARE(table->model()->index(0, JobRanksModel::LastColumn).data().toInt(), 8);

        auto *map = panel.findChild<RankHeatmapChart *>();
        QVERIFY(map);
        auto *colorMap = qobject_cast<QCPColorMap *>(map->plot()->plottable(0));
        QVERIFY(colorMap);
        QCOMPARE(colorMap->data()->keySize(), 8); // steps
        QCOMPARE(colorMap->data()->valueSize(), 8); // ranks
        QCOMPARE(map->plot()->graph(0)->dataCount(), 8); // a straggler ringed in every step
        // A cell's tooltip: its rank and step, and who the step waited for, how long.
        const QString tip = map->cellText(2, 3);
        QVERIFY2(tip.startsWith(QLatin1String("rank 2, ProfilerStep#3")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("waited for rank 5")), qPrintable(tip));
        QVERIFY(map->cellText(8, 0).isEmpty());
        // A click on a rank's row of the map selects it in the table.
        QSignalSpy clicked(map, &RankHeatmapChart::rankClicked);
        const QPoint at(int(map->plot()->xAxis->coordToPixel(3)), int(map->plot()->yAxis->coordToPixel(2)));
        QTest::mouseClick(map->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.front().front().toLongLong(), 2);
        const QModelIndexList selected = table->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().data().toString(), QStringLiteral("2"));
    }

    void windowOpensRanks()
    {
        MainWindow window(m_registry, m_job);
        QSignalSpy loaded(window.jobPanel(), &JobPanel::loaded);
        window.show();
        QVERIFY(loaded.wait(10'000));
        auto *tabs = window.findChild<QTabWidget *>();
        QVERIFY(tabs->isTabVisible(tabs->indexOf(window.jobPanel())));
        window.openJob();
        QCOMPARE(tabs->currentWidget(), window.jobPanel());

        // Rank 3's timeline: its events, from its shard (the job workspace has none).
        QSignalSpy opened(window.timelinePanel()->view(), &TimelineView::opened);
        window.openTimeline(4); // trace ids are ranks + 1
        QVERIFY(opened.wait(10'000));
        QVERIFY2(opened.front().front().toString().isEmpty(), qPrintable(opened.front().front().toString()));
        QVERIFY(!window.timelinePanel()->view()->tracks().isEmpty());

        // Its Doctor: from the job's summaries, the job's straggler weighed in.
        QSignalSpy doctor(window.doctorPanel(), &DoctorPanel::loaded);
        window.openDoctor(4);
        QVERIFY(doctor.wait(10'000));
        QCOMPARE(tabs->currentWidget(), window.doctorPanel());
    }

    void noJobNoTab()
    {
        const QString single = m_tmp.filePath(QStringLiteral("one.plumb"));
        QVERIFY(importIntoWorkspace(single, { m_tmp.filePath(QStringLiteral("job/rank-0.json")) }).isEmpty());
        MainWindow window(m_registry, single);
        QSignalSpy loaded(window.jobPanel(), &JobPanel::loaded);
        window.show();
        QVERIFY(loaded.wait(10'000));
        auto *tabs = window.findChild<QTabWidget *>();
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(window.jobPanel())));
        QVERIFY(!window.jobPanel()->hasJob());
    }
};

QTEST_MAIN(TestJobPanel)
#include "tst_jobpanel.moc"
