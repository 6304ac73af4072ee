// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/diffcategorychart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "signedformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

constexpr double kBarWidth = 0.6;
constexpr double kMargin = 0.08; // share of the value range left free beside the longest bars

} // namespace

DiffCategoryChart::DiffCategoryChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Change of the GPU window by category"));
    m_plot->yAxis->setRangeReversed(true); // the window on top, then the categories in reading order
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->grid()->setZeroLinePen(QPen(palette().color(QPalette::WindowText), 1));
    installChartExportMenu(m_plot, QStringLiteral("trace-diff"));
    setMinimumHeight(170);
    clear();
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void DiffCategoryChart::clear()
{
    m_plot->clearPlottables();
    m_valuesMs.clear();
    m_plot->xAxis->setLabel(tr("GPU window, B − A (ms)"));
    m_plot->xAxis->setRange(-1, 1);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
    m_plot->replot();
}

void DiffCategoryChart::setDiff(const TraceDiff &d)
{
    m_plot->clearPlottables();
    struct Category {
        QString name;
        QColor color;
        Qt::BrushStyle pattern;
        double deltaNs;
    };
    // Same colours and patterns as StepBreakdownChart; the window in the text colour.
    const Category categories[] = {
        { tr("GPU window"), palette().color(QPalette::WindowText), Qt::SolidPattern, d.windowDeltaNs() },
        { tr("computation"), QColor(0x4c, 0x9f, 0x70), Qt::SolidPattern, d.b.computeNs - d.a.computeNs },
        { tr("exposed communication"), QColor(0xd9, 0x82, 0x2b), Qt::BDiagPattern,
            d.b.exposedCommNs - d.a.exposedCommNs },
        { tr("exposed memcpy/memset"), QColor(0x3b, 0x75, 0xaf), Qt::CrossPattern,
            d.b.exposedMemoryNs - d.a.exposedMemoryNs },
        { tr("idle"), QColor(0x9a, 0x9a, 0x9a), Qt::Dense6Pattern, d.b.idleNs - d.a.idleNs },
    };
    m_valuesMs.clear();
    QVector<double> keys;
    QVector<QString> labels;
    double lo = 0, hi = 0;
    for (const Category &c : categories) {
        m_valuesMs.push_back(c.deltaNs / 1e6);
        lo = std::min(lo, m_valuesMs.back());
        hi = std::max(hi, m_valuesMs.back());
    }
    const double span = std::max(hi - lo, 1e-3);
    for (size_t i = 0; i < std::size(categories); ++i) {
        const Category &c = categories[i];
        const double key = double(i + 1), ms = m_valuesMs[i];
        keys << key;
        // The value in the label: always readable, whatever the bar's length or the chart's width.
        labels << QStringLiteral("%1  %2").arg(c.name, signedDuration(c.deltaNs));
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(c.name);
        bars->setBrush(QBrush(c.color, c.pattern));
        bars->setPen(QPen(c.color.darker(130)));
        bars->setWidth(kBarWidth);
        bars->setData({ key }, { ms });
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(0.4, double(std::size(categories)) + 0.6);
    m_plot->xAxis->setLabel(
        d.perStep ? tr("GPU window, B − A (ms per step)") : tr("GPU window, B − A (ms, whole trace)"));
    m_plot->xAxis->setRange(lo - kMargin * span, hi + kMargin * span);
    m_plot->replot();
}

} // namespace plumb
