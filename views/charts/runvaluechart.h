// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// One value per run as horizontal bars, one per run in the order given (top first), each in its run's
// colour and named on the axis with its value, so that names of any length stay readable. The best
// run (as the caller decides it, from the metric's direction) is marked: its name starts with "★ best",
// and its bar is outlined. Context menu: export PNG/PDF.
class RunValueChart final : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString name;
        double value = 0; // NaN: the run has no value (named, no bar)
        QColor color;
    };

    explicit RunValueChart(const QString &exportName, QWidget *parent = nullptr);

    // `best`: index into `bars` of the run to mark, -1 for none; `axisLabel` names the metric and
    // which way it improves.
    void setBars(const std::vector<Bar> &bars, int best, const QString &axisLabel);
    void setTitle(const QString &title);
    [[nodiscard]] int best() const { return m_best; }
    [[nodiscard]] const std::vector<Bar> &bars() const { return m_bars; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    std::vector<Bar> m_bars;
    int m_best = -1;
};

} // namespace plumb
