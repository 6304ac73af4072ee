// SPDX-License-Identifier: GPL-3.0-or-later
// The Experiments tab's config diff, importance and parallel-coordinates pages, offscreen: on the
// importer tests' MLflow and TensorBoard fixtures and on a generated MLflow store whose metric is a
// known function of one param. PLUMB_SCREENSHOT_DIR=dir saves each page as a PNG there (and the real
// Lightning search's pages when ../shared/data is present), for a look.
#include "charts/importancechart.h"
#include "charts/parallelcoordinateschart.h"
#include "charts/runvaluechart.h"
#include "charts/scalarchart.h"
#include "charts/xychart.h"
#include "experiments/configdiffmodel.h"
#include "experiments/configdiffpage.h"
#include "experiments/importancemodel.h"
#include "experiments/importancepage.h"
#include "experiments/parallelcoordinatesgeometry.h"
#include "experiments/parallelcoordinatespage.h"
#include "experiments/scalarspage.h"
#include "importhelpers.h"
#include "store/experimentreader.h"
#include "store/workspace.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace plumb;

namespace {

constexpr int kGeneratedRuns = 24;

QString fixture(const char *path)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(path);
}

bool writeText(const QString &path, const QString &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    return writeTestFile(path, text.toUtf8());
}

// The lr of generated run i: log-spaced from 1e-4 to 1e-1.
double generatedLr(int i)
{
    return std::pow(10.0, -4 + 3.0 * i / (kGeneratedRuns - 1));
}

// An MLflow file store of kGeneratedRuns runs: lr (log-spaced), optimizer (adam/sgd alternating),
// seed (unrelated), width (the same everywhere); val_loss = 1 + 5 lr exactly, accuracy higher with adam.
bool writeGeneratedStore(const QString &root)
{
    bool ok = writeText(root + QStringLiteral("/mlruns/0/meta.yaml"),
        QStringLiteral(
            "artifact_location: file:///tmp/mlruns/0\ncreation_time: 1700000000000\nexperiment_id: '0'\n"
            "last_update_time: 1700000000000\nlifecycle_stage: active\nname: sweep\n"));
    for (int i = 0; i < kGeneratedRuns; ++i) {
        const QString id = QStringLiteral("%1").arg(i, 32, 16, QLatin1Char('0'));
        const QString dir = root + QStringLiteral("/mlruns/0/") + id;
        const double lr = generatedLr(i);
        ok = ok
            && writeText(dir + QStringLiteral("/meta.yaml"),
                QStringLiteral("artifact_uri: file:///tmp/a\nend_time: 1700000061000\nentry_point_name: ''\n"
                               "experiment_id: '0'\nlifecycle_stage: active\nrun_name: trial-%1\nrun_id: %2\n"
                               "run_uuid: %2\nsource_name: ''\nsource_type: 4\nsource_version: ''\n"
                               "start_time: 1700000001000\nstatus: 3\ntags: []\nuser_id: tester\n")
                    .arg(i)
                    .arg(id))
            && writeText(dir + QStringLiteral("/params/lr"), QString::number(lr, 'g', 17))
            && writeText(dir + QStringLiteral("/params/optimizer"),
                i % 2 ? QStringLiteral("sgd") : QStringLiteral("adam"))
            && writeText(dir + QStringLiteral("/params/seed"), QString::number((i * 7919) % 101))
            && writeText(dir + QStringLiteral("/params/width"), QStringLiteral("128"))
            && writeText(dir + QStringLiteral("/tags/mlflow.runName"), QStringLiteral("trial-%1").arg(i))
            && writeText(dir + QStringLiteral("/metrics/val_loss"),
                QStringLiteral("1700000002000 %1 0\n1700000003000 %2 1\n")
                    .arg(3.0, 0, 'g', 17)
                    .arg(1 + 5 * lr, 0, 'g', 17))
            && writeText(dir + QStringLiteral("/metrics/accuracy"),
                QStringLiteral("1700000003000 %1 1\n").arg(i % 2 ? 0.6 : 0.8, 0, 'g', 17));
    }
    return ok;
}

// An MLflow file store whose runs log each metric once, as a tuning script that calls
// mlflow.log_metric() at the end does: lr = 1e-4 * 3^i, batch 32 or 64; val_loss = 1 + 5 lr,
// val_accuracy = 0.9 - lr (both best at trial-0), and throughput (higher is better) = 100 + i.
bool writeOneValueStore(const QString &root, int runs)
{
    bool ok = writeText(root + QStringLiteral("/mlruns/1/meta.yaml"),
        QStringLiteral(
            "artifact_location: file:///tmp/mlruns/1\ncreation_time: 1700000000000\nexperiment_id: '1'\n"
            "last_update_time: 1700000000000\nlifecycle_stage: active\nname: tuning\n"));
    for (int i = 0; i < runs; ++i) {
        const QString id = QStringLiteral("%1").arg(i + 1000, 32, 16, QLatin1Char('0'));
        const QString dir = root + QStringLiteral("/mlruns/1/") + id;
        const double lr = 1e-4 * std::pow(3.0, i);
        const auto metric = [&](const char *name, double v) {
            return writeText(dir + QStringLiteral("/metrics/") + QLatin1String(name),
                QStringLiteral("1700000009000 %1 0\n").arg(v, 0, 'g', 17));
        };
        ok = ok
            && writeText(dir + QStringLiteral("/meta.yaml"),
                QStringLiteral("artifact_uri: file:///tmp/a\nend_time: 1700000061000\nentry_point_name: ''\n"
                               "experiment_id: '1'\nlifecycle_stage: active\nrun_name: tune-%1\nrun_id: %2\n"
                               "run_uuid: %2\nsource_name: ''\nsource_type: 4\nsource_version: ''\n"
                               "start_time: 1700000001000\nstatus: 3\ntags: []\nuser_id: tester\n")
                    .arg(i)
                    .arg(id))
            && writeText(dir + QStringLiteral("/params/lr"), QString::number(lr, 'g', 17))
            && writeText(dir + QStringLiteral("/params/batch_size"),
                i % 2 ? QStringLiteral("64") : QStringLiteral("32"))
            && writeText(dir + QStringLiteral("/tags/mlflow.runName"), QStringLiteral("tune-%1").arg(i))
            && metric("val_loss", 1 + 5 * lr) && metric("val_accuracy", 0.9 - lr)
            && metric("throughput", 100 + i);
    }
    return ok;
}

void saveScreenshot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("PLUMB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w->grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

int findRow(const QAbstractItemModel *model, int column, const QString &text)
{
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, column).data().toString() == text)
            return r;
    return -1;
}

} // namespace

class TestExperimentPages : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_fixtureWs; // MLflow file store + TensorBoard hparams fixtures
    QString m_generatedWs; // writeGeneratedStore()
    QList<ExperimentRunInfo> m_fixtureRuns;
    QList<int64_t> m_generatedIds;

    int64_t fixtureId(const char *name) const
    {
        for (const auto &r : m_fixtureRuns)
            if (r.name == QLatin1String(name))
                return r.id;
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixtureWs = m_dir.filePath(QStringLiteral("fixtures.plumb"));
        QString problems = importFoldersIntoWorkspace(
            m_fixtureWs, { fixture("mlflow/data/filestore"), fixture("tfevents/data/hparams") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        {
            Workspace ws(m_fixtureWs, Workspace::Role::Reader);
            m_fixtureRuns = ExperimentReader(ws).runs();
        }
        const QString store = m_dir.filePath(QStringLiteral("store"));
        QVERIFY(writeGeneratedStore(store));
        m_generatedWs = m_dir.filePath(QStringLiteral("generated.plumb"));
        problems = importFoldersIntoWorkspace(m_generatedWs, { store });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(m_generatedWs, Workspace::Role::Reader);
        for (const auto &r : ExperimentReader(ws).runs())
            m_generatedIds << r.id;
        QCOMPARE(m_generatedIds.size(), kGeneratedRuns);
    }

    // Runs that log each metric once: a bar per run with the best one marked by the metric's
    // direction, and a scatter against a param (lr offered first), not line charts of one dot; a
    // metric with points over steps stays a line chart.
    void scalarsOneValuePerRun()
    {
        constexpr int kRuns = 6;
        const QString store = m_dir.filePath(QStringLiteral("onevalue"));
        QVERIFY(writeOneValueStore(store, kRuns));
        const QString wsPath = m_dir.filePath(QStringLiteral("onevalue.plumb"));
        const QString problems = importFoldersIntoWorkspace(wsPath, { store });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QList<int64_t> ids;
        QStringList names;
        {
            Workspace ws(wsPath, Workspace::Role::Reader);
            for (const auto &r : ExperimentReader(ws).runs()) {
                ids << r.id;
                names << r.name;
            }
        }
        QCOMPARE(ids.size(), kRuns);
        // Shown in reverse, so that the best run is not simply the first.
        std::reverse(ids.begin(), ids.end());
        std::reverse(names.begin(), names.end());

        ScalarsPage page;
        page.resize(1300, 900);
        page.show();
        QSignalSpy loaded(&page, &ScalarsPage::loaded);
        page.setSelection(wsPath, ids);
        QVERIFY(loaded.wait(10'000));
        page.setChosenTags(
            { QStringLiteral("val_loss"), QStringLiteral("val_accuracy"), QStringLiteral("throughput") });
        QVERIFY(loaded.wait(10'000));
        QVERIFY(page.charts().isEmpty()); // no one-dot line charts
        QCOMPARE(page.barCharts().size(), 3);
        QCOMPARE(page.scatterCharts().size(), 3);
        QCOMPARE(page.scatterParams().front(), QStringLiteral("lr"));
        QCOMPARE(page.scatterParam(), QStringLiteral("lr"));

        // Tags in list order: throughput, val_accuracy, val_loss.
        const RunValueChart *throughput = page.barCharts().at(0);
        const RunValueChart *accuracy = page.barCharts().at(1);
        const RunValueChart *loss = page.barCharts().at(2);
        QCOMPARE(int(loss->bars().size()), kRuns);
        for (int i = 0; i < kRuns; ++i)
            QCOMPARE(loss->bars()[size_t(i)].name, names[i]);
        // tune-0 (shown last) has the lowest loss and the highest accuracy; tune-5 the highest throughput.
        QCOMPARE(loss->best(), kRuns - 1);
        QCOMPARE(accuracy->best(), kRuns - 1);
        QCOMPARE(throughput->best(), 0);
        QCOMPARE(loss->bars()[size_t(kRuns - 1)].value, 1 + 5 * 1e-4);
        QCOMPARE(loss->bars()[0].color, ScalarsPage::runColor(0));

        // The scatter: a point per run at (lr, value), the best one ringed.
        const XYChart *scatter = page.scatterCharts().at(2);
        QCOMPARE(scatter->pointCount(), kRuns);
        QCOMPARE(scatter->series().marked, kRuns - 1);
        QCOMPARE(scatter->series().x[kRuns - 1], 1e-4);
        QCOMPARE(scatter->series().y[kRuns - 1], 1 + 5 * 1e-4);
        page.setScatterParam(QStringLiteral("batch_size"));
        QCOMPARE(page.scatterCharts().at(2)->series().x[kRuns - 1], 32.0);
        saveScreenshot(&page, QStringLiteral("scalars-one-value"));

        // The generated sweep: accuracy is logged once (bars), val_loss at two steps (a line chart).
        page.setSelection(m_generatedWs, m_generatedIds);
        QVERIFY(loaded.wait(10'000));
        page.setChosenTags({ QStringLiteral("accuracy"), QStringLiteral("val_loss") });
        QVERIFY(loaded.wait(10'000));
        QVERIFY(page.isOneValuePerRun(QStringLiteral("accuracy")));
        QVERIFY(!page.isOneValuePerRun(QStringLiteral("val_loss")));
        QCOMPARE(page.barCharts().size(), 1);
        QCOMPARE(page.charts().size(), 1);
        QCOMPARE(page.charts().front()->title(), QStringLiteral("val_loss"));
        QCOMPARE(page.barCharts().front()->best(), 0); // adam's 0.8, first in the table
        QCOMPARE(page.scatterParam(), QStringLiteral("lr"));
        QCOMPARE(page.scatterCharts().front()->pointCount(), kGeneratedRuns);

        // Both stores in one workspace: val_loss is logged once by the tuning runs and twice by the
        // sweep's, so it is a line chart again, with a line (of one point) for every run.
        const QString both = m_dir.filePath(QStringLiteral("both.plumb"));
        const QString more
            = importFoldersIntoWorkspace(both, { store, m_dir.filePath(QStringLiteral("store")) });
        QVERIFY2(more.isEmpty(), qPrintable(more));
        QList<int64_t> all;
        {
            Workspace ws(both, Workspace::Role::Reader);
            for (const auto &r : ExperimentReader(ws).runs())
                all << r.id;
        }
        QCOMPARE(all.size(), kRuns + kGeneratedRuns);
        page.setSelection(both, all);
        QVERIFY(loaded.wait(10'000));
        page.setChosenTags({ QStringLiteral("val_loss") });
        QVERIFY(loaded.wait(10'000));
        QVERIFY(!page.isOneValuePerRun(QStringLiteral("val_loss")));
        QVERIFY(page.barCharts().isEmpty());
        QCOMPARE(page.charts().size(), 1);
        QCOMPARE(page.charts().front()->lineCount(), kRuns + kGeneratedRuns);
    }

    // The real Lightning trials log hp_metric once each: bars and a scatter, with no best marked
    // (hp_metric says nothing of its direction).
    void scalarsRealTrialsHpMetric()
    {
        const QString logdir = QStringLiteral(PLUMB_SHARED_DATA "/tfevents/shapeaxi_lightning_hparams");
        if (!QFileInfo::exists(logdir))
            QSKIP("../shared/data is absent");
        const QString wsPath = m_dir.filePath(QStringLiteral("lightning-scalars.plumb"));
        const QString problems = importFoldersIntoWorkspace(wsPath, { logdir });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QList<int64_t> ids;
        {
            Workspace ws(wsPath, Workspace::Role::Reader);
            for (const auto &r : ExperimentReader(ws).runs())
                ids << r.id;
        }
        QVERIFY(ids.size() >= 25);
        ScalarsPage page;
        page.resize(1300, 900);
        page.show();
        QSignalSpy loaded(&page, &ScalarsPage::loaded);
        page.setSelection(wsPath, ids);
        QVERIFY(loaded.wait(10'000));
        page.setChosenTags({ QStringLiteral("hp_metric") });
        QVERIFY(loaded.wait(10'000));
        QVERIFY(page.isOneValuePerRun(QStringLiteral("hp_metric")));
        QCOMPARE(page.barCharts().size(), 1);
        QVERIFY(page.charts().isEmpty());
        QCOMPARE(page.barCharts().front()->best(), -1);
        QVERIFY(!page.scatterParams().isEmpty());
        QVERIFY(page.scatterCharts().front()->pointCount() > 0);
        saveScreenshot(&page, QStringLiteral("scalars-lightning-hp-metric"));
    }

    void configDiffPage()
    {
        ConfigDiffPage page;
        page.resize(1000, 500);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &ConfigDiffPage::loaded);
        page.setSelection(m_fixtureWs, { fixtureId("alpha"), fixtureId("beta") });
        QVERIFY(loaded.wait(10000));
        const ConfigDiffModel *m = page.model();
        QCOMPARE(m->columnCount(), ConfigDiffModel::FirstRunColumn + 2);
        QVERIFY(m->headerData(ConfigDiffModel::FirstRunColumn, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .contains(QStringLiteral("baseline")));

        // Diff only: every row shown differs and is marked.
        QVERIFY(page.diffOnlyBox()->isChecked());
        const int diffRows = m->rowCount();
        QVERIFY(diffRows > 0);
        for (int r = 0; r < diffRows; ++r)
            if (!m->index(r, ConfigDiffModel::KeyColumn).data().toString().contains(QStringLiteral("best")))
                QCOMPARE(m->index(r, ConfigDiffModel::MarkerColumn).data().toString(), QStringLiteral("≠"));
        const int lr = findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("lr"));
        QVERIFY(lr >= 0);
        QCOMPARE(m->index(lr, ConfigDiffModel::FirstRunColumn).data().toString(), QStringLiteral("0.001"));
        QCOMPARE(m->index(lr, ConfigDiffModel::FirstRunColumn + 1).data().toString(), QStringLiteral("0.01"));
        const int optimizer = findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("optimizer"));
        QCOMPARE(
            m->index(optimizer, ConfigDiffModel::FirstRunColumn + 1).data().toString(), QStringLiteral("—"));

        // loss: alpha's 0.125 is the better (lower) value: bold, with ▼.
        const int loss = findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("loss ▼"));
        QVERIFY(loss >= 0);
        const QModelIndex alphaLoss = m->index(loss, ConfigDiffModel::FirstRunColumn);
        QCOMPARE(alphaLoss.data().toString(), QStringLiteral("0.125 ▼"));
        QVERIFY(alphaLoss.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(
            !m->index(loss, ConfigDiffModel::FirstRunColumn + 1).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(m->index(loss, ConfigDiffModel::FirstRunColumn + 1).data().toString(),
            QStringLiteral("3  +2.875 (+2300%)"));
        QCOMPARE(m->index(loss + 1, ConfigDiffModel::KeyColumn).data().toString().trimmed(),
            QStringLiteral("best"));
        QCOMPARE(
            m->index(loss + 1, ConfigDiffModel::FirstRunColumn + 1).data().toString(), QStringLiteral("1"));

        // Showing every row adds the ones that are the same (none here are: alpha and beta share no
        // equal param), and the CSV holds raw values with a row of changes per metric.
        const QString csv = page.csv();
        QVERIFY2(csv.contains(QStringLiteral("1,params,lr,0.001,0.01\r\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("1,metrics,loss (last),0.125,3\r\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("1,metrics,loss (change from baseline),0,2.875\r\n")),
            qPrintable(csv));
        saveScreenshot(&page, QStringLiteral("configdiff-fixtures"));

        // Two trials of the generated store: diff only hides width (the same), Diff only off shows it.
        page.setSelection(m_generatedWs, { m_generatedIds[0], m_generatedIds[5], m_generatedIds[10] });
        QVERIFY(loaded.wait(10000));
        QCOMPARE(findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("width")), -1);
        page.diffOnlyBox()->setChecked(false);
        const int width = findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("width"));
        QVERIFY(width >= 0);
        QCOMPARE(m->index(width, ConfigDiffModel::MarkerColumn).data().toString(), QString());
        QVERIFY(!m->index(width, 0).data(Qt::BackgroundRole).isValid());
        // val_loss rises with lr: the first run (smallest lr) is best, and the others' change is positive.
        const int valLoss = findRow(m, ConfigDiffModel::KeyColumn, QStringLiteral("val_loss ▼"));
        QVERIFY(m->index(valLoss, ConfigDiffModel::FirstRunColumn).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(m->index(valLoss, ConfigDiffModel::FirstRunColumn + 2)
                    .data()
                    .toString()
                    .contains(QStringLiteral("  +")));
        page.diffOnlyBox()->setChecked(true);

        page.setSelection(m_fixtureWs, {});
        QVERIFY(loaded.wait(10000) || loaded.count() > 0);
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(page.statusLabel()->text().startsWith(QStringLiteral("Select two or more runs")));
    }

    void importancePage()
    {
        ImportancePage page;
        page.resize(1000, 500);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &ImportancePage::loaded);
        page.setSelection(m_generatedWs, m_generatedIds);
        QVERIFY(loaded.wait(20000));
        // Both metrics are offered; both are in every run with a known direction, so the default is
        // the one measured on held-out data, not the first by name.
        QCOMPARE(page.metricBox()->count(), 2);
        const ImportanceModel *m = page.model();
        QCOMPARE(m->importance().metric, QStringLiteral("val_loss"));
        QCOMPARE(page.metricBox()->currentText(), QStringLiteral("val_loss"));
        QCOMPARE(m->importance().runs, kGeneratedRuns);
        // val_loss = 1 + 5 lr: lr first in the table as the page sorts it, and in the chart.
        const QModelIndex top = page.table()->model()->index(0, ImportanceModel::ParamColumn);
        QCOMPARE(top.data().toString(), QStringLiteral("lr"));
        QVERIFY2(page.chart()->values().front() > 0.9,
            qPrintable(QString::number(page.chart()->values().front())));
        QCOMPARE(int(page.chart()->values().size()), m->rowCount());
        QVERIFY(page.skippedLabel()->text().contains(QStringLiteral("width (the same in every run)")));
        saveScreenshot(&page, QStringLiteral("importance-generated"));

        // accuracy depends on the optimizer alone.
        page.metricBox()->setCurrentIndex(page.metricBox()->findText(QStringLiteral("accuracy")));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.table()->model()->index(0, ImportanceModel::ParamColumn).data().toString(),
            QStringLiteral("optimizer"));

        // Two runs: no importance, and the page says why.
        page.setSelection(m_generatedWs, m_generatedIds.mid(0, 2));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(m->rowCount(), 0);
        QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("needs at least 3 runs")),
            qPrintable(page.statusLabel()->text()));
    }

    void geometry()
    {
        // Three runs: lr numeric over 1e-4..1e-1 (log), optimizer categorical, val_loss a metric;
        // run 2 has no optimizer.
        TrialTable t;
        const double lrs[] = { 1e-4, 1e-2, 1e-1 };
        const double losses[] = { 0.5, 1.0, 2.0 };
        for (int i = 0; i < 3; ++i) {
            ExperimentRunInfo r;
            r.id = i + 1;
            t.runs << r;
            QMap<QString, RunParam> p;
            p.insert(QStringLiteral("lr"),
                { r.id, QStringLiteral("lr"), QString::number(lrs[i]), QStringLiteral("number") });
            if (i < 2)
                p.insert(QStringLiteral("optimizer"),
                    { r.id, QStringLiteral("optimizer"), i ? QStringLiteral("sgd") : QStringLiteral("adam"),
                        QStringLiteral("string") });
            t.params.push_back(p);
            SeriesSummary s;
            s.key = QStringLiteral("val_loss");
            s.hasValues = true;
            s.lastValue = s.minValue = s.maxValue = losses[i];
            t.metrics.push_back({ { s.key, s } });
        }
        using Spec = ParallelCoordinatesGeometry::AxisSpec;
        ParallelCoordinatesGeometry g;
        g.setData(t,
            { Spec { QStringLiteral("lr"), false }, Spec { QStringLiteral("optimizer"), false },
                Spec { QStringLiteral("val_loss"), true } },
            MetricStatistic::Last);
        g.setColorMetric(t, QStringLiteral("val_loss"), MetricStatistic::Last);
        QCOMPARE(g.axisCount(), 3);
        const auto &lr = g.axis(0);
        QVERIFY(lr.logScale && !lr.categorical);
        QCOMPARE(lr.pos[0], 0.0);
        QVERIFY(std::abs(lr.pos[1] - 2.0 / 3.0) < 1e-12); // 1e-2 is two decades of three
        QCOMPARE(lr.pos[2], 1.0);
        const auto &opt = g.axis(1);
        QVERIFY(opt.categorical);
        QCOMPARE(opt.categories, QStringList({ QStringLiteral("adam"), QStringLiteral("sgd") }));
        QCOMPARE(opt.pos[0], 0.0);
        QCOMPARE(opt.pos[1], 1.0);
        QVERIFY(std::isnan(opt.pos[2]));
        const auto &loss = g.axis(2);
        QVERIFY(!loss.logScale); // 2 / 0.5 < kLogRatio
        QCOMPARE(loss.pos[1], 1.0 / 3.0);
        QCOMPARE(g.colorPos(0), 0.0);
        QCOMPARE(g.colorPos(2), 1.0);

        // Brushes: AND across axes; a run without a value on a brushed axis is out.
        QCOMPARE(g.keptRuns(), QList<int>({ 0, 1, 2 }));
        g.setBrush(0, 0.5, 1.0); // lr >= ~3e-3
        QCOMPARE(g.keptRuns(), QList<int>({ 1, 2 }));
        g.setBrush(1, 1.0, 0.8); // sgd (either order)
        QCOMPARE(g.keptRuns(), QList<int>({ 1 }));
        g.setBrush(2, 0.0, 0.2); // val_loss low: nobody left
        QVERIFY(g.keptRuns().isEmpty());
        g.clearBrush(2);
        g.setBrush(1, 0.0, 1.0); // all categories: run 2 has none
        QCOMPARE(g.keptRuns(), QList<int>({ 1 }));
        g.clearBrushes();
        QVERIFY(!g.hasBrushes());
        g.setBrush(0, 0.3, 0.3); // zero height: no brush
        QVERIFY(!g.hasBrushes());

        // Brushes survive new data with the same axes; ticks and pixel mapping.
        g.setBrush(0, 0.5, 1.0);
        g.setData(t, { Spec { QStringLiteral("lr"), false } }, MetricStatistic::Last);
        QVERIFY(g.axis(0).brush.has_value());
        QCOMPARE(ParallelCoordinatesGeometry::axisX(0, 4, 0, 400), 50.0);
        QCOMPARE(ParallelCoordinatesGeometry::axisX(3, 4, 0, 400), 350.0);
        QCOMPARE(ParallelCoordinatesGeometry::axisNear(345, 4, 0, 400, 10), 3);
        QCOMPARE(ParallelCoordinatesGeometry::axisNear(200, 4, 0, 400, 10), -1);
        QCOMPARE(ParallelCoordinatesGeometry::posToY(1, 10, 100), 10.0);
        QCOMPARE(ParallelCoordinatesGeometry::yToPos(60, 10, 100), 0.5);
        const auto ticks = ParallelCoordinatesGeometry::ticks(g.axis(0), 2);
        // A log axis ticks its ends and the decades between.
        QCOMPARE(ticks.size(), size_t(4));
        QCOMPARE(ticks.front().second, QStringLiteral("0.0001"));
        QCOMPARE(ticks[1].second, QStringLiteral("0.001"));
        QCOMPARE(ticks[2].second, QStringLiteral("0.01"));
        QCOMPARE(ticks.back().second, QStringLiteral("0.1"));
        QCOMPARE(ParallelCoordinatesGeometry::varyingParams(t),
            QStringList({ QStringLiteral("lr"), QStringLiteral("optimizer") }));
    }

    void parallelCoordinatesPage()
    {
        ParallelCoordinatesPage page;
        page.resize(1100, 520);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &ParallelCoordinatesPage::loaded);
        page.setSelection(m_generatedWs, m_generatedIds);
        QVERIFY(loaded.wait(10000));
        // Default axes: the params that vary (lr, optimizer, seed; not width, not the tag), then
        // the colour metric (the default: in every run, known direction).
        QStringList axes;
        for (const auto &a : page.chosenAxes())
            axes << (a.metric ? QStringLiteral("m:") : QStringLiteral("p:")) + a.key;
        QCOMPARE(axes.mid(0, 3),
            QStringList({ QStringLiteral("p:lr"), QStringLiteral("p:optimizer"), QStringLiteral("p:seed") }));
        QCOMPARE(axes.size(), 4);
        QVERIFY(axes[3].startsWith(QStringLiteral("m:")));
        QCOMPARE(page.keptList()->count(), kGeneratedRuns);
        saveScreenshot(&page, QStringLiteral("parallel-generated"));

        // Drag along the lr axis over its upper half: the runs with lr above its log midpoint remain.
        ParallelCoordinatesChart *chart = page.chart();
        const QRectF r = chart->plotRect(chart->size());
        const int axisCount = chart->geometryData().axisCount();
        const double x = ParallelCoordinatesGeometry::axisX(0, axisCount, r.left(), r.width());
        const QPoint from(int(std::round(x)),
            int(std::round(ParallelCoordinatesGeometry::posToY(1.0, r.top(), r.height()))) - 1);
        const QPoint to(int(std::round(x)),
            int(std::round(ParallelCoordinatesGeometry::posToY(0.5, r.top(), r.height()))));
        QSignalSpy brushed(chart, &ParallelCoordinatesChart::brushesChanged);
        QTest::mousePress(chart, Qt::LeftButton, {}, from);
        QMouseEvent move(
            QEvent::MouseMove, to, chart->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(chart, &move);
        QTest::mouseRelease(chart, Qt::LeftButton, {}, to);
        QVERIFY(brushed.count() > 0);
        const auto brush = chart->geometryData().axis(0).brush;
        QVERIFY(brush.has_value());
        int expected = 0;
        const double lo = brush->first;
        for (int i = 0; i < kGeneratedRuns; ++i)
            expected += (std::log10(generatedLr(i)) + 4) / 3 >= lo - 1e-9;
        QVERIFY(expected > 0 && expected < kGeneratedRuns);
        QCOMPARE(page.keptList()->count(), expected);
        QVERIFY(
            page.keptLabel()->text().contains(QStringLiteral("%1 of %2").arg(expected).arg(kGeneratedRuns)));
        saveScreenshot(&page, QStringLiteral("parallel-generated-brushed"));

        // Export: a PNG at twice the size, and a PDF.
        const QString png = m_dir.filePath(QStringLiteral("pc.png")),
                      pdf = m_dir.filePath(QStringLiteral("pc.pdf"));
        QVERIFY(chart->exportTo(png));
        QCOMPARE(QImage(png).size(), chart->size() * 2);
        QVERIFY(chart->exportTo(pdf));
        QVERIFY(QFileInfo(pdf).size() > 1000);

        // A click on the axis clears its brush.
        QTest::mouseClick(chart, Qt::LeftButton, {}, to);
        QVERIFY(!chart->geometryData().hasBrushes());
        QCOMPARE(page.keptList()->count(), kGeneratedRuns);

        // Unchecking an axis removes it; the choice sticks across selections.
        page.axisList()->item(0)->setCheckState(Qt::Unchecked);
        QCOMPARE(chart->geometryData().axisCount(), axisCount - 1);
        page.setSelection(m_generatedWs, m_generatedIds.mid(0, 10));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(chart->geometryData().axisCount(), axisCount - 1);
    }

    void realLightningTrials()
    {
        const QString logdir = QStringLiteral(PLUMB_SHARED_DATA "/tfevents/shapeaxi_lightning_hparams");
        if (!QDir(logdir).exists())
            QSKIP("../shared/data/tfevents/shapeaxi_lightning_hparams is absent");
        const QString wsPath = m_dir.filePath(QStringLiteral("lightning.plumb"));
        const QString problems = importFoldersIntoWorkspace(wsPath, { logdir });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QList<int64_t> ids;
        {
            Workspace ws(wsPath, Workspace::Role::Reader);
            for (const auto &r : ExperimentReader(ws).runs())
                ids << r.id;
        }
        QCOMPARE(ids.size(), 25);

        ImportancePage importance;
        importance.resize(1100, 560);
        QSignalSpy importanceLoaded(&importance, &ImportancePage::loaded);
        importance.setSelection(wsPath, ids);
        QVERIFY(importanceLoaded.wait(30000));
        QCOMPARE(importance.model()->importance().metric, QStringLiteral("hp_metric"));
        QVERIFY(importance.model()->rowCount() > 0);
        saveScreenshot(&importance, QStringLiteral("importance-lightning"));

        ParallelCoordinatesPage parallel;
        parallel.resize(1100, 560);
        QSignalSpy parallelLoaded(&parallel, &ParallelCoordinatesPage::loaded);
        parallel.setSelection(wsPath, ids);
        QVERIFY(parallelLoaded.wait(30000));
        QVERIFY(parallel.chart()->geometryData().axisCount() >= 2);
        saveScreenshot(&parallel, QStringLiteral("parallel-lightning"));

        ConfigDiffPage diff;
        diff.resize(1100, 560);
        QSignalSpy diffLoaded(&diff, &ConfigDiffPage::loaded);
        diff.setSelection(wsPath, ids.mid(0, 3));
        QVERIFY(diffLoaded.wait(30000));
        QVERIFY(diff.model()->rowCount() > 0);
        saveScreenshot(&diff, QStringLiteral("configdiff-lightning"));
    }
};

QTEST_MAIN(TestExperimentPages)
#include "tst_experimentpages.moc"
