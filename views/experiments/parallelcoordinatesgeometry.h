// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/trialtable.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace plumb {

// The geometry of a parallel-coordinates chart, apart from its drawing so that it can be tested:
// which axes there are, where each run crosses each axis, the brushes and which runs they keep.
//
// Positions are fractions of an axis's height, 0 at the bottom and 1 at the top; NaN where a run has
// no value (its polyline breaks there). A numeric axis (a param whose every value is a number, or a
// metric) spans its runs' min..max, on a log scale when every value is positive and max/min is at
// least kLogRatio (learning rates); a constant one puts every run in the middle. A categorical axis
// (strings, bools, json, numbers mixed with strings) spaces its values evenly, bottom to top, in
// numeric order when they all read as numbers, else alphabetically.
//
// A brush is a position range [lo, hi] on one axis. A run is kept when it lies inside every brush
// (brushes on several axes combine with AND); a run without a value on a brushed axis is not kept.
class ParallelCoordinatesGeometry {
public:
    static constexpr double kLogRatio = 100;

    struct AxisSpec {
        QString key;
        bool metric = false; // a scalar tag's value (by the statistic set), else a param
        bool operator==(const AxisSpec &) const = default;
    };

    struct Axis {
        AxisSpec spec;
        bool categorical = false;
        bool logScale = false;
        double min = 0, max = 0; // numeric: the range of the values
        QStringList categories; // categorical, bottom to top
        std::vector<double> pos; // per run, 0..1 or NaN
        std::optional<std::pair<double, double>> brush; // [lo, hi] in positions
    };

    // Reads the axes from `table`'s runs; brushes on axes that are still there are kept.
    void setData(const TrialTable &table, const QList<AxisSpec> &axes, MetricStatistic statistic);
    // The metric the polylines are coloured by (a tag of the table; empty: none).
    void setColorMetric(const TrialTable &table, const QString &key, MetricStatistic statistic);

    [[nodiscard]] int runCount() const { return m_runs; }
    [[nodiscard]] int axisCount() const { return int(m_axes.size()); }
    [[nodiscard]] const Axis &axis(int i) const { return m_axes[size_t(i)]; }
    // The position of a value on a numeric axis (clamped to 0..1), and back.
    [[nodiscard]] static double valueToPos(const Axis &axis, double value);
    [[nodiscard]] static double posToValue(const Axis &axis, double pos);
    // Tick labels along an axis: (position, text); a numeric axis's min, max and up to `inner` values
    // between, a categorical axis's categories (every k-th when there are more than maxLabels).
    [[nodiscard]] static std::vector<std::pair<double, QString>> ticks(
        const Axis &axis, int inner = 3, int maxLabels = 16);

    // Brushing. lo and hi in either order; a range of zero height clears the axis's brush.
    void setBrush(int axis, double lo, double hi);
    void clearBrush(int axis);
    void clearBrushes();
    [[nodiscard]] bool hasBrushes() const;
    [[nodiscard]] bool kept(int run) const;
    [[nodiscard]] QList<int> keptRuns() const;

    // The colour metric's value of a run as 0..1 over the runs' range (0.5 when constant), NaN
    // where the run has none; and the range itself.
    [[nodiscard]] double colorPos(int run) const;
    [[nodiscard]] const QString &colorMetric() const { return m_colorKey; }
    [[nodiscard]] double colorMin() const { return m_colorMin; }
    [[nodiscard]] double colorMax() const { return m_colorMax; }

    // Pixel mapping: axis i of n spread over [left, left + width] with a half gap at each end; a
    // position to y in [top, top + height] (1 at the top) and back; the axis nearest to x, if
    // within `tolerance` pixels, else -1.
    [[nodiscard]] static double axisX(int axis, int count, double left, double width);
    [[nodiscard]] static double posToY(double pos, double top, double height);
    [[nodiscard]] static double yToPos(double y, double top, double height);
    [[nodiscard]] static int axisNear(double x, int count, double left, double width, double tolerance);

    // The default axes: params whose value is not the same in every run, that at least half the
    // runs have (tags, and strings that differ in every run from 5 runs on, left out); at most
    // `limit` of them, those most runs have first, then numeric ones, then those with most values;
    // in key order.
    [[nodiscard]] static QStringList varyingParams(const TrialTable &table, int limit = kDefaultAxes);
    static constexpr int kDefaultAxes = 8;

private:
    int m_runs = 0;
    std::vector<Axis> m_axes;
    QString m_colorKey;
    std::vector<double> m_color; // per run
    double m_colorMin = 0, m_colorMax = 0;
};

} // namespace plumb
