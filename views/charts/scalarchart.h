// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

class QCPGraph;
class QCPTextElement;
class QCustomPlot;

namespace plumb {

class LineRaster;

// One run's series on a ScalarChart: one or more parts (a part is a line of its own: the series as
// TensorBoard shows it, or one segment of a restarted series), and where restarts resumed.
struct ScalarLine {
    QString name;
    QColor color;
    struct Part {
        std::vector<double> x; // step, seconds since the series' first point, or epoch seconds
        std::vector<double> y; // NaN/inf where the log had them
    };
    std::vector<Part> parts;
    std::vector<double> restartX; // x where a segment after the first starts: a dashed vertical line
};

// A scalar tag over steps or time for several runs overlaid, each in its colour. With a smoothing
// weight > 0 each part is drawn smoothed with TensorBoard's debiased EMA (debiasedEma) over its raw
// line drawn faint; restarts are dashed vertical lines in the run's colour. The y axis may be log
// scaled (values <= 0 are then gaps). The raw points stay in memory; what QCustomPlot gets is each
// line reduced to at most four points per pixel column of the visible x range (decimateMinMax),
// recomputed before a replot whenever the range, the width, the smoothing or the scale changed, so
// a million points per line redraw in milliseconds. Drag and wheel pan and zoom x (y follows the
// data shown); a double click fits everything. Context menu: export PNG/PDF.
class ScalarChart final : public QWidget {
    Q_OBJECT
public:
    enum class XKind { Step, RelativeTime, WallTime };

    explicit ScalarChart(const QString &exportName, QWidget *parent = nullptr);
    ~ScalarChart() override;

    void setTitle(const QString &title);
    [[nodiscard]] QString title() const { return m_title; }
    void setLines(std::vector<ScalarLine> lines, XKind xKind);
    void clear();
    // 0 (raw only) .. <1; TensorBoard's default is 0.6.
    void setSmoothing(double weight);
    [[nodiscard]] double smoothing() const { return m_weight; }
    void setLogY(bool log);
    [[nodiscard]] bool logY() const { return m_logY; }
    void setLegendVisible(bool visible);
    // Fits both axes to every point.
    void fitAll();

    [[nodiscard]] QCustomPlot *plot() const { return m_plot; }
    [[nodiscard]] int lineCount() const { return int(m_lines.size()); }
    [[nodiscard]] const ScalarLine &line(int i) const { return m_lines[size_t(i)].line; }
    [[nodiscard]] int restartMarkerCount() const;
    // Points of line i's part p: as given, and as last handed to QCustomPlot (raw / smoothed graph).
    [[nodiscard]] int rawPointCount(int i, int p = 0) const;
    [[nodiscard]] int drawnPointCount(int i, int p = 0, bool smoothed = false) const;
    [[nodiscard]] const std::vector<double> &smoothedY(int i, int p = 0) const;
    [[nodiscard]] bool smoothedShown() const { return m_weight > 0; }
    // The points last handed to QCustomPlot for line i's part p, as (x, y).
    [[nodiscard]] std::vector<std::pair<double, double>> drawnPoints(
        int i, int p = 0, bool smoothed = false) const;
    // Shows [from, to] of x (decimated again at the next replot) / the x range shown.
    void setXRange(double from, double to);
    [[nodiscard]] std::pair<double, double> xRange() const;
    // The width of the plotting area in pixels (the decimation's columns).
    [[nodiscard]] int plotWidthPx() const;
    // Replots now, decimating first when the range, width, smoothing or scale changed: a frame.
    void redraw();
    // Decimates whatever changed or not, and replots now.
    void replotNow();

    // How many points each pixel column of a line may keep (first, min, max, last).
    static constexpr int kPointsPerColumn = 4;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct PartState {
        std::vector<double> smoothed;
        QCPGraph *raw = nullptr;
        QCPGraph *smooth = nullptr;
    };
    struct LineState {
        ScalarLine line;
        std::vector<PartState> parts;
    };
    void rebuildGraphs();
    void restyle();
    void decimate(bool force);
    void fitY(double xFrom, double xTo);
    void setupXAxis();

    QCustomPlot *m_plot;
    QCPTextElement *m_titleElement;
    LineRaster *m_raster;
    QString m_title;
    std::vector<LineState> m_lines;
    XKind m_xKind = XKind::Step;
    double m_weight = 0;
    bool m_logY = false;
    // What the data in the graphs was decimated for.
    double m_lastFrom = 0, m_lastTo = -1;
    int m_lastColumns = -1;
    bool m_dirty = true;
    bool m_fittingY = false;
};

} // namespace plumb
