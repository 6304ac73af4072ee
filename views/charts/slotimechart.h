// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <cmath>
#include <vector>

class QCustomPlot;
class QCPTextElement;

namespace plumb {

// Percentiles of a serving quantity over time: a line per percentile over windows (x: wall time),
// the objective's threshold as a dashed horizontal line, and the windows that broke it shaded.
// Context menu: export PNG/PDF.
class SloTimeChart final : public QWidget {
    Q_OBJECT
public:
    struct Line {
        QString name; // "p90"
        std::vector<double> xS; // window starts, epoch seconds
        std::vector<double> y;
    };
    struct Band {
        double fromS = 0, toS = 0; // a broken window, epoch seconds
    };

    explicit SloTimeChart(const QString &exportName, QWidget *parent = nullptr);

    void setData(const QString &title, const QString &yLabel, const std::vector<Line> &lines,
        double threshold, const QString &thresholdName, const std::vector<Band> &broken);
    void clear(const QString &message);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    [[nodiscard]] int bands() const { return m_bands; }

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    int m_bands = 0;
};

} // namespace plumb
