// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chartstyle.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <iterator>

namespace plumb {

namespace {

class LegendFitter final : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            fitLegend(static_cast<QCustomPlot *>(watched));
        return false;
    }
};

// Blends `a` towards `b` by `t` (0..1).
QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
        float(a.greenF() + (b.greenF() - a.greenF()) * t), float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

void applyPalette(QCustomPlot *plot)
{
    const QPalette &pal = plot->palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    const QColor axis = mix(base, text, 0.6), grid = mix(base, text, 0.22), subGrid = mix(base, text, 0.1);
    plot->setBackground(base);
    for (QCPAxisRect *rect : plot->axisRects()) {
        rect->setBackground(Qt::NoBrush);
        for (QCPAxis *a : rect->axes()) {
            a->setBasePen(QPen(axis, 0));
            a->setTickPen(QPen(axis, 0));
            a->setSubTickPen(QPen(axis, 0));
            a->setTickLabelColor(text);
            a->setLabelColor(text);
            a->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            a->grid()->setSubGridPen(QPen(subGrid, 0, Qt::DotLine));
        }
    }
    plot->legend->setTextColor(text);
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = plot->legend->item(i))
            item->setTextColor(text);
    const QList<QCPLayoutElement *> elements = plot->plotLayout()->elements(true);
    for (QCPLayoutElement *e : elements)
        if (auto *title = qobject_cast<QCPTextElement *>(e))
            title->setTextColor(text);
}

class PaletteFollower final : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::PaletteChange) {
            auto *plot = static_cast<QCustomPlot *>(watched);
            applyPalette(plot);
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return false;
    }
};

} // namespace

void followPalette(QCustomPlot *plot)
{
    applyPalette(plot);
    plot->installEventFilter(new PaletteFollower(plot));
}

void spaceTickLabels(QCustomPlot *plot)
{
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        QCPAxis *axis = plot->xAxis;
        const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
        if (!ticker || !axis->tickLabels() || ticker.dynamicCast<QCPAxisTickerText>())
            return;
        // The layout is updated after this signal: the width is the widget's less the current margins
        // (the widget's, not the viewport's: a hidden plot resized for a report gets its viewport
        // only with the resize event, after this replot).
        const QMargins margins = axis->axisRect()->margins();
        const int width = plot->width() - margins.left() - margins.right();
        const QFontMetrics fm(axis->tickLabelFont());
        const int gap = 2 * fm.horizontalAdvance(QLatin1Char('0'));
        const QString format = axis->numberFormat();
        const QChar formatChar = format.isEmpty() ? QLatin1Char('g') : format.front();
        constexpr int kDefaultTicks = 5;
        for (int count = kDefaultTicks; count >= 1; --count) {
            ticker->setTickCount(count);
            QVector<double> ticks;
            QVector<QString> labels;
            ticker->generate(
                axis->range(), plot->locale(), formatChar, axis->numberPrecision(), ticks, nullptr, &labels);
            int needed = 0;
            for (int i = 0; i < ticks.size() && i < labels.size(); ++i)
                if (axis->range().contains(ticks[i])) {
                    int widest = 0; // a date ticker's labels may have two lines
                    for (const QString &line : labels[i].split(QLatin1Char('\n')))
                        widest = std::max(widest, fm.horizontalAdvance(line));
                    needed += widest + gap;
                }
            if (needed <= width)
                break;
        }
    });
}

QColor runColor(int i)
{
    static const QColor palette[] = { QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
        QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f),
        QColor(0xed, 0xc9, 0x48), QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
        QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac) };
    constexpr int n = int(std::size(palette));
    if (i < n)
        return palette[i];
    return QColor::fromHsv(int((i - n) * 137.508) % 360, 170, 200);
}

QIcon runSwatch(const QColor &color)
{
    constexpr int kSwatchPx = 12;
    QPixmap pm(kSwatchPx, kSwatchPx);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.fillRect(QRect(0, kSwatchPx / 2 - 2, kSwatchPx, 4), color);
    return QIcon(pm);
}

void placeLegendBelow(QCustomPlot *plot)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    const int row = layout->rowCount();
    layout->addElement(row, 0, plot->legend);
    layout->setRowStretchFactor(row, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setMargins(QMargins(4, 2, 4, 6));
    plot->legend->setIconSize(24, 10);
    plot->installEventFilter(new LegendFitter(plot));
}

void fitLegend(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    int count = 0, widest = 1;
    for (int i = 0; i < legend->elementCount(); ++i) // cells of a wrapped grid can be empty
        if (const QCPAbstractLegendItem *item = legend->item(i)) {
            ++count;
            widest = std::max(widest, item->minimumOuterSizeHint().width() + legend->columnSpacing());
        }
    const QMargins m = legend->margins();
    const int columns = std::clamp((plot->width() - m.left() - m.right()) / widest, 1, std::max(1, count));
    if (columns != legend->wrap() || columns >= count) {
        legend->setWrap(columns >= count ? 0 : columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

PartStyle stepTimePartStyle(size_t part)
{
    static const PartStyle styles[] = {
        { QColor(0x4c, 0x9f, 0x70), Qt::SolidPattern }, // device compute
        { QColor(0xd9, 0x82, 0x2b), Qt::BDiagPattern }, // exposed communication
        { QColor(0x3b, 0x75, 0xaf), Qt::CrossPattern }, // exposed memcpy/memset
        { QColor(0x8e, 0x5e, 0xa2), Qt::FDiagPattern }, // input pipeline
        { QColor(0xc0, 0x4b, 0x4b), Qt::DiagCrossPattern }, // synchronisation
        { QColor(0xc9, 0xa2, 0x27), Qt::HorPattern }, // runtime calls
        { QColor(0x8c, 0x6d, 0x46), Qt::VerPattern }, // other CPU work
        { QColor(0x9a, 0x9a, 0x9a), Qt::Dense6Pattern }, // idle
    };
    return styles[std::min(part, std::size(styles) - 1)];
}

} // namespace plumb
