// SPDX-License-Identifier: GPL-3.0-or-later
// Goodput and badput against timelines computed by hand (times in seconds from T0): the
// ml-goodput-measurement example job, compilation in a first step, a job with provisioning, two
// preemptions and two restores, overlapping custom badput (each second counted once), program
// goodput from FLOPs, goodput over time, quantities by name, and step timings derived from an
// experiment log whose step went backwards.

#include "analysis/goodput.h"
#include "ingest/diagnosticlog.h"
#include "ingest/metricsink.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int64_t kT0 = 1'704'070'800'000'000'000; // 2024-01-01 01:00 UTC, as ml-goodput-measurement's tests
constexpr int64_t kS = 1'000'000'000;

int64_t at(double seconds)
{
    return kT0 + int64_t(seconds * 1e9);
}

LifecycleEvent instant(LifecycleKind k, double t, int64_t step = -1)
{
    LifecycleEvent e;
    e.kind = k;
    e.startNs = e.endNs = at(t);
    e.step = step;
    return e;
}

LifecycleEvent phase(LifecycleKind k, double from, double to, const QString &label = {}, int64_t step = -1)
{
    LifecycleEvent e;
    e.kind = k;
    e.startNs = at(from);
    e.endNs = at(to);
    e.label = label;
    e.step = step;
    return e;
}

void steps(std::vector<LifecycleEvent> &ev, int64_t firstStep, std::initializer_list<double> times)
{
    int64_t s = firstStep;
    for (const double t : times)
        ev.push_back(instant(LifecycleKind::Step, t, s++));
}

int64_t badput(const GoodputReport &r, Badput b)
{
    return r.badputNs[size_t(b)];
}

// The example of ml-goodput-measurement's goodput_test.py: 5 s from job start to the first step
// (1 s accelerator init, 2 s training prep, 2 s data loading), then 5 steps of 3 s.
std::vector<LifecycleEvent> exampleJob()
{
    std::vector<LifecycleEvent> ev;
    ev.push_back(instant(LifecycleKind::JobStart, 0));
    ev.push_back(phase(LifecycleKind::AcceleratorInit, 0, 1));
    ev.push_back(phase(LifecycleKind::TrainingPrep, 1, 3));
    ev.push_back(phase(LifecycleKind::DataLoading, 3, 5));
    steps(ev, 0, { 5, 8, 11, 14, 17 });
    ev.push_back(instant(LifecycleKind::JobEnd, 20));
    return ev;
}

} // namespace

class TestGoodput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // 15 s of steps in 20 s: goodput 75%, as the library's own test computes it; the 5 s before the
    // first step are its three phases exactly, so no program startup and no other.
    void exampleJob()
    {
        const GoodputReport r = analyzeGoodput(::exampleJob(), {});
        QVERIFY(r.valid());
        QCOMPARE(r.elapsedNs, 20 * kS);
        QCOMPARE(r.productiveNs, 15 * kS);
        QCOMPARE(r.goodput, 0.75);
        QCOMPARE(r.schedulingGoodput, 1.0);
        QCOMPARE(r.runtimeGoodput, 0.75);
        QCOMPARE(badput(r, Badput::AcceleratorInit), 1 * kS);
        QCOMPARE(badput(r, Badput::TrainingPrep), 2 * kS);
        QCOMPARE(badput(r, Badput::DataLoading), 2 * kS);
        QCOMPARE(badput(r, Badput::ProgramStartup), 0);
        QCOMPARE(badput(r, Badput::Other), 0);
        QCOMPARE(r.badputShare(Badput::TrainingPrep), 0.1);
        QCOMPARE(r.disruptions, 0);
        QCOMPARE(r.productiveSteps, 5);
        QCOMPARE(r.idealStepNs, 3 * kS);
        QCOMPARE(r.stepTimeDeviation, 0.0);
        QCOMPARE(r.largestBadput(), std::optional<Badput>(Badput::TrainingPrep));
        QVERIFY(goodputAdvice(r).startsWith(
            QStringLiteral("Training prep is the largest badput: 10.0% of the job")));
    }

    // Nothing logged before the first step: the 5 s are program startup. The first step takes 8 s
    // where the others take 3: its 5 s beyond the ideal step time were compilation, startup too.
    void programStartup()
    {
        std::vector<LifecycleEvent> ev { instant(LifecycleKind::JobStart, 0) };
        steps(ev, 0, { 5, 13, 16, 19 });
        ev.push_back(instant(LifecycleKind::JobEnd, 22));
        const GoodputReport r = analyzeGoodput(ev, {});
        QCOMPARE(r.elapsedNs, 22 * kS);
        QCOMPARE(r.idealStepNs, 3 * kS);
        QCOMPARE(badput(r, Badput::ProgramStartup), 10 * kS);
        QCOMPARE(r.productiveNs, 12 * kS);
        QCOMPARE(r.steps.size(), size_t(4));
        QCOMPARE(r.steps[0].stepNs, 3 * kS); // after the compilation was taken out
        QCOMPARE(r.stepTimeDeviation, 0.0);
    }

    // Provisioning [0,10]; attempt 1 from 10: steps 0..5 every 2 s, a checkpoint save [16,17] holding
    // steps 0..2, preempted at 21 in step 5; re-provisioned [25,30], restarted at 32, restore [32,34],
    // steps 3..6 from 34, preempted at 41 in step 6; restarted at 45, restore [45,46], steps 6 and 7,
    // job end at 50.
    //  productive: steps 0-2 (6 s) + 3-5 of attempt 2 (6 s) + 6-7 (4 s) = 16 s
    //  wasted progress: [17,18) of step 3, step 4 (2 s), step 5 cut at 21 (1 s) + step 6 cut at 41 (1 s) = 5
    //  s checkpoint save 1 s; restore 2 + 1 = 3 s; provisioning 10 + 5 = 15 s disruption recovery: [21,25) +
    //  [30,32) + [41,45) = 10 s           sum: 50 s unavailable: [0,10) + [21,30) (preempted until
    //  re-provisioned) + [41,45) = 23 s
    void twoPreemptionsAndRestores()
    {
        std::vector<LifecycleEvent> ev;
        ev.push_back(phase(LifecycleKind::Provisioning, 0, 10));
        ev.push_back(instant(LifecycleKind::JobStart, 10));
        steps(ev, 0, { 10, 12, 14, 16, 18, 20 });
        ev.push_back(phase(LifecycleKind::CheckpointSave, 16, 17, {}, 3));
        LifecycleEvent preempted = instant(LifecycleKind::Interruption, 21);
        preempted.label = QStringLiteral("preemption");
        ev.push_back(preempted);
        ev.push_back(phase(LifecycleKind::Provisioning, 25, 30));
        ev.push_back(instant(LifecycleKind::Restart, 32));
        ev.push_back(instant(LifecycleKind::JobStart, 32)); // the same start, logged twice
        ev.push_back(phase(LifecycleKind::CheckpointRestore, 32, 34, {}, 3));
        steps(ev, 3, { 34, 36, 38, 40 });
        ev.push_back(instant(LifecycleKind::Interruption, 41));
        ev.push_back(instant(LifecycleKind::Restart, 45));
        ev.push_back(phase(LifecycleKind::CheckpointRestore, 45, 46, {}, 6));
        steps(ev, 6, { 46, 48 });
        ev.push_back(instant(LifecycleKind::JobEnd, 50));
        std::reverse(ev.begin(), ev.end()); // order does not matter

        const GoodputReport r = analyzeGoodput(ev, {});
        QVERIFY(r.valid());
        QCOMPARE(r.elapsedNs, 50 * kS);
        QCOMPARE(r.attempts, 3);
        QCOMPARE(r.disruptions, 2);
        QCOMPARE(r.productiveNs, 16 * kS);
        QCOMPARE(badput(r, Badput::WastedProgress), 5 * kS);
        QCOMPARE(badput(r, Badput::CheckpointSave), 1 * kS);
        QCOMPARE(badput(r, Badput::CheckpointRestore), 3 * kS);
        QCOMPARE(badput(r, Badput::Provisioning), 15 * kS);
        QCOMPARE(badput(r, Badput::DisruptionRecovery), 10 * kS);
        QCOMPARE(badput(r, Badput::Other), 0);
        QCOMPARE(badput(r, Badput::ProgramStartup), 0);
        QCOMPARE(r.availableNs, 27 * kS);
        QCOMPARE(r.schedulingGoodput, 27.0 / 50.0);
        QCOMPARE(r.runtimeGoodput, 16.0 / 27.0);
        QCOMPARE(r.goodput, 16.0 / 50.0);
        QCOMPARE(r.productiveSteps, 8);
        QCOMPARE(r.wastedSteps, 4);
        QCOMPARE(r.idealStepNs, 2 * kS);
        QCOMPARE(r.lastStep, 7);
        QCOMPARE(r.checkpointSaves, 1);
        int64_t sum = r.productiveNs;
        for (const int64_t b : r.badputNs)
            sum += b;
        QCOMPARE(sum, r.elapsedNs);
        QCOMPARE(r.largestBadput(), std::optional<Badput>(Badput::Provisioning));
        QCOMPARE(*goodputQuantity(r, QStringLiteral("badput.disruption_recovery")), 0.2);
    }

    // Steps every 4 s from 0 to 16. Custom "sync" [1,3] and "eval" [2,5] overlap on [2,3), and data
    // loading [4,5] overlaps "eval": every second counts once. sync keeps [1,3) (it started first),
    // eval gets [3,4), data loading [4,5).
    void overlappingCustomBadput()
    {
        std::vector<LifecycleEvent> ev { instant(LifecycleKind::JobStart, 0) };
        steps(ev, 0, { 0, 4, 8, 12 });
        ev.push_back(phase(LifecycleKind::Custom, 2, 5, QStringLiteral("eval")));
        ev.push_back(phase(LifecycleKind::Custom, 1, 3, QStringLiteral("sync")));
        ev.push_back(phase(LifecycleKind::DataLoading, 4, 5));
        ev.push_back(instant(LifecycleKind::JobEnd, 16));
        const GoodputReport r = analyzeGoodput(ev, {});
        QCOMPARE(badput(r, Badput::Custom), 3 * kS);
        QCOMPARE(r.customNs.at(QStringLiteral("sync")), 2 * kS);
        QCOMPARE(r.customNs.at(QStringLiteral("eval")), 1 * kS);
        QCOMPARE(badput(r, Badput::DataLoading), 1 * kS);
        QCOMPARE(r.productiveNs, 12 * kS);
        // Step times 1, 3, 4, 4 s; the ideal leaves the first out: 3, 4, 4 has median 4 and MAD 0,
        // nothing is above 4 + 3 x 0, so the ideal is their mean 11/3 s. Deviations 8/3, 2/3, 1/3,
        // 1/3: mean 1 s = 3/11 of the ideal.
        QCOMPARE(r.idealStepNs, int64_t(3'666'666'667));
        QVERIFY(std::abs(r.stepTimeDeviation - 3.0 / 11.0) < 1e-9);
        QCOMPARE(badput(r, Badput::ProgramStartup), 0);
    }

    // 5 steps of 1e12 FLOPs in 15 s of productive time: 3.33e11 FLOP/s of a 1e12 peak.
    void programGoodput()
    {
        GoodputOptions o;
        o.flopsPerStep = 1e12;
        o.peakFlopsPerSecond = 1e12;
        const GoodputReport r = analyzeGoodput(::exampleJob(), o);
        QVERIFY(r.programGoodput.has_value());
        QVERIFY(qFuzzyCompare(*r.programGoodput, 1.0 / 3.0));
        QVERIFY(!analyzeGoodput(::exampleJob(), {}).programGoodput.has_value());
    }

    void windows()
    {
        GoodputOptions o;
        o.intervalNs = 5 * kS;
        const GoodputReport r = analyzeGoodput(::exampleJob(), o);
        QCOMPARE(r.windows.size(), size_t(4));
        QCOMPARE(r.windows[0].productiveNs, 0);
        QCOMPARE(r.windows[0].badputNs[size_t(Badput::TrainingPrep)], 2 * kS);
        QCOMPARE(r.windows[1].goodput(), 1.0);
        QCOMPARE(r.windows[3].productiveNs, 5 * kS);
        QCOMPARE(r.windows[3].availableNs, 5 * kS);
    }

    void quantities()
    {
        const GoodputReport r = analyzeGoodput(::exampleJob(), {});
        QCOMPARE(*goodputQuantity(r, QStringLiteral("goodput")), 0.75);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("runtime_goodput")), 0.75);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("scheduling_goodput")), 1.0);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("badput.data_loading")), 0.1);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("badput.data_loading_s")), 2.0);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("badput")), 0.25);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("elapsed_s")), 20.0);
        QCOMPARE(*goodputQuantity(r, QStringLiteral("ideal_step_s")), 3.0);
        QVERIFY(!goodputQuantity(r, QStringLiteral("program_goodput")));
        QVERIFY(!goodputQuantity(r, QStringLiteral("badput.nothing")));
        for (const QString &n : goodputQuantityNames())
            QVERIFY2(n == QLatin1String("program_goodput") || goodputQuantity(r, n), qPrintable(n));
        QVERIFY(!goodputQuantity(analyzeGoodput({}, {}), QStringLiteral("goodput")));
    }

    // A metric log, no lifecycle log: steps 0..4 logged every 10 s from 100 s, then the job restarted
    // from step 2 at 160 s and logged 2..5 every 10 s. Steps 2 and 3 of the first attempt (20 s) were
    // done again; 140..160 s is the disruption; productive 20 s + 30 s of 90 s.
    void derivedFromExperimentLog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.plumb"));
        int64_t run = 0;
        {
            Workspace ws(path, Workspace::Role::Writer);
            SqliteTransaction tx(ws.db());
            DiagnosticLog diag;
            MetricSink sink(ws.db(), diag);
            run = sink.openRun(QStringLiteral("r"), QStringLiteral("run"), {});
            const int64_t loss = sink.series(run, "loss", SeriesKind::Scalar);
            const int64_t lr = sink.series(run, "lr", SeriesKind::Scalar);
            for (int s = 0; s <= 4; ++s)
                sink.addScalar(loss, s, (100 + 10 * s) * kS, 1.0);
            for (int s = 2; s <= 5; ++s)
                sink.addScalar(loss, s, (160 + 10 * (s - 2)) * kS, 1.0);
            sink.addScalar(lr, 0, 100 * kS, 0.1);
            sink.finish();
            tx.commit();
        }
        Workspace ws(path, Workspace::Role::Reader);
        const std::vector<GoodputRun> runs = goodputRuns(ws);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].lifecycle, false);
        const GoodputReport r = computeGoodput(ws, run);
        QVERIFY2(r.valid(), qPrintable(r.problem));
        QVERIFY(r.basis.contains(QStringLiteral("loss")));
        QCOMPARE(r.elapsedNs, 90 * kS);
        QCOMPARE(r.disruptions, 1);
        QCOMPARE(r.productiveNs, 50 * kS);
        QCOMPARE(badput(r, Badput::WastedProgress), 20 * kS);
        QCOMPARE(badput(r, Badput::DisruptionRecovery), 20 * kS);
        QCOMPARE(r.idealStepNs, 10 * kS);
        QCOMPARE(r.schedulingGoodput, 1.0);
        QVERIFY(!computeGoodput(ws, 999).valid());
    }
};

QTEST_GUILESS_MAIN(TestGoodput)
#include "tst_goodput.moc"
