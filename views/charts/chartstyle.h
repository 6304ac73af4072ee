#pragma once

class QCustomPlot;

namespace plumb {

// Puts `plot`'s legend in a borderless row below everything else in its layout, entries side by side
// in as many columns as fit the plot's width (refitted on resize), so that it hides no data and
// takes no plot width.
void placeLegendBelow(QCustomPlot *plot);

// Refits the legend's columns to the plot's width: call after adding or renaming legend entries.
void fitLegend(QCustomPlot *plot);

} // namespace plumb
