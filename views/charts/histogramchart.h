// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/histogram.h"

#include <QWidget>

#include <cstdint>
#include <utility>
#include <vector>

class QCustomPlot;
class QCPTextElement;

namespace plumb {

// A histogram of times (ns) as a filled step outline, one step per bin, so log-spaced bins keep
// their true widths on a log axis. The time axis is in the unit that suits the largest edge (ns, µs
// or ms) and says whether it is log scaled; the count axis counts ops. Markers (p50, p90...) are
// dashed vertical lines named in the legend below the plot with their values; a title too long for
// the width is elided. Context menu: export PNG/PDF.
class HistogramChart final : public QWidget {
    Q_OBJECT
public:
    using Marker = std::pair<QString, int64_t>; // name, ns

    explicit HistogramChart(const QString &exportName, QWidget *parent = nullptr);

    // `quantity` names the time ("GPU duration"); `title` goes above the plot.
    void setHistogram(const Histogram &histogram, const QString &quantity, const QString &title,
        const std::vector<Marker> &markers = {});
    // Shows `message` in place of a histogram.
    void clear(const QString &message);
    // What the count axis counts ("ops" unless set).
    void setCountLabel(const QString &label);

    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    [[nodiscard]] const Histogram &histogram() const { return m_histogram; }
    [[nodiscard]] QString title() const;
    [[nodiscard]] QString timeAxisLabel() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elideTitle();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QString m_fullTitle; // shown elided to the plot's width
    Histogram m_histogram;
};

// The unit that suits a time axis whose values reach `maxNs`: {divisor, unit name}.
[[nodiscard]] std::pair<double, QString> timeAxisUnit(double maxNs);

} // namespace plumb
