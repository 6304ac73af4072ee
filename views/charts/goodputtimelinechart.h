// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/goodput.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// A job's lifecycle as one band over its span: productive training in green, each badput bucket in
// its colour (provisioning, init, startup, checkpoints, data loading, wasted progress, recovery...),
// with the attempt starts, interruptions and the job's end as labelled vertical lines. Stretches
// narrower than kMinSegmentShare of the span are folded into one that takes the colour of what
// filled most of it, so a job of 100,000 steps draws a few hundred rectangles. Context menu: export.
class GoodputTimelineChart final : public QWidget {
    Q_OBJECT
public:
    static constexpr double kMinSegmentShare = 1.0 / 1500;

    explicit GoodputTimelineChart(QWidget *parent = nullptr);
    void setReport(const GoodputReport &report);
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    [[nodiscard]] int drawnSegments() const { return m_drawn; }

private:
    QCustomPlot *m_plot;
    int m_drawn = 0;
};

// `segments` with every stretch shorter than `minNs` folded into its neighbours: a run of short
// stretches becomes stretches of about minNs, each of the category that held most of its time.
[[nodiscard]] std::vector<GoodputSegment> foldSegments(
    const std::vector<GoodputSegment> &segments, int64_t minNs);

} // namespace plumb
