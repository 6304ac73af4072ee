// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/memorytimeline.h"

#include <QWidget>

class QCustomPlot;
class QCPItemText;
class QCPItemTracer;

namespace plumb {

// One device's memory over time (DeviceMemory::series, already reduced to a few points per bucket):
// allocated as a filled step line, reserved by the caching allocator as a dashed one (when the events report
// it), in the unit that suits the peak (GiB, MiB...), against ms since `originNs`. The allocated peak is
// marked and labelled. Context menu: export PNG/PDF.
class MemoryChart final : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    void setDevice(const DeviceMemory &device, int64_t originNs);
    void clear();
    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    // The peak as marked: ms after the origin and the value in the axis unit.
    [[nodiscard]] QPointF peakMark() const;

private:
    QCustomPlot *m_plot;
    QCPItemTracer *m_peak;
    QCPItemText *m_peakLabel;
};

} // namespace plumb
