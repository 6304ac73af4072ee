// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tracediff.h"

#include <QColor>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// A trace diff's change of step time (B − A, ms per step) as horizontal bars: the step time first,
// then its eight parts largest change first (TraceDiff::stepComponents), each named on the axis with
// its signed change, so the figures stay readable at any width. Bars right of zero are time B spends
// more. Parts differ by pattern as well as colour; device parts have the colours of the GPU window's
// categories in the other charts. Without step time on both sides the chart says so. Context menu:
// export PNG/PDF.
class StepTimeDiffChart final : public QWidget {
    Q_OBJECT
public:
    explicit StepTimeDiffChart(QWidget *parent = nullptr);

    void setDiff(const TraceDiff &diff);
    void clear();
    // The bars' values (ms per step), the step time first, then the parts as shown; empty when cleared
    // or without step time.
    [[nodiscard]] const std::vector<double> &valuesMs() const { return m_valuesMs; }
    // The bars' names, in the same order.
    [[nodiscard]] const QStringList &names() const { return m_names; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    std::vector<double> m_valuesMs;
    QStringList m_names;
};

} // namespace plumb
