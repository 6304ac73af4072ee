// SPDX-License-Identifier: GPL-3.0-or-later
// The Experiments tab's Histograms page, offscreen: the chart's geometry (re-binning, subsampling,
// the ridge layout) against hand-computed answers; the page on the importer tests' TensorBoard
// fixtures (tags, modes, distribution bands equal to distributionBands(), the empty states, export)
// and on a generated workspace of 500 steps with a restart (ridge subsampling, the latest-segment
// view, every segment). PLUMB_SCREENSHOT_DIR=dir saves each mode as a PNG there, on the real
// TensorBoard logs of ../shared/data when present.
#include "charts/chartstyle.h"
#include "charts/histogramstepschart.h"
#include "charts/histogramstepsgeometry.h"
#include "experiments/experimentspanel.h"
#include "experiments/histogramspage.h"
#include "importhelpers.h"
#include "ingest/diagnosticlog.h"
#include "ingest/metricsink.h"
#include "store/experimentreader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace plumb;

namespace {

constexpr int kLoadTimeoutMs = 20'000;
constexpr int kFirstSegmentSteps = 500; // generated run "long": steps 0..499,
constexpr int kRestartStep = 400; // then a restart from 400 ..
constexpr int kLastStep = 599; // .. to 599

QString fixture(const char *path)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(path);
}

QString realLogs()
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/../shared/data/tfevents");
}

void saveScreenshot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("PLUMB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w->grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

StepHistogram histogram(int64_t step, std::vector<double> buckets)
{
    StepHistogram h;
    h.step = step;
    h.buckets = std::move(buckets);
    return h;
}

double total(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s;
}

// Normal counts (about 1000 values, sd 1) around `mean` in buckets of 0.5 over [-4, 10].
std::vector<double> normalBuckets(double mean)
{
    std::vector<double> b;
    for (int i = 0; i < 28; ++i) {
        const double l = -4 + 0.5 * i, r = l + 0.5;
        const double c
            = 500 * (std::erf((r - mean) / std::sqrt(2.0)) - std::erf((l - mean) / std::sqrt(2.0)));
        b.insert(b.end(), { l, r, std::round(c) });
    }
    // Empty buckets at both ends dropped, as the TensorBoard importer stores legacy histograms.
    while (!b.empty() && b.back() == 0)
        b.resize(b.size() - 3);
    while (!b.empty() && b[2] == 0)
        b.erase(b.begin(), b.begin() + 3);
    return b;
}

// A workspace written through the import sink: run "long" logs "weights" at steps 0..499 (mean
// drifting from 0 to 5), then restarts at step 400 up to 599 (mean 3 higher); run "short" logs it at
// steps 0..9. Both log a scalar "loss" too.
void writeGenerated(const QString &path)
{
    Workspace ws(path, Workspace::Role::Writer);
    SqliteTransaction tx(ws.db());
    DiagnosticLog log;
    MetricSink sink(ws.db(), log);
    const int64_t longRun = sink.openRun(QStringLiteral("gen/long"), QStringLiteral("long"), QString());
    const int64_t shortRun = sink.openRun(QStringLiteral("gen/short"), QStringLiteral("short"), QString());
    const int64_t lw = sink.series(longRun, "weights", SeriesKind::Histogram);
    const int64_t ll = sink.series(longRun, "loss", SeriesKind::Scalar);
    const int64_t sw = sink.series(shortRun, "weights", SeriesKind::Histogram);
    int64_t wallNs = 1'700'000'000'000'000'000;
    for (int s = 0; s < kFirstSegmentSteps; ++s) {
        const std::vector<double> b = normalBuckets(s / 100.0);
        sink.addHistogram(lw, s, wallNs += 1'000'000, b.data(), b.size() / 3, nullptr);
        sink.addScalar(ll, s, wallNs, 1.0 / (1 + s));
    }
    for (int s = kRestartStep; s <= kLastStep; ++s) {
        const std::vector<double> b = normalBuckets(s / 100.0 - 1);
        sink.addHistogram(lw, s, wallNs += 1'000'000, b.data(), b.size() / 3, nullptr);
    }
    for (int s = 0; s < 10; ++s) {
        const std::vector<double> b = normalBuckets(1);
        sink.addHistogram(sw, s, wallNs += 1'000'000, b.data(), b.size() / 3, nullptr);
    }
    sink.finish();
    tx.commit();
}

} // namespace

class TestHistogramsPage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_fixtureWs;
    QString m_generatedWs;
    QHash<QString, int64_t> m_ids; // run name -> id, both workspaces (names differ)

    void readIds(const QString &ws)
    {
        Workspace w(ws, Workspace::Role::Reader);
        for (const ExperimentRunInfo &r : ExperimentReader(w).runs())
            m_ids.insert(r.name, r.id);
    }

    static bool load(HistogramsPage &page, const QString &ws, const QList<int64_t> &ids)
    {
        QSignalSpy loaded(&page, &HistogramsPage::loaded);
        page.setSelection(ws, ids);
        return loaded.size() > 0 || loaded.wait(kLoadTimeoutMs);
    }

    static bool choose(HistogramsPage &page, const QString &tag)
    {
        QSignalSpy loaded(&page, &HistogramsPage::loaded);
        page.setCurrentTag(tag);
        return (loaded.size() > 0 || loaded.wait(kLoadTimeoutMs)) && page.currentTag() == tag;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_fixtureWs = m_dir.filePath(QStringLiteral("fixtures.plumb"));
        const QString problems = importFoldersIntoWorkspace(m_fixtureWs,
            { fixture("tfevents/data/legacy"), fixture("tfevents/data/tf2"),
                fixture("tfevents/data/restart") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        readIds(m_fixtureWs);
        m_generatedWs = m_dir.filePath(QStringLiteral("generated.plumb"));
        writeGenerated(m_generatedWs);
        readIds(m_generatedWs);
        for (const char *name : { "data/legacy", "data/tf2", "data/restart", "long", "short" })
            QVERIFY2(m_ids.contains(QLatin1String(name)), name);
    }

    // Re-binning keeps the total; a zero-width bucket lands whole in its bin; a bucket is split in
    // proportion to its overlap with the bins.
    void rebinning()
    {
        const StepHistogram h = histogram(0, { 0, 1, 4, 1, 3, 6, 3, 3, 5, 3, 3.5, 1, 3.5, 4, 0 });
        const EqualBins bins = commonBins({ &h }, 4);
        // The empty last bucket does not widen the range: [0, 3.5] is the range of values with counts.
        QCOMPARE(bins.lo, 0.0);
        QCOMPARE(bins.hi, 3.5);
        const std::vector<double> counts = rebin(h, bins);
        QCOMPARE(counts.size(), size_t(4));
        QCOMPARE(total(counts), 16.0);
        // Bin width 0.875: [0, 1] puts 4 * 0.875 in bin 0, 4 * 0.125 in bin 1; [1, 3] is 6 over 2;
        // the zero-width bucket at 3 is bin 3 (from 2.625); [3, 3.5] lies in bin 3.
        QVERIFY(std::abs(counts[0] - 3.5) < 1e-12);
        QVERIFY(std::abs(counts[1] - (0.5 + 6 * 0.75 / 2)) < 1e-12);
        QVERIFY(std::abs(counts[2] - 6 * 0.875 / 2) < 1e-12);
        QVERIFY(std::abs(counts[3] - (6 * 0.375 / 2 + 5 + 1)) < 1e-12);
        QCOMPARE(bins.binOf(-10), 0);
        QCOMPARE(bins.binOf(3.5), 3);
        QCOMPARE(bins.binOf(1e300), 3);

        // Every value the same: a range around it, the spike in the middle bin.
        const StepHistogram point = histogram(0, { 865, 865, 1 });
        const EqualBins around = commonBins({ &point }, 30);
        QCOMPARE(around.lo, 865 - 86.5);
        QCOMPARE(around.hi, 865 + 86.5);
        const std::vector<double> spike = rebin(point, around);
        QCOMPARE(spike[15], 1.0);
        QCOMPARE(total(spike), 1.0);
        QCOMPARE(commonBins({}, 30).hi, 1.0);
        QVERIFY(!hasCounts(histogram(0, { 0, 1, 0 })));
        QVERIFY(hasCounts(point));
    }

    void evenlySpaced_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("cap");
        QTest::newRow("fewer than the cap") << 5 << 60;
        QTest::newRow("exactly the cap") << 60 << 60;
        QTest::newRow("one more") << 61 << 60;
        QTest::newRow("many") << 938 << 60;
        QTest::newRow("two") << 1000 << 2;
    }

    void evenlySpaced()
    {
        QFETCH(int, n);
        QFETCH(int, cap);
        const std::vector<size_t> idx = evenlySpacedIndices(size_t(n), size_t(cap));
        QCOMPARE(int(idx.size()), std::min(n, cap));
        QCOMPARE(idx.front(), size_t(0));
        QCOMPARE(idx.back(), size_t(n - 1));
        for (size_t i = 1; i < idx.size(); ++i) {
            QVERIFY(idx[i] > idx[i - 1]);
            // Evenly: gaps differ by at most one.
            QVERIFY(idx[i] - idx[i - 1] <= size_t(std::ceil(double(n - 1) / double(std::min(n, cap) - 1))));
        }
        QVERIFY(evenlySpacedIndices(0, 60).empty());
    }

    void ridge()
    {
        // 11 curves over steps 0..1000: 3 spacings of 100, under 0.3 of the span.
        RidgeLayout l = ridgeLayout(0, 1000, 11);
        QCOMPARE(l.peak, 300.0);
        QVERIFY(l.top < -300 && l.top > -340);
        QVERIFY(l.bottom > 1000 && l.bottom < 1040);
        // Two curves: at most 0.3 of the span.
        QCOMPARE(ridgeLayout(0, 1000, 2).peak, 300.0);
        l = ridgeLayout(5, 5, 1);
        QCOMPARE(l.peak, 1.0);
        QVERIFY(l.top < 4 && l.bottom > 5);
    }

    void tagsAndModes()
    {
        HistogramsPage page;
        page.resize(1000, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.hint().contains(QStringLiteral("Select runs")));
        QVERIFY(!page.chart()->isVisible());

        const int64_t legacy = m_ids[QStringLiteral("data/legacy")], tf2 = m_ids[QStringLiteral("data/tf2")];
        QVERIFY(load(page, m_fixtureWs, { legacy, tf2 }));
        QCOMPARE(page.tags(),
            (QStringList { QStringLiteral("bias"), QStringLiteral("empty"), QStringLiteral("w"),
                QStringLiteral("weights") }));
        QCOMPARE(page.tagList()->count(), 4);
        QCOMPARE(page.tagList()->item(2)->data(Qt::UserRole).toString(), QStringLiteral("w"));
        QCOMPARE(page.tagList()->item(2)->text(), QStringLiteral("w (1 run)"));
        QCOMPARE(page.currentTag(), QStringLiteral("bias")); // the first, by default
        QCOMPARE(page.tagList()->currentItem()->data(Qt::UserRole).toString(), QStringLiteral("bias"));
        QCOMPARE(page.runLegend()->count(), 2);
        QVERIFY(!(page.runLegend()->item(0)->flags() & Qt::ItemIsEnabled)); // legacy has no bias

        // tf2's weights: four steps, one run (tf2, the second selected: its colour).
        QVERIFY(choose(page, QStringLiteral("weights")));
        HistogramStepsChart *chart = page.chart();
        QVERIFY(page.hint().isEmpty());
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->title(), QStringLiteral("weights"));
        QCOMPARE(chart->runCount(), 1);
        QCOMPARE(chart->run(0).name, QStringLiteral("data/tf2"));
        QCOMPARE(chart->run(0).color, runColor(1));
        QCOMPARE(chart->mode(), HistogramStepsChart::Mode::Offset);
        QCOMPARE(chart->plot()->plottableCount(), 4); // a curve per step
        QVERIFY(chart->plot()->yAxis->rangeReversed());
        QCOMPARE(chart->plot()->yAxis->label(), QStringLiteral("step"));
        // The common range of the steps' values: 0 (step 0's first edge) to 5 (step 3's last bucket
        // with counts, [4, 5]).
        QCOMPARE(chart->bins().lo, 0.0);
        QCOMPARE(chart->bins().hi, 5.0);
        // The latest step is drawn last (in front), at the bottom of the reversed step axis.
        auto *front = qobject_cast<QCPCurve *>(chart->plot()->plottable(3));
        QVERIFY(front);
        QCOMPARE(front->data()->constBegin()->value, 3.0);

        page.setMode(HistogramStepsChart::Mode::Overlay);
        QCOMPARE(chart->plot()->plottableCount(), 4);
        QVERIFY(qobject_cast<QCPGraph *>(chart->plot()->plottable(0)));
        QVERIFY(!chart->plot()->yAxis->rangeReversed());
        // Older lighter: the first curve's pen is further from the run's colour than the latest's.
        const QColor oldest = chart->plot()->plottable(0)->pen().color(),
                     latest = chart->plot()->plottable(3)->pen().color();
        QCOMPARE(latest, runColor(1));
        QVERIFY(oldest.lightness() > latest.lightness());

        page.setMode(HistogramStepsChart::Mode::Distribution);
        QCOMPARE(chart->plot()->plottableCount(), 9); // nine band graphs, one segment
        Workspace ws(m_fixtureWs, Workspace::Role::Reader);
        ExperimentReader reader(ws);
        int checked = 0;
        for (const SeriesSummary &s : reader.series({ tf2 })) {
            if (s.key != QLatin1String("weights"))
                continue;
            for (const StepHistogram &h : reader.histograms(s.runId, s.keyId)) {
                const auto shown = chart->drawnBands(0, h.step);
                QVERIFY(shown);
                QCOMPARE(*shown, distributionBands(h.buckets.data(), h.bucketCount()));
                ++checked;
            }
        }
        QCOMPARE(checked, 4);
        QVERIFY(!chart->drawnBands(0, 99));
        QVERIFY(
            chart->toolTipAt(chart->plot()->axisRect()->center()).contains(QStringLiteral("data/tf2, step")));

        // The legacy w: its empty histogram at step 40 is not drawn.
        QVERIFY(choose(page, QStringLiteral("w")));
        QCOMPARE(chart->run(0).histograms.size(), size_t(4));
        QCOMPARE(chart->drawable(0).size(), size_t(3));
        QCOMPARE(chart->plot()->plottableCount(), 9);
        page.setMode(HistogramStepsChart::Mode::Offset);
        QCOMPARE(chart->plot()->plottableCount(), 3);
        saveScreenshot(&page, QStringLiteral("histograms-fixture-offset"));

        // A tag whose only histogram is empty says so instead of drawing.
        QVERIFY(choose(page, QStringLiteral("empty")));
        QVERIFY(page.hint().contains(QStringLiteral("hold no values")));
        QVERIFY(!chart->isVisible());
    }

    void emptyStates()
    {
        HistogramsPage page;
        page.resize(800, 500);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(load(page, m_fixtureWs, { m_ids[QStringLiteral("data/restart")] }));
        QVERIFY(page.tags().isEmpty());
        QCOMPARE(page.hint(), QStringLiteral("The selected runs logged no histograms."));
        QVERIFY(!page.chart()->isVisible());
        QVERIFY(!page.exportTo(m_dir.filePath(QStringLiteral("none.png"))));
        saveScreenshot(&page, QStringLiteral("histograms-empty"));
        QVERIFY(load(page, m_fixtureWs, {}));
        QVERIFY(page.hint().contains(QStringLiteral("Select runs")));
        QCOMPARE(page.chart()->runCount(), 0);
    }

    // A result for a superseded selection is dropped: only the last selection's tags show.
    void supersededDropped()
    {
        HistogramsPage page;
        QSignalSpy loaded(&page, &HistogramsPage::loaded);
        page.setSelection(m_fixtureWs, { m_ids[QStringLiteral("data/legacy")] });
        page.setSelection(m_fixtureWs, { m_ids[QStringLiteral("data/tf2")] });
        QVERIFY(loaded.wait(kLoadTimeoutMs));
        QTest::qWait(200);
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(page.tags(),
            (QStringList { QStringLiteral("bias"), QStringLiteral("empty"), QStringLiteral("weights") }));
    }

    void manyStepsAndRestarts()
    {
        HistogramsPage page;
        page.resize(1200, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const int64_t longRun = m_ids[QStringLiteral("long")], shortRun = m_ids[QStringLiteral("short")];
        QVERIFY(load(page, m_generatedWs, { longRun, shortRun }));
        QCOMPARE(page.tags(), QStringList { QStringLiteral("weights") }); // the scalar loss is not listed
        QCOMPARE(page.tagList()->item(0)->text(), QStringLiteral("weights (2 runs)"));
        HistogramStepsChart *chart = page.chart();
        QCOMPARE(chart->runCount(), 2);

        // Latest segment per step: 0..399 of the first segment, 400..599 of the second.
        const HistogramRun &run = chart->run(0);
        QCOMPARE(run.histograms.size(), size_t(kLastStep + 1));
        QCOMPARE(run.histograms[kRestartStep].segment, int64_t(1));
        QCOMPARE(run.histograms[kRestartStep - 1].segment, int64_t(0));

        // Ridge: at most kMaxCurves, first and last step kept; the short run whole.
        const std::vector<size_t> &curves = chart->curves(0);
        QCOMPARE(curves.size(), HistogramStepsChart::kMaxCurves);
        QCOMPARE(run.histograms[curves.front()].step, int64_t(0));
        QCOMPARE(run.histograms[curves.back()].step, int64_t(kLastStep));
        QCOMPARE(chart->curves(1).size(), size_t(10));
        QCOMPARE(chart->plot()->plottableCount(), int(HistogramStepsChart::kMaxCurves) + 10);
        QVERIFY(chart->note().contains(QStringLiteral("at most 60 steps of each run drawn")));
        QCOMPARE(chart->plot()->legend->itemCount(), 2);
        saveScreenshot(&page, QStringLiteral("histograms-generated-offset"));

        // One run alone: the note gives the figures.
        QVERIFY(load(page, m_generatedWs, { longRun }));
        QVERIFY(chart->note().contains(QStringLiteral("60 of 600 steps drawn")));
        page.setMode(HistogramStepsChart::Mode::Overlay);
        QCOMPARE(chart->plot()->plottableCount(), int(HistogramStepsChart::kMaxCurves));
        saveScreenshot(&page, QStringLiteral("histograms-generated-overlay"));

        // The distribution uses every step: the superseded first segment's step 450 is not what shows.
        page.setMode(HistogramStepsChart::Mode::Distribution);
        QCOMPARE(chart->plot()->plottableCount(), 9);
        QCOMPARE(chart->plot()->graph(4)->dataCount(), kLastStep + 1);
        const std::vector<double> restarted = normalBuckets(450 / 100.0 - 1);
        QCOMPARE(*chart->drawnBands(0, 450), distributionBands(restarted.data(), restarted.size() / 3));
        QVERIFY(chart->note().contains(QStringLiteral("median")));
        saveScreenshot(&page, QStringLiteral("histograms-generated-distribution"));

        // Every segment: both segments' histograms; the bands break at the restart.
        page.setEverySegment(true);
        QCOMPARE(chart->run(0).histograms.size(), size_t(kFirstSegmentSteps + kLastStep - kRestartStep + 1));
        QCOMPARE(chart->plot()->plottableCount(), 18);
        const std::vector<double> first = normalBuckets(450 / 100.0);
        QCOMPARE(*chart->drawnBands(0, 450), distributionBands(first.data(), first.size() / 3));
        page.setMode(HistogramStepsChart::Mode::Offset);
        QCOMPARE(chart->plot()->plottableCount(), int(HistogramStepsChart::kMaxCurves));
        QCOMPARE(chart->run(0).histograms[chart->curves(0).back()].segment, int64_t(1));
        page.setEverySegment(false);
        QCOMPARE(chart->run(0).histograms.size(), size_t(kLastStep + 1));
    }

    void exportWritesFiles()
    {
        HistogramsPage page;
        page.resize(900, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(load(page, m_generatedWs, { m_ids[QStringLiteral("long")] }));
        for (const auto mode :
            { HistogramStepsChart::Mode::Offset, HistogramStepsChart::Mode::Distribution }) {
            page.setMode(mode);
            const QString png = m_dir.filePath(QStringLiteral("h%1.png").arg(int(mode)));
            QVERIFY(page.exportTo(png));
            const QImage image(png);
            QVERIFY(!image.isNull());
            QVERIFY(image.width() >= page.chart()->plot()->width()); // at twice the size
            // Not blank: the run's colour is in it.
            int coloured = 0;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); x += 2)
                    coloured += qGray(image.pixel(x, y)) < 200 && QColor(image.pixel(x, y)).saturation() > 60;
            QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
        }
        const QString pdf = m_dir.filePath(QStringLiteral("h.pdf"));
        QVERIFY(page.exportTo(pdf));
        QVERIFY(QFileInfo(pdf).size() > 1000);
    }

    void onThePanel()
    {
        ExperimentsPanel panel;
        QTabWidget *pages = panel.pages();
        QCOMPARE(pages->tabText(0), QStringLiteral("S&calars"));
        QCOMPARE(pages->tabText(1), QStringLiteral("Hist&ograms"));
        QVERIFY(qobject_cast<HistogramsPage *>(pages->widget(1)));
    }

    // The real TensorBoard logs, every folder (../shared/data/tfevents) on the Experiments tab: wandb's
    // two runs log histograms (three gradient-norm tags over 12 steps, most of them one value per step:
    // zero-width buckets; and one histogram of another tag), the other 31 runs none.
    void realLogs()
    {
        if (!QFileInfo::exists(::realLogs()))
            QSKIP("../shared/data/tfevents is not here");
        const QString ws = m_dir.filePath(QStringLiteral("real.plumb"));
        const QString problems = importFoldersIntoWorkspace(ws, { ::realLogs() });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QHash<QString, int64_t> ids;
        {
            Workspace w(ws, Workspace::Role::Reader);
            for (const ExperimentRunInfo &r : ExperimentReader(w).runs())
                ids.insert(r.name, r.id);
        }
        const int64_t complex = ids.value(QStringLiteral("tfevents/wandb_complex"), -1),
                      simple = ids.value(QStringLiteral("tfevents/wandb_simple"), -1),
                      lightning = ids.value(QStringLiteral("shapeaxi_lightning_hparams/version_0"), -1);
        QVERIFY(complex >= 0 && simple >= 0 && lightning >= 0);

        ExperimentsPanel panel;
        panel.resize(1400, 760);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy panelLoaded(&panel, &ExperimentsPanel::loaded);
        panel.setWorkspace(ws);
        QVERIFY(panelLoaded.wait(kLoadTimeoutMs));
        auto *page = qobject_cast<HistogramsPage *>(panel.pages()->widget(1));
        QVERIFY(page);
        panel.pages()->setCurrentWidget(page);

        QSignalSpy loaded(page, &HistogramsPage::loaded);
        panel.selectRuns({ lightning });
        QVERIFY(loaded.wait(kLoadTimeoutMs));
        QCOMPARE(page->hint(), QStringLiteral("The selected runs logged no histograms."));

        loaded.clear();
        panel.selectRuns({ complex, simple, lightning });
        QVERIFY(loaded.wait(kLoadTimeoutMs));
        QCOMPARE(page->tags().size(), 4);
        QCOMPARE(page->tagList()->item(0)->text(), QStringLiteral("gradient/D/norm/histogram (1 run)"));
        QCOMPARE(page->runLegend()->count(), 3);
        saveScreenshot(&panel, QStringLiteral("histograms-real-panel"));
        for (const QString &tag : page->tags()) {
            QVERIFY(tag == page->currentTag() || choose(*page, tag));
            QVERIFY(page->hint().isEmpty());
            QCOMPARE(page->chart()->runCount(), 1);
            const bool fromComplex = page->chart()->run(0).name == QLatin1String("tfevents/wandb_complex");
            QCOMPARE(page->chart()->curves(0).size(), size_t(fromComplex ? 12 : 1));
            if (!fromComplex) { // a single step: its bands still drawn, as a box around the step
                page->setMode(HistogramStepsChart::Mode::Distribution);
                const StepHistogram &h = page->chart()->run(0).histograms.front();
                QCOMPARE(*page->chart()->drawnBands(0, h.step),
                    distributionBands(h.buckets.data(), h.bucketCount()));
                QCOMPARE(page->chart()->plot()->graph(0)->dataCount(), 3);
                QVERIFY(page->chart()->plot()->xAxis->range().size() >= 2);
            }
            const QString base
                = QStringLiteral("histograms-real-") + (fromComplex ? tag.section(u'/', 1, 1) : tag);
            for (const auto mode : { HistogramStepsChart::Mode::Offset, HistogramStepsChart::Mode::Overlay,
                     HistogramStepsChart::Mode::Distribution }) {
                page->setMode(mode);
                saveScreenshot(page, base + QString::number(int(mode)));
            }
            page->setMode(HistogramStepsChart::Mode::Offset);
        }

        // The page alone, wider (resources/screenshots/histograms.png).
        HistogramsPage alone;
        alone.resize(1100, 620);
        alone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&alone));
        QVERIFY(load(alone, ws, { complex, simple, lightning }));
        QVERIFY(choose(alone, QStringLiteral("gradient/netE_img2z_A/norm/histogram")));
        saveScreenshot(&alone, QStringLiteral("histograms-real-page"));
    }
};

QTEST_MAIN(TestHistogramsPage)
#include "tst_histogramspage.moc"
