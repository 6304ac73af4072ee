// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/memorychart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "text/textformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace plumb {

namespace {

const QColor kAllocated(0x3b, 0x75, 0xaf);
const QColor kReserved(0xd9, 0x82, 0x2b);
const QColor kPeak(0xc4, 0x4e, 0x52);
// The value axis reaches this far above the highest value: room for the peak's label over its marker.
constexpr double kHeadroom = 1.3;

// The axis unit for values up to `top` bytes: its name and its size in bytes.
std::pair<QString, double> unitFor(int64_t top)
{
    if (top >= (int64_t(1) << 30))
        return { QStringLiteral("GiB"), double(int64_t(1) << 30) };
    if (top >= (int64_t(1) << 20))
        return { QStringLiteral("MiB"), double(int64_t(1) << 20) };
    if (top >= 1024)
        return { QStringLiteral("KiB"), 1024.0 };
    return { QStringLiteral("bytes"), 1.0 };
}

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_peak(new QCPItemTracer(m_plot))
    , m_peakLabel(new QCPItemText(m_plot))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Memory over time"));
    m_plot->legend->setVisible(true);
    placeLegendBelow(m_plot);
    m_plot->xAxis->setLabel(tr("time since the trace's start (ms)"));
    installChartExportMenu(m_plot, QStringLiteral("memory"));
    setMinimumSize(320, 200);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
    m_peak->setStyle(QCPItemTracer::tsCircle);
    m_peak->setSize(9);
    m_peak->setPen(QPen(kPeak, 2));
    m_peak->setBrush(Qt::NoBrush);
    m_peak->setVisible(false);
    m_peakLabel->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    m_peakLabel->position->setParentAnchor(m_peak->position);
    m_peakLabel->position->setCoords(0, -8);
    m_peakLabel->setColor(kPeak);
    m_peakLabel->setPadding(QMargins(3, 1, 3, 1));
    m_peakLabel->setVisible(false);
    // Over the lines, on the plot's background (that of the palette it has when drawn), so the reserved
    // line never runs through the label.
    m_peak->setLayer(QStringLiteral("overlay"));
    m_peakLabel->setLayer(QStringLiteral("overlay"));
    connect(m_plot, &QCustomPlot::beforeReplot, this,
        [this] { m_peakLabel->setBrush(m_plot->palette().color(QPalette::Base)); });
}

void MemoryChart::clear()
{
    m_plot->clearGraphs();
    m_peak->setVisible(false);
    m_peakLabel->setVisible(false);
    m_plot->replot();
}

void MemoryChart::setDevice(const DeviceMemory &d, int64_t originNs)
{
    m_plot->clearGraphs();
    const auto [unit, scale] = unitFor(std::max(d.peakAllocatedBytes, d.peakReservedBytes));
    m_plot->yAxis->setLabel(tr("%1 (%2)").arg(d.label, unit));
    QVector<double> keys, allocated, reserved;
    keys.reserve(qsizetype(d.series.size()));
    for (const MemoryPoint &p : d.series) {
        keys << double(p.tsNs - originNs) / 1e6;
        allocated << double(p.allocatedBytes) / scale;
        reserved << double(p.reservedBytes) / scale;
    }
    if (d.reservedReported) {
        auto *graph = m_plot->addGraph();
        graph->setName(tr("reserved (caching allocator)"));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(kReserved, 1.5, Qt::DashLine));
        graph->setData(keys, reserved, true);
    }
    auto *graph = m_plot->addGraph();
    graph->setName(tr("allocated"));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(QPen(kAllocated, 1.5));
    QColor fill = kAllocated;
    fill.setAlpha(50);
    graph->setBrush(fill);
    graph->setData(keys, allocated, true);

    const double peakMs = double(d.peakNs - originNs) / 1e6;
    const double left = keys.isEmpty() ? 0 : keys.front();
    const double right = keys.isEmpty() ? 1 : keys.back();
    const double pad = std::max(1e-6, (right - left) * 0.02);
    m_plot->xAxis->setRange(left - pad, right + pad);
    const double top = double(std::max(d.peakAllocatedBytes, d.peakReservedBytes)) / scale;
    m_plot->yAxis->setRange(0, std::max(top * kHeadroom, 1e-9));
    m_peak->position->setCoords(peakMs, double(d.peakAllocatedBytes) / scale);
    m_peak->setVisible(true);
    m_peakLabel->setText(
        tr("peak %1 at %2 ms")
            .arg(text::bytes(d.peakAllocatedBytes), text::milliseconds(d.peakNs - originNs)));
    // Near an edge the label leans inwards, so it is never cut.
    const double at = (peakMs - left) / std::max(right - left, 1e-9);
    m_peakLabel->setPositionAlignment(Qt::AlignBottom
        | (at < 0.2        ? Qt::AlignLeft
                : at > 0.8 ? Qt::AlignRight
                           : Qt::AlignHCenter));
    m_peakLabel->setVisible(true);
    fitLegend(m_plot);
    m_plot->replot();
}

QPointF MemoryChart::peakMark() const
{
    return m_peak->visible() ? m_peak->position->coords() : QPointF();
}

} // namespace plumb
