// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinefetcher.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinepalette.h"
#include "timeline/timelinequery.h"
#include "timeline/timescale.h"

#include <QFont>
#include <QHash>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <optional>
#include <vector>

namespace plumb {

// Where things sit in a timeline frame, in widget pixels: the label gutter on the left, the ruler
// and the step band on top, the tracks below them (scrolled by scrollY), a scroll bar on the right.
struct TimelineGeometry {
    QSizeF size;
    double gutterPx = 200;
    double rulerPx = 24;
    double stepsPx = 18;
    double scrollbarPx = 0;
    double scrollY = 0; // content y shown at the top of the tracks area

    [[nodiscard]] double timeLeft() const { return gutterPx; }
    [[nodiscard]] double timeWidth() const { return std::max(1.0, size.width() - gutterPx - scrollbarPx); }
    [[nodiscard]] double timeRight() const { return timeLeft() + timeWidth(); }
    [[nodiscard]] double tracksTop() const { return rulerPx + stepsPx; }
    [[nodiscard]] double tracksHeight() const { return std::max(0.0, size.height() - tracksTop()); }
    [[nodiscard]] QRectF tracksRect() const
    {
        return { timeLeft(), tracksTop(), timeWidth(), tracksHeight() };
    }
    [[nodiscard]] QRectF rulerRect() const { return { timeLeft(), 0, timeWidth(), rulerPx }; }
    [[nodiscard]] QRectF stepsRect() const { return { timeLeft(), rulerPx, timeWidth(), stepsPx }; }
    // Content y (row coordinates) <-> widget y.
    [[nodiscard]] double toWidgetY(double contentY) const { return contentY - scrollY + tracksTop(); }
    [[nodiscard]] double toContentY(double widgetY) const { return widgetY - tracksTop() + scrollY; }
};

// A slice shown somewhere on the timeline, for the selection outline and flow arrows.
struct TimelineMark {
    int trackIndex = -1;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int depth = 0;
};

// Everything one frame shows; the inputs of TimelineDrawList::build(). Pointers are not owned and
// may be null (nothing of that kind is drawn).
struct TimelineFrame {
    const TimelineLayout *layout = nullptr;
    const TimelineWindow *window = nullptr;
    const std::vector<std::pair<double, double>> *counterRanges = nullptr; // by track index
    const std::vector<StepMarker> *steps = nullptr;
    const NameMatcher *matcher = nullptr; // search: matching slices are flagged
    TimeScale scale;
    TimelineGeometry geometry;
    int64_t originNs = 0; // the ruler's zero
    TimelinePalette palette = TimelinePalette::light();
    QFont font;
    std::optional<TimelineMark> selected;
    struct Link {
        TimelineMark mark;
        bool outgoing = true; // arrow from the selected slice to the mark
    };
    std::vector<Link> links;
    std::optional<std::pair<int64_t, int64_t>> range; // selected time range [from, to)
    std::optional<QRectF> rubberBand; // a box select in progress (widget pixels)
};

// The compact list of what one frame draws, in widget pixels: built from the fetched window for the
// visible rows and time, it holds only what lands on screen (so its size follows the pixels, not
// the events) and is all TimelinePainter needs. Also answers "what is under this point" for the
// view's clicks and tooltips. Reuses its buffers between frames; not thread-safe.
class TimelineDrawList {
public:
    static constexpr double kMinLabelPx = 24.0; // narrower slices get no label
    static constexpr double kLabelPaddingPx = 4.0;
    static constexpr double kInstantHalfPx = 4.0;

    enum SliceFlag : quint8 { Folded = 1, Match = 2, Dimmed = 4, Instant = 8 };

    struct SliceItem {
        QRectF rect;
        QRgb fill = 0;
        quint8 flags = 0;
        int trackIndex = -1;
        int depth = 0;
        int64_t startNs = 0;
        int64_t endNs = 0;
        int64_t nameId = 0;
        int64_t count = 1; // Folded: number of slices in the box
    };
    struct LabelItem {
        QRectF rect;
        QString text; // elided to fit rect
        QRgb color = 0;
    };
    struct RowItem {
        QRectF rect; // full width (gutter included)
        int rowIndex = -1;
        QString label; // elided to fit the gutter
        int indent = 0;
        bool header = false;
        bool collapsed = false;
        bool alternate = false;
    };
    struct CounterItem {
        QRectF rect;
        QPolygonF area; // under the per-bucket maxima, so peaks survive any zoom
        QPolygonF line; // the held (last) value
        QRgb color = 0;
        QString maxLabel;
    };
    struct TickItem {
        double x = 0;
        bool major = false;
        QString label;
    };
    struct StepItem {
        QRectF rect;
        QString label;
        int index = -1; // into the frame's steps
        bool alternate = false;
    };
    struct ArrowItem {
        QPointF from;
        QPointF to;
    };

    void build(const TimelineFrame &frame);

    [[nodiscard]] const TimelineGeometry &geometry() const { return m_geometry; }
    [[nodiscard]] const std::vector<SliceItem> &slices() const { return m_slices; }
    [[nodiscard]] const std::vector<LabelItem> &labels() const { return m_labels; }
    [[nodiscard]] const std::vector<RowItem> &rows() const { return m_rows; }
    [[nodiscard]] const std::vector<CounterItem> &counters() const { return m_counters; }
    [[nodiscard]] const std::vector<QRectF> &idleGaps() const { return m_idle; }
    [[nodiscard]] const std::vector<TickItem> &ticks() const { return m_ticks; }
    [[nodiscard]] const std::vector<StepItem> &steps() const { return m_steps; }
    [[nodiscard]] const std::vector<ArrowItem> &arrows() const { return m_arrows; }
    [[nodiscard]] const std::optional<QRectF> &selectionRect() const { return m_selection; }
    [[nodiscard]] const std::optional<QRectF> &rangeRect() const { return m_range; }
    [[nodiscard]] const QString &rangeLabel() const { return m_rangeLabel; }
    [[nodiscard]] const std::optional<QRectF> &rubberBand() const { return m_rubberBand; }
    [[nodiscard]] const TimelinePalette &palette() const { return m_palette; }
    [[nodiscard]] const QFont &font() const { return m_font; }
    [[nodiscard]] const QString &nameOf(int64_t nameId) const;

    // The topmost slice item under a widget point, or nullptr.
    [[nodiscard]] const SliceItem *sliceAt(QPointF p) const;
    [[nodiscard]] const StepItem *stepAt(QPointF p) const;
    // The rect a slice would have in this frame (clipped to the tracks area), if its row is shown.
    [[nodiscard]] std::optional<QRectF> rectOf(const TimelineMark &mark) const;

private:
    void buildRows(const TimelineFrame &f);
    void buildTrack(const TimelineFrame &f, int trackIndex, double rowTop, double rowHeight);
    void buildCounter(const TimelineFrame &f, int trackIndex, double rowTop, double rowHeight);
    [[nodiscard]] QString elided(const QString &text, double widthPx);

    TimelineGeometry m_geometry;
    TimelineFrame m_frameRefs; // the frame last built (for rectOf)
    TimelinePalette m_palette;
    QFont m_font;
    std::vector<SliceItem> m_slices;
    std::vector<LabelItem> m_labels;
    std::vector<RowItem> m_rows;
    std::vector<CounterItem> m_counters;
    std::vector<QRectF> m_idle;
    std::vector<TickItem> m_ticks;
    std::vector<StepItem> m_steps;
    std::vector<ArrowItem> m_arrows;
    std::optional<QRectF> m_selection;
    std::optional<QRectF> m_range;
    QString m_rangeLabel;
    std::optional<QRectF> m_rubberBand;
    QHash<QString, double> m_textWidths; // full text widths in m_font (names repeat every frame)
    QHash<int64_t, QRgb> m_colors; // slice colour by name id, for m_palette
    const QHash<int64_t, QString> *m_names = nullptr;
};

} // namespace plumb
