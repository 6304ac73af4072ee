// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/rankheatmapchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plumb {

RankHeatmapChart::RankHeatmapChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis))
    , m_scale(new QCPColorScale(m_plot))
    , m_stragglers(m_plot->addGraph())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Ranks by step"));
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_scale);
    // Light to dark: more time is darker, and no value is white (a missing rank or step shows the
    // plot's grey instead).
    QCPColorGradient gradient;
    gradient.setColorStopAt(0, QColor(0xff, 0xf1, 0xc9));
    gradient.setColorStopAt(0.5, QColor(0xf3, 0x8b, 0x3c));
    gradient.setColorStopAt(1, QColor(0x7a, 0x1c, 0x10));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_plot->axisRect()->setBackground(QBrush(QColor(0x9e, 0x9e, 0x9e), Qt::BDiagPattern));
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("rank"));
    m_plot->yAxis->setRangeReversed(true);
    // Ranks and steps are whole: ticks at multiples of 1 (1, 2, 5, 10, ... apart as they fit).
    for (QCPAxis *axis : { m_plot->xAxis, m_plot->yAxis }) {
        QSharedPointer<QCPAxisTickerFixed> whole(new QCPAxisTickerFixed);
        whole->setTickStep(1);
        whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axis->setTicker(whole);
    }
    m_stragglers->setLineStyle(QCPGraph::lsNone);
    m_stragglers->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x1e, 0x6f, 0xd9), 2.5), Qt::NoBrush, 10));
    m_stragglers->setName(tr("the step's straggler"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    installChartExportMenu(m_plot, QStringLiteral("ranks-by-step"));
    setMinimumSize(320, 240);
    followPalette(m_plot);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] { fitRings(); });
    // Hovering a cell says its rank and step, the step's three figures, and who the step waited for.
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        const int row = int(std::lround(m_plot->yAxis->pixelToCoord(e->position().y())));
        const int col = int(std::lround(m_plot->xAxis->pixelToCoord(e->position().x())));
        const QString tip = cellText(row, col);
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        const double y = m_plot->yAxis->pixelToCoord(e->position().y());
        const int row = int(std::lround(y));
        if (row >= 0 && size_t(row) < m_rankOfRow.size())
            Q_EMIT rankClicked(m_rankOfRow[size_t(row)]);
    });
}

void RankHeatmapChart::fitRings()
{
    // A ring within its cell, so that a straggler's rings do not run into a band on a job of many ranks.
    const QRect rect = m_plot->axisRect()->rect();
    const double cols = std::max(1.0, m_plot->xAxis->range().size()),
                 rows = std::max(1.0, m_plot->yAxis->range().size());
    const double cell = std::min(rect.width() / cols, rect.height() / rows);
    QCPScatterStyle ring = m_stragglers->scatterStyle();
    ring.setSize(std::clamp(cell * 0.8, 3.0, 10.0));
    m_stragglers->setScatterStyle(ring);
}

QString RankHeatmapChart::cellText(int row, int col) const
{
    if (row < 0 || col < 0 || size_t(row) >= m_job.ranks.size() || size_t(col) >= m_job.stepNames.size())
        return {};
    const auto ms = [](const std::vector<std::vector<int64_t>> &map, size_t r, size_t c) {
        const int64_t v = c < map[r].size() ? map[r][c] : -1;
        return v < 0 ? QStringLiteral("-") : QStringLiteral("%1 ms").arg(double(v) / 1e6, 0, 'f', 2);
    };
    const size_t r = size_t(row), c = size_t(col);
    QString text = tr("rank %1, %2\nstep time %3, exposed communication %4, input pipeline %5")
                       .arg(m_job.ranks[r].rank)
                       .arg(m_job.stepNames[c], ms(m_job.stepTime, r, c), ms(m_job.exposedComm, r, c),
                           ms(m_job.input, r, c));
    if (c < m_job.stepStragglers.size() && m_job.stepStragglers[c].rank >= 0)
        text += tr("\nthe step's collectives waited for rank %1: %2 ms of the others' time")
                    .arg(m_job.stepStragglers[c].rank)
                    .arg(double(m_job.stepStragglers[c].waitNs) / 1e6, 0, 'f', 2);
    return text;
}

void RankHeatmapChart::setJob(const JobView &job, Metric metric)
{
    m_job = job;
    const auto &values = metric == Metric::StepTime ? job.stepTime
        : metric == Metric::ExposedCommunication    ? job.exposedComm
                                                    : job.input;
    const int rows = int(job.ranks.size()), cols = int(job.stepNames.size());
    m_rankOfRow.clear();
    for (const JobRank &r : job.ranks)
        m_rankOfRow.push_back(r.rank);
    m_stragglers->data()->clear();
    if (rows == 0 || cols == 0) {
        m_map->data()->clear();
        m_plot->replot();
        return;
    }
    m_map->data()->setSize(cols, rows);
    m_map->data()->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            const auto &row = values[size_t(y)];
            const int64_t v = size_t(x) < row.size() ? row[size_t(x)] : -1;
            m_map->data()->setCell(x, y, v < 0 ? std::nan("") : double(v) / 1e6);
        }
    m_map->rescaleDataRange(true);
    m_scale->axis()->setLabel(metric == Metric::StepTime ? tr("step time (ms)")
            : metric == Metric::ExposedCommunication     ? tr("exposed communication (ms)")
                                                         : tr("input pipeline (ms)"));
    for (int x = 0; x < cols && size_t(x) < job.stepStragglers.size(); ++x)
        if (const int64_t rank = job.stepStragglers[size_t(x)].rank; rank >= 0)
            for (int y = 0; y < rows; ++y)
                if (m_rankOfRow[size_t(y)] == rank)
                    m_stragglers->addData(x, y);
    m_plot->xAxis->setRange(-0.5, cols - 0.5);
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    fitRings();
    m_plot->replot();
}

} // namespace plumb
