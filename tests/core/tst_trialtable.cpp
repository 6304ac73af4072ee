// SPDX-License-Identifier: GPL-3.0-or-later
// analysis/trialtable.h without a workspace: which way a metric improves (from its name), the value
// a run stands for, and the metric a page shows first. readTrialTable() itself is exercised through
// tst_paramimportance and tst_configdiff.
#include "analysis/trialtable.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace plumb;

Q_DECLARE_METATYPE(plumb::MetricDirection)

namespace {

SeriesSummary series(const QString &key, double last, double min, double max, bool hasValues = true)
{
    SeriesSummary s;
    s.key = key;
    s.hasValues = hasValues;
    s.lastValue = last;
    s.minValue = min;
    s.maxValue = max;
    return s;
}

// A table of `runs` runs and no series yet.
TrialTable table(int runs)
{
    TrialTable t;
    for (int i = 0; i < runs; ++i) {
        ExperimentRunInfo r;
        r.id = 10 + i;
        r.name = QStringLiteral("run%1").arg(i);
        t.runs << r;
    }
    t.params.resize(size_t(runs));
    t.metrics.resize(size_t(runs));
    return t;
}

} // namespace

class TestTrialTable : public QObject {
    Q_OBJECT

private slots:
    void direction_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<MetricDirection>("direction");
        const auto lower = MetricDirection::LowerIsBetter;
        const auto higher = MetricDirection::HigherIsBetter;
        const auto unknown = MetricDirection::Unknown;
        QTest::newRow("loss") << QStringLiteral("loss") << lower;
        QTest::newRow("val_loss") << QStringLiteral("val_loss") << lower;
        QTest::newRow("camelCase valLoss") << QStringLiteral("valLoss") << lower;
        QTest::newRow("losses prefix") << QStringLiteral("train/losses") << lower;
        QTest::newRow("perplexity") << QStringLiteral("eval/perplexity") << lower;
        QTest::newRow("accuracy") << QStringLiteral("epoch_accuracy") << higher;
        QTest::newRow("f1 prefix") << QStringLiteral("f1_macro") << higher;
        QTest::newRow("mAP word") << QStringLiteral("val/map") << higher;
        // A rate is better high even though "second" reads like a time.
        QTest::newRow("tokens per second") << QStringLiteral("tokens_per_second") << higher;
        QTest::newRow("samples/s") << QStringLiteral("train/samples/s") << higher;
        QTest::newRow("throughput") << QStringLiteral("throughput") << higher;
        QTest::newRow("latency") << QStringLiteral("latency_ms") << lower;
        QTest::newRow("step time") << QStringLiteral("step_time") << lower;
        QTest::newRow("ttft") << QStringLiteral("ttft") << lower;
        QTest::newRow("memory") << QStringLiteral("peak memory") << lower;
        QTest::newRow("hp_metric") << QStringLiteral("hp_metric") << unknown;
        QTest::newRow("lr") << QStringLiteral("lr") << unknown;
        QTest::newRow("epoch") << QStringLiteral("epoch") << unknown;
        QTest::newRow("empty") << QStringLiteral("") << unknown;
    }
    void direction()
    {
        QFETCH(QString, key);
        QFETCH(MetricDirection, direction);
        QCOMPARE(metricDirection(key), direction);
    }

    void seriesValues()
    {
        const SeriesSummary s = series(QStringLiteral("x"), 2.0, 1.0, 3.0);
        QCOMPARE(seriesValue(s, MetricStatistic::Last, MetricDirection::Unknown), 2.0);
        QCOMPARE(seriesValue(s, MetricStatistic::Best, MetricDirection::LowerIsBetter), 1.0);
        QCOMPARE(seriesValue(s, MetricStatistic::Best, MetricDirection::HigherIsBetter), 3.0);
        QVERIFY(std::isnan(seriesValue(s, MetricStatistic::Best, MetricDirection::Unknown)));
        const SeriesSummary none = series(QStringLiteral("x"), 2.0, 1.0, 3.0, false);
        QVERIFY(std::isnan(seriesValue(none, MetricStatistic::Last, MetricDirection::LowerIsBetter)));
        QVERIFY(std::isnan(seriesValue(none, MetricStatistic::Best, MetricDirection::LowerIsBetter)));
    }

    void runLabels()
    {
        ExperimentRunInfo r;
        r.id = 12;
        r.name = QStringLiteral("alpha");
        QCOMPARE(runLabel(r), QStringLiteral("12 alpha"));
    }

    void keysAndValues()
    {
        TrialTable t = table(2);
        t.metrics[0].insert(QStringLiteral("loss"), series(QStringLiteral("loss"), 0.5, 0.25, 2.0));
        t.metrics[1].insert(QStringLiteral("acc"), series(QStringLiteral("acc"), 0.8, 0.1, 0.9));
        t.metrics[1].insert(QStringLiteral("loss"),
            series(QStringLiteral("loss"), std::numeric_limits<double>::infinity(), 0.5, 1.0));
        RunParam p;
        t.params[0].insert(QStringLiteral("lr"), p);
        t.params[1].insert(QStringLiteral("batch"), p);
        QCOMPARE(t.size(), 2);
        QCOMPARE(t.metricKeys(), QStringList({ QStringLiteral("acc"), QStringLiteral("loss") }));
        QCOMPARE(t.paramKeys(), QStringList({ QStringLiteral("batch"), QStringLiteral("lr") }));
        QCOMPARE(t.metricValue(0, QStringLiteral("loss"), MetricStatistic::Last), 0.5);
        QCOMPARE(t.metricValue(0, QStringLiteral("loss"), MetricStatistic::Best), 0.25);
        QCOMPARE(t.metricValue(1, QStringLiteral("acc"), MetricStatistic::Best), 0.9);
        // Not finite, not there, no such run: NaN.
        QVERIFY(std::isnan(t.metricValue(1, QStringLiteral("loss"), MetricStatistic::Last)));
        QVERIFY(std::isnan(t.metricValue(0, QStringLiteral("acc"), MetricStatistic::Last)));
        QVERIFY(std::isnan(t.metricValue(2, QStringLiteral("loss"), MetricStatistic::Last)));
        QVERIFY(std::isnan(t.metricValue(-1, QStringLiteral("loss"), MetricStatistic::Last)));
    }

    // The tag most runs have a value of; ties go to a known direction, then to held-out data.
    void defaultMetric()
    {
        QCOMPARE(table(2).defaultMetric(), QString());

        TrialTable t = table(3);
        for (int i = 0; i < 3; ++i) {
            t.metrics[size_t(i)].insert(
                QStringLiteral("hp_metric"), series(QStringLiteral("hp_metric"), 1, 1, 1));
            t.metrics[size_t(i)].insert(
                QStringLiteral("train_loss"), series(QStringLiteral("train_loss"), 1, 1, 1));
            t.metrics[size_t(i)].insert(
                QStringLiteral("val_loss"), series(QStringLiteral("val_loss"), 1, 1, 1));
        }
        QCOMPARE(t.defaultMetric(), QStringLiteral("val_loss"));
        // A metric fewer runs have loses even when it is held out.
        t.metrics[2].remove(QStringLiteral("val_loss"));
        QCOMPARE(t.defaultMetric(), QStringLiteral("train_loss"));
        // Of unknown direction only: the first by name among the most common.
        TrialTable u = table(2);
        for (int i = 0; i < 2; ++i) {
            u.metrics[size_t(i)].insert(QStringLiteral("zeta"), series(QStringLiteral("zeta"), 1, 1, 1));
            u.metrics[size_t(i)].insert(QStringLiteral("epoch"), series(QStringLiteral("epoch"), 1, 1, 1));
        }
        QCOMPARE(u.defaultMetric(), QStringLiteral("epoch"));
    }
};

QTEST_GUILESS_MAIN(TestTrialTable)
#include "tst_trialtable.moc"
