// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/histogramchart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "timeline/timescale.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

namespace {

const QColor kBinColor(0x3b, 0x75, 0xaf);
const QColor kMarkerColor(0x60, 0x60, 0x60);
constexpr double kHeadroom = 1.08; // room above the tallest bin for the markers' ends
constexpr int kTitleMarginPx = 6;

} // namespace

std::pair<double, QString> timeAxisUnit(double maxNs)
{
    if (maxNs < 10e3)
        return { 1.0, QStringLiteral("ns") };
    if (maxNs < 10e6)
        return { 1e3, QStringLiteral("µs") };
    return { 1e6, QStringLiteral("ms") };
}

HistogramChart::HistogramChart(const QString &exportName, QWidget *parent)
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
    m_plot->legend->setVisible(false);
    m_plot->yAxis->setLabel(tr("ops"));
    // Counts: whole numbers only.
    QSharedPointer<QCPAxisTickerFixed> counts(new QCPAxisTickerFixed);
    counts->setTickStep(1.0);
    counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis->setTicker(counts);
    m_plot->setAccessibleName(exportName);
    installChartExportMenu(m_plot, exportName);
    setMinimumSize(260, 180);
    clear(QString());
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void HistogramChart::setCountLabel(const QString &label)
{
    m_plot->yAxis->setLabel(label);
}

QString HistogramChart::title() const
{
    return m_fullTitle;
}

QString HistogramChart::timeAxisLabel() const
{
    return m_plot->xAxis->label();
}

void HistogramChart::elideTitle()
{
    const int width = std::max(40, this->width() - 2 * kTitleMarginPx);
    m_title->setText(QFontMetrics(m_title->font()).elidedText(m_fullTitle, Qt::ElideRight, width));
}

void HistogramChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    elideTitle();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HistogramChart::clear(const QString &message)
{
    m_histogram = {};
    m_plot->clearPlottables();
    m_plot->legend->setVisible(false);
    m_fullTitle = message;
    elideTitle();
    m_plot->xAxis->setScaleType(QCPAxis::stLinear);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->xAxis->setLabel(QString());
    m_plot->xAxis->setRange(0, 1);
    m_plot->yAxis->setRange(0, 1);
    m_plot->replot();
}

void HistogramChart::setHistogram(const Histogram &histogram, const QString &quantity, const QString &title,
    const std::vector<Marker> &markers)
{
    if (histogram.bins() == 0) {
        clear(title);
        return;
    }
    m_histogram = histogram;
    m_plot->clearPlottables();
    m_fullTitle = title;
    elideTitle();
    const auto [divisor, unit] = timeAxisUnit(histogram.edges.back());
    QVector<double> keys, values;
    int64_t tallest = 0;
    for (int i = 0; i < histogram.bins(); ++i) {
        keys << histogram.edges[size_t(i)] / divisor;
        values << double(histogram.counts[size_t(i)]);
        tallest = std::max(tallest, histogram.counts[size_t(i)]);
    }
    // The last bin's right edge.
    keys << histogram.edges.back() / divisor;
    values << double(histogram.counts.back());
    auto *bins = m_plot->addGraph();
    bins->setLineStyle(QCPGraph::lsStepLeft);
    bins->setPen(QPen(kBinColor.darker(130), 1.5));
    bins->setBrush(QColor(kBinColor.red(), kBinColor.green(), kBinColor.blue(), 110));
    bins->setData(keys, values, true);
    bins->removeFromLegend();
    // Closing edges, so the first and last bins are boxes rather than open steps.
    const double left = keys.front(), right = keys.back();
    for (double x : { left, right }) {
        auto *edge = m_plot->addGraph();
        edge->setPen(bins->pen());
        edge->setData({ x, x }, { 0.0, x == left ? values.front() : values.back() });
        edge->removeFromLegend();
    }

    const Qt::PenStyle styles[] = { Qt::DashLine, Qt::DotLine, Qt::DashDotLine };
    const double top = std::max(1.0, double(tallest) * kHeadroom);
    int m = 0;
    for (const Marker &marker : markers) {
        auto *line = m_plot->addGraph();
        QPen pen(kMarkerColor, 1.5, styles[m++ % 3]);
        line->setPen(pen);
        const double x = double(marker.second) / divisor;
        line->setData({ x, x }, { 0.0, top });
        line->setName(marker.first + u' ' + formatDuration(marker.second));
    }
    m_plot->legend->setVisible(!markers.empty());
    fitLegend(m_plot);

    // A little margin either side; on a log axis that margin is a factor.
    if (histogram.logSpaced) {
        m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        m_plot->xAxis->setRange(left / 1.15, right * 1.15);
        m_plot->xAxis->setLabel(tr("%1 (%2, log scale)").arg(quantity, unit));
    } else {
        m_plot->xAxis->setScaleType(QCPAxis::stLinear);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        const double pad = std::max((right - left) * 0.03, 1e-9);
        m_plot->xAxis->setRange(left - pad, right + pad);
        m_plot->xAxis->setLabel(tr("%1 (%2)").arg(quantity, unit));
    }
    m_plot->yAxis->setRange(0, top);
    m_plot->replot();
}

} // namespace plumb
