// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/idlebreakdown.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// One horizontal stacked bar per GPU stream: its idle time between ops split into host wait, kernel
// wait and other (ms; see StreamIdle). Categories differ by pattern as well as colour; each stream's
// label gives its idle total. Context menu: export PNG/PDF.
class IdleBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    explicit IdleBreakdownChart(QWidget *parent = nullptr);

    void setStreams(const std::vector<StreamIdle> &streams);
    [[nodiscard]] int barCount() const { return m_bars; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    int m_bars = 0;
};

// "stream 7", or "stream (unknown)" when the trace does not say.
[[nodiscard]] QString streamLabel(int64_t stream);

} // namespace plumb
