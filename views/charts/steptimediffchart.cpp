// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/steptimediffchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "signedformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

constexpr double kBarWidth = 0.6;
constexpr double kMargin = 0.08; // share of the value range left free beside the longest bars

} // namespace

StepTimeDiffChart::StepTimeDiffChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Change of step time by part"));
    m_plot->yAxis->setRangeReversed(true); // the step time on top, then the parts largest change first
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setZeroLinePen(QPen(palette().color(QPalette::WindowText), 1));
    installChartExportMenu(m_plot, QStringLiteral("trace-diff-step-time"));
    setMinimumHeight(200);
    clear();
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void StepTimeDiffChart::clear()
{
    m_plot->clearPlottables();
    m_valuesMs.clear();
    m_names.clear();
    m_plot->xAxis->setLabel(tr("step time, B − A (ms per step)"));
    m_plot->xAxis->setRange(-1, 1);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
    m_plot->yAxis->setRange(0.4, 1.6);
    m_plot->replot();
}

void StepTimeDiffChart::setDiff(const TraceDiff &d)
{
    clear();
    if (!d.hasStepTime()) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        ticker->addTick(1, tr("no step time: a trace has no training steps"));
        m_plot->yAxis->setTicker(ticker);
        m_plot->replot();
        return;
    }
    struct Bar {
        QString name;
        QColor color;
        Qt::BrushStyle pattern;
        double deltaNs;
    };
    std::vector<Bar> bars { { tr("step time"), palette().color(QPalette::WindowText), Qt::SolidPattern,
        d.stepTimeDeltaNs() } };
    for (const TraceDiff::StepComponent &c : d.stepComponents) {
        const PartStyle style = stepTimePartStyle(size_t(c.part));
        bars.push_back({ stepTimePartName(c.part), style.color, style.pattern, c.deltaNs() });
    }
    QVector<double> keys;
    QVector<QString> labels;
    double lo = 0, hi = 0;
    for (const Bar &b : bars) {
        m_valuesMs.push_back(b.deltaNs / 1e6);
        m_names << b.name;
        lo = std::min(lo, m_valuesMs.back());
        hi = std::max(hi, m_valuesMs.back());
    }
    const double span = std::max(hi - lo, 1e-3);
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar &b = bars[i];
        const double key = double(i + 1);
        keys << key;
        // The value in the label: always readable, whatever the bar's length or the chart's width.
        labels << QStringLiteral("%1  %2").arg(b.name, signedDuration(b.deltaNs));
        auto *plotted = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        plotted->setName(b.name);
        plotted->setBrush(QBrush(b.color, b.pattern));
        plotted->setPen(QPen(b.color.darker(130)));
        plotted->setWidth(kBarWidth);
        plotted->setData({ key }, { m_valuesMs[i] });
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(0.4, double(bars.size()) + 0.6);
    m_plot->xAxis->setRange(lo - kMargin * span, hi + kMargin * span);
    m_plot->replot();
}

} // namespace plumb
