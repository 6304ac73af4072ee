#pragma once

#include "stepbreakdown.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// One stacked bar per training step: its GPU window split into computation, exposed communication,
// exposed memcpy/memset and idle (ms). Fed already-reduced data; categories differ by pattern as well
// as colour. Context menu: export PNG/PDF.
class StepBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownChart(QWidget *parent = nullptr);

    void setSteps(const std::vector<StepBreakdown> &steps);
    [[nodiscard]] int barCount() const { return m_bars; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    int m_bars = 0;
};

} // namespace plumb
