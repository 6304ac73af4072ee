// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QImage>

namespace plumb {

// Where the dense lines of a chart are drawn: one image the size of the axis rect, on a layer of its
// own just above "main", that RasterGraphs draw into during a replot and that is drawn onto the
// plot once, after them. Hundreds of overlaid lines of thousands of points then cost one pass over
// their pixels instead of a QPainter polyline each (the raster engine's per-segment setup is what
// made a 100-run chart take 130 ms a frame).
class LineRaster final : public QCPLayerable {
public:
    explicit LineRaster(QCustomPlot *plot);

    // The canvas for `rect` (the axis rect, in widget pixels) at `dpr` device pixels per widget
    // pixel, transparent at the first use of a replot.
    [[nodiscard]] QImage &canvas(const QRect &rect, qreal dpr);

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override; // draws the canvas, then clears it for the next replot
    [[nodiscard]] QRect clipRect() const override;

private:
    QImage m_image;
    QRect m_rect;
    bool m_used = false;
};

// A QCPGraph whose plain 1-px lines go into a LineRaster when it is drawn on screen (a non-scaling
// painter that is no vector export); scatter styles, wider pens, other line styles and PDF export
// draw as QCPGraph does. On a high-DPI screen the canvas has the screen's device pixels and a line
// is as many of them wide as QPainter's 1-px pen would be, so lines stay sharp. Pixels are set, not blended:
// callers give opaque pens (a faint line is a lighter opaque colour). Segments are clipped to the axis rect;
// a NaN value is a gap.
class RasterGraph final : public QCPGraph {
public:
    RasterGraph(QCPAxis *keyAxis, QCPAxis *valueAxis, LineRaster *raster);

    // Whether the last draw went into the raster (for tests).
    [[nodiscard]] bool drewRastered() const { return m_rastered; }

protected:
    void draw(QCPPainter *painter) override;

private:
    LineRaster *m_raster;
    bool m_rastered = false;
};

} // namespace plumb
