// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/stepbreakdown.h"

#include <QVector>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// One stacked bar per training step: its GPU window split into computation, exposed communication,
// exposed memcpy/memset and idle (ms). A trace without steps gets one bar for its whole GPU window
// (`whole`), so the chart never stands empty beside a verdict about that window. Fed already-reduced
// data; categories differ by pattern as well as colour; step numbers are labelled at a stride that
// keeps them apart at the chart's width. Context menu: export PNG/PDF.
class StepBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget *parent = nullptr);

    void setSteps(const std::vector<StepBreakdown> &steps, const TemporalBreakdown &whole = {});
    [[nodiscard]] int barCount() const { return m_bars; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    void labelBars();

    QCustomPlot *m_plot;
    int m_bars = 0;
    QVector<QString> m_labels; // one per bar, bar i at key i + 1
};

} // namespace plumb
