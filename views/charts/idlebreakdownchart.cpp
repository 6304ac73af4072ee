// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/idlebreakdownchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "timeline/timescale.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

QString streamLabel(int64_t stream)
{
    return stream >= 0 ? IdleBreakdownChart::tr("stream %1").arg(stream)
                       : IdleBreakdownChart::tr("stream (unknown)");
}

IdleBreakdownChart::IdleBreakdownChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Idle time per GPU stream"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_plot->xAxis->setLabel(tr("idle time between ops (ms)"));
    installChartExportMenu(m_plot, QStringLiteral("idle-per-stream"));
    setMinimumHeight(160);
    followPalette(m_plot);
}

void IdleBreakdownChart::setStreams(const std::vector<StreamIdle> &streams)
{
    m_plot->clearPlottables();
    m_bars = int(streams.size());
    struct Category {
        QString name;
        QColor color;
        Qt::BrushStyle pattern;
        int64_t StreamIdle::*value;
    };
    const Category categories[] = {
        { tr("host wait (launched late)"), QColor(0xc4, 0x4e, 0x52), Qt::BDiagPattern,
            &StreamIdle::hostWaitNs },
        { tr("kernel wait (short gap)"), QColor(0xdd, 0xaa, 0x33), Qt::SolidPattern,
            &StreamIdle::kernelWaitNs },
        { tr("other"), QColor(0x9a, 0x9a, 0x9a), Qt::Dense6Pattern, &StreamIdle::otherNs },
    };
    QVector<double> keys;
    QVector<QString> labels;
    // The first stream at the top.
    for (size_t i = 0; i < streams.size(); ++i) {
        keys << double(streams.size() - i);
        labels << tr("%1\n%2 idle").arg(streamLabel(streams[i].stream), formatDuration(streams[i].idleNs()));
    }
    QCPBars *below = nullptr;
    for (const Category &c : categories) {
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(c.name);
        bars->setBrush(QBrush(c.color, c.pattern));
        bars->setPen(QPen(c.color.darker(130)));
        bars->setWidth(0.6);
        QVector<double> values;
        for (const StreamIdle &s : streams)
            values << double(s.*c.value) / 1e6;
        bars->setData(keys, values);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setLabel(streams.empty() ? tr("no GPU streams") : QString());
    m_plot->yAxis->setRange(0.4, double(streams.size()) + 0.6);
    double longest = 0;
    for (const StreamIdle &s : streams)
        longest = std::max(longest, double(s.idleNs()) / 1e6);
    m_plot->xAxis->setRange(0, std::max(1e-3, longest * 1.05));
    fitLegend(m_plot);
    m_plot->replot();
}

} // namespace plumb
