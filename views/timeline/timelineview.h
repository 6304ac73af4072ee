// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/criticalpath.h"
#include "timeline/timelinedrawlist.h"
#include "timeline/timelinefetcher.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinequery.h"
#include "timeline/timescale.h"

#include <QImage>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QScrollBar;

namespace plumb {

// The bottleneck timeline of one trace or run: tracks grouped by rank > process > thread/stream,
// slices by depth, counters, steps, with the interactions of common trace viewers:
//   Ctrl+wheel (or wheel over the ruler), W/S: zoom around the cursor;  drag, Shift+wheel, A/D: pan;
//   wheel: scroll the tracks;  F: fit;  Z: zoom to the selected range or slice;  Esc: clear;
//   click: select a slice (a folded box zooms into it), a header collapses/expands its group,
//   a step zooms to it;  Shift+drag or a drag on the ruler: select a time range.
//
// Each frame is a TimelineDrawList built from the fetcher's current window (no SQLite on the GUI
// thread: the fetcher reads windows three times the view's width on its own thread, and the view
// draws from the last window it has until the next arrives).
class TimelineView final : public QWidget {
    Q_OBJECT
public:
    static constexpr double kWheelZoomPerNotch = 1.25; // one wheel notch (120 units) or one W/S press
    static constexpr double kKeyPanFraction = 0.15; // A/D: share of the view's width
    static constexpr double kFitMargin = 0.02; // F: blank share on either side
    static constexpr double kDragThresholdPx = 4.0;
    static constexpr double kMinCriticalPx = 3.0; // a critical slice's outline is at least this wide
    static constexpr int kCriticalDimAlpha = 170; // the veil over what is not on the critical path

    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Opens a trace or run (asynchronously: opened() follows); an empty path closes.
    void setSource(const TimelineSource &source);
    [[nodiscard]] const TimelineSource &source() const { return m_fetcher->source(); }
    [[nodiscard]] bool isLoaded() const { return m_loaded; }
    [[nodiscard]] TimelineFetcher *fetcher() const { return m_fetcher; }
    [[nodiscard]] const TimelineLayout &layout() const { return m_layout; }
    [[nodiscard]] const QList<TimelineTrack> &tracks() const { return m_layout.tracks(); }
    [[nodiscard]] TimeRange extent() const { return m_opened.extent; }
    [[nodiscard]] const std::vector<StepMarker> &steps() const { return m_opened.steps; }
    [[nodiscard]] int64_t originNs() const { return m_opened.extent.startNs; }

    [[nodiscard]] TimeScale scale() const { return m_scale; }
    void setScale(const TimeScale &scale);
    [[nodiscard]] TimelineGeometry geometryForSize(QSizeF size) const;
    [[nodiscard]] double timeWidth() const { return geometryForSize(size()).timeWidth(); }
    [[nodiscard]] double scrollY() const { return m_scrollY; }
    void setScrollY(double y);

    void fit();
    void zoomBy(double factor, double anchorPx);
    // Zoom as the W/S keys do: at the pointer when it is over the tracks, else at the centre.
    void zoomByKeys(double factor) { zoomBy(factor, anchorForKeys()); }
    void panBy(double dxPx);
    void zoomToRange(int64_t fromNs, int64_t toNs);
    // Zooms to the selected range, else to the selected slice. Returns false when nothing is selected.
    bool zoomToSelection();

    // Selects a slice (from a search or a link) and, with reveal, scrolls and pans so it is on screen.
    void selectSlice(const SliceInfo &slice, bool reveal);
    [[nodiscard]] const std::optional<SliceInfo> &selectedSlice() const { return m_selected; }
    void setRange(int64_t fromNs, int64_t toNs, const std::vector<int> &trackIndices);
    [[nodiscard]] std::optional<std::pair<int64_t, int64_t>> range() const { return m_range; }
    void clearSelection();
    void setMatcher(const NameMatcher &matcher);
    // The critical path drawn over the tracks (criticalPath()'s slices): its slices outlined, the rest
    // dimmed; empty: none.
    void setCriticalPath(std::vector<CriticalPathSlice> slices);
    [[nodiscard]] bool hasCriticalPath() const { return !m_critical.empty(); }
    // Slices drawn as the critical path is (outlined, the rest dimmed): a call tree node's slices, by
    // track then start; empty: none. The critical path, when shown, is drawn instead.
    void setHighlightedSlices(std::vector<CriticalPathSlice> slices);
    [[nodiscard]] const std::vector<CriticalPathSlice> &highlightedSlices() const { return m_highlight; }

    // The draw list of the current frame, built on demand on this thread (hit tests, tests). Painting
    // does not use it: paintEvent() draws the last list built on the draw-list thread.
    [[nodiscard]] const TimelineDrawList &drawList();
    // Whether the last draw list built shows the current state.
    [[nodiscard]] bool isFrameCurrent() const { return m_list && m_listGeneration == m_stateGeneration; }
    // The visible timeline as an image of the widget's size, without the scroll bar.
    [[nodiscard]] QImage renderImage(qreal devicePixelRatio = 1.0);
    // The visible timeline as a one-page vector PDF. Returns false when the file cannot be written.
    bool renderPdf(const QString &path);
    // Widget x of a time and back.
    [[nodiscard]] double xOf(int64_t ns) const;
    [[nodiscard]] int64_t timeAt(double x) const;
    // Widget y of the centre of a track's lane at `depth`, or -1 when the row is not shown.
    [[nodiscard]] double yOf(int trackIndex, int depth) const;

    [[nodiscard]] QSize sizeHint() const override { return { 1000, 560 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 360, 160 }; }

Q_SIGNALS:
    void opened(const QString &error);
    void windowLoaded();
    void scaleChanged();
    void sliceSelected(const SliceInfo &slice);
    void linksChanged(const std::vector<SliceLink> &links);
    void selectionCleared();
    void rangeSelected(int64_t fromNs, int64_t toNs, const std::vector<int> &trackIndices);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    enum class Drag { None, Pan, BoxSelect, RulerSelect };

    void onOpened(const TimelineOpenResult &result);
    [[nodiscard]] TimelineFrame frameFor(const TimelineGeometry &geometry) const;
    void invalidate();
    void requestBuild();
    void requestFetch();
    void updateScrollBar();
    [[nodiscard]] double maxNsPerPx() const;
    [[nodiscard]] std::vector<int> visibleTracks(double marginPx) const;
    [[nodiscard]] std::vector<int> tracksBetween(double widgetY0, double widgetY1) const;
    void clickAt(QPointF pos);
    void pickSlice(const TimelineDrawList::SliceItem &item, QPointF pos);
    void showSelected(const SliceInfo &slice);
    void revealSlice(const SliceInfo &slice);
    [[nodiscard]] QString toolTipAt(QPointF pos);
    [[nodiscard]] double anchorForKeys() const;
    void paintOutlined(QPainter &p, const TimelineGeometry &g, const std::vector<CriticalPathSlice> &slices);

    std::vector<CriticalPathSlice> m_critical; // by track, then start
    std::vector<CriticalPathSlice> m_highlight; // likewise
    TimelineFetcher *m_fetcher;
    QScrollBar *m_scrollBar;
    TimelineLayout m_layout;
    TimelineOpenResult m_opened;
    bool m_loaded = false;
    TimeScale m_scale;
    double m_scrollY = 0; // content y at the top of the tracks area
    // Draw lists: every change of what is shown bumps m_stateGeneration; m_list is the newest list
    // built (on the draw-list thread for painting, or here by drawList()) and m_listGeneration the
    // state it shows. A paint with an older list paints it and asks for a new one, so the GUI thread
    // never builds a frame to paint it (one frame of latency, about a millisecond).
    std::shared_ptr<TimelineDrawList> m_list;
    quint64 m_listGeneration = 0;
    quint64 m_stateGeneration = 1;
    bool m_building = false; // a build is running on m_buildPool
    QThreadPool m_buildPool;
    TimelinePalette m_palette;

    std::optional<SliceInfo> m_selected;
    int m_selectedTrack = -1;
    std::vector<SliceLink> m_links;
    std::optional<std::pair<int64_t, int64_t>> m_range;
    std::optional<std::pair<int64_t, int64_t>> m_focus; // the source's focus, until it is open
    NameMatcher m_matcher;

    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    QPointF m_lastPos;
    bool m_moved = false;
    std::optional<QRectF> m_rubberBand;
};

} // namespace plumb
