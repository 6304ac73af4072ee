// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiments/parallelcoordinatesgeometry.h"

#include <QWidget>

class QPainter;

namespace plumb {

// Parallel coordinates drawn with QPainter (QCustomPlot has no per-axis brushing): one vertical axis
// per param or metric of the geometry, one polyline per run coloured by the colour metric (a
// viridis-like ramp, with a colour bar naming its range), runs outside the brushes in light grey
// beneath the others. Drag up or down along an axis to brush a range of it; a click on an axis
// clears its brush, a double click anywhere clears every brush. Hovering shows the nearest run.
//
// The geometry (positions, brushes, which runs are kept) is ParallelCoordinatesGeometry's; this
// class maps it to pixels and paints, and the same painting writes PNG and PDF.
class ParallelCoordinatesChart final : public QWidget {
    Q_OBJECT
public:
    explicit ParallelCoordinatesChart(QWidget *parent = nullptr);

    // Replaces the chart's geometry (brushes included); runNames label runs in tooltips.
    void setGeometryData(const ParallelCoordinatesGeometry &geometry, const QStringList &runNames);
    [[nodiscard]] const ParallelCoordinatesGeometry &geometryData() const { return m_geometry; }
    void setBrush(int axis, double lo, double hi);
    void clearBrushes();

    // The plot area within a widget of `size`: axes spread over it, labels outside.
    [[nodiscard]] QRectF plotRect(QSizeF size) const;
    // PNG (at twice the size) or PDF (vector) by the suffix; false when it cannot be written.
    [[nodiscard]] bool exportTo(const QString &path) const;
    // The ramp's colour at t in 0..1.
    [[nodiscard]] static QColor rampColor(double t);

    QSize sizeHint() const override { return { 720, 420 }; }
    QSize minimumSizeHint() const override { return { 320, 240 }; }

Q_SIGNALS:
    void brushesChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    void paint(QPainter &p, QSizeF size) const;
    int runNear(QPointF point) const;

    ParallelCoordinatesGeometry m_geometry;
    QStringList m_runNames;
    int m_dragAxis = -1; // the axis being brushed
    double m_dragStart = 0; // position where the drag began
    bool m_dragMoved = false;
};

} // namespace plumb
