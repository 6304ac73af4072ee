// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/runvaluechart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

constexpr double kBarWidth = 0.7;
constexpr int kBarPx = 22; // per run, so that a few runs do not make fat bars nor many runs a crowd
constexpr int kMinHeightPx = 160;

} // namespace

RunValueChart::RunValueChart(const QString &exportName, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->yAxis->setRangeReversed(true); // the first run on top
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setNumberFormat(QStringLiteral("g")); // run names as written: "lr-1e-04" stays so
    installChartExportMenu(m_plot, exportName);
    setMinimumSize(240, kMinHeightPx);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void RunValueChart::setTitle(const QString &title)
{
    m_plot->setAccessibleName(title);
    if (m_plot->plotLayout()->rowCount() > 1) {
        if (auto *t = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
            t->setText(title);
    } else {
        m_plot->plotLayout()->insertRow(0);
        auto *t = new QCPTextElement(m_plot, title, QFont(font().family(), font().pointSize(), QFont::Bold));
        t->setTextColor(palette().color(QPalette::WindowText));
        m_plot->plotLayout()->addElement(0, 0, t);
    }
    m_plot->replot();
}

void RunValueChart::setBars(const std::vector<Bar> &bars, int best, const QString &axisLabel)
{
    m_plot->clearPlottables();
    m_bars = bars;
    m_best = best >= 0 && best < int(bars.size()) && std::isfinite(bars[size_t(best)].value) ? best : -1;
    QVector<double> keys;
    QVector<QString> labels;
    double lo = 0, hi = 0;
    const QColor text = palette().color(QPalette::WindowText);
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar &b = bars[i];
        const double key = double(i + 1);
        keys << key;
        const QString value = std::isfinite(b.value) ? QString::number(b.value, 'g', 6) : tr("no value");
        labels << (int(i) == m_best ? tr("★ best  %1  %2") : QStringLiteral("%1  %2")).arg(b.name, value);
        if (!std::isfinite(b.value))
            continue;
        lo = std::min(lo, b.value);
        hi = std::max(hi, b.value);
        auto *bar = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bar->setWidth(kBarWidth);
        bar->setBrush(b.color);
        bar->setPen(int(i) == m_best ? QPen(text, 2) : QPen(b.color.darker(130)));
        bar->setData({ key }, { b.value }, true);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(0.4, double(bars.size()) + 0.6);
    m_plot->xAxis->setLabel(axisLabel);
    // Zero is on the axis (a bar starts there); 5% of room beyond the longest bar on either side.
    const double span = hi - lo > 0 ? hi - lo : 1;
    m_plot->xAxis->setRange(lo < 0 ? lo - span * 0.05 : 0, hi > 0 || lo == 0 ? hi + span * 0.05 : 0);
    setMinimumHeight(std::max(kMinHeightPx, int(bars.size()) * kBarPx + 80));
    m_plot->replot();
}

} // namespace plumb
