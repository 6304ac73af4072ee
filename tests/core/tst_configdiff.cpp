// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration diff and the trial table it reads, on a workspace imported from the MLflow file
// store and TensorBoard hparams fixtures of the importer tests (their .params.csv and .points.csv
// beside them hold the values asserted here).
#include "analysis/configdiff.h"
#include "importhelpers.h"
#include "store/experimentreader.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace plumb;

namespace {

QString fixture(const char *path)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(path);
}

const ConfigDiff::Row *row(const ConfigDiff &d, const QString &key)
{
    for (const auto &r : d.rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

const ConfigDiff::MetricRow *metric(const ConfigDiff &d, const QString &key)
{
    for (const auto &m : d.metrics)
        if (m.key == key)
            return &m;
    return nullptr;
}

} // namespace

class TestConfigDiff : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;
    QList<ExperimentRunInfo> m_runs;

    int64_t idOf(const QString &name) const
    {
        for (const auto &r : m_runs)
            if (r.name == name)
                return r.id;
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importFoldersIntoWorkspace(
            m_ws, { fixture("mlflow/data/filestore"), fixture("tfevents/data/hparams") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(m_ws, Workspace::Role::Reader);
        m_runs = ExperimentReader(ws).runs();
        QVERIFY(idOf(QStringLiteral("alpha")) >= 0);
        QVERIFY(idOf(QStringLiteral("beta")) >= 0);
        QVERIFY(idOf(QStringLiteral("hparams/trial_a")) >= 0);
    }

    void metricDirection_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("direction");
        const int lower = int(MetricDirection::LowerIsBetter), higher = int(MetricDirection::HigherIsBetter),
                  unknown = int(MetricDirection::Unknown);
        QTest::newRow("loss") << QStringLiteral("train/loss") << lower;
        QTest::newRow("val_loss_epoch") << QStringLiteral("val_loss_epoch") << lower;
        QTest::newRow("camelCase") << QStringLiteral("valLoss") << lower;
        QTest::newRow("error rate") << QStringLiteral("error_rate") << lower;
        QTest::newRow("perplexity") << QStringLiteral("eval/perplexity") << lower;
        QTest::newRow("latency") << QStringLiteral("latency_p99_ms") << lower;
        QTest::newRow("step time") << QStringLiteral("step_time") << lower;
        QTest::newRow("accuracy") << QStringLiteral("epoch_accuracy") << higher;
        QTest::newRow("val_acc") << QStringLiteral("val_acc") << higher;
        QTest::newRow("f1") << QStringLiteral("test/f1_macro") << higher;
        QTest::newRow("auc") << QStringLiteral("roc_auc") << higher;
        QTest::newRow("throughput") << QStringLiteral("throughput") << higher;
        QTest::newRow("per second before time") << QStringLiteral("tokens_per_second") << higher;
        QTest::newRow("hp_metric") << QStringLiteral("hp_metric") << unknown;
        QTest::newRow("lr") << QStringLiteral("lr-Adam") << unknown;
        QTest::newRow("epoch") << QStringLiteral("epoch") << unknown;
    }

    void metricDirection()
    {
        QFETCH(QString, key);
        QFETCH(int, direction);
        QCOMPARE(int(plumb::metricDirection(key)), direction);
    }

    void groups()
    {
        QCOMPARE(configRowGroup({ 0, QStringLiteral("lr"), QStringLiteral("1"), QStringLiteral("number") }),
            ConfigDiff::Group::Params);
        QCOMPARE(configRowGroup({ 0, QStringLiteral("team"), QStringLiteral("perf"), QStringLiteral("tag") }),
            ConfigDiff::Group::Tags);
        QCOMPARE(
            configRowGroup({ 0, QStringLiteral("mlflow.user"), QStringLiteral("x"), QStringLiteral("tag") }),
            ConfigDiff::Group::SystemTags);
        QCOMPARE(configRowGroup(
                     { 0, QStringLiteral("torch_version"), QStringLiteral("2.3"), QStringLiteral("string") }),
            ConfigDiff::Group::Environment);
        QCOMPARE(configRowGroup({ 0, QStringLiteral("env.CUDA_VISIBLE_DEVICES"), QStringLiteral("0"),
                     QStringLiteral("tag") }),
            ConfigDiff::Group::Environment);
        QCOMPARE(
            configRowGroup({ 0, QStringLiteral("python"), QStringLiteral("3.11"), QStringLiteral("string") }),
            ConfigDiff::Group::Environment);
        // "mlflow." only marks MLflow's own tags, not a param that happens to be named so.
        QCOMPARE(
            configRowGroup({ 0, QStringLiteral("mlflow.x"), QStringLiteral("1"), QStringLiteral("number") }),
            ConfigDiff::Group::Params);
    }

    void twoRuns()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const int64_t alpha = idOf(QStringLiteral("alpha")), beta = idOf(QStringLiteral("beta"));
        const ConfigDiff d = diffConfigs(ws, { alpha, beta });
        QCOMPARE(d.runs.size(), 2);
        QCOMPARE(d.runs[0].id, alpha);

        // alpha: lr 0.001, optimizer adam, tags mlflow.runName, mlflow.user, note; beta: lr 0.01,
        // mlflow.runName.
        QStringList keys;
        for (const auto &r : d.rows)
            keys << groupName(r.group) + u':' + r.key;
        QCOMPARE(keys,
            QStringList({ QStringLiteral("params:lr"), QStringLiteral("params:optimizer"),
                QStringLiteral("tags:note"), QStringLiteral("system tags:mlflow.runName"),
                QStringLiteral("system tags:mlflow.user") }));
        const ConfigDiff::Row *lr = row(d, QStringLiteral("lr"));
        QVERIFY(lr->differs);
        QCOMPARE(lr->values[0].value(), QStringLiteral("0.001"));
        QCOMPARE(lr->values[1].value(), QStringLiteral("0.01"));
        const ConfigDiff::Row *optimizer = row(d, QStringLiteral("optimizer"));
        QVERIFY(optimizer->differs); // missing in beta
        QVERIFY(!optimizer->values[1].has_value());
        QCOMPARE(row(d, QStringLiteral("note"))->values[0].value(), QStringLiteral("two\nlines"));

        // alpha's loss ends at 0.125 (min 0.125); beta's restarted (steps 0 1 2, then 0 1) and ends at
        // 3, its finite points 1 and 3.
        const ConfigDiff::MetricRow *loss = metric(d, QStringLiteral("loss"));
        QVERIFY(loss);
        QCOMPARE(loss->direction, MetricDirection::LowerIsBetter);
        QCOMPARE(loss->last[0], 0.125);
        QCOMPARE(loss->last[1], 3.0);
        QCOMPARE(loss->best[0], 0.125);
        QCOMPARE(loss->best[1], 1.0);
        QCOMPARE(loss->delta[0], 0.0);
        QCOMPARE(loss->delta[1], 2.875);
        QCOMPARE(loss->deltaPercent[1], 2300.0);
        QVERIFY(loss->differs);
        QCOMPARE(loss->better, std::vector<bool>({ true, false }));

        // train/acc only in alpha: differs, and with one value nothing is "better".
        const ConfigDiff::MetricRow *acc = metric(d, QStringLiteral("train/acc"));
        QVERIFY(acc);
        QCOMPARE(acc->direction, MetricDirection::HigherIsBetter);
        QCOMPARE(acc->present, std::vector<bool>({ true, false }));
        QCOMPARE(acc->last[0], 0.875);
        QVERIFY(acc->differs);
        QCOMPARE(acc->better, std::vector<bool>({ false, false }));

        // legacy: unknown direction, no best and no mark.
        const ConfigDiff::MetricRow *legacy = metric(d, QStringLiteral("legacy"));
        QVERIFY(legacy);
        QCOMPARE(legacy->direction, MetricDirection::Unknown);
        QVERIFY(std::isnan(legacy->best[0]));
        QCOMPARE(legacy->better, std::vector<bool>({ false, false }));
    }

    void sameRunTwiceDiffersNowhere()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const int64_t alpha = idOf(QStringLiteral("alpha"));
        // The table keeps each run once: a run compared with itself is one column.
        QCOMPARE(diffConfigs(ws, { alpha, alpha }).runs.size(), 1);
        const ConfigDiff d = diffConfigs(ws, { alpha });
        for (const auto &r : d.rows)
            QVERIFY2(!r.differs, qPrintable(r.key));
        for (const auto &m : d.metrics)
            QVERIFY2(!m.differs, qPrintable(m.key));
    }

    void deltasAndTrialSubRuns()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const int64_t alpha = idOf(QStringLiteral("alpha")), trial = idOf(QStringLiteral("hparams/trial_a"));
        const ConfigDiff d = diffConfigs(ws, { trial, alpha });
        // The trial's series and its sub-runs' (train/, validation/) under their folder's name.
        const ConfigDiff::MetricRow *val = metric(d, QStringLiteral("validation/epoch_accuracy"));
        QVERIFY(val);
        QCOMPARE(val->last[0], double(0.85f));
        QVERIFY(metric(d, QStringLiteral("train/epoch_accuracy")));
        QVERIFY(metric(d, QStringLiteral("hp_metric")));
        // alpha has loss, the trial not: no delta against a missing baseline.
        const ConfigDiff::MetricRow *loss = metric(d, QStringLiteral("loss"));
        QCOMPARE(loss->present, std::vector<bool>({ false, true }));
        QVERIFY(std::isnan(loss->delta[1]));
        // The hparams (number, bool, string, json, null) are params; the trial's lr 3e-05 against 0.001.
        const ConfigDiff::Row *lr = row(d, QStringLiteral("lr"));
        QCOMPARE(lr->values[0].value(), QStringLiteral("3e-05"));
        QCOMPARE(lr->values[1].value(), QStringLiteral("0.001"));
        QCOMPARE(row(d, QStringLiteral("amsgrad"))->group, ConfigDiff::Group::Params);
        QVERIFY(!row(d, QStringLiteral("amsgrad"))->values[1].has_value());
    }

    void deltaPercent()
    {
        // Known deltas without a workspace: a table of two runs with one series each.
        TrialTable t;
        for (int i = 0; i < 3; ++i) {
            ExperimentRunInfo r;
            r.id = i + 1;
            r.name = QStringLiteral("r%1").arg(i);
            t.runs << r;
        }
        t.params.resize(3);
        t.metrics.resize(3);
        const double last[] = { 2.0, 1.5, 3.0 };
        for (int i = 0; i < 3; ++i) {
            SeriesSummary s;
            s.key = QStringLiteral("val_loss");
            s.hasValues = true;
            s.lastValue = last[i];
            s.minValue = last[i] - 1;
            s.maxValue = last[i] + 1;
            t.metrics[size_t(i)].insert(s.key, s);
        }
        const ConfigDiff d = diffConfigs(t);
        QCOMPARE(d.metrics.size(), size_t(1));
        const ConfigDiff::MetricRow &m = d.metrics[0];
        QCOMPARE(m.delta, std::vector<double>({ 0.0, -0.5, 1.0 }));
        QCOMPARE(m.deltaPercent, std::vector<double>({ 0.0, -25.0, 50.0 }));
        QCOMPARE(m.best, std::vector<double>({ 1.0, 0.5, 2.0 }));
        QCOMPARE(m.better, std::vector<bool>({ false, true, false }));
    }

    // The metric the pages and the report open on: most runs, then a known direction, then held-out
    // data (val_loss over train_loss; "interval_loss" is no validation metric), then by name.
    void defaultMetric_data()
    {
        QTest::addColumn<QString>("keys"); // comma-separated
        QTest::addColumn<QString>("expected");
        QTest::newRow("validation over training")
            << QStringLiteral("epoch,train_loss,val_loss") << QStringLiteral("val_loss");
        QTest::newRow("eval/ prefix")
            << QStringLiteral("eval/accuracy,loss") << QStringLiteral("eval/accuracy");
        QTest::newRow("test_ suffix") << QStringLiteral("acc_test,accuracy") << QStringLiteral("acc_test");
        QTest::newRow("not a word inside")
            << QStringLiteral("a_loss,interval_loss") << QStringLiteral("a_loss");
        QTest::newRow("direction first")
            << QStringLiteral("val_step,train_loss") << QStringLiteral("train_loss");
        QTest::newRow("none known") << QStringLiteral("epoch,zeta") << QStringLiteral("epoch");
    }

    void defaultMetric()
    {
        QFETCH(QString, keys);
        QFETCH(QString, expected);
        TrialTable t;
        for (int i = 0; i < 2; ++i) {
            ExperimentRunInfo r;
            r.id = i + 1;
            t.runs << r;
        }
        t.params.resize(2);
        t.metrics.resize(2);
        for (auto &run : t.metrics)
            for (const QString &key : keys.split(u',')) {
                SeriesSummary s;
                s.key = key;
                s.hasValues = true;
                s.lastValue = s.minValue = s.maxValue = 1.0;
                run.insert(key, s);
            }
        QCOMPARE(t.defaultMetric(), expected);
        // A tag fewer runs logged loses, held out or not.
        t.metrics[1].remove(expected);
        QVERIFY(t.defaultMetric() != expected);
    }

    void resolveRuns()
    {
        QList<ExperimentRunInfo> runs;
        auto add = [&runs](int64_t id, const char *name) {
            ExperimentRunInfo r;
            r.id = id;
            r.name = QLatin1String(name);
            runs << r;
        };
        add(1, "logs/version_0");
        add(2, "logs/version_1");
        add(3, "other/version_1");
        add(4, "7");
        add(7, "seven");
        QCOMPARE(plumb::resolveRuns(runs, { QStringLiteral("1"), QStringLiteral("logs/version_1") }).ids,
            QList<int64_t>({ 1, 2 }));
        QCOMPARE(plumb::resolveRuns(runs, { QStringLiteral("version_0") }).ids, QList<int64_t>({ 1 }));
        // An id wins over a run named by the same number.
        QCOMPARE(plumb::resolveRuns(runs, { QStringLiteral("7") }).ids, QList<int64_t>({ 7 }));
        const RunLookup ambiguous
            = plumb::resolveRuns(runs, { QStringLiteral("1"), QStringLiteral("version_1") });
        QVERIFY(ambiguous.ids.isEmpty());
        QVERIFY2(ambiguous.error.contains(QStringLiteral("2 logs/version_1"))
                && ambiguous.error.contains(QStringLiteral("3 other/version_1")),
            qPrintable(ambiguous.error));
        const RunLookup unknown = plumb::resolveRuns(runs, { QStringLiteral("version_9") });
        QVERIFY(unknown.ids.isEmpty());
        QVERIFY2(unknown.error.startsWith(QStringLiteral("no experiment run version_9")),
            qPrintable(unknown.error));
    }
};

QTEST_GUILESS_MAIN(TestConfigDiff)
#include "tst_configdiff.moc"
