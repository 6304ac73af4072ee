#pragma once

#include "goodput.h"

#include <QWidget>

class QCustomPlot;

namespace plumb {

// Where a job's time went as one 100% stacked bar: productive training first, then each badput
// bucket that has time, largest first; the legend below names each with its share. Context menu:
// export PNG/PDF.
class GoodputBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    explicit GoodputBreakdownChart(QWidget *parent = nullptr);
    void setReport(const GoodputReport &report);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
};

} // namespace plumb
