// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"

#include <QWidget>

class QCustomPlot;

namespace plumb {

// Goodput over time: per window of the job (GoodputReport::windows), the share of its time that was
// productive training, and of the time resources were there (runtime goodput), in %; the job's
// overall goodput as a dashed line. Context menu: export PNG/PDF.
class GoodputTrendChart final : public QWidget {
    Q_OBJECT
public:
    explicit GoodputTrendChart(QWidget *parent = nullptr);
    void setReport(const GoodputReport &report);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
};

} // namespace plumb
