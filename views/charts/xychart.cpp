// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/xychart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace plumb {

namespace {

constexpr double kPointPx = 8;
constexpr double kRingPx = 16;
constexpr double kMargin = 0.06; // of the data's range, on each side
const QColor kDefaultColor(0x3b, 0x75, 0xaf);

QCPRange fitted(const QVector<double> &v)
{
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    double a = *lo, b = *hi;
    const double pad = a == b ? std::max(1.0, std::abs(a) * 0.1) : (b - a) * kMargin;
    return { a - pad, b + pad };
}

} // namespace

XYChart::XYChart(const QString &exportName, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAccessibleName(tr("Chart of two columns"));
    installChartExportMenu(m_plot, exportName);
    setMinimumSize(240, 180);
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

bool XYChart::isLogX() const
{
    return m_plot->xAxis->scaleType() == QCPAxis::stLogarithmic;
}

void XYChart::setTitle(const QString &title)
{
    m_title = title;
    m_plot->setAccessibleName(title);
    if (m_plot->plotLayout()->rowCount() > 1) {
        if (auto *t = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
            t->setText(title);
    } else if (!title.isEmpty()) {
        m_plot->plotLayout()->insertRow(0);
        auto *t = new QCPTextElement(m_plot, title, QFont(font().family(), font().pointSize(), QFont::Bold));
        t->setTextColor(palette().color(QPalette::WindowText));
        m_plot->plotLayout()->addElement(0, 0, t);
    }
    m_plot->replot();
}

void XYChart::clear(const QString &message)
{
    m_series = {};
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->xAxis->setLabel({});
    m_plot->yAxis->setLabel(message);
    m_plot->xAxis->setRange(0, 1);
    m_plot->yAxis->setRange(0, 1);
    m_plot->replot();
}

void XYChart::setSeries(const Series &s, const QString &xLabel, const QString &yLabel)
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_series = {};
    // Only finite pairs are drawn.
    Series kept;
    kept.connected = s.connected;
    kept.markedText = s.markedText;
    for (qsizetype i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
        if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]))
            continue;
        if (i == s.marked)
            kept.marked = int(kept.x.size());
        kept.x << s.x[i];
        kept.y << s.y[i];
        kept.colors << (i < s.colors.size() ? s.colors[i] : kDefaultColor);
        if (i < s.labels.size())
            kept.labels << s.labels[i];
    }
    m_plot->xAxis->setLabel(xLabel);
    m_plot->yAxis->setLabel(yLabel);
    if (kept.x.isEmpty()) {
        m_plot->yAxis->setLabel(tr("No numeric pairs to draw"));
        m_plot->replot();
        return;
    }
    m_series = kept;

    if (kept.connected && kept.x.size() > 1) {
        std::vector<qsizetype> order(size_t(kept.x.size()));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(
            order.begin(), order.end(), [&](qsizetype a, qsizetype b) { return kept.x[a] < kept.x[b]; });
        QVector<double> xs, ys;
        for (qsizetype i : order) {
            xs << kept.x[i];
            ys << kept.y[i];
        }
        auto *line = m_plot->addGraph();
        QColor c = kept.colors.front();
        c.setAlpha(160);
        line->setPen(QPen(c, 1.5));
        line->setData(xs, ys, true);
    }
    // One graph per colour: a scatter of discs.
    QList<QColor> colours;
    for (const QColor &c : std::as_const(kept.colors))
        if (!colours.contains(c))
            colours << c;
    for (const QColor &c : std::as_const(colours)) {
        QVector<double> xs, ys;
        for (qsizetype i = 0; i < kept.x.size(); ++i)
            if (kept.colors[i] == c) {
                xs << kept.x[i];
                ys << kept.y[i];
            }
        auto *g = m_plot->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c.darker(130), c, kPointPx));
        g->setData(xs, ys, false);
    }
    const QColor text = palette().color(QPalette::WindowText);
    if (kept.marked >= 0) {
        auto *ring = m_plot->addGraph();
        ring->setLineStyle(QCPGraph::lsNone);
        ring->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 2), Qt::NoBrush, kRingPx));
        ring->setData({ kept.x[kept.marked] }, { kept.y[kept.marked] });
    }
    const auto [xLo, xHi] = std::minmax_element(kept.x.begin(), kept.x.end());
    if (s.logXWhenWide && *xLo > 0 && *xHi / *xLo >= kLogSpan) {
        m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        m_plot->xAxis->setNumberFormat(QStringLiteral("eb"));
        m_plot->xAxis->setNumberPrecision(0);
        m_plot->xAxis->setRange(*xLo / 1.6, *xHi * 1.6);
    } else {
        m_plot->xAxis->setScaleType(QCPAxis::stLinear);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->xAxis->setNumberFormat(QStringLiteral("gb"));
        m_plot->xAxis->setNumberPrecision(6);
        m_plot->xAxis->setRange(fitted(kept.x));
    }
    m_plot->yAxis->setRange(fitted(kept.y));
    // The marked point's label, on the side of the point with more room.
    if (kept.marked >= 0 && kept.labels.size() == kept.x.size()) {
        const double x = kept.x[kept.marked];
        const QCPRange range = m_plot->xAxis->range();
        const double at = isLogX() ? std::log(x / range.lower) / std::log(range.upper / range.lower)
                                   : (x - range.lower) / range.size();
        const QString t = kept.markedText.isEmpty()
            ? kept.labels[kept.marked]
            : QStringLiteral("%1 (%2)").arg(kept.labels[kept.marked], kept.markedText);
        // Left of the point when the text would not fit right of it (the plot is ~80% of the widget).
        const bool left
            = at > 0.5 || fontMetrics().horizontalAdvance(t) + 12 > (1 - at) * m_plot->width() * 0.8;
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(x, kept.y[kept.marked]);
        label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        label->setPadding(left ? QMargins(0, 0, 8, 2) : QMargins(8, 0, 0, 2));
        label->setColor(text);
        label->setText(t);
        label->setClipToAxisRect(false);
    }
    m_plot->replot();
}

} // namespace plumb
