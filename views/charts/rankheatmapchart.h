// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job/jobview.h"

#include <QWidget>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;

namespace plumb {

// A job's ranks x steps as a heat map: one cell per rank (rows, rank 0 at the top) and step (columns),
// coloured by the metric chosen (step time, exposed communication or input pipeline, ms), missing
// ranks and steps blank, and a ring on each step's straggler (the rank its collectives waited for
// longest). Hovering a cell tells its figures and who the step waited for, how long; a click says which
// rank; context menu: export PNG/PDF.
class RankHeatmapChart final : public QWidget {
    Q_OBJECT
public:
    enum class Metric { StepTime, ExposedCommunication, InputPipeline };

    explicit RankHeatmapChart(QWidget *parent = nullptr);
    void setJob(const JobView &job, Metric metric);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

    // What hovering the cell of `row` (a rank, from the top) and `col` (a step) says; empty outside.
    [[nodiscard]] QString cellText(int row, int col) const;

Q_SIGNALS:
    void rankClicked(int64_t rank);

private:
    void fitRings();

    JobView m_job;
    QCustomPlot *m_plot;
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    QCPGraph *m_stragglers;
    std::vector<int64_t> m_rankOfRow;
};

} // namespace plumb
