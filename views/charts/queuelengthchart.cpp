// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/queuelengthchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/idlebreakdownchart.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

QueueLengthChart::QueueLengthChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Queue length per GPU stream"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_plot->yAxis->setLabel(tr("ops launched, not finished"));
    m_plot->xAxis->setLabel(tr("time since the first GPU op (ms)"));
    installChartExportMenu(m_plot, QStringLiteral("queue-length"));
    setMinimumSize(260, 180);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void QueueLengthChart::setQueues(
    const std::vector<StreamQueue> &queues, const QHash<qint64, qint64> &streamIds, int64_t originNs)
{
    m_plot->clearGraphs();
    m_series = 0;
    const QColor colors[] = { QColor(0x3b, 0x75, 0xaf), QColor(0xd9, 0x82, 0x2b), QColor(0x4c, 0x9f, 0x70),
        QColor(0xc4, 0x4e, 0x52), QColor(0x84, 0x5b, 0xa8), QColor(0x60, 0x60, 0x60) };
    const Qt::PenStyle styles[] = { Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine };
    double left = 0, right = 0;
    int32_t top = 0;
    for (const StreamQueue &q : queues) {
        if (q.series.empty())
            continue;
        auto *graph = m_plot->addGraph();
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(colors[m_series % 6], 1.5, styles[m_series % 4]));
        QVector<double> keys, values;
        for (const QueuePoint &p : q.series) {
            keys << double(p.timeNs - originNs) / 1e6;
            values << double(p.queued);
        }
        graph->setData(keys, values, true);
        graph->setName(tr("%1: max %2, mean %3")
                           .arg(streamLabel(streamIds.value(q.streamTrackId, -1)))
                           .arg(q.maxQueued)
                           .arg(QString::number(q.meanQueued, 'g', 2)));
        left = std::min(left, keys.front()); // launches can precede the first GPU op
        right = std::max(right, keys.back());
        top = std::max(top, q.maxQueued);
        ++m_series;
    }
    m_plot->legend->setVisible(m_series > 0);
    fitLegend(m_plot);
    const double pad = std::max(1e-6, (right - left) * 0.01); // so the last drop to 0 shows
    m_plot->xAxis->setRange(left - pad, right + pad);
    m_plot->yAxis->setRange(0, std::max(1.0, double(top) * 1.05 + 0.5));
    m_plot->replot();
}

} // namespace plumb
