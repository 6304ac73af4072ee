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
    m_plot->setAccessibleName(tr("GPU time per step"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot); // not over the bars, and the bars keep the width
    m_plot->yAxis->setLabel(tr("GPU window (ms)"));
    installChartExportMenu(m_plot, QStringLiteral("steps"));
    setMinimumHeight(170);
    // Relabel at the width the plot is drawn at (resized, or exported at another size).
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { labelBars(); });
    followPalette(m_plot);
}

void StepBreakdownChart::setSteps(const std::vector<StepBreakdown> &steps, const TemporalBreakdown &whole)
{
    m_plot->clearPlottables();
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
    m_bars = int(bars.size());
    struct Category {
        QString name;
        QColor color;
        Qt::BrushStyle pattern;
        int64_t (*value)(const TemporalBreakdown &);
    };
    const Category categories[] = {
        { tr("computation"), QColor(0x4c, 0x9f, 0x70), Qt::SolidPattern,
            [](const TemporalBreakdown &b) { return b.computeNs; } },
        { tr("exposed communication"), QColor(0xd9, 0x82, 0x2b), Qt::BDiagPattern,
            [](const TemporalBreakdown &b) { return b.exposedCommNs; } },
        { tr("exposed memcpy/memset"), QColor(0x3b, 0x75, 0xaf), Qt::CrossPattern,
            [](const TemporalBreakdown &b) { return b.exposedMemoryNs; } },
        { tr("idle"), QColor(0x9a, 0x9a, 0x9a), Qt::Dense6Pattern,
            [](const TemporalBreakdown &b) { return b.idleNs(); } },
    };
    QVector<double> keys;
    for (int i = 0; i < m_bars; ++i)
        keys << double(i + 1);
    QCPBars *below = nullptr;
    for (const Category &c : categories) {
        auto *plotted = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        plotted->setName(c.name);
        plotted->setBrush(QBrush(c.color, c.pattern));
        plotted->setPen(QPen(c.color.darker(130)));
        plotted->setWidth(steps.empty() ? 0.35 : 0.7);
        QVector<double> values;
        for (const TemporalBreakdown *b : bars)
            values << double(c.value(*b)) / 1e6;
        plotted->setData(keys, values);
        if (below)
            plotted->moveAbove(below);
        below = plotted;
    }
    m_plot->xAxis->setLabel(!steps.empty() ? tr("step")
            : m_bars                       ? tr("no steps in this trace: its whole GPU window")
                                           : tr("no GPU ops in this trace"));
    m_plot->xAxis->setRange(0.3, double(m_bars) + 0.7);
    double top = 0;
    for (const TemporalBreakdown *b : bars)
        top = std::max(top, double(b->totalNs()) / 1e6);
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
