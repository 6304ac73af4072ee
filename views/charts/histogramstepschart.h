// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/histogramstepsgeometry.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <array>
#include <optional>
#include <vector>

class QCPAbstractPlottable;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;

namespace plumb {

// One run's histograms of the tag charted, by step. Where a step is lower than the one before, a
// restarted segment begins (the Every segment view): distribution bands break there.
struct HistogramRun {
    QString name;
    QColor color;
    std::vector<StepHistogram> histograms;
};

// One histogram tag over steps, for one or more runs each in its colour, as TensorBoard draws it:
//  - Offset ("ridge"): each step's histogram a curve (count per bin, HistogramStepsGeometry's
//    re-binning) raised above its baseline on a reversed step axis, the first step at the back
//    (top), the latest in front (bottom), each curve filled so that it hides the older ones behind;
//  - Overlay: every curve on one count axis, older steps lighter, the latest in the run's full colour;
//  - Distribution: over steps, the nine distributionBands() as filled bands between symmetric pairs
//    (min..max, 6.68..93.32, 15.87..84.13, 30.85..69.15 percentiles, darker inwards) and the median
//    as a line, as TensorBoard's Distributions tab.
// Ridge and overlay draw at most kMaxCurves steps per run, evenly spaced, first and last kept (the
// note under the title says so); the distribution uses every step. Histograms with no counts are
// not drawn. Drag and wheel pan and zoom x, a double click fits everything, hovering names the
// step under the cursor. Context menu: export PNG/PDF.
class HistogramStepsChart final : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Offset, Overlay, Distribution };
    static constexpr size_t kMaxCurves = 60;

    explicit HistogramStepsChart(const QString &exportName, QWidget *parent = nullptr);
    ~HistogramStepsChart() override;

    void setTitle(const QString &title);
    [[nodiscard]] QString title() const { return m_title; }
    void setRuns(std::vector<HistogramRun> runs);
    void clear();
    void setMode(Mode mode);
    [[nodiscard]] Mode mode() const { return m_mode; }

    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    [[nodiscard]] int runCount() const { return int(m_runs.size()); }
    [[nodiscard]] const HistogramRun &run(int i) const { return m_runs[size_t(i)].run; }
    // Run i's histograms with counts (indices into run(i).histograms): what the distribution draws.
    [[nodiscard]] const std::vector<size_t> &drawable(int i) const { return m_runs[size_t(i)].drawable; }
    // Run i's histograms drawn as curves by ridge and overlay (indices into run(i).histograms).
    [[nodiscard]] const std::vector<size_t> &curves(int i) const { return m_runs[size_t(i)].curves; }
    // The bins the curves were re-binned to (ridge and overlay).
    [[nodiscard]] const EqualBins &bins() const { return m_bins; }
    [[nodiscard]] const RidgeLayout &ridge() const { return m_ridge; }
    // The line under the title (what was subsampled, how the bands read).
    [[nodiscard]] QString note() const { return m_noteText; }
    // The nine band values drawn for run i at `step` in Distribution mode (the first such point of
    // its segments), read back from the graphs; none in other modes or where nothing is drawn.
    [[nodiscard]] std::optional<std::array<double, 9>> drawnBands(int run, int64_t step) const;
    // What hovering at `pos` (widget pixels) shows.
    [[nodiscard]] QString toolTipAt(QPointF pos) const;
    // Fits both axes to everything drawn.
    void fitAll();
    // PNG (at twice the size) or PDF by the suffix; false when it cannot be written.
    [[nodiscard]] bool exportTo(const QString &path) const;

    QSize sizeHint() const override { return { 720, 480 }; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct RunState {
        HistogramRun run;
        std::vector<size_t> drawable;
        std::vector<size_t> curves;
        std::vector<std::array<QCPGraph *, 9>> bands; // per segment part, Distribution mode
    };
    void rebuild();
    void buildCurves();
    void buildDistribution();
    void updateLegend(const std::vector<QCPAbstractPlottable *> &named);

    QCustomPlot *m_plot;
    QCPTextElement *m_titleElement;
    QCPTextElement *m_noteElement;
    QString m_title;
    QString m_noteText;
    Mode m_mode = Mode::Offset;
    std::vector<RunState> m_runs;
    EqualBins m_bins;
    RidgeLayout m_ridge;
    double m_maxCount = 0; // the tallest bin of every curve
};

} // namespace plumb
