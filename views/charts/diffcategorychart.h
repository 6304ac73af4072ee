// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tracediff.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// A trace diff's change of the GPU window (B − A, ms, per step when the diff is per step) as
// horizontal bars: the window first, then the categories it splits into exactly (computation,
// exposed communication, exposed memcpy/memset, idle), each named on the axis with its signed
// change, so the figures stay readable at any width. Bars right of zero are time B spends more.
// Categories differ by pattern as well as colour, the same as in StepBreakdownChart. Context menu:
// export PNG/PDF.
class DiffCategoryChart final : public QWidget {
    Q_OBJECT
public:
    explicit DiffCategoryChart(QWidget *parent = nullptr);

    void setDiff(const TraceDiff &diff);
    void clear();
    // The bars' values (ms), window first; empty when cleared.
    [[nodiscard]] const std::vector<double> &valuesMs() const { return m_valuesMs; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    std::vector<double> m_valuesMs;
};

} // namespace plumb
