// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/stepbreakdown.h"
#include "analysis/steptime.h"

#include <QVector>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// One stacked bar per training step, in one of two views: its step time (wall time, split into the
// eight parts of steptime.h) or its GPU window (computation, exposed communication, exposed
// memcpy/memset and idle), in ms. A trace without steps gets one bar for its whole GPU window
// (`whole`), so the chart never stands empty beside a verdict about that window. Fed already-reduced
// data; categories differ by pattern as well as colour (stepTimePartStyle()); step numbers are
// labelled at a stride that keeps them apart at the chart's width. Context menu: export PNG/PDF.
class StepBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget *parent = nullptr);

    // The GPU window view.
    void setSteps(const std::vector<StepBreakdown> &steps, const TemporalBreakdown &whole = {});
    // The step time view (`steps` empty: the GPU window view of `whole`).
    void setStepTimes(const StepTimeBreakdown &steps, const TemporalBreakdown &whole = {});
    [[nodiscard]] int barCount() const { return m_bars; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    struct Category {
        QString name;
        size_t style; // stepTimePartStyle()
        std::vector<double> ms; // one per bar
    };
    void draw(
        const std::vector<Category> &categories, const QString &yLabel, const QString &xLabel, bool steps);
    void labelBars();

    QCustomPlot *m_plot;
    int m_bars = 0;
    QVector<QString> m_labels; // one per bar, bar i at key i + 1
};

} // namespace plumb
