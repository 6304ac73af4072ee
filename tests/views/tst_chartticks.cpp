// SPDX-License-Identifier: GPL-3.0-or-later
// Tick labels of the charts stay apart at any width: a numeric axis gets fewer ticks when narrow
// (spaceTickLabels), a step chart labels every k-th step; and a trace without steps still gets a bar.

#include "charts/chartstyle.h"
#include "charts/stepbreakdownchart.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QtTest>

using namespace plumb;

namespace {

struct Label {
    double x; // pixel centre
    int width;
    QString text;
};

// The bottom axis's tick labels within its range, as the plot draws them at its current size.
QVector<Label> drawnLabels(QCustomPlot *plot)
{
    QCPAxis *axis = plot->xAxis;
    QVector<double> ticks;
    QVector<QString> texts;
    const QString format = axis->numberFormat();
    axis->ticker()->generate(
        axis->range(), plot->locale(), format.front(), axis->numberPrecision(), ticks, nullptr, &texts);
    const QFontMetrics fm(axis->tickLabelFont());
    QVector<Label> labels;
    for (int i = 0; i < ticks.size(); ++i)
        if (axis->range().contains(ticks[i]) && !texts[i].isEmpty())
            labels.push_back({ axis->coordToPixel(ticks[i]), fm.horizontalAdvance(texts[i]), texts[i] });
    return labels;
}

// The first pair of neighbouring labels that touch, or an empty string.
QString firstOverlap(const QVector<Label> &labels)
{
    for (int i = 1; i < labels.size(); ++i)
        if (labels[i].x - labels[i - 1].x < (labels[i].width + labels[i - 1].width) / 2.0)
            return labels[i - 1].text + QStringLiteral(" / ") + labels[i].text;
    return {};
}

} // namespace

class TestChartTicks : public QObject {
    Q_OBJECT

private slots:
    // A histogram of kernel durations 1930-1946 µs in a 260 px wide chart: QCustomPlot's five ticks
    // (1930, 1932.5, ... 1945) overlap there; spaced, they do not, and a wide chart gets its five back.
    void numericAxisSpaced()
    {
        for (const bool spaced : { false, true }) {
            QCustomPlot plot;
            if (spaced)
                spaceTickLabels(&plot);
            plot.resize(260, 160);
            plot.show(); // a hidden widget gets its resize event only when shown
            QVERIFY(QTest::qWaitForWindowExposed(&plot));
            plot.xAxis->setRange(1929.5, 1946.5);
            plot.replot();
            plot.replot(); // the first replot laid out the margins the second one measures
            const QString overlap = firstOverlap(drawnLabels(&plot));
            if (spaced)
                QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
            else
                QVERIFY2(
                    !overlap.isEmpty(), "the unspaced axis should overlap, else this test proves nothing");
            if (spaced) {
                QVERIFY(drawnLabels(&plot).size() >= 2);
                plot.resize(1200, 160);
                QTRY_COMPARE(plot.viewport().width(), 1200);
                plot.replot();
                QCOMPARE(plot.xAxis->ticker()->tickCount(), 5);
            }
        }
    }

    // 300 steps in 600 px: labels at a stride, every bar kept, no two labels touching; wider, the
    // stride shrinks.
    void stepLabelsStrided()
    {
        std::vector<StepBreakdown> steps(300);
        for (size_t i = 0; i < steps.size(); ++i) {
            steps[i].number = int64_t(1000 + i);
            steps[i].gpu.startNs = 0;
            steps[i].gpu.endNs = 1000000;
            steps[i].gpu.computeNs = 800000;
            steps[i].gpu.ops = 1;
        }
        StepBreakdownChart chart;
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setSteps(steps);
        chart.plot()->replot();
        QCOMPARE(chart.barCount(), 300);
        const QVector<Label> narrow = drawnLabels(chart.plot());
        QVERIFY(narrow.size() >= 3);
        QVERIFY2(firstOverlap(narrow).isEmpty(), qPrintable(firstOverlap(narrow)));
        QCOMPARE(narrow.front().text, QStringLiteral("1000"));
        chart.resize(3000, 300);
        QTRY_COMPARE(chart.plot()->viewport().width(), 3000);
        chart.plot()->replot();
        const QVector<Label> wide = drawnLabels(chart.plot());
        QVERIFY2(wide.size() > narrow.size(),
            qPrintable(QStringLiteral("%1 vs %2").arg(wide.size()).arg(narrow.size())));
        QVERIFY2(firstOverlap(wide).isEmpty(), qPrintable(firstOverlap(wide)));
    }

    // No steps: one bar for the whole GPU window, labelled so; no GPU op at all: no bar.
    void wholeTraceBar()
    {
        TemporalBreakdown whole;
        whole.startNs = 0;
        whole.endNs = 342000000;
        whole.computeNs = 294000000;
        whole.ops = 1591;
        StepBreakdownChart chart;
        chart.resize(600, 300);
        chart.setSteps({}, whole);
        QCOMPARE(chart.barCount(), 1);
        const QVector<Label> labels = drawnLabels(chart.plot());
        QCOMPARE(labels.size(), 1);
        QCOMPARE(labels[0].text, QStringLiteral("whole trace"));
        QVERIFY(chart.plot()->yAxis->range().upper >= 342.0);
        chart.setSteps({}, TemporalBreakdown {});
        QCOMPARE(chart.barCount(), 0);
        QVERIFY(chart.plot()->xAxis->label().contains(QStringLiteral("no GPU ops")));
    }
};

QTEST_MAIN(TestChartTicks)
#include "tst_chartticks.moc"
