// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/goodputtrendchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/goodputpalette.h"
#include "theme.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

GoodputTrendChart::GoodputTrendChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Goodput over time"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_plot->yAxis->setLabel(tr("goodput (%)"));
    m_plot->yAxis->setRange(0, 105);
    installChartExportMenu(m_plot, QStringLiteral("goodput-over-time"));
    setMinimumHeight(180);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void GoodputTrendChart::setReport(const GoodputReport &r)
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    if (!r.valid() || r.windows.empty()) {
        m_plot->replot();
        return;
    }
    const GoodputTimeUnit unit = goodputTimeUnit(r.elapsedNs);
    QVector<double> x, goodput, runtime;
    for (const GoodputWindow &w : r.windows) {
        // Each window as a flat step, so a short window reads as the time it covers.
        for (const int64_t t : { w.startNs, w.endNs }) {
            x << double(t - r.startNs) / unit.nsPerUnit;
            goodput << 100 * w.goodput();
            runtime << (w.availableNs > 0 ? 100 * double(w.productiveNs) / double(w.availableNs) : 0);
        }
    }
    QCPGraph *g = m_plot->addGraph();
    g->setName(tr("goodput (productive / elapsed)"));
    g->setPen(QPen(goodputColor(-1).darker(120), 2));
    g->setBrush(
        QBrush(QColor(goodputColor(-1).red(), goodputColor(-1).green(), goodputColor(-1).blue(), 60)));
    g->setData(x, goodput, true);
    QCPGraph *rt = m_plot->addGraph();
    rt->setName(tr("runtime goodput (productive / resources there)"));
    rt->setPen(QPen(isDark(palette()) ? QColor(0x8a, 0xb4, 0xf0) : QColor(0x33, 0x55, 0x99), 1.2));
    rt->setData(x, runtime, true);
    auto *overall = new QCPItemStraightLine(m_plot);
    overall->point1->setCoords(0, 100 * r.goodput);
    overall->point2->setCoords(1, 100 * r.goodput);
    overall->setPen(QPen(Qt::darkGray, 1, Qt::DashLine));
    auto *label = new QCPItemText(m_plot);
    label->position->setCoords(x.back(), 100 * r.goodput);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setText(tr("job %1%").arg(100 * r.goodput, 0, 'f', 1));
    label->setColor(Qt::darkGray);
    m_plot->xAxis->setLabel(tr("%1 since the job started").arg(unit.name));
    m_plot->xAxis->setRange(0, x.back());
    fitLegend(m_plot);
    m_plot->replot();
}

} // namespace plumb
