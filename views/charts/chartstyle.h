// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QIcon>

class QCustomPlot;

namespace plumb {

// Puts `plot`'s legend in a borderless row below everything else in its layout, entries side by side
// in as many columns as fit the plot's width (refitted on resize), so that it hides no data and
// takes no plot width.
void placeLegendBelow(QCustomPlot *plot);

// The colour of the i-th selected run on every Experiments page: Tableau 10, then hues a golden
// angle apart, so that a run keeps its colour from the Scalars page to the Histograms page.
[[nodiscard]] QColor runColor(int i);

// A short thick line in `color`, for lists that name the runs of a chart (12 px square).
[[nodiscard]] QIcon runSwatch(const QColor &color);

// Gives `plot` the colours of its palette (background, axes, tick labels, grid, legend and title text) and
// gives them again whenever the palette changes (View > Theme), so charts read in light and dark alike.
void followPalette(QCustomPlot *plot);

// Before every replot, lowers the tick count of `plot`'s bottom axis (from QCustomPlot's 5) until its
// tick labels fit the axis width side by side with a gap between them: a narrow histogram or scalar
// chart otherwise draws "1930 1932.5 1935 1937.5" over each other. Text tickers (one label per bar)
// are left as they are.
void spaceTickLabels(QCustomPlot *plot);

// Refits the legend's columns to the plot's width: call after adding or renaming legend entries.
void fitLegend(QCustomPlot *plot);

// How the i-th part of step time (stepTimeParts() order: compute, exposed communication, exposed
// memcpy/memset, input pipeline, synchronisation, runtime calls, other CPU work, idle) is drawn
// wherever it is: a colour and a pattern, so the parts differ without colour too. The first three
// and idle are also the GPU window's computation, exposed communication, exposed memcpy/memset and idle.
struct PartStyle {
    QColor color;
    Qt::BrushStyle pattern;
};
[[nodiscard]] PartStyle stepTimePartStyle(size_t part);

} // namespace plumb
