// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/launchstats.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace plumb {

// Per GPU stream, the ops launched and not yet finished over time (StreamQueue's step series, already
// reduced to per-bucket maxima), against time since `originNs` in ms. Streams differ by line style as
// well as colour; the legend gives each stream's max and time-weighted mean. Context menu: export
// PNG/PDF.
class QueueLengthChart final : public QWidget {
    Q_OBJECT
public:
    explicit QueueLengthChart(QWidget *parent = nullptr);

    // `streamIds` maps a stream's track id to its CUDA stream id (absent: unknown).
    void setQueues(
        const std::vector<StreamQueue> &queues, const QHash<qint64, qint64> &streamIds, int64_t originNs);
    [[nodiscard]] int seriesCount() const { return m_series; }
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }

private:
    QCustomPlot *m_plot;
    int m_series = 0;
};

} // namespace plumb
