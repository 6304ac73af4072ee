// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/scalarchart.h"

#include "analysis/scalarseries.h"
#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/rastergraph.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr float kRawLightening = 0.65f; // the raw line behind a smoothed one: this far towards white
constexpr int kMarkerAlpha = 150;
constexpr double kSmoothedWidth = 1.0;
constexpr size_t kDotsUpTo = 32; // lines with at most this many points show their points
constexpr double kDotPx = 5;
constexpr double kYPad = 0.05; // of the y span, above and below the data
constexpr double kXPad = 0.02; // of the x span, either side when fitting: end markers drawn whole

// A y value as QCustomPlot should get it: non-finite values, and values <= 0 on a log axis, are gaps.
double drawable(double y, bool log)
{
    if (!std::isfinite(y) || (log && y <= 0))
        return std::numeric_limits<double>::quiet_NaN();
    return y;
}

} // namespace

ScalarChart::ScalarChart(const QString &exportName, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_titleElement(new QCPTextElement(m_plot))
    , m_raster(new LineRaster(m_plot))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_titleElement);
    QFont f = m_titleElement->font();
    f.setBold(true);
    m_titleElement->setFont(f);
    // The legend stays inside the axis rect (hidden unless asked for: the Scalars page names the runs
    // once for all its charts). Below the plot, as chartstyle places it, an empty legend would cap the
    // layout's width at its own margins.
    m_plot->legend->setVisible(false);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->setAccessibleName(exportName);
    installChartExportMenu(m_plot, exportName);
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { decimate(false); });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] {
        fitAll();
        m_plot->replot();
    });
    setMinimumSize(240, 180);
    setupXAxis();
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

ScalarChart::~ScalarChart() = default;

void ScalarChart::setTitle(const QString &title)
{
    m_title = title;
    m_titleElement->setText(title);
}

void ScalarChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScalarChart::clear()
{
    setLines({}, m_xKind);
}

void ScalarChart::setupXAxis()
{
    switch (m_xKind) {
    case XKind::Step:
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->xAxis->setLabel(tr("step"));
        break;
    case XKind::RelativeTime: {
        QSharedPointer<QCPAxisTickerTime> ticker(new QCPAxisTickerTime);
        ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setLabel(tr("time since the first point (h:mm:ss)"));
        break;
    }
    case XKind::WallTime: {
        QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
        ticker->setDateTimeFormat(QStringLiteral("MMM d\nhh:mm:ss"));
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setLabel(tr("wall time"));
        break;
    }
    }
}

void ScalarChart::setLines(std::vector<ScalarLine> lines, XKind xKind)
{
    m_xKind = xKind;
    m_lines.clear();
    m_lines.reserve(lines.size());
    for (ScalarLine &l : lines) {
        LineState s;
        s.line = std::move(l);
        s.parts.resize(s.line.parts.size());
        m_lines.push_back(std::move(s));
    }
    setupXAxis();
    rebuildGraphs();
    fitAll();
    m_plot->replot();
}

void ScalarChart::rebuildGraphs()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    for (LineState &l : m_lines) {
        for (size_t p = 0; p < l.parts.size(); ++p) {
            PartState &part = l.parts[p];
            part.raw = new RasterGraph(m_plot->xAxis, m_plot->yAxis, m_raster);
            part.smooth = new RasterGraph(m_plot->xAxis, m_plot->yAxis, m_raster);
            part.raw->setAdaptiveSampling(false); // already reduced, and by our rule
            part.smooth->setAdaptiveSampling(false);
            // Antialiased polylines cost the raster engine ~10x: at up to four points per pixel
            // column the lines look the same without (and on screen they are set into one image).
            part.raw->setAntialiased(false);
            part.smooth->setAntialiased(false);
            part.raw->removeFromLegend();
            part.smooth->removeFromLegend();
            part.smoothed = m_weight > 0 ? debiasedEma(l.line.parts[p].y, m_weight) : std::vector<double>();
        }
        for (double x : l.line.restartX) {
            auto *marker = new QCPItemLine(m_plot);
            marker->setClipToAxisRect(true);
            marker->start->setTypeX(QCPItemPosition::ptPlotCoords);
            marker->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
            marker->end->setTypeX(QCPItemPosition::ptPlotCoords);
            marker->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
            marker->start->setCoords(x, 0);
            marker->end->setCoords(x, 1);
            QColor c = l.line.color;
            c.setAlpha(kMarkerAlpha);
            marker->setPen(QPen(c, 1, Qt::DashLine));
            marker->setSelectable(false);
        }
    }
    restyle();
    m_dirty = true;
}

void ScalarChart::restyle()
{
    const bool smoothed = m_weight > 0;
    for (LineState &l : m_lines)
        for (size_t p = 0; p < l.parts.size(); ++p) {
            PartState &part = l.parts[p];
            // Faint as a lighter opaque colour, not as alpha: blending every pixel of a million-point
            // line costs the raster engine more than the line itself.
            const QColor c = l.line.color;
            const QColor faint = QColor::fromRgbF(c.redF() + (1 - c.redF()) * kRawLightening,
                c.greenF() + (1 - c.greenF()) * kRawLightening, c.blueF() + (1 - c.blueF()) * kRawLightening);
            part.raw->setPen(QPen(smoothed ? faint : l.line.color, smoothed ? 1.0 : kSmoothedWidth));
            part.smooth->setPen(QPen(l.line.color, kSmoothedWidth));
            part.smooth->setVisible(smoothed);
            // The legend names the line drawn in full colour, once per run.
            QCPGraph *named = smoothed ? part.smooth : part.raw;
            QCPGraph *unnamed = smoothed ? part.raw : part.smooth;
            unnamed->removeFromLegend();
            // A line of a few points shows them as dots too (a single point draws no line).
            const bool few = l.line.parts[p].x.size() <= kDotsUpTo;
            part.raw->setScatterStyle(few
                    ? QCPScatterStyle(QCPScatterStyle::ssDisc, smoothed ? faint : c, kDotPx)
                    : QCPScatterStyle());
            part.smooth->setScatterStyle(
                few ? QCPScatterStyle(QCPScatterStyle::ssDisc, c, kDotPx) : QCPScatterStyle());
            named->removeFromLegend();
            if (p == 0 && m_plot->legend->visible()) {
                named->setName(l.line.name);
                named->addToLegend();
            }
        }
}

void ScalarChart::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == m_weight)
        return;
    m_weight = weight;
    for (LineState &l : m_lines)
        for (size_t p = 0; p < l.parts.size(); ++p)
            l.parts[p].smoothed
                = m_weight > 0 ? debiasedEma(l.line.parts[p].y, m_weight) : std::vector<double>();
    restyle();
    m_dirty = true;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScalarChart::setLogY(bool log)
{
    if (log == m_logY)
        return;
    m_logY = log;
    if (log) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    m_dirty = true;
    fitAll();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ScalarChart::setLegendVisible(bool visible)
{
    m_plot->legend->setVisible(visible);
    restyle();
}

void ScalarChart::fitAll()
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const LineState &l : m_lines)
        for (const ScalarLine::Part &p : l.line.parts)
            for (double x : p.x) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    const double pad = hi > lo ? (hi - lo) * kXPad : 0.5;
    lo -= pad;
    hi += pad;
    m_plot->xAxis->setRange(lo, hi);
    fitY(lo, hi);
}

void ScalarChart::fitY(double xFrom, double xTo)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const LineState &l : m_lines)
        for (const ScalarLine::Part &p : l.line.parts)
            for (size_t i = 0; i < p.x.size(); ++i) {
                if (p.x[i] < xFrom || p.x[i] > xTo)
                    continue;
                const double y = drawable(p.y[i], m_logY);
                if (std::isnan(y))
                    continue;
                lo = std::min(lo, y);
                hi = std::max(hi, y);
            }
    if (!(lo <= hi)) {
        m_plot->yAxis->setRange(m_logY ? 0.1 : 0, m_logY ? 10 : 1);
        return;
    }
    if (m_logY) {
        m_plot->yAxis->setRange(lo / 1.2, hi * 1.2);
        return;
    }
    // A flat line sits mid-axis: 10% of its value either side, or -1..1 for a line of zeros (whose
    // axis was +-1e-9 and read as noise around zero).
    const double pad = hi > lo ? (hi - lo) * kYPad : hi != 0 ? std::abs(hi) * 0.1 : 1.0;
    m_plot->yAxis->setRange(lo - pad, hi + pad);
}

void ScalarChart::decimate(bool force)
{
    if (m_fittingY)
        return;
    const QCPRange range = m_plot->xAxis->range();
    // The axis rect keeps the last layout's size until this replot lays out again: take the widget's
    // width less the axis rect's margins (tick labels), which a resize does not change.
    const QMargins margins = m_plot->axisRect()->margins();
    const int columns = std::max(1, m_plot->width() - margins.left() - margins.right());
    if (!force && !m_dirty && range.lower == m_lastFrom && range.upper == m_lastTo
        && columns == m_lastColumns)
        return;
    const bool xChanged = range.lower != m_lastFrom || range.upper != m_lastTo;
    m_lastFrom = range.lower;
    m_lastTo = range.upper;
    m_lastColumns = columns;
    m_dirty = false;

    // Each part's lines decimated on the global pool (a chart of 100 runs decimates 2M points a
    // frame at fit-all): every task fills graphs of its own.
    struct Task {
        const ScalarLine::Part *part;
        PartState *state;
    };
    std::vector<Task> tasks;
    for (LineState &l : m_lines)
        for (size_t p = 0; p < l.parts.size(); ++p)
            tasks.push_back({ &l.line.parts[p], &l.parts[p] });
    const bool smoothed = m_weight > 0;
    const bool sorted = m_xKind == XKind::Step;
    const bool logY = m_logY;
    QtConcurrent::blockingMap(tasks, [&](const Task &t) {
        QVector<QCPGraphData> buffer;
        auto fill = [&](QCPGraph *graph, const std::vector<double> &y) {
            const std::vector<uint32_t> kept
                = decimateMinMax(t.part->x, y, range.lower, range.upper, columns);
            buffer.resize(qsizetype(kept.size()));
            for (size_t k = 0; k < kept.size(); ++k)
                buffer[qsizetype(k)] = QCPGraphData(t.part->x[kept[k]], drawable(y[kept[k]], logY));
            graph->data()->set(buffer, sorted);
        };
        fill(t.state->raw, t.part->y);
        if (smoothed)
            fill(t.state->smooth, t.state->smoothed);
        else
            t.state->smooth->data()->clear();
    });
    if (xChanged && !force) {
        m_fittingY = true;
        fitY(range.lower, range.upper);
        m_fittingY = false;
    }
}

std::vector<std::pair<double, double>> ScalarChart::drawnPoints(int i, int p, bool smoothed) const
{
    const PartState &s = m_lines[size_t(i)].parts[size_t(p)];
    std::vector<std::pair<double, double>> out;
    const auto data = (smoothed ? s.smooth : s.raw)->data();
    for (auto it = data->constBegin(); it != data->constEnd(); ++it)
        out.emplace_back(it->key, it->value);
    return out;
}

void ScalarChart::setXRange(double from, double to)
{
    m_plot->xAxis->setRange(from, to);
}

std::pair<double, double> ScalarChart::xRange() const
{
    return { m_plot->xAxis->range().lower, m_plot->xAxis->range().upper };
}

int ScalarChart::plotWidthPx() const
{
    const QMargins margins = m_plot->axisRect()->margins();
    return std::max(1, m_plot->width() - margins.left() - margins.right());
}

void ScalarChart::redraw()
{
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

void ScalarChart::replotNow()
{
    decimate(true);
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

int ScalarChart::restartMarkerCount() const
{
    return m_plot->itemCount();
}

int ScalarChart::rawPointCount(int i, int p) const
{
    return int(m_lines[size_t(i)].line.parts[size_t(p)].x.size());
}

int ScalarChart::drawnPointCount(int i, int p, bool smoothed) const
{
    const PartState &s = m_lines[size_t(i)].parts[size_t(p)];
    return (smoothed ? s.smooth : s.raw)->dataCount();
}

const std::vector<double> &ScalarChart::smoothedY(int i, int p) const
{
    return m_lines[size_t(i)].parts[size_t(p)].smoothed;
}

} // namespace plumb
