#pragma once

#include <QString>

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

} // namespace plumb
