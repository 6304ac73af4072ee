// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;

namespace plumb {

// Points (x, y) on two numeric axes: a query's two chosen columns, or a metric against a param, one
// point per run. Points are drawn as discs (each in its own colour when colours are given), joined
// in x order when `connected`; one point may be marked (a ring around it and its label, e.g. the best
// run). Axes fit the data with a margin. Context menu: export PNG/PDF.
class XYChart final : public QWidget {
    Q_OBJECT
public:
    static constexpr double kLogSpan = 100;

    struct Series {
        QVector<double> x, y;
        QList<QColor> colors; // per point; empty: one colour for all
        QStringList labels; // per point (a run's name); only the marked point's is drawn; may be empty
        int marked = -1; // the point ringed, -1 for none
        QString markedText; // what the ring means ("best")
        bool connected = false;
        // A logarithmic x axis when every x is positive and they span kLogSpan or more (a learning rate).
        bool logXWhenWide = false;
    };

    explicit XYChart(const QString &exportName, QWidget *parent = nullptr);

    void setSeries(const Series &series, const QString &xLabel, const QString &yLabel);
    void setTitle(const QString &title);
    void clear(const QString &message = {});
    [[nodiscard]] int pointCount() const { return int(m_series.x.size()); }
    [[nodiscard]] const Series &series() const { return m_series; }
    [[nodiscard]] bool isLogX() const;
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    Series m_series;
    QString m_title;
};

} // namespace plumb
