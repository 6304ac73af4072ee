#include "goodputbreakdownchart.h"

#include "chartexport.h"
#include "chartstyle.h"
#include "goodputpalette.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>

namespace plumb {

GoodputBreakdownChart::GoodputBreakdownChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Goodput and badput breakdown"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_plot->yAxis->setVisible(false);
    m_plot->yAxis->setRange(0.4, 1.6);
    m_plot->xAxis->setRange(0, 100);
    m_plot->xAxis->setLabel(tr("share of the job's elapsed time (%)"));
    installChartExportMenu(m_plot, QStringLiteral("goodput-breakdown"));
    setMinimumHeight(130);
}

void GoodputBreakdownChart::setReport(const GoodputReport &r)
{
    m_plot->clearPlottables();
    if (!r.valid()) {
        m_plot->replot();
        return;
    }
    std::vector<int> order { -1 };
    for (int b = 0; b < kBadputCount; ++b)
        if (r.badputNs[size_t(b)] > 0)
            order.push_back(b);
    std::stable_sort(order.begin() + 1, order.end(),
        [&](int a, int b) { return r.badputNs[size_t(a)] > r.badputNs[size_t(b)]; });
    QCPBars *below = nullptr;
    for (const int category : order) {
        const double share = category < 0 ? r.goodput : r.badputShare(Badput(category));
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(QStringLiteral("%1 %2%").arg(goodputCategoryTitle(category)).arg(100 * share, 0, 'f', 1));
        bars->setBrush(goodputBrush(category));
        bars->setPen(QPen(goodputColor(category).darker(130)));
        bars->setWidth(0.7);
        bars->setData(QVector<double> { 1.0 }, QVector<double> { 100 * share });
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    fitLegend(m_plot);
    m_plot->replot();
}

} // namespace plumb
