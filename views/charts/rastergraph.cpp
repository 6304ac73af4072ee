#include "rastergraph.h"

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

// Sets the pixels of a segment already clipped into the image, stepping along its longer axis.
void drawSegment(uint32_t *bits, qsizetype stride, double fx0, double fy0, double fx1, double fy1, uint32_t argb)
{
    const int x0 = pixel(fx0), y0 = pixel(fy0), x1 = pixel(fx1), y1 = pixel(fy1);
    const int n = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
    if (n == 0) {
        bits[y0 * stride + x0] = argb;
        return;
    }
    const double sx = double(x1 - x0) / n, sy = double(y1 - y0) / n;
    for (int i = 0; i <= n; ++i)
        bits[pixel(y0 + sy * i) * stride + pixel(x0 + sx * i)] = argb;
}

} // namespace

LineRaster::LineRaster(QCustomPlot *plot)
    : QCPLayerable(plot)
{
    if (!plot->layer(kLayer))
        plot->addLayer(kLayer, plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    setLayer(kLayer);
}

QImage &LineRaster::canvas(const QRect &rect)
{
    if (rect.size() != m_image.size()) {
        m_image = QImage(rect.size(), QImage::Format_ARGB32_Premultiplied);
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
    QImage &img = m_raster->canvas(rect);
    const uint32_t argb = pen().color().rgba(); // opaque: premultiplied is the same
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
    uint32_t *bits = reinterpret_cast<uint32_t *>(img.bits());
    const qsizetype stride = img.bytesPerLine() / 4;
    bool open = false;
    double col = 0, lo = 0, up = 0, lastX = 0, lastY = 0;
    auto flush = [&] {
        if (!open || !(col >= 0 && col < w))
            return;
        const double a = std::max(lo, 0.0), b = std::min(up, h - 1);
        if (a > b)
            return; // above or below the rect
        uint32_t *p = bits + int(col);
        for (int y = pixel(a), end = pixel(b); y <= end; ++y)
            p[y * stride] = argb;
    };
    for (auto it = mDataContainer->constBegin(); it != mDataContainer->constEnd(); ++it) {
        const double x = (linearKey ? k0 + (it->key - kr.lower) * kScale : k->coordToPixel(it->key)) - left;
        const double y = (linearValue ? v0 + (it->value - vr.lower) * vScale : v->coordToPixel(it->value)) - top;
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
                    drawSegment(bits, stride, ax, ay, bx, by, argb);
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
