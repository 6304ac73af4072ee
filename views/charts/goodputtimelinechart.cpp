// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/goodputtimelinechart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/goodputpalette.h"
#include "text/textformat.h"
#include "theme.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <map>

namespace plumb {

std::vector<GoodputSegment> foldSegments(const std::vector<GoodputSegment> &segments, int64_t minNs)
{
    std::vector<GoodputSegment> out;
    std::map<int, int64_t> cell; // category -> ns in the open cell
    int64_t cellStart = 0, cellEnd = 0;
    auto flush = [&] {
        if (cell.empty())
            return;
        int best = cell.begin()->first;
        for (const auto &[category, ns] : cell)
            if (ns > cell[best])
                best = category;
        out.push_back({ cellStart, cellEnd, best });
        cell.clear();
    };
    for (const GoodputSegment &s : segments) {
        if (s.endNs - s.startNs >= minNs) {
            flush();
            out.push_back(s);
            continue;
        }
        if (cell.empty())
            cellStart = s.startNs;
        cellEnd = s.endNs;
        cell[s.category] += s.endNs - s.startNs;
        if (cellEnd - cellStart >= minNs)
            flush();
    }
    flush();
    // Neighbours of one category (a fold can make them) become one.
    std::vector<GoodputSegment> merged;
    for (const GoodputSegment &s : out) {
        if (!merged.empty() && merged.back().category == s.category && merged.back().endNs == s.startNs)
            merged.back().endNs = s.endNs;
        else
            merged.push_back(s);
    }
    return merged;
}

GoodputTimelineChart::GoodputTimelineChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Job lifecycle timeline"));
    m_plot->yAxis->setVisible(false);
    m_plot->yAxis->setRange(0, 1.7);
    installChartExportMenu(m_plot, QStringLiteral("goodput-timeline"));
    setMinimumHeight(120);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void GoodputTimelineChart::setReport(const GoodputReport &r)
{
    m_plot->clearItems();
    m_drawn = 0;
    if (!r.valid()) {
        m_plot->replot();
        return;
    }
    const GoodputTimeUnit unit = goodputTimeUnit(r.elapsedNs);
    const auto x = [&](int64_t ns) { return double(ns - r.startNs) / unit.nsPerUnit; };
    const int64_t minNs = std::max<int64_t>(1, int64_t(double(r.elapsedNs) * kMinSegmentShare));
    for (const GoodputSegment &s : foldSegments(r.segments, minNs)) {
        auto *rect = new QCPItemRect(m_plot);
        rect->topLeft->setCoords(x(s.startNs), 0.95);
        rect->bottomRight->setCoords(x(s.endNs), 0.05);
        rect->setBrush(goodputBrush(s.category));
        rect->setPen(s.productive() ? Qt::NoPen : QPen(goodputColor(s.category).darker(120)));
        ++m_drawn;
    }
    int row = 0;
    const bool dark = isDark(palette()); // the markers' blue and red, lighter on a dark background
    for (const LifecycleEvent &m : r.markers) {
        QColor color = dark ? QColor(0x8a, 0xb4, 0xf0) : QColor(0x33, 0x55, 0x99);
        QString label;
        switch (m.kind) {
        case LifecycleKind::JobStart:
            label = tr("start");
            break;
        case LifecycleKind::Restart:
            label = tr("restart");
            break;
        case LifecycleKind::JobEnd:
            label = tr("end");
            break;
        case LifecycleKind::Interruption:
            color = dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x20, 0x20);
            label = m.label.isEmpty() ? tr("interrupted") : m.label;
            break;
        default:
            continue;
        }
        auto *line = new QCPItemLine(m_plot);
        line->start->setCoords(x(m.startNs), 0);
        line->end->setCoords(x(m.startNs), 1.1 + 0.25 * (row % 2));
        line->setPen(QPen(color, 1.5, Qt::DashLine));
        auto *text = new QCPItemText(m_plot);
        text->position->setCoords(x(m.startNs), 1.12 + 0.25 * (row % 2));
        // The end's label to the left of its line, so it stays inside the plot.
        text->setPositionAlignment(
            (m.kind == LifecycleKind::JobEnd ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        text->setText(label);
        text->setColor(color);
        ++row;
    }
    m_plot->xAxis->setLabel(tr("%1 since the job started (%2)").arg(unit.name, text::dateTime(r.startNs)));
    m_plot->xAxis->setRange(0, x(r.endNs) * 1.02);
    m_plot->replot();
}

} // namespace plumb
