// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter importance on inputs whose answer is known: a metric that is a function of one param
// and not of another, constant and identifier params, categorical params, too few runs; then the
// 25 real Lightning trials of ../shared/data.
#include "analysis/paramimportance.h"
#include "importhelpers.h"
#include "store/experimentreader.h"
#include "store/workspace.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace plumb;

namespace {

RunParam number(const char *key, double v)
{
    return { 0, QLatin1String(key), QString::number(v, 'g', 17), QStringLiteral("number") };
}

RunParam text(const char *key, const QString &v)
{
    return { 0, QLatin1String(key), v, QStringLiteral("string") };
}

// A fixed pseudo-random sequence in [0, 1) for noise (an LCG: the test must not depend on a library's).
struct Noise {
    uint32_t s = 12345;
    double next()
    {
        s = s * 1664525u + 1013904223u;
        return double(s >> 8) / double(1u << 24);
    }
};

const ParamImportance::Entry *entry(const ParamImportance &r, const char *key)
{
    for (const auto &e : r.entries)
        if (e.key == QLatin1String(key))
            return &e;
    return nullptr;
}

} // namespace

class TestParamImportance : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pearsonKnown()
    {
        QCOMPARE(pearson({ 1, 2, 3 }, { 1, 3, 2 }), 0.5);
        QCOMPARE(pearson({ 1, 2, 3, 4 }, { 8, 6, 4, 2 }), -1.0);
        QVERIFY(std::isnan(pearson({ 1, 1, 1 }, { 1, 2, 3 })));
        QVERIFY(std::isnan(pearson({ 1 }, { 1 })));
    }

    void linearInOneParam()
    {
        // metric = 3 lr + 1 exactly; noise is independent of it; width is the same everywhere.
        Noise noise;
        std::vector<ImportanceSample> samples;
        for (int i = 0; i < 30; ++i) {
            const double lr = 0.1 * i;
            ImportanceSample s;
            s.params = { number("lr", lr), number("noise", noise.next()), number("width", 128),
                { 0, QStringLiteral("mlflow.user"), QStringLiteral("u%1").arg(i % 3),
                    QStringLiteral("tag") } };
            s.target = 3 * lr + 1;
            samples.push_back(s);
        }
        const ParamImportance r = paramImportance(samples);
        QVERIFY(r.reason.isEmpty());
        QCOMPARE(r.runs, 30);
        QCOMPARE(r.entries.size(), size_t(2)); // width constant, the tag is not a param
        QCOMPARE(r.entries[0].key, QStringLiteral("lr"));
        QVERIFY(qFuzzyCompare(r.entries[0].correlation, 1.0));
        QVERIFY2(r.entries[0].importance > 0.97, qPrintable(QString::number(r.entries[0].importance)));
        const auto *n = entry(r, "noise");
        QVERIFY2(n->importance < 0.03, qPrintable(QString::number(n->importance)));
        QVERIFY(std::abs(r.entries[0].importance + n->importance - 1) < 1e-9);
        QCOMPARE(r.skipped.size(), size_t(1));
        QCOMPARE(r.skipped[0].key, QStringLiteral("width"));
        QCOMPARE(r.skipped[0].reason, QStringLiteral("the same in every run"));

        // The same input gives the same figures (fixed seed).
        const ParamImportance again = paramImportance(samples);
        QCOMPARE(again.entries[1].importance, r.entries[1].importance);
    }

    void monotoneNonlinear()
    {
        // metric = exp(x) for x in 0..10: Pearson's r well under 1, yet the forest finds x (and
        // down = -x, the same information), not the noise.
        Noise noise;
        std::vector<ImportanceSample> samples;
        for (int i = 0; i <= 10; ++i) {
            ImportanceSample s;
            s.params = { number("x", i), number("noise", noise.next()), number("down", -i) };
            s.target = std::exp(double(i));
            samples.push_back(s);
        }
        const ParamImportance r = paramImportance(samples);
        const double rx = entry(r, "x")->correlation;
        QVERIFY2(rx > 0.5 && rx < 0.8, qPrintable(QString::number(rx)));
        QCOMPARE(entry(r, "down")->correlation, -rx);
        QVERIFY2(
            entry(r, "noise")->importance < 0.1, qPrintable(QString::number(entry(r, "noise")->importance)));
        QVERIFY(entry(r, "x")->importance + entry(r, "down")->importance > 0.9);
    }

    void categorical()
    {
        // The optimizer decides the metric; the output folder differs in every run (an identifier).
        Noise noise;
        const QString optimizers[]
            = { QStringLiteral("adam"), QStringLiteral("sgd"), QStringLiteral("lion") };
        const double effect[] = { 0.9, 0.5, 0.7 };
        std::vector<ImportanceSample> samples;
        for (int i = 0; i < 24; ++i) {
            ImportanceSample s;
            s.params = { text("optimizer", optimizers[i % 3]), number("seed", noise.next()),
                text("out", QStringLiteral("/runs/%1").arg(i)) };
            s.target = effect[i % 3];
            samples.push_back(s);
        }
        const ParamImportance r = paramImportance(samples);
        QCOMPARE(r.entries.size(), size_t(2));
        const auto *opt = entry(r, "optimizer");
        QVERIFY(opt->categorical);
        QCOMPARE(opt->levels, 3);
        QVERIFY(qFuzzyCompare(opt->correlation, 1.0)); // eta: the category means explain everything
        QVERIFY2(opt->importance > 0.9, qPrintable(QString::number(opt->importance)));
        QVERIFY(entry(r, "seed")->importance < 0.1);
        QCOMPARE(r.skipped.size(), size_t(1));
        QCOMPARE(r.skipped[0].key, QStringLiteral("out"));
        QCOMPARE(r.skipped[0].reason, QStringLiteral("a different value in every run"));
    }

    void missingValues()
    {
        // dropout set in half the runs only (one value): set-or-not is a category, and it decides.
        std::vector<ImportanceSample> samples;
        for (int i = 0; i < 10; ++i) {
            ImportanceSample s;
            s.params = { number("layers", 2 + i % 5) };
            if (i % 2)
                s.params << number("dropout", 0.1);
            s.target = i % 2 ? 1 : 0;
            samples.push_back(s);
        }
        const ParamImportance r = paramImportance(samples);
        const auto *d = entry(r, "dropout");
        QVERIFY(d && d->categorical);
        QCOMPARE(d->runs, 5);
        QCOMPARE(d->levels, 2);
        QCOMPARE(r.entries[0].key, QStringLiteral("dropout"));
    }

    void tooFewRuns()
    {
        std::vector<ImportanceSample> samples(2);
        samples[0].params = { number("lr", 1) };
        samples[0].target = 1;
        samples[1].params = { number("lr", 2) };
        samples[1].target = 2;
        ImportanceSample nan;
        nan.params = { number("lr", 3) };
        nan.target = std::nan("");
        samples.push_back(nan); // a run without a finite value does not count
        const ParamImportance r = paramImportance(samples);
        QVERIFY(r.entries.empty());
        QCOMPARE(r.runs, 2);
        QCOMPARE(r.reason,
            QStringLiteral("needs at least 3 runs with both params and a value of the metric; 2 have"));
    }

    void constantMetric()
    {
        std::vector<ImportanceSample> samples;
        for (int i = 0; i < 5; ++i)
            samples.push_back({ { number("lr", i) }, 0.5 });
        const ParamImportance r = paramImportance(samples);
        QCOMPARE(r.reason, QStringLiteral("the metric is 0.5 in every run"));
        QCOMPARE(r.entries.size(), size_t(1));
        QCOMPARE(r.entries[0].importance, 0.0);
    }

    void realLightningTrials()
    {
        const QString logdir = QStringLiteral(PLUMB_SHARED_DATA "/tfevents/shapeaxi_lightning_hparams");
        if (!QDir(logdir).exists())
            QSKIP("../shared/data/tfevents/shapeaxi_lightning_hparams is absent");
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importFoldersIntoWorkspace(ws, { logdir });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace w(ws, Workspace::Role::Reader);
        QList<int64_t> ids;
        for (const auto &run : ExperimentReader(w).runs())
            ids << run.id;
        const TrialTable table = readTrialTable(w, ids);
        QCOMPARE(table.size(), 25);
        // Lightning logs hp_metric as -1 when the script never sets it, as here: every trial has -1,
        // and the importance says so rather than rank noise. The params that vary are still listed.
        const ParamImportance r = paramImportance(table, QStringLiteral("hp_metric"), MetricStatistic::Last);
        QCOMPARE(r.runs, 25);
        QCOMPARE(r.reason, QStringLiteral("the metric is -1 in every run"));
        QVERIFY(!r.entries.empty());
        for (const auto &e : r.entries) {
            QCOMPARE(e.importance, 0.0);
            QVERIFY(std::isnan(e.correlation));
        }
        // batch_size varies across the search; no categorical param ranked has a value per trial.
        QVERIFY(std::any_of(r.entries.cbegin(), r.entries.cend(),
            [](const ParamImportance::Entry &e) { return e.key == QLatin1String("batch_size"); }));
        for (const auto &e : r.entries)
            QVERIFY2(!e.categorical || e.levels < 25, qPrintable(e.key));
    }
};

QTEST_GUILESS_MAIN(TestParamImportance)
#include "tst_paramimportance.moc"
