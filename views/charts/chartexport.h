// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QFont;
class QPainter;
class QRectF;

class QCustomPlot;

namespace plumb {

// Saving a chart as it is drawn: PNG (at twice the on-screen size, so it stays sharp on a review page)
// or PDF (vector), chosen by the file's suffix. Every chart under views/charts offers the same two
// entries in its context menu through installChartExportMenu().

// Writes `plot` to `path` (.png or .pdf, else PNG); false when the file cannot be written.
[[nodiscard]] bool exportChart(QCustomPlot *plot, const QString &path);

// Gives `plot` a context menu "Export PNG…" / "Export PDF…" asking where to save; `baseName` is
// the suggested file name without a suffix ("trace-diff").
void installChartExportMenu(QCustomPlot *plot, const QString &baseName);

// Draws `plot` into `target` of any painter (a PDF page: vector; a page image), laid out for the
// target's size in the painter's units. With `font`, every text of the plot (axes, tick labels,
// legend, titles) is set in it first, so a report's charts share one typography.
void paintChart(QCustomPlot *plot, QPainter &painter, const QRectF &target, const QFont *font = nullptr);

} // namespace plumb
