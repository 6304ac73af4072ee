// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/rastergraph.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace plumb {

namespace {

const QString kLayer = QStringLiteral("rasterlines");

// Liang-Barsky: clips the segment to [0, w) x [0, h) (as doubles); false when nothing is left.
bool clip(double &x0, double &y0, double &x1, double &y1, double w, double h)
{
    double t0 = 0, t1 = 1;
    const double dx = x1 - x0, dy = y1 - y0;
    const double p[4] = { -dx, dx, -dy, dy };
    const double q[4] = { x0, w - 1 - x0, y0, h - 1 - y0 };
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    const double ox = x0, oy = y0;
    x0 = ox + t0 * dx;
    y0 = oy + t0 * dy;
    x1 = ox + t1 * dx;
    y1 = oy + t1 * dy;
    return true;
}

// The pixel of a coordinate already clipped into the image: the one it falls in, as QPainter's
// aliased lines place it (no libm call in the per-pixel loop).
int pixel(double v)
{
    return int(v);
}

// The image a line is drawn into: its pixels, and how many device pixels wide a line is.
struct Canvas {
    uint32_t *bits;
    qsizetype stride;
    int width, height;
    int pen; // 1, or 2 on a 2x screen
    uint32_t argb;

    // Sets the pen's square at a pixel inside the image (down and right of it, as QPainter's
    // aliased wide pen falls).
    void dot(int x, int y) const
    {
        const int x1 = std::min(x + pen, width), y1 = std::min(y + pen, height);
        for (int yy = y; yy < y1; ++yy)
            for (int xx = x; xx < x1; ++xx)
                bits[yy * stride + xx] = argb;
    }
};

// Sets the pixels of a segment already clipped into the image, stepping along its longer axis.
void drawSegment(const Canvas &c, double fx0, double fy0, double fx1, double fy1)
{
    const int x0 = pixel(fx0), y0 = pixel(fy0), x1 = pixel(fx1), y1 = pixel(fy1);
    const int n = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    if (n == 0) {
        c.dot(x0, y0);
        return;
    }
    const double sx = double(x1 - x0) / n, sy = double(y1 - y0) / n;
    for (int i = 0; i <= n; ++i)
        c.dot(pixel(x0 + sx * i), pixel(y0 + sy * i));
}

} // namespace

LineRaster::LineRaster(QCustomPlot *plot)
    : QCPLayerable(plot)
{
    if (!plot->layer(kLayer))
        plot->addLayer(kLayer, plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    setLayer(kLayer);
}

QImage &LineRaster::canvas(const QRect &rect, qreal dpr)
{
    const QSize size(qRound(rect.width() * dpr), qRound(rect.height() * dpr));
    if (size != m_image.size() || dpr != m_image.devicePixelRatio()) {
        m_image = QImage(size, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(dpr);
        m_image.fill(Qt::transparent);
    }
    m_rect = rect;
    m_used = true;
    return m_image;
}

void LineRaster::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    painter->setAntialiasing(false);
}

QRect LineRaster::clipRect() const
{
    return m_rect.isValid() ? m_rect : QCPLayerable::clipRect();
}

void LineRaster::draw(QCPPainter *painter)
{
    if (!m_used)
        return;
    painter->drawImage(m_rect.topLeft(), m_image);
    m_image.fill(Qt::transparent);
    m_used = false;
}

RasterGraph::RasterGraph(QCPAxis *keyAxis, QCPAxis *valueAxis, LineRaster *raster)
    : QCPGraph(keyAxis, valueAxis)
    , m_raster(raster)
{
}

void RasterGraph::draw(QCPPainter *painter)
{
    QCPAxis *k = keyAxis(), *v = valueAxis();
    m_rastered = m_raster && k && v && k->orientation() == Qt::Horizontal && lineStyle() == lsLine
        && scatterStyle().isNone() && pen().style() == Qt::SolidLine && pen().widthF() <= 1
        && pen().color().alpha() == 255 && !painter->modes().testFlag(QCPPainter::pmVectorized)
        && !painter->transform().isScaling() && mDataContainer->size() > 1;
    if (!m_rastered) {
        QCPGraph::draw(painter);
        return;
    }
    const QRect rect = clipRect();
    if (rect.isEmpty())
        return;
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    QImage &img = m_raster->canvas(rect, dpr);
    // Device pixels from here on: a widget pixel is dpr of them, and so is the pen.
    const Canvas canvas { reinterpret_cast<uint32_t *>(img.bits()), img.bytesPerLine() / 4, img.width(),
        img.height(), std::max(1, int(std::lround(dpr))),
        pen().color().rgba() }; // opaque: premultiplied is the same
    const double left = rect.left(), top = rect.top();
    // The key axis is linear here (steps, seconds): map by two points instead of per call.
    const QCPRange kr = k->range();
    const double k0 = k->coordToPixel(kr.lower), k1 = k->coordToPixel(kr.upper);
    const double kScale = kr.size() != 0 ? (k1 - k0) / kr.size() : 0;
    const bool linearKey = k->scaleType() == QCPAxis::stLinear;
    const bool linearValue = v->scaleType() == QCPAxis::stLinear;
    const QCPRange vr = v->range();
    const double v0 = v->coordToPixel(vr.lower), v1 = v->coordToPixel(vr.upper);
    const double vScale = vr.size() != 0 ? (v1 - v0) / vr.size() : 0;
    const double w = img.width(), h = img.height();

    // One vertical span per pixel column: the column's lowest to highest point, widened to the
    // midpoints towards its neighbours' nearest points, which is what a 1-px polyline through the
    // points covers. Points further apart than one column are joined by a clipped line instead.
    bool open = false;
    double col = 0, lo = 0, up = 0, lastX = 0, lastY = 0;
    auto flush = [&] {
        if (!open || !(col >= 0 && col < w))
            return;
        const double a = std::max(lo, 0.0), b = std::min(up, h - 1);
        if (a > b)
            return; // above or below the rect
        if (canvas.pen == 1) { // the common case, kept to one store a pixel
            uint32_t *p = canvas.bits + int(col);
            for (int y = pixel(a), end = pixel(b); y <= end; ++y)
                p[y * canvas.stride] = canvas.argb;
        } else {
            for (int y = pixel(a), end = pixel(b); y <= end; ++y)
                canvas.dot(int(col), y);
        }
    };
    for (auto it = mDataContainer->constBegin(); it != mDataContainer->constEnd(); ++it) {
        const double x
            = ((linearKey ? k0 + (it->key - kr.lower) * kScale : k->coordToPixel(it->key)) - left) * dpr;
        const double y
            = ((linearValue ? v0 + (it->value - vr.lower) * vScale : v->coordToPixel(it->value)) - top) * dpr;
        if (!std::isfinite(x) || !std::isfinite(y)) { // a gap (NaN, or <= 0 on a log axis)
            flush();
            open = false;
            continue;
        }
        const double c = std::floor(x);
        if (open && c == col) {
            lo = std::min(lo, y);
            up = std::max(up, y);
        } else if (open && c == col + 1) {
            const double mid = (lastY + y) / 2;
            lo = std::min(lo, mid);
            up = std::max(up, mid);
            flush();
            col = c;
            lo = std::min(mid, y);
            up = std::max(mid, y);
        } else {
            flush();
            if (open) {
                double ax = lastX, ay = lastY, bx = x, by = y;
                if (clip(ax, ay, bx, by, w, h))
                    drawSegment(canvas, ax, ay, bx, by);
            }
            open = true;
            col = c;
            lo = up = y;
        }
        lastX = x;
        lastY = y;
    }
    flush();
}

} // namespace plumb
