#include "stepbreakdownchart.h"

#include "chartexport.h"
#include "chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

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
    followPalette(m_plot);
}

void StepBreakdownChart::setSteps(const std::vector<StepBreakdown> &steps)
{
    m_plot->clearPlottables();
    m_bars = int(steps.size());
    struct Category {
        QString name;
        QColor color;
        Qt::BrushStyle pattern;
        int64_t (*value)(const TemporalBreakdown &);
    };
    const Category categories[] = {
        { tr("computation"), QColor(0x4c, 0x9f, 0x70), Qt::SolidPattern, [](const TemporalBreakdown &b) { return b.computeNs; } },
        { tr("exposed communication"), QColor(0xd9, 0x82, 0x2b), Qt::BDiagPattern,
          [](const TemporalBreakdown &b) { return b.exposedCommNs; } },
        { tr("exposed memcpy/memset"), QColor(0x3b, 0x75, 0xaf), Qt::CrossPattern,
          [](const TemporalBreakdown &b) { return b.exposedMemoryNs; } },
        { tr("idle"), QColor(0x9a, 0x9a, 0x9a), Qt::Dense6Pattern, [](const TemporalBreakdown &b) { return b.idleNs(); } },
    };
    QVector<double> keys;
    QVector<QString> labels;
    for (size_t i = 0; i < steps.size(); ++i) {
        keys << double(i + 1);
        labels << QString::number(steps[i].number);
    }
    QCPBars *below = nullptr;
    for (const Category &c : categories) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(c.name);
        QBrush brush(c.color, c.pattern);
        bars->setBrush(brush);
        bars->setPen(QPen(c.color.darker(130)));
        bars->setWidth(0.7);
        QVector<double> values;
        for (const StepBreakdown &s : steps)
            values << double(c.value(s.gpu)) / 1e6;
        bars->setData(keys, values);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(steps.empty() ? tr("no steps in this trace") : tr("step"));
    m_plot->xAxis->setRange(0.3, double(steps.size()) + 0.7);
    double top = 0;
    for (const StepBreakdown &s : steps)
        top = std::max(top, double(s.gpu.totalNs()) / 1e6);
    m_plot->yAxis->setRange(0, std::max(1e-3, top * 1.05));
    fitLegend(m_plot);
    m_plot->replot();
}

} // namespace plumb
