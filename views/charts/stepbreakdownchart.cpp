// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/stepbreakdownchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QVBoxLayout>

#include <algorithm>

namespace plumb {

StepBreakdownChart::StepBreakdownChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Time per step"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot); // not over the bars, and the bars keep the width
    installChartExportMenu(m_plot, QStringLiteral("steps"));
    setMinimumHeight(170);
    // Relabel at the width the plot is drawn at (resized, or exported at another size).
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { labelBars(); });
    followPalette(m_plot);
}

void StepBreakdownChart::setSteps(const std::vector<StepBreakdown> &steps, const TemporalBreakdown &whole)
{
    std::vector<const TemporalBreakdown *> bars;
    m_labels.clear();
    for (const StepBreakdown &s : steps) {
        bars.push_back(&s.gpu);
        m_labels << QString::number(s.number);
    }
    if (steps.empty() && whole.ops > 0) {
        bars.push_back(&whole);
        m_labels << tr("whole trace");
    }
    std::vector<Category> categories = { { tr("computation"), 0, {} }, { tr("exposed communication"), 1, {} },
        { tr("exposed memcpy/memset"), 2, {} }, { tr("idle"), 7, {} } };
    for (const TemporalBreakdown *b : bars) {
        categories[0].ms.push_back(double(b->computeNs) / 1e6);
        categories[1].ms.push_back(double(b->exposedCommNs) / 1e6);
        categories[2].ms.push_back(double(b->exposedMemoryNs) / 1e6);
        categories[3].ms.push_back(double(b->idleNs()) / 1e6);
    }
    draw(categories, tr("GPU window (ms)"),
        !steps.empty()      ? tr("step: the GPU work each step launched")
            : !bars.empty() ? tr("no steps in this trace: its whole GPU window")
                            : tr("no GPU ops in this trace"),
        !steps.empty());
}

void StepBreakdownChart::setStepTimes(const StepTimeBreakdown &steps, const TemporalBreakdown &whole)
{
    if (steps.steps.empty()) {
        setSteps({}, whole);
        return;
    }
    m_labels.clear();
    for (const StepTime &s : steps.steps)
        m_labels << QString::number(s.step);
    std::vector<Category> categories;
    for (size_t k = 0; k < stepTimeParts().size(); ++k) {
        const StepTimePartInfo &part = stepTimeParts()[k];
        Category c { tr(part.name), k, {} };
        for (const StepTime &s : steps.steps)
            c.ms.push_back(double(s.parts.*part.member) / 1e6);
        categories.push_back(std::move(c));
    }
    draw(categories, tr("step time (ms)"), tr("step: its wall time, from the end of the step before"), true);
}

void StepBreakdownChart::draw(
    const std::vector<Category> &categories, const QString &yLabel, const QString &xLabel, bool steps)
{
    m_plot->clearPlottables();
    m_bars = int(m_labels.size());
    QVector<double> keys;
    for (int i = 0; i < m_bars; ++i)
        keys << double(i + 1);
    std::vector<double> heights(size_t(m_bars), 0.0);
    QCPBars *below = nullptr;
    for (const Category &c : categories) {
        const PartStyle style = stepTimePartStyle(c.style);
        auto *plotted = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        plotted->setName(c.name);
        plotted->setBrush(QBrush(style.color, style.pattern));
        plotted->setPen(QPen(style.color.darker(130)));
        plotted->setWidth(steps ? 0.7 : 0.35);
        QVector<double> values;
        for (size_t i = 0; i < c.ms.size() && i < heights.size(); ++i) {
            values << c.ms[i];
            heights[i] += c.ms[i];
        }
        plotted->setData(keys, values);
        if (below)
            plotted->moveAbove(below);
        below = plotted;
    }
    m_plot->yAxis->setLabel(yLabel);
    m_plot->xAxis->setLabel(xLabel);
    m_plot->xAxis->setRange(0.3, double(m_bars) + 0.7);
    const double top = heights.empty() ? 0.0 : *std::max_element(heights.begin(), heights.end());
    m_plot->yAxis->setRange(0, std::max(1e-3, top * 1.05));
    labelBars();
    fitLegend(m_plot);
    m_plot->replot();
}

// Every bar keeps its tick; the labels go on every k-th bar, k the smallest of 1, 2, 5, 10, 20, ...
// at which the widest label fits between its neighbours at the axis's current width.
void StepBreakdownChart::labelBars()
{
    const QFontMetrics fm(m_plot->xAxis->tickLabelFont());
    int widest = 0;
    for (const QString &label : m_labels)
        widest = std::max(widest, fm.horizontalAdvance(label));
    const QMargins margins = m_plot->axisRect()->margins();
    const double width = std::max(1, m_plot->width() - margins.left() - margins.right());
    const double perBar = width / std::max(1.0, m_plot->xAxis->range().size());
    const double needed = widest + 2 * fm.horizontalAdvance(QLatin1Char('0'));
    int stride = 1;
    for (int base = 1; perBar * stride < needed; base *= 10) {
        for (int m : { 1, 2, 5 }) {
            stride = base * m;
            if (perBar * stride >= needed)
                break;
        }
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < m_labels.size(); ++i)
        ticker->addTick(double(i + 1), i % stride == 0 ? m_labels[i] : QString());
    m_plot->xAxis->setTicker(ticker);
}

} // namespace plumb
