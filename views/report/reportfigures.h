// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/reportmodel.h"

#include <QFont>
#include <QString>

#include <functional>

class QPainter;
class QRectF;

namespace plumb {

// Draws a report figure into `target` (page units: points) with the report's chart font.
using ReportFigureRenderer = std::function<void(
    QPainter &painter, const QRectF &target, const ReportFigure &figure, const QFont &font)>;

// The renderers by figure kind, each reusing the chart or view the GUI shows the same data in:
//   steps       std::vector<StepBreakdown>  StepBreakdownChart
//   idle        std::vector<StreamIdle>     IdleBreakdownChart
//   histogram   HistogramFigure             HistogramChart
//   diff        TraceDiff                   DiffCategoryChart
//   steptime-diff TraceDiff                 StepTimeDiffChart
//   importance  ParamImportance             ImportanceChart
//   scalars     ScalarFigure                ScalarChart (runs in their Experiments colours)
//   timeline    TimelineFigure              the timeline's draw list and painter, read synchronously
//   lineage     LineageGraph                the Lineage tab's layout and scene
// registerReportFigureRenderer() adds a kind (or replaces one).
void registerReportFigureRenderer(const QString &kind, const ReportFigureRenderer &renderer);
// The figure's height over its width: the renderer's own for kinds whose shape follows their data (a
// lineage graph's layers and rows), else the figure's aspect.
[[nodiscard]] double reportFigureAspect(const ReportFigure &figure);
// False (and nothing drawn) when no renderer knows the figure's kind.
bool renderReportFigure(
    QPainter &painter, const QRectF &target, const ReportFigure &figure, const QFont &font);

} // namespace plumb
