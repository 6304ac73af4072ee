// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/slotimechart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

namespace {

const QColor kBroken(0xd6, 0x27, 0x28, 45);
const QColor kThreshold(0x30, 0x30, 0x30);

} // namespace

SloTimeChart::SloTimeChart(const QString &exportName, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_title(new QCPTextElement(m_plot))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_title);
    placeLegendBelow(m_plot);
    QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
    ticker->setDateTimeFormat(QStringLiteral("hh:mm"));
    ticker->setDateTimeSpec(Qt::UTC);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(tr("window start (UTC)"));
    m_plot->setAccessibleName(exportName);
    installChartExportMenu(m_plot, exportName);
    setMinimumSize(300, 200);
    clear(QString());
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void SloTimeChart::clear(const QString &message)
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_bands = 0;
    m_title->setText(message);
    m_plot->legend->setVisible(false);
    m_plot->replot();
}

void SloTimeChart::setData(const QString &title, const QString &yLabel, const std::vector<Line> &lines,
    double threshold, const QString &thresholdName, const std::vector<Band> &broken)
{
    clear(title);
    if (lines.empty() || lines.front().xS.empty())
        return;
    double xMin = lines.front().xS.front(), xMax = xMin, yMax = std::isfinite(threshold) ? threshold : 0;
    int i = 0;
    for (const Line &l : lines) {
        auto *g = m_plot->addGraph();
        g->setName(l.name);
        g->setPen(QPen(runColor(i++), 1.8));
        g->setLineStyle(QCPGraph::lsStepLeft);
        QVector<double> x(l.xS.begin(), l.xS.end()), y(l.y.begin(), l.y.end());
        g->setData(x, y, true);
        for (size_t k = 0; k < l.xS.size(); ++k) {
            xMin = std::min(xMin, l.xS[k]);
            xMax = std::max(xMax, l.xS[k]);
            if (std::isfinite(l.y[k]))
                yMax = std::max(yMax, l.y[k]);
        }
    }
    const double top = std::max(1e-9, yMax * 1.1);
    for (const Band &b : broken) {
        auto *rect = new QCPItemRect(m_plot);
        rect->topLeft->setCoords(b.fromS, top);
        rect->bottomRight->setCoords(b.toS, 0);
        rect->setPen(Qt::NoPen);
        rect->setBrush(kBroken);
        rect->setLayer(QStringLiteral("background"));
        xMax = std::max(xMax, b.toS);
        ++m_bands;
    }
    if (std::isfinite(threshold)) {
        auto *g = m_plot->addGraph();
        g->setName(thresholdName);
        g->setPen(QPen(kThreshold, 1.5, Qt::DashLine));
        g->setData({ xMin, xMax }, { threshold, threshold });
    }
    m_plot->legend->setVisible(true);
    fitLegend(m_plot);
    m_plot->yAxis->setLabel(yLabel);
    const double pad = std::max((xMax - xMin) * 0.02, 1.0);
    m_plot->xAxis->setRange(xMin - pad, xMax + pad);
    m_plot->yAxis->setRange(0, top);
    m_plot->replot();
}

} // namespace plumb
