// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/goodputbreakdownchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/goodputpalette.h"

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
    m_plot->yAxis->setVisible(false);
    m_plot->yAxis->setRange(0.5, 1.5);
    m_plot->xAxis->setRange(0, 100);
    m_plot->xAxis->setLabel(tr("share of the job's elapsed time (%)"));
    installChartExportMenu(m_plot, QStringLiteral("goodput-breakdown"));
    setMinimumHeight(90);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void GoodputBreakdownChart::setReport(const GoodputReport &r)
{
    m_plot->clearPlottables();
    m_plot->clearItems();
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
    double start = 0; // share before this bar
    for (const int category : order) {
        const double share = category < 0 ? r.goodput : r.badputShare(Badput(category));
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(
            QStringLiteral("%1 %2%").arg(goodputCategoryTitle(category)).arg(100 * share, 0, 'f', 1));
        bars->setBrush(goodputBrush(category));
        bars->setPen(QPen(goodputColor(category).darker(130)));
        bars->setWidth(0.8);
        bars->setData(QVector<double> { 1.0 }, QVector<double> { 100 * share });
        if (below)
            bars->moveAbove(below);
        below = bars;
        if (share >= kMinLabelledShare) {
            auto *label = new QCPItemText(m_plot);
            label->position->setCoords(100 * (start + share / 2), 1.0);
            const QString value = QStringLiteral("%1%").arg(100 * share, 0, 'f', 1);
            label->setText(
                share >= kMinNamedShare ? goodputCategoryTitle(category) + QLatin1Char(' ') + value : value);
            label->setBrush(QColor(255, 255, 255, 200));
            label->setPadding(QMargins(3, 1, 3, 1));
            label->setClipToAxisRect(true);
        }
        start += share;
    }
    m_plot->replot();
}

} // namespace plumb
