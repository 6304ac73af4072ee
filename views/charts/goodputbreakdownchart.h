// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"

#include <QWidget>

class QCustomPlot;

namespace plumb {

// Where a job's time went as one 100% stacked bar: productive training first, then each badput
// bucket that has time, largest first, in the colours of the Goodput tab's table; a part of at least
// kMinLabelledShare is labelled with its share, of kMinNamedShare with its name too. Context menu: export
// PNG/PDF.
class GoodputBreakdownChart final : public QWidget {
    Q_OBJECT
public:
    static constexpr double kMinLabelledShare = 0.04;
    static constexpr double kMinNamedShare = 0.25;

    explicit GoodputBreakdownChart(QWidget *parent = nullptr);
    void setReport(const GoodputReport &report);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
};

} // namespace plumb
