// SPDX-License-Identifier: GPL-3.0-or-later
// The Experiments tab on a workspace imported from the repo's TensorBoard and MLflow fixtures: the runs
// table's columns, values, numeric sorting, filter, grouping (headers first, a header selects its
// runs), nested runs, column chooser and CSV; the selection driving the Scalars page (tags, charts,
// the latest-segment rule and restart markers on the restarted fixture, every segment on demand),
// the smoothing slider, and the chart's decimation; and the tab in the main window.

#include "analysis/scalarseries.h"
#include "builtinimporters.h"
#include "charts/scalarchart.h"
#include "experiments/experimentspanel.h"
#include "experiments/runsfilterproxy.h"
#include "experiments/runstablemodel.h"
#include "experiments/scalarspage.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "mainwindow.h"
#include "store/experimentreader.h"
#include "store/workspace.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace plumb;

namespace {

constexpr int kLoadTimeoutMs = 60'000;

QString fixture(const char *relative)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(relative);
}

// Names of the runs shown, in table order (group headers as "#header").
QStringList shownNames(const RunsFilterProxy *proxy)
{
    QStringList names;
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex i = proxy->index(r, RunsTableModel::NameColumn);
        names << (i.data(RunsTableModel::HeaderRole).toBool() ? QStringLiteral("#header")
                                                              : i.data().toString());
    }
    return names;
}

} // namespace

class TestExperimentsPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_tmp.isValid());
        m_ws = m_tmp.filePath(QStringLiteral("w.plumb"));
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        ImportRunner runner(registry, m_ws);
        // The MLflow store's artifacts are no importer's: "not recognised" is expected for them.
        for (const FileImportResult &r :
            runner.run({ fixture("tfevents/data/hparams"), fixture("tfevents/data/restart"),
                fixture("tfevents/data/legacy"), fixture("mlflow/data/filestore") }))
            QVERIFY2(r.status == FileImportResult::Status::Imported
                    || (r.status == FileImportResult::Status::Unrecognised
                        && r.path.contains(QStringLiteral("/artifacts/"))),
                qPrintable(r.path + QStringLiteral(": ") + r.message));
        Workspace ws(m_ws, Workspace::Role::Reader);
        ExperimentReader reader(ws);
        for (const ExperimentRunInfo &r : reader.runs())
            m_runIds.insert(r.name, r.id);
        QVERIFY2(m_runIds.contains(QStringLiteral("alpha")), qPrintable(m_runIds.keys().join(u',')));
        QVERIFY(m_runIds.contains(QStringLiteral("hparams/trial_a")));
        QVERIFY(m_runIds.contains(QStringLiteral("data/restart")));
    }

    void runsTable()
    {
        ExperimentsPanel panel;
        panel.resize(1300, 800);
        QAbstractItemModelTester modelTester(
            panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &ExperimentsPanel::loaded);
        panel.setWorkspace(m_ws);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);
        RunsTableModel *m = panel.model();
        QCOMPARE(m->runCount(), int(m_runIds.size()));
        // At most kAutoSelectRuns runs: all selected on the first load.
        QCOMPARE(panel.selectedRunIds().size(), m_runIds.size());

        // Params and per-tag columns.
        QVERIFY(m->paramKeys().contains(QStringLiteral("lr")));
        QVERIFY(m->paramKeys().contains(QStringLiteral("optimizer")));
        QVERIFY(m->metricKeys().contains(QStringLiteral("loss")));
        QVERIFY(m->metricKeys().contains(QStringLiteral("epoch_accuracy")));
        const int lr = m->paramColumn(QStringLiteral("lr"));
        const int alpha = m->rowForRun(m_runIds[QStringLiteral("alpha")]);
        const int beta = m->rowForRun(m_runIds[QStringLiteral("beta")]);
        const int restart = m->rowForRun(m_runIds[QStringLiteral("data/restart")]);
        QCOMPARE(m->index(alpha, lr).data(RunsTableModel::SortRole).toDouble(), 0.001);
        QCOMPARE(m->index(alpha, lr).data().toString(), QStringLiteral("0.001"));
        QCOMPARE(m->index(alpha, RunsTableModel::StatusColumn).data().toString(), QStringLiteral("success"));
        QCOMPARE(m->index(alpha, RunsTableModel::GroupColumn).data().toString(), QStringLiteral("Default"));
        QCOMPARE(
            m->index(alpha, RunsTableModel::DurationColumn).data(RunsTableModel::SortRole).toDouble(), 60e9);
        QCOMPARE(m->index(restart, RunsTableModel::RestartsColumn).data().toString(), QStringLiteral("2"));
        // beta's loss: steps 0..2 (1, NaN, inf), then again from 0 (-inf, 3): last 3 (of the last segment);
        // min and best (a loss: the minimum) over every segment's finite values.
        const int lossLast = m->metricColumn(QStringLiteral("loss"), RunsTableModel::Stat::Last);
        const int lossBest = m->metricColumn(QStringLiteral("loss"), RunsTableModel::Stat::Best);
        const int lossMin = m->metricColumn(QStringLiteral("loss"), RunsTableModel::Stat::Min);
        QCOMPARE(m->index(beta, lossLast).data().toString(), QStringLiteral("3"));
        QCOMPARE(m->index(beta, lossBest).data().toDouble(), 1.0);
        QCOMPARE(m->index(beta, lossMin).data().toDouble(), 1.0);
        QVERIFY(m->headerData(lossBest, Qt::Horizontal).toString().contains(QStringLiteral("↓")));
        QVERIFY(RunsTableModel::guessBestIsMax(QStringLiteral("epoch_accuracy")));
        QVERIFY(!RunsTableModel::guessBestIsMax(QStringLiteral("val/error_rate")));
        // The restarted run's loss: the last value of the last segment (104), its best over all (0).
        QCOMPARE(m->index(restart, lossLast).data().toDouble(), 104.0);
        QCOMPARE(m->index(restart, lossBest).data().toDouble(), 0.0);

        // The header menu flips best to the maximum.
        QMenu *menu = panel.columnMenu(lossBest);
        QAction *toMax = menu->findChild<QAction *>(QStringLiteral("bestIsMax"));
        QVERIFY(toMax);
        toMax->trigger();
        QCOMPARE(m->index(beta, lossBest).data().toDouble(), 3.0);
        QCOMPARE(m->index(restart, lossBest).data().toDouble(), 104.0);
        QVERIFY(m->headerData(lossBest, Qt::Horizontal).toString().contains(QStringLiteral("↑")));

        // Nested runs name their parent.
        const int train = m->rowForRun(m_runIds[QStringLiteral("trial_a/train")]);
        QCOMPARE(m->index(train, RunsTableModel::ParentColumn).data().toString(),
            QStringLiteral("hparams/trial_a"));

        // Sorting lr as numbers (3e-05 < 0.001 < 0.01), missing values last in both orders.
        panel.setColumnShown(lr, true);
        panel.table()->sortByColumn(lr, Qt::AscendingOrder);
        QCOMPARE(shownNames(panel.proxy()).mid(0, 3),
            (QStringList {
                QStringLiteral("hparams/trial_a"), QStringLiteral("alpha"), QStringLiteral("beta") }));
        QVERIFY(!panel.proxy()->index(m->runCount() - 1, lr).data(RunsTableModel::SortRole).isValid());
        panel.table()->sortByColumn(lr, Qt::DescendingOrder);
        QCOMPARE(shownNames(panel.proxy()).mid(0, 3),
            (QStringList {
                QStringLiteral("beta"), QStringLiteral("alpha"), QStringLiteral("hparams/trial_a") }));
        QVERIFY(!panel.proxy()->index(m->runCount() - 1, lr).data(RunsTableModel::SortRole).isValid());
        // The pages get the selection in table order.
        panel.selectRuns({ m_runIds[QStringLiteral("alpha")], m_runIds[QStringLiteral("beta")] });
        QCOMPARE(panel.selectedRunIds(),
            (QList<int64_t> { m_runIds[QStringLiteral("beta")], m_runIds[QStringLiteral("alpha")] }));
        panel.table()->sortByColumn(lr, Qt::AscendingOrder);
        QCOMPARE(panel.selectedRunIds(),
            (QList<int64_t> { m_runIds[QStringLiteral("alpha")], m_runIds[QStringLiteral("beta")] }));

        // Filter: params as key=value, and names.
        panel.filterEdit()->setText(QStringLiteral("optimizer=adam"));
        QCOMPARE(panel.proxy()->runRowCount(), 2);
        panel.filterEdit()->setText(QStringLiteral("RESTART"));
        QCOMPARE(shownNames(panel.proxy()), QStringList { QStringLiteral("data/restart") });
        panel.filterEdit()->clear();
        QCOMPARE(panel.proxy()->runRowCount(), m->runCount());

        // CSV: the columns shown, raw numbers, one line per run.
        const QStringList csv = panel.csv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), m->runCount() + 1);
        QVERIFY2(csv[0].startsWith(QStringLiteral("Name,")), qPrintable(csv[0]));
        QVERIFY2(csv[0].contains(QStringLiteral(",lr")), qPrintable(csv[0]));
        QVERIFY2(csv[1].startsWith(QStringLiteral("hparams/trial_a,")), qPrintable(csv[1]));
        panel.setColumnShown(lr, false);
        QVERIFY(!panel.csv().section(QStringLiteral("\r\n"), 0, 0).contains(QStringLiteral(",lr")));
    }

    void grouping()
    {
        ExperimentsPanel panel;
        QAbstractItemModelTester proxyTester(
            panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&panel, &ExperimentsPanel::loaded);
        panel.setWorkspace(m_ws);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);
        QVERIFY(panel.groupBox()->findData(QStringLiteral("optimizer")) > 0);
        panel.setGroupBy(QStringLiteral("optimizer"));
        RunsFilterProxy *proxy = panel.proxy();
        // Groups: (none), adam; each header before its runs, in either order.
        for (Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
            panel.table()->sortByColumn(RunsTableModel::NameColumn, order);
            QStringList headers;
            QString group;
            for (int r = 0; r < proxy->rowCount(); ++r) {
                const QModelIndex i = proxy->index(r, 0);
                if (i.data(RunsTableModel::HeaderRole).toBool()) {
                    group = i.data(RunsTableModel::GroupRole).toString();
                    headers << group;
                } else {
                    QVERIFY2(!group.isEmpty(), "a run before any group header");
                    QCOMPARE(i.data(RunsTableModel::GroupRole).toString(), group);
                }
            }
            QCOMPARE(headers, (QStringList { QStringLiteral("(none)"), QStringLiteral("adam") }));
        }
        // The adam group, by name descending: hparams/trial_a then alpha.
        const QStringList names = shownNames(proxy);
        const qsizetype adam = names.lastIndexOf(QStringLiteral("#header"));
        QCOMPARE(names.mid(adam + 1),
            (QStringList { QStringLiteral("hparams/trial_a"), QStringLiteral("alpha") }));
        QVERIFY(proxy->index(int(adam), 0).data().toString().contains(QStringLiteral("2 runs")));
        // Selecting a header selects its runs, in table order.
        panel.table()->selectRow(int(adam));
        QCOMPARE(panel.selectedRunIds(),
            (QList<int64_t> {
                m_runIds[QStringLiteral("hparams/trial_a")], m_runIds[QStringLiteral("alpha")] }));
        // The filter hides a header whose runs are all hidden.
        panel.filterEdit()->setText(QStringLiteral("restart"));
        QCOMPARE(
            shownNames(proxy), (QStringList { QStringLiteral("#header"), QStringLiteral("data/restart") }));
        panel.setGroupBy(QString());
        QCOMPARE(shownNames(proxy), QStringList { QStringLiteral("data/restart") });
    }

    void selectionDrivesScalars()
    {
        ExperimentsPanel panel;
        panel.resize(1400, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &ExperimentsPanel::loaded);
        ScalarsPage *page = panel.scalarsPage();
        QVERIFY(page);
        QSignalSpy pageLoaded(page, &ScalarsPage::loaded);
        panel.setWorkspace(m_ws);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, kLoadTimeoutMs);

        pageLoaded.clear();
        panel.selectRuns({});
        QTRY_VERIFY_WITH_TIMEOUT(pageLoaded.size() >= 1, kLoadTimeoutMs);
        QVERIFY(page->charts().isEmpty());
        QVERIFY(page->hint().contains(QStringLiteral("Select runs")));

        // The restarted run: acc and loss, both charted by default.
        pageLoaded.clear();
        panel.selectRuns({ m_runIds[QStringLiteral("data/restart")] });
        QTRY_VERIFY_WITH_TIMEOUT(pageLoaded.size() >= 1, kLoadTimeoutMs);
        QCOMPARE(page->tags(), (QStringList { QStringLiteral("acc"), QStringLiteral("loss") }));
        QCOMPARE(page->chosenTags(), page->tags());
        QCOMPARE(page->charts().size(), 2);
        ScalarChart *acc = page->charts()[0];
        ScalarChart *loss = page->charts()[1];
        QCOMPARE(acc->title(), QStringLiteral("acc"));
        QCOMPARE(acc->lineCount(), 1);
        // acc: segment 0 steps 0..9, segment 1 from step 7: 0..6 then 7..12, one restart marker at 7.
        QCOMPARE(acc->rawPointCount(0), 13);
        QCOMPARE(acc->restartMarkerCount(), 1);
        QCOMPARE(acc->line(0).restartX, std::vector<double> { 7 });
        // loss: segment 2 restarts at step 3, hiding segment 1 whole: 0..2 then 3, 4, 5, 5, 6.
        QCOMPARE(loss->rawPointCount(0), 8);
        QCOMPARE(loss->line(0).parts[0].y, (std::vector<double> { 0, 1, 2, 100, 101, 102, 103, 104 }));
        QCOMPARE(loss->restartMarkerCount(), 1);
        // Every segment: three lines of 10, 6 and 5 points, two markers.
        pageLoaded.clear();
        page->setRestarts(ScalarsPage::Restarts::EverySegment);
        loss = page->charts()[1];
        QCOMPARE(loss->line(0).parts.size(), size_t(3));
        QCOMPARE(loss->rawPointCount(0, 1), 6);
        QCOMPARE(loss->restartMarkerCount(), 2);
        page->setRestarts(ScalarsPage::Restarts::Latest);

        // Smoothing: the slider's weight, TensorBoard's EMA; 0 draws the raw line alone.
        loss = page->charts()[1];
        QVERIFY(loss->smoothedShown());
        QCOMPARE(loss->smoothing(), ScalarsPage::kDefaultSmoothing);
        QCOMPARE(loss->smoothedY(0), debiasedEma(loss->line(0).parts[0].y, 0.6));
        page->smoothingSlider()->setValue(0);
        QVERIFY(!loss->smoothedShown());
        loss->replotNow();
        QCOMPARE(loss->drawnPointCount(0, 0, true), 0);
        QCOMPARE(loss->drawnPointCount(0, 0, false), 8);
        page->smoothingSlider()->setValue(900);
        loss->replotNow();
        QCOMPARE(loss->smoothing(), 0.9);
        const std::vector<double> smoothed = loss->smoothedY(0);
        QCOMPARE(smoothed, debiasedEma(loss->line(0).parts[0].y, 0.9));
        QCOMPARE(smoothed[0], 0.0);
        QVERIFY(std::abs(smoothed[3] - 100) > 10); // 100 after 0, 1, 2 is pulled down a lot
        QCOMPARE(loss->drawnPointCount(0, 0, true), 8);

        // Two runs with a shared tag: overlaid, in the runs' colours.
        pageLoaded.clear();
        panel.selectRuns({ m_runIds[QStringLiteral("alpha")], m_runIds[QStringLiteral("beta")] });
        QTRY_VERIFY_WITH_TIMEOUT(pageLoaded.size() >= 1, kLoadTimeoutMs);
        QVERIFY(page->tags().contains(QStringLiteral("loss")));
        page->setChosenTags({ QStringLiteral("loss") });
        QTRY_VERIFY_WITH_TIMEOUT(
            page->charts().size() == 1 && page->charts()[0]->lineCount() == 2, kLoadTimeoutMs);
        ScalarChart *both = page->charts()[0];
        QCOMPARE(both->line(0).name, QStringLiteral("alpha"));
        QCOMPARE(both->line(0).color, ScalarsPage::runColor(0));
        QCOMPARE(both->line(1).color, ScalarsPage::runColor(1));
        QCOMPARE(page->runLegend()->count(), 2);
        // beta restarted at step 0: its second segment alone shows (-inf, 3); the -inf passes through the
        // EMA unsmoothed and the 3 is then the first value averaged.
        const std::vector<double> &betaY = both->line(1).parts[0].y;
        QCOMPARE(int(betaY.size()), 2);
        QVERIFY(std::isinf(betaY[0]) && betaY[0] < 0);
        QCOMPARE(both->smoothedY(1)[0], betaY[0]);
        QCOMPARE(both->smoothedY(1)[1], 3.0);
        // The tag choice holds for the next selection.
        pageLoaded.clear();
        panel.selectRuns({ m_runIds[QStringLiteral("data/restart")] });
        QTRY_VERIFY_WITH_TIMEOUT(pageLoaded.size() >= 1, kLoadTimeoutMs);
        QCOMPARE(page->chosenTags(), QStringList { QStringLiteral("loss") });
    }

    // A line of 200k points keeps at most four per pixel column, its extremes and its ends; zooming in
    // decimates again for the range shown.
    void chartDecimation()
    {
        ScalarChart chart(QStringLiteral("test"));
        chart.resize(800, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        ScalarLine line;
        line.name = QStringLiteral("r");
        line.color = Qt::blue;
        line.parts.resize(1);
        const int n = 200'000;
        for (int i = 0; i < n; ++i) {
            line.parts[0].x.push_back(i);
            line.parts[0].y.push_back(std::sin(i * 0.01) + (i == 123'457 ? 5.0 : 0.0));
        }
        std::vector<ScalarLine> lines;
        lines.push_back(line);
        chart.setLines(std::move(lines), ScalarChart::XKind::Step);
        chart.replotNow();
        const int width = chart.plotWidthPx();
        const int drawn = chart.drawnPointCount(0);
        QVERIFY2(drawn > width && drawn <= ScalarChart::kPointsPerColumn * (chart.width() + 2),
            qPrintable(QStringLiteral("%1 points for %2 px").arg(drawn).arg(width)));
        const auto data = chart.drawnPoints(0);
        QCOMPARE(data.front().first, 0.0);
        QCOMPARE(data.back().first, double(n - 1));
        double top = -1e9;
        for (const auto &[x, y] : data)
            top = std::max(top, y);
        QCOMPARE(top, line.parts[0].y[123'457]); // the spike survives
        // Zoomed to 1,000 points: every one of them drawn, plus the folded ends.
        chart.setXRange(100'000, 101'000);
        chart.redraw();
        const int zoomed = chart.drawnPointCount(0);
        QVERIFY2(zoomed >= 1000 && zoomed <= 1000 + 10,
            qPrintable(QStringLiteral("%1 points, x %2..%3, %4 px")
                           .arg(zoomed)
                           .arg(chart.xRange().first)
                           .arg(chart.xRange().second)
                           .arg(chart.plotWidthPx())));
    }

    // A flat line sits mid-axis with a readable range: 10% either side of its value, -1..1 for zeros.
    void flatLineRange()
    {
        for (const double value : { 0.0, 2.5, -40.0 }) {
            ScalarChart chart(QStringLiteral("flat"));
            chart.resize(600, 300);
            ScalarLine line;
            line.name = QStringLiteral("r");
            line.parts.resize(1);
            for (int i = 0; i < 30; ++i) {
                line.parts[0].x.push_back(i * 32);
                line.parts[0].y.push_back(value);
            }
            std::vector<ScalarLine> lines;
            lines.push_back(line);
            chart.setLines(std::move(lines), ScalarChart::XKind::Step);
            const QCPRange y = chart.plot()->yAxis->range();
            const double half = value == 0 ? 1.0 : std::abs(value) * 0.1;
            QVERIFY2(qFuzzyCompare(y.lower, value - half) && qFuzzyCompare(y.upper, value + half),
                qPrintable(QStringLiteral("%1: %2..%3").arg(value).arg(y.lower).arg(y.upper)));
        }
    }

    void mainWindowTab()
    {
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        MainWindow window(registry, m_ws);
        QSignalSpy loaded(window.experimentsPanel(), &ExperimentsPanel::loaded);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.size() >= 1, kLoadTimeoutMs);
        QCOMPARE(window.experimentsPanel()->model()->runCount(), int(m_runIds.size()));
        window.openExperiments();
        auto *tabs = qobject_cast<QTabWidget *>(window.experimentsPanel()->parentWidget()->parentWidget());
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget(), window.experimentsPanel());
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("E&xperiments"));
    }

private:
    QTemporaryDir m_tmp;
    QString m_ws;
    QHash<QString, int64_t> m_runIds;
};

QTEST_MAIN(TestExperimentsPanel)
#include "tst_experimentspanel.moc"
