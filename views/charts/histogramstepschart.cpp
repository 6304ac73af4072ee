// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/histogramstepschart.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plumb {

namespace {

constexpr double kOldestLightening = 0.65; // the oldest curve's colour: this far towards white
constexpr double kRidgeFillTint = 0.07; // a ridge curve's fill: this much of its colour over white
constexpr int kBandAlpha = 60; // each band; they stack, so the inner ones are darker
constexpr double kMedianWidth = 1.5;
constexpr double kLatestWidth = 1.5; // the latest step's curve in the overlay
constexpr size_t kDotsUpTo = 32; // a median of at most this many steps shows its points
constexpr double kDotPx = 4;
constexpr double kSingleStepHalfWidth = 0.4; // a single step's bands span this far each side
constexpr int kLegendTextPadPx = 3;
constexpr double kStepPad = 0.01; // of the steps' span, each side of the distribution
constexpr double kHeadroom = 0.05; // of the span, above (and below) what is drawn

QColor towardsWhite(const QColor &c, double f)
{
    return QColor::fromRgbF(float(c.redF() + (1 - c.redF()) * f), float(c.greenF() + (1 - c.greenF()) * f),
        float(c.blueF() + (1 - c.blueF()) * f));
}

// The colour of the i-th of n curves of a run, oldest first: the latest in full colour.
QColor ageColor(const QColor &c, size_t i, size_t n)
{
    const double t = n > 1 ? double(i) / double(n - 1) : 1.0;
    return towardsWhite(c, (1 - t) * kOldestLightening);
}

// Four significant digits, without an exponent from 0.001 to a million (bin edges of 48120, not 4.812e+04).
QString number(double v)
{
    const double a = std::abs(v);
    if (a == 0 || a < 1e-3 || a >= 1e6 || !std::isfinite(v))
        return QString::number(v, 'g', 4);
    const int decimals = std::max(0, 3 - int(std::floor(std::log10(a))));
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(u'.')) {
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(u'.'))
            s.chop(1);
    }
    return s;
}

// A step axis: ticks on whole steps only, and on the ridge from the first step to the last only (the
// curves rise above the first baseline, where a negative "step" would mean nothing).
class StepTicker final : public QCPAxisTicker {
public:
    StepTicker(double first = -std::numeric_limits<double>::infinity(),
        double last = std::numeric_limits<double>::infinity())
        : m_first(first)
        , m_last(last)
    {
    }

protected:
    double getTickStep(const QCPRange &range) override
    {
        return std::max(1.0, QCPAxisTicker::getTickStep(range));
    }
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
        ticks.removeIf([this](double t) { return t < m_first || t > m_last || t != std::floor(t); });
        return ticks;
    }

private:
    double m_first, m_last;
};

} // namespace

HistogramStepsChart::HistogramStepsChart(const QString &exportName, QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_titleElement(new QCPTextElement(m_plot))
    , m_noteElement(new QCPTextElement(m_plot))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_titleElement);
    m_plot->plotLayout()->insertRow(1);
    m_plot->plotLayout()->addElement(1, 0, m_noteElement);
    QFont f = m_titleElement->font();
    f.setBold(true);
    m_titleElement->setFont(f);
    QFont small = m_noteElement->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_noteElement->setFont(small);
    m_noteElement->setMargins(QMargins(4, 0, 4, 2));
    placeLegendBelow(m_plot);
    m_plot->legend->setVisible(false);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setAccessibleName(exportName);
    installChartExportMenu(m_plot, exportName);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] {
        fitAll();
        m_plot->replot();
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString text = toolTipAt(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    setMinimumSize(320, 240);
    clear();
    followPalette(m_plot);
    spaceTickLabels(m_plot);
}

HistogramStepsChart::~HistogramStepsChart() = default;

void HistogramStepsChart::setTitle(const QString &title)
{
    m_title = title;
    m_titleElement->setText(title);
}

void HistogramStepsChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HistogramStepsChart::clear()
{
    setRuns({});
}

void HistogramStepsChart::setRuns(std::vector<HistogramRun> runs)
{
    m_runs.clear();
    m_runs.reserve(runs.size());
    for (HistogramRun &r : runs) {
        RunState s;
        s.run = std::move(r);
        for (size_t i = 0; i < s.run.histograms.size(); ++i)
            if (hasCounts(s.run.histograms[i]))
                s.drawable.push_back(i);
        for (size_t k : evenlySpacedIndices(s.drawable.size(), kMaxCurves))
            s.curves.push_back(s.drawable[k]);
        m_runs.push_back(std::move(s));
    }
    rebuild();
}

void HistogramStepsChart::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

void HistogramStepsChart::rebuild()
{
    m_plot->clearPlottables();
    for (RunState &s : m_runs)
        s.bands.clear();
    m_maxCount = 0;
    m_noteText.clear();
    m_plot->yAxis->setRangeReversed(false);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    if (m_mode == Mode::Distribution)
        buildDistribution();
    else
        buildCurves();
    m_noteElement->setText(m_noteText);
    m_noteElement->setVisible(!m_noteText.isEmpty());
    fitAll();
    m_plot->replot();
}

void HistogramStepsChart::buildCurves()
{
    const bool offset = m_mode == Mode::Offset;
    std::vector<const StepHistogram *> shown;
    for (const RunState &s : m_runs)
        for (size_t i : s.curves)
            shown.push_back(&s.run.histograms[i]);
    m_bins = commonBins(shown);

    struct Curve {
        size_t run;
        size_t age; // 0 = the run's oldest curve
        int64_t step;
        std::vector<double> counts;
    };
    std::vector<Curve> all;
    all.reserve(shown.size());
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    size_t most = 0;
    for (size_t r = 0; r < m_runs.size(); ++r) {
        const RunState &s = m_runs[r];
        most = std::max(most, s.curves.size());
        for (size_t k = 0; k < s.curves.size(); ++k) {
            const StepHistogram &h = s.run.histograms[s.curves[k]];
            Curve c { r, k, h.step, rebin(h, m_bins) };
            for (double v : c.counts)
                m_maxCount = std::max(m_maxCount, v);
            first = std::min(first, h.step);
            last = std::max(last, h.step);
            all.push_back(std::move(c));
        }
    }
    // Drawn back to front. Ridge: by step, so that a later baseline hides what rises behind it.
    // Overlay: by age within each run, so that every run's latest curves lie on top.
    const auto ageOf = [this](const Curve &c) {
        const size_t n = m_runs[c.run].curves.size();
        return n > 1 ? double(c.age) / double(n - 1) : 1.0;
    };
    if (offset)
        std::stable_sort(
            all.begin(), all.end(), [](const Curve &a, const Curve &b) { return a.step < b.step; });
    else
        std::stable_sort(
            all.begin(), all.end(), [&ageOf](const Curve &a, const Curve &b) { return ageOf(a) < ageOf(b); });
    m_ridge = all.empty() ? RidgeLayout() : ridgeLayout(first, last, most);
    const double scale = m_maxCount > 0 ? (offset ? m_ridge.peak / m_maxCount : 1.0) : 0.0;

    std::vector<QCPAbstractPlottable *> named(m_runs.size(), nullptr);
    QVector<double> xs, ys;
    for (const Curve &c : all) {
        const RunState &s = m_runs[c.run];
        const double base = offset ? double(c.step) : 0.0;
        // Through the bins' centres, from and back to zero half a bin beyond the range, so that a
        // value at either end of the range shows as a whole peak.
        xs.clear();
        ys.clear();
        xs << m_bins.centre(-1);
        ys << base;
        for (int i = 0; i < m_bins.count; ++i) {
            xs << m_bins.centre(i);
            ys << (offset ? base - c.counts[size_t(i)] * scale : c.counts[size_t(i)]);
        }
        xs << m_bins.centre(m_bins.count);
        ys << base;
        const QColor color = ageColor(s.run.color, c.age, s.curves.size());
        const bool latest = c.age + 1 == s.curves.size();
        QCPAbstractPlottable *p = nullptr;
        if (offset) {
            // A closed outline: along the histogram, back along the baseline, filled nearly opaque.
            auto *curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
            curve->setData(xs, ys);
            curve->setPen(QPen(color, 1));
            curve->setBrush(towardsWhite(s.run.color, 1 - kRidgeFillTint));
            p = curve;
        } else {
            QCPGraph *graph = m_plot->addGraph();
            graph->setData(xs, ys, true);
            graph->setPen(QPen(color, latest ? kLatestWidth : 1));
            p = graph;
        }
        p->setSelectable(QCP::stNone);
        if (latest)
            named[c.run] = p;
    }

    m_plot->xAxis->setLabel(tr("value"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    // Horizontal grid lines would read as baselines between the ridge's curves.
    m_plot->yAxis->grid()->setVisible(!offset);
    if (offset) {
        m_plot->yAxis->setLabel(tr("step"));
        m_plot->yAxis->setRangeReversed(true);
        if (!all.empty())
            m_plot->yAxis->setTicker(
                QSharedPointer<QCPAxisTicker>(new StepTicker(double(first), double(last))));
    } else {
        m_plot->yAxis->setLabel(tr("count per bin"));
    }

    QStringList note;
    if (!all.empty())
        note << tr("counts in %1 equal bins from %2 to %3")
                    .arg(m_bins.count)
                    .arg(number(m_bins.lo), number(m_bins.hi));
    size_t runsCut = 0, drawn = 0, total = 0;
    for (const RunState &s : m_runs)
        if (s.curves.size() < s.drawable.size()) {
            ++runsCut;
            drawn = s.curves.size();
            total = s.drawable.size();
        }
    if (runsCut == 1 && m_runs.size() == 1)
        note << tr("%1 of %2 steps drawn, evenly spaced (first and last kept)").arg(drawn).arg(total);
    else if (runsCut > 0)
        note << tr("at most %1 steps of each run drawn, evenly spaced (first and last kept)").arg(kMaxCurves);
    if (offset && !all.empty())
        note << tr("latest step in front");
    m_noteText = note.join(QStringLiteral(" · "));
    updateLegend(named);
}

void HistogramStepsChart::buildDistribution()
{
    std::vector<QCPAbstractPlottable *> named(m_runs.size(), nullptr);
    QVector<double> xs;
    std::array<QVector<double>, 9> ys;
    for (size_t r = 0; r < m_runs.size(); ++r) {
        RunState &s = m_runs[r];
        QColor band = s.run.color;
        band.setAlpha(kBandAlpha);
        // A segment part ends where the steps go back (a restart, in the Every segment view).
        std::vector<std::vector<size_t>> parts;
        int64_t previous = std::numeric_limits<int64_t>::min();
        for (size_t i : s.drawable) {
            const StepHistogram &h = s.run.histograms[i];
            if (parts.empty() || h.step < previous)
                parts.emplace_back();
            parts.back().push_back(i);
            previous = h.step;
        }
        for (const std::vector<size_t> &part : parts) {
            xs.clear();
            for (QVector<double> &y : ys)
                y.clear();
            for (size_t i : part) {
                const StepHistogram &h = s.run.histograms[i];
                const std::array<double, 9> b = distributionBands(h.buckets.data(), h.bucketCount());
                xs << double(h.step);
                for (size_t k = 0; k < b.size(); ++k)
                    ys[k] << b[k];
            }
            if (part.size() == 1) { // bands a step wide at most, not a line no one sees
                xs = { xs[0] - kSingleStepHalfWidth, xs[0], xs[0] + kSingleStepHalfWidth };
                for (QVector<double> &y : ys)
                    y = { y[0], y[0], y[0] };
            }
            std::array<QCPGraph *, 9> g {};
            for (size_t k = 0; k < g.size(); ++k) {
                g[k] = m_plot->addGraph();
                g[k]->setData(xs, ys[k], true);
                g[k]->setPen(Qt::NoPen);
                g[k]->setSelectable(QCP::stNone);
            }
            // Outer band first, so that each inner one lies over it and the shades add up inwards.
            for (size_t k = 0; k < 4; ++k) {
                g[k]->setBrush(band);
                g[k]->setChannelFillGraph(g[8 - k]);
            }
            g[4]->setPen(QPen(s.run.color, kMedianWidth));
            if (part.size() <= kDotsUpTo)
                g[4]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, s.run.color, kDotPx));
            if (!named[r])
                named[r] = g[4];
            s.bands.push_back(g);
        }
    }
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new StepTicker));
    m_plot->yAxis->setLabel(tr("value"));
    m_plot->yAxis->grid()->setVisible(true);
    bool any = false;
    for (const RunState &s : m_runs)
        any = any || !s.drawable.empty();
    if (any)
        m_noteText = tr("every step · shaded: min–max, 7–93%, 16–84%, 31–69% of the values · line: median");
    updateLegend(named);
}

void HistogramStepsChart::updateLegend(const std::vector<QCPAbstractPlottable *> &named)
{
    m_plot->legend->clearItems();
    for (size_t r = 0; r < named.size(); ++r)
        if (named[r]) {
            named[r]->setName(m_runs[r].run.name);
            named[r]->addToLegend();
            // Room below the text: a legend item clips to its outer rect, and would cut underscores.
            m_plot->legend->itemWithPlottable(named[r])->setMargins(QMargins(0, 0, 0, kLegendTextPadPx));
        }
    m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
    fitLegend(m_plot);
}

void HistogramStepsChart::fitAll()
{
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    switch (m_mode) {
    case Mode::Offset:
        x0 = m_bins.centre(-1);
        x1 = m_bins.centre(m_bins.count);
        y0 = m_ridge.top;
        y1 = m_ridge.bottom;
        break;
    case Mode::Overlay:
        x0 = m_bins.centre(-1);
        x1 = m_bins.centre(m_bins.count);
        y1 = m_maxCount > 0 ? m_maxCount * (1 + kHeadroom) : 1;
        break;
    case Mode::Distribution: {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo, vlo = lo, vhi = -lo;
        for (const RunState &s : m_runs)
            for (const auto &g : s.bands) {
                bool found = false;
                const QCPRange keys = g[4]->data()->keyRange(found);
                if (!found)
                    continue;
                lo = std::min(lo, keys.lower);
                hi = std::max(hi, keys.upper);
                const QCPRange low = g[0]->data()->valueRange(found);
                if (found)
                    vlo = std::min(vlo, low.lower);
                const QCPRange high = g[8]->data()->valueRange(found);
                if (found)
                    vhi = std::max(vhi, high.upper);
            }
        if (lo <= hi) {
            // A single step: its bands in the middle; else room for the dots at both ends.
            const double pad = hi - lo < 1 ? 1.0 : (hi - lo) * kStepPad;
            x0 = lo - pad;
            x1 = hi + pad;
        }
        if (vlo <= vhi) {
            const double pad = vhi > vlo ? (vhi - vlo) * kHeadroom : std::max(std::abs(vhi) * 0.1, 1e-9);
            y0 = vlo - pad;
            y1 = vhi + pad;
        }
        break;
    }
    }
    m_plot->xAxis->setRange(x0, x1);
    m_plot->yAxis->setRange(y0, y1);
}

std::optional<std::array<double, 9>> HistogramStepsChart::drawnBands(int run, int64_t step) const
{
    if (run < 0 || size_t(run) >= m_runs.size())
        return std::nullopt;
    for (const auto &g : m_runs[size_t(run)].bands) {
        const auto it = g[4]->data()->findBegin(double(step), false);
        if (it == g[4]->data()->constEnd() || it->key != double(step))
            continue;
        std::array<double, 9> out {};
        for (size_t k = 0; k < out.size(); ++k)
            out[k] = g[k]->data()->findBegin(double(step), false)->value;
        return out;
    }
    return std::nullopt;
}

QString HistogramStepsChart::toolTipAt(QPointF pos) const
{
    if (m_runs.empty() || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return {};
    const double x = m_plot->xAxis->pixelToCoord(pos.x()), y = m_plot->yAxis->pixelToCoord(pos.y());
    QStringList lines;
    switch (m_mode) {
    case Mode::Distribution:
        for (const RunState &s : m_runs) {
            // The step nearest the cursor.
            const StepHistogram *best = nullptr;
            for (size_t i : s.drawable) {
                const StepHistogram &h = s.run.histograms[i];
                if (!best || std::abs(double(h.step) - x) < std::abs(double(best->step) - x))
                    best = &h;
            }
            if (!best)
                continue;
            const std::array<double, 9> b = distributionBands(best->buckets.data(), best->bucketCount());
            lines << tr("%1, step %2: median %3; 16–84%: %4 to %5; min %6, max %7")
                         .arg(s.run.name)
                         .arg(best->step)
                         .arg(number(b[4]), number(b[2]), number(b[6]), number(b[0]), number(b[8]));
        }
        break;
    case Mode::Offset: {
        // The curve whose baseline is the first at or below the cursor: the one rising there.
        const RunState *run = nullptr;
        const StepHistogram *best = nullptr;
        for (const RunState &s : m_runs)
            for (size_t i : s.curves) {
                const StepHistogram &h = s.run.histograms[i];
                if (double(h.step) >= y && (!best || h.step < best->step)) {
                    best = &h;
                    run = &s;
                }
            }
        if (!best)
            break;
        const int bin = m_bins.binOf(x);
        const std::vector<double> counts = rebin(*best, m_bins);
        lines << tr("%1, step %2").arg(run->run.name).arg(best->step)
              << tr("%3 in %1 to %2")
                     .arg(number(m_bins.lo + bin * m_bins.width()),
                         number(m_bins.lo + (bin + 1) * m_bins.width()), number(counts[size_t(bin)]));
        break;
    }
    case Mode::Overlay: {
        const int bin = m_bins.binOf(x);
        lines << tr("values %1 to %2")
                     .arg(number(m_bins.lo + bin * m_bins.width()),
                         number(m_bins.lo + (bin + 1) * m_bins.width()));
        for (const RunState &s : m_runs)
            if (!s.curves.empty()) {
                const StepHistogram &h = s.run.histograms[s.curves.back()];
                lines << tr("%1, step %2 (latest): %3")
                             .arg(s.run.name)
                             .arg(h.step)
                             .arg(number(rebin(h, m_bins)[size_t(bin)]));
            }
        break;
    }
    }
    return lines.join(u'\n');
}

bool HistogramStepsChart::exportTo(const QString &path) const
{
    return exportChart(m_plot, path);
}

} // namespace plumb
