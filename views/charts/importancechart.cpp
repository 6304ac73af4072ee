// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/importancechart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>

namespace plumb {

namespace {

constexpr double kBarWidth = 0.65;
const QColor kNumericColor(0x3b, 0x75, 0xaf);
const QColor kCategoricalColor(0xd9, 0x82, 0x2b);

} // namespace

ImportanceChart::ImportanceChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Parameter importance"));
    m_plot->yAxis->setRangeReversed(true); // the most important on top
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setSubTicks(false);
    installChartExportMenu(m_plot, QStringLiteral("param-importance"));
    setMinimumSize(260, 180);
    clear();
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

void ImportanceChart::clear()
{
    m_plot->clearPlottables();
    m_values.clear();
    m_plot->xAxis->setLabel(tr("importance (share of the forest's variance reduction)"));
    m_plot->xAxis->setRange(0, 1);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
    m_plot->yAxis->setRange(0, 1);
    m_plot->replot();
}

void ImportanceChart::setImportance(const ParamImportance &importance)
{
    m_plot->clearPlottables();
    m_values.clear();
    if (importance.entries.empty() || !importance.reason.isEmpty()) {
        clear();
        return;
    }
    const size_t count = std::min<size_t>(importance.entries.size(), kMaxBars);
    QVector<double> keys;
    QVector<QString> labels;
    QVector<double> numericKeys, numericValues, categoricalKeys, categoricalValues;
    double hi = 0;
    for (size_t i = 0; i < count; ++i) {
        const ParamImportance::Entry &e = importance.entries[i];
        const double key = double(i + 1);
        keys << key;
        labels << QStringLiteral("%1  %2").arg(e.key).arg(e.importance, 0, 'f', 2);
        (e.categorical ? categoricalKeys : numericKeys) << key;
        (e.categorical ? categoricalValues : numericValues) << e.importance;
        m_values.push_back(e.importance);
        hi = std::max(hi, e.importance);
    }
    auto addBars = [this](const QVector<double> &k, const QVector<double> &v, const QColor &color,
                       Qt::BrushStyle pattern, const QString &name) {
        if (k.isEmpty())
            return;
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(name);
        bars->setBrush(QBrush(color, pattern));
        bars->setPen(QPen(color.darker(130)));
        bars->setWidth(kBarWidth);
        bars->setData(k, v, true);
    };
    addBars(numericKeys, numericValues, kNumericColor, Qt::SolidPattern, tr("numeric"));
    addBars(categoricalKeys, categoricalValues, kCategoricalColor, Qt::BDiagPattern, tr("categorical"));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(0.4, double(count) + 0.6);
    m_plot->xAxis->setLabel(tr("importance of each param for %1 (sums to 1)").arg(importance.metric));
    m_plot->xAxis->setRange(0, std::max(0.05, hi * 1.08));
    m_plot->replot();
}

} // namespace plumb
