// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelineview.h"

#include "timeline/timelinepainter.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegion>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace plumb {

namespace {

constexpr double kGutterMaxPx = 220;
constexpr double kGutterShare = 0.22;
constexpr double kScrollStepPx = 3 * TimelineLayout::kLaneHeightPx;

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent)
    , m_fetcher(new TimelineFetcher(this))
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
    , m_palette(TimelinePalette::fromPalette(palette()))
{
    setAccessibleName(tr("Timeline"));
    setAccessibleDescription(tr("Tracks of the trace over time; W/S zoom, A/D pan, F fit"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_buildPool.setMaxThreadCount(1); // frames are built in order; a newer state waits for the running build
    m_scrollBar->setSingleStep(int(TimelineLayout::kLaneHeightPx));
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int v) {
        if (std::abs(v - m_scrollY) >= 1)
            setScrollY(v);
    });
    connect(m_fetcher, &TimelineFetcher::opened, this, &TimelineView::onOpened);
    connect(m_fetcher, &TimelineFetcher::windowReady, this, [this] {
        invalidate();
        Q_EMIT windowLoaded();
    });
}

TimelineView::~TimelineView() = default;

void TimelineView::setSource(const TimelineSource &source)
{
    m_loaded = false;
    m_layout = {};
    m_opened = {};
    m_selected.reset();
    m_selectedTrack = -1;
    m_links.clear();
    m_range.reset();
    m_matcher = {};
    m_scrollY = 0;
    m_focus.reset();
    if (source.focusToNs > source.focusFromNs)
        m_focus = std::make_pair(source.focusFromNs, source.focusToNs);
    if (source.workspacePath.isEmpty())
        m_fetcher->close();
    else
        m_fetcher->open(source);
    updateScrollBar();
    invalidate();
}

void TimelineView::onOpened(const TimelineOpenResult &result)
{
    m_opened = result;
    m_layout = TimelineLayout(result.tracks);
    m_loaded = result.error.isEmpty();
    m_scrollY = 0;
    updateScrollBar();
    fit();
    if (m_focus && m_loaded) {
        zoomToRange(m_focus->first, m_focus->second);
        setRange(m_focus->first, m_focus->second, visibleTracks(1e12)); // every track, as a ruler drag takes
    }
    m_focus.reset();
    invalidate();
    requestFetch();
    Q_EMIT opened(result.error);
}

TimelineGeometry TimelineView::geometryForSize(QSizeF size) const
{
    TimelineGeometry g;
    g.size = size;
    g.gutterPx = std::round(std::clamp(size.width() * kGutterShare, 120.0, kGutterMaxPx));
    const QFontMetrics fm(font());
    g.rulerPx = std::max(22, fm.height() + 8);
    g.stepsPx = m_opened.steps.empty() ? 0 : std::max(16, fm.height() + 2);
    g.scrollbarPx = m_scrollBar->isVisible() ? m_scrollBar->sizeHint().width() : 0;
    g.scrollY = m_scrollY;
    return g;
}

TimelineFrame TimelineView::frameFor(const TimelineGeometry &geometry) const
{
    TimelineFrame f;
    f.layout = &m_layout;
    f.window = &m_fetcher->window();
    f.counterRanges = &m_opened.counterRanges;
    f.steps = &m_opened.steps;
    f.matcher = m_matcher.nameIds.empty() ? nullptr : &m_matcher;
    f.scale = m_scale;
    f.geometry = geometry;
    f.originNs = originNs();
    f.palette = m_palette;
    f.font = font();
    if (m_selected && m_selectedTrack >= 0)
        f.selected = TimelineMark { m_selectedTrack, m_selected->startNs,
            m_selected->startNs + m_selected->durNs, m_selected->depth };
    for (const SliceLink &l : m_links) {
        const int track = m_layout.trackIndexOf(l.slice.key.trackId);
        if (track < 0)
            continue;
        const bool outgoing = l.kind == SliceLink::Kind::Launches || l.kind == SliceLink::Kind::FlowTo;
        f.links.push_back(
            { TimelineMark { track, l.slice.startNs, l.slice.startNs + l.slice.durNs, l.slice.depth },
                outgoing });
    }
    f.range = m_range;
    f.rubberBand = m_rubberBand;
    return f;
}

const TimelineDrawList &TimelineView::drawList()
{
    if (!m_list || m_listGeneration != m_stateGeneration) {
        auto list = std::make_shared<TimelineDrawList>();
        list->build(frameFor(geometryForSize(size())));
        m_list = std::move(list);
        m_listGeneration = m_stateGeneration;
    }
    return *m_list;
}

void TimelineView::invalidate()
{
    ++m_stateGeneration;
    update();
}

void TimelineView::requestBuild()
{
    if (m_building)
        return; // when it lands, the repaint asks again if the state moved on meanwhile
    m_building = true;
    // What the frame points at, owned by the job: the window is shared (never modified once
    // published), the rest is small and copied.
    struct Inputs {
        TimelineLayout layout;
        std::shared_ptr<const TimelineWindow> window;
        std::vector<std::pair<double, double>> counterRanges;
        std::vector<StepMarker> steps;
        NameMatcher matcher;
        TimelineFrame frame;
    };
    auto in = std::make_shared<Inputs>();
    in->frame = frameFor(geometryForSize(size()));
    in->layout = m_layout;
    in->window = m_fetcher->windowPtr();
    in->counterRanges = m_opened.counterRanges;
    in->steps = m_opened.steps;
    in->frame.layout = &in->layout;
    in->frame.window = in->window.get();
    in->frame.counterRanges = &in->counterRanges;
    in->frame.steps = &in->steps;
    if (in->frame.matcher) {
        in->matcher = m_matcher;
        in->frame.matcher = &in->matcher;
    }
    const quint64 generation = m_stateGeneration;
    QtConcurrent::run(&m_buildPool, [in] {
        auto list = std::make_shared<TimelineDrawList>();
        list->build(in->frame);
        return list;
    }).then(this, [this, generation](const std::shared_ptr<TimelineDrawList> &list) {
        m_building = false;
        if (generation > m_listGeneration) {
            m_list = list;
            m_listGeneration = generation;
        }
        update();
    });
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    if (!m_loaded) {
        p.fillRect(rect(), m_palette.background);
        p.setPen(m_palette.dimText);
        const QString text = m_fetcher->isOpen()
            ? tr("Reading the trace…")
            : tr("Double-click a trace or run in the Workspace tab to open "
                 "its timeline.");
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }
    if (m_listGeneration != m_stateGeneration)
        requestBuild();
    if (m_list) {
        paintTimeline(p, *m_list);
        paintOutlined(p, geometryForSize(size()), m_critical.empty() ? m_highlight : m_critical);
    } else {
        p.fillRect(rect(), m_palette.background);
    }
}

void TimelineView::setCriticalPath(std::vector<CriticalPathSlice> slices)
{
    m_critical = std::move(slices);
    update();
}

void TimelineView::setHighlightedSlices(std::vector<CriticalPathSlice> slices)
{
    m_highlight = std::move(slices);
    update();
}

void TimelineView::paintOutlined(
    QPainter &p, const TimelineGeometry &g, const std::vector<CriticalPathSlice> &slices)
{
    if (slices.empty())
        return;
    const QRectF area(g.timeLeft(), g.tracksTop(), g.timeWidth(), g.tracksHeight());
    const QList<TimelineTrack> &all = tracks();
    std::unordered_map<int64_t, int> indexOf;
    for (int i = 0; i < all.size(); ++i)
        indexOf.emplace(all[i].id, i);
    const double lane = TimelineLayout::kLaneHeightPx;
    // The path's slices on screen (at least kMinCriticalPx wide, so a short kernel shows).
    std::vector<QRectF> boxes;
    for (const CriticalPathSlice &c : slices) {
        auto it = indexOf.find(c.trackId);
        if (it == indexOf.end())
            continue;
        const double y = yOf(it->second, c.depth);
        if (y < 0)
            continue;
        const int64_t offset = all[it->second].offsetNs;
        double x0 = xOf(c.startNs + offset), x1 = xOf(c.endNs + offset);
        if (x1 < area.left() || x0 > area.right())
            continue;
        if (x1 - x0 < kMinCriticalPx) {
            const double mid = (x0 + x1) / 2;
            x0 = mid - kMinCriticalPx / 2;
            x1 = mid + kMinCriticalPx / 2;
        }
        const QRectF box(QPointF(x0, y - lane / 2 + 1), QPointF(x1, y + lane / 2 - 1));
        if (!boxes.empty() && boxes.back().top() == box.top() && box.left() <= boxes.back().right() + 1)
            boxes.back() = boxes.back().united(box); // neighbours on a lane fold into one box
        else
            boxes.push_back(box);
    }
    QRegion dim(area.toAlignedRect());
    for (const QRectF &b : boxes)
        dim -= b.toAlignedRect();
    p.save();
    p.setClipRegion(dim);
    QColor veil = m_palette.background;
    veil.setAlpha(kCriticalDimAlpha);
    p.fillRect(area, veil);
    p.setClipRect(area);
    QPen pen(m_palette.text, 1.5);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    for (const QRectF &b : boxes)
        p.drawRect(b.adjusted(0.5, 0.5, -0.5, -0.5));
    p.restore();
}

void TimelineView::resizeEvent(QResizeEvent *)
{
    updateScrollBar();
    invalidate();
    requestFetch();
}

void TimelineView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_palette = TimelinePalette::fromPalette(palette());
        invalidate();
    }
    QWidget::changeEvent(event);
}

void TimelineView::updateScrollBar()
{
    const double tracksHeight = std::max(0.0, height() - geometryForSize(size()).tracksTop());
    const double maxScroll = std::max(0.0, m_layout.contentHeight() - tracksHeight);
    const bool needed = maxScroll > 0;
    m_scrollBar->setVisible(needed);
    m_scrollBar->setGeometry(
        width() - m_scrollBar->sizeHint().width(), 0, m_scrollBar->sizeHint().width(), height());
    const QSignalBlocker block(m_scrollBar);
    m_scrollBar->setRange(0, int(std::ceil(maxScroll)));
    m_scrollBar->setPageStep(int(tracksHeight));
    m_scrollY = std::clamp(m_scrollY, 0.0, maxScroll);
    m_scrollBar->setValue(int(m_scrollY));
}

void TimelineView::setScrollY(double y)
{
    const double maxScroll = m_scrollBar->maximum();
    y = std::clamp(y, 0.0, maxScroll);
    if (y == m_scrollY)
        return;
    m_scrollY = y;
    {
        const QSignalBlocker block(m_scrollBar);
        m_scrollBar->setValue(int(y));
    }
    invalidate();
    requestFetch();
}

double TimelineView::maxNsPerPx() const
{
    const TimeRange e = m_opened.extent;
    return std::max(1.0, double(std::max<int64_t>(e.endNs - e.startNs, 1000)) * 4 / timeWidth());
}

void TimelineView::setScale(const TimeScale &scale)
{
    TimeScale s = scale;
    s.nsPerPx = std::clamp(s.nsPerPx, kMinNsPerPx, maxNsPerPx());
    if (s == m_scale)
        return;
    m_scale = s;
    invalidate();
    requestFetch();
    Q_EMIT scaleChanged();
}

void TimelineView::fit()
{
    const TimeRange e = m_opened.extent;
    const int64_t span = std::max<int64_t>(e.endNs - e.startNs, 1);
    const auto margin = int64_t(double(span) * kFitMargin);
    setScale(TimeScale::fit(e.startNs - margin, e.endNs + margin, timeWidth()));
}

void TimelineView::zoomBy(double factor, double anchorPx)
{
    setScale(m_scale.zoomed(anchorPx, factor, maxNsPerPx()));
}

void TimelineView::panBy(double dxPx)
{
    setScale(m_scale.panned(dxPx));
}

void TimelineView::zoomToRange(int64_t fromNs, int64_t toNs)
{
    const int64_t span = std::max<int64_t>(toNs - fromNs, 1);
    const auto margin = std::max<int64_t>(1, int64_t(double(span) * 0.05));
    setScale(TimeScale::fit(fromNs - margin, toNs + margin, timeWidth()));
}

bool TimelineView::zoomToSelection()
{
    if (m_range) {
        zoomToRange(m_range->first, m_range->second);
        return true;
    }
    if (m_selected) {
        zoomToRange(m_selected->startNs, m_selected->startNs + std::max<int64_t>(m_selected->durNs, 1));
        return true;
    }
    return false;
}

double TimelineView::xOf(int64_t ns) const
{
    return geometryForSize(size()).timeLeft() + m_scale.toPx(ns);
}

int64_t TimelineView::timeAt(double x) const
{
    return m_scale.toNs(x - geometryForSize(size()).timeLeft());
}

double TimelineView::yOf(int trackIndex, int depth) const
{
    const int row = m_layout.rowOfTrack(trackIndex);
    if (row < 0)
        return -1;
    const TimelineGeometry g = geometryForSize(size());
    return g.toWidgetY(m_layout.rows()[size_t(row)].y) + TimelineLayout::kTrackPaddingPx
        + (std::min(depth, TimelineLayout::kMaxLanes - 1) + 0.5) * TimelineLayout::kLaneHeightPx;
}

std::vector<int> TimelineView::visibleTracks(double marginPx) const
{
    std::vector<int> out;
    const TimelineGeometry g = geometryForSize(size());
    const double top = m_scrollY - marginPx, bottom = m_scrollY + g.tracksHeight() + marginPx;
    for (const TimelineLayout::Row &r : m_layout.rows())
        if (!r.isHeader() && r.y + r.height > top && r.y < bottom)
            out.push_back(r.trackIndex);
    return out;
}

std::vector<int> TimelineView::tracksBetween(double widgetY0, double widgetY1) const
{
    const TimelineGeometry g = geometryForSize(size());
    const double y0 = g.toContentY(std::min(widgetY0, widgetY1)),
                 y1 = g.toContentY(std::max(widgetY0, widgetY1));
    std::vector<int> out;
    for (const TimelineLayout::Row &r : m_layout.rows())
        if (!r.isHeader() && r.y + r.height > y0 && r.y < y1)
            out.push_back(r.trackIndex);
    return out;
}

void TimelineView::requestFetch()
{
    if (!m_loaded)
        return;
    // Tracks one screen above and below are fetched with the visible ones, so scrolling a little
    // does not wait for data.
    const double margin = geometryForSize(size()).tracksHeight();
    m_fetcher->requestWindow(TimelineFetcher::keyFor(m_scale, timeWidth()), visibleTracks(margin));
}

// ---------------------------------------------------------------------------------------------
// Selection

void TimelineView::clearSelection()
{
    const bool had = m_selected || m_range;
    m_selected.reset();
    m_selectedTrack = -1;
    m_links.clear();
    m_range.reset();
    invalidate();
    if (had)
        Q_EMIT selectionCleared();
}

void TimelineView::setMatcher(const NameMatcher &matcher)
{
    m_matcher = matcher;
    invalidate();
}

void TimelineView::setRange(int64_t fromNs, int64_t toNs, const std::vector<int> &trackIndices)
{
    if (toNs < fromNs)
        std::swap(fromNs, toNs);
    m_range = std::make_pair(fromNs, toNs);
    invalidate();
    Q_EMIT rangeSelected(fromNs, toNs, trackIndices);
}

void TimelineView::showSelected(const SliceInfo &slice)
{
    m_selected = slice;
    m_selectedTrack = m_layout.trackIndexOf(slice.key.trackId);
    m_links.clear();
    invalidate();
    Q_EMIT sliceSelected(slice);
    const QList<TimelineTrack> tracks = m_layout.tracks();
    m_fetcher->query<std::vector<SliceLink>>(
        TimelineFetcher::Channel::Links,
        [tracks, slice](Workspace &ws) { return sliceLinks(ws, tracks, slice); },
        [this](const std::vector<SliceLink> &links) {
            m_links = links;
            invalidate();
            Q_EMIT linksChanged(links);
        });
}

void TimelineView::selectSlice(const SliceInfo &slice, bool reveal)
{
    if (reveal)
        revealSlice(slice);
    showSelected(slice);
}

void TimelineView::revealSlice(const SliceInfo &slice)
{
    const int track = m_layout.trackIndexOf(slice.key.trackId);
    if (track >= 0 && m_layout.rowOfTrack(track) < 0) {
        m_layout.reveal(track);
        updateScrollBar();
    }
    const int row = m_layout.rowOfTrack(track);
    if (row >= 0) {
        const TimelineGeometry g = geometryForSize(size());
        const TimelineLayout::Row &r = m_layout.rows()[size_t(row)];
        const double sliceY
            = r.y + TimelineLayout::kTrackPaddingPx + slice.depth * TimelineLayout::kLaneHeightPx;
        if (sliceY < m_scrollY || sliceY + TimelineLayout::kLaneHeightPx > m_scrollY + g.tracksHeight())
            setScrollY(sliceY - g.tracksHeight() / 3);
    }
    const int64_t endNs = slice.startNs + slice.durNs;
    const int64_t viewEnd = m_scale.endNs(timeWidth());
    if (double(slice.durNs) > double(viewEnd - m_scale.startNs) * 0.9) {
        zoomToRange(slice.startNs, endNs);
    } else if (slice.startNs < m_scale.startNs || endNs > viewEnd) {
        // Centre it at the current zoom.
        const auto mid = slice.startNs + slice.durNs / 2;
        setScale({ mid - int64_t(timeWidth() / 2 * m_scale.nsPerPx), m_scale.nsPerPx });
    }
}

void TimelineView::pickSlice(const TimelineDrawList::SliceItem &item, QPointF pos)
{
    if (item.flags & TimelineDrawList::Folded) {
        zoomToRange(item.startNs, item.endNs); // a folded box opens up
        return;
    }
    const TimelineTrack track = m_layout.tracks().at(item.trackIndex);
    const int64_t t = std::clamp(timeAt(pos.x()), item.startNs, item.endNs);
    const auto toleranceNs = int64_t(TimelineDrawList::kInstantHalfPx * m_scale.nsPerPx);
    const int depth = item.depth;
    m_fetcher->query<std::optional<SliceInfo>>(
        TimelineFetcher::Channel::Pick,
        [track, t, depth, toleranceNs](Workspace &ws) { return sliceAt(ws, track, t, depth, toleranceNs); },
        [this](const std::optional<SliceInfo> &slice) {
            if (slice)
                showSelected(*slice);
        });
}

void TimelineView::clickAt(QPointF pos)
{
    const TimelineGeometry g = geometryForSize(size());
    if (pos.y() < g.tracksTop()) {
        if (const TimelineDrawList::StepItem *s = drawList().stepAt(pos)) {
            const StepMarker &step = m_opened.steps[size_t(s->index)];
            zoomToRange(step.startNs, step.endNs);
        }
        return;
    }
    const int row = m_layout.rowAt(g.toContentY(pos.y()));
    if (row >= 0 && m_layout.rows()[size_t(row)].isHeader()) {
        m_layout.toggleCollapsed(m_layout.rows()[size_t(row)].groupKey);
        updateScrollBar();
        invalidate();
        requestFetch();
        return;
    }
    if (const TimelineDrawList::SliceItem *item = drawList().sliceAt(pos)) {
        pickSlice(*item, pos);
        return;
    }
    if (pos.x() >= g.timeLeft())
        clearSelection();
}

// ---------------------------------------------------------------------------------------------
// Input

double TimelineView::anchorForKeys() const
{
    const QPointF cursor = mapFromGlobal(QCursor::pos());
    const TimelineGeometry g = geometryForSize(size());
    if (rect().contains(cursor.toPoint()) && cursor.x() >= g.timeLeft())
        return cursor.x() - g.timeLeft();
    return g.timeWidth() / 2;
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    if (!m_loaded)
        return;
    const TimelineGeometry g = geometryForSize(size());
    const QPointF pos = event->position();
    const QPoint delta = event->angleDelta();
    const bool zoom = (event->modifiers() & Qt::ControlModifier) || pos.y() < g.tracksTop();
    if (zoom && delta.y() != 0) {
        const double anchor = std::clamp(pos.x() - g.timeLeft(), 0.0, g.timeWidth());
        zoomBy(std::pow(kWheelZoomPerNotch, delta.y() / 120.0), anchor);
    } else if ((event->modifiers() & Qt::ShiftModifier) && delta.y() != 0) {
        panBy(-delta.y() / 120.0 * g.timeWidth() * 0.1);
    } else {
        if (delta.x() != 0)
            panBy(-delta.x() / 120.0 * g.timeWidth() * 0.1);
        if (delta.y() != 0)
            setScrollY(m_scrollY - delta.y() / 120.0 * kScrollStepPx);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() != Qt::LeftButton || !m_loaded)
        return;
    const TimelineGeometry g = geometryForSize(size());
    m_pressPos = m_lastPos = event->position();
    m_moved = false;
    if (m_pressPos.y() < g.rulerPx && m_pressPos.x() >= g.timeLeft())
        m_drag = Drag::RulerSelect;
    else if ((event->modifiers() & Qt::ShiftModifier) && m_pressPos.x() >= g.timeLeft())
        m_drag = Drag::BoxSelect;
    else
        m_drag = Drag::Pan;
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_drag == Drag::None)
        return;
    if (!m_moved && (pos - m_pressPos).manhattanLength() < kDragThresholdPx)
        return;
    m_moved = true;
    const TimelineGeometry g = geometryForSize(size());
    switch (m_drag) {
    case Drag::Pan: {
        const QPointF d = pos - m_lastPos;
        if (d.x() != 0)
            panBy(-d.x());
        if (d.y() != 0)
            setScrollY(m_scrollY - d.y());
        break;
    }
    case Drag::BoxSelect:
    case Drag::RulerSelect: {
        const double x0 = std::clamp(std::min(m_pressPos.x(), pos.x()), g.timeLeft(), g.timeRight());
        const double x1 = std::clamp(std::max(m_pressPos.x(), pos.x()), g.timeLeft(), g.timeRight());
        if (m_drag == Drag::RulerSelect) {
            m_rubberBand = QRectF(x0, g.tracksTop(), x1 - x0, g.tracksHeight());
        } else {
            const double y0 = std::clamp(std::min(m_pressPos.y(), pos.y()), g.tracksTop(), g.size.height());
            const double y1 = std::clamp(std::max(m_pressPos.y(), pos.y()), g.tracksTop(), g.size.height());
            m_rubberBand = QRectF(x0, y0, x1 - x0, y1 - y0);
        }
        invalidate();
        break;
    }
    case Drag::None:
        break;
    }
    m_lastPos = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const Drag drag = std::exchange(m_drag, Drag::None);
    const QPointF pos = event->position();
    if (!m_moved) {
        m_rubberBand.reset();
        if (drag != Drag::None)
            clickAt(pos);
        return;
    }
    if ((drag == Drag::BoxSelect || drag == Drag::RulerSelect) && m_rubberBand) {
        const QRectF band = *m_rubberBand;
        m_rubberBand.reset();
        const std::vector<int> tracks
            = drag == Drag::RulerSelect ? visibleTracks(1e12) : tracksBetween(band.top(), band.bottom());
        setRange(timeAt(band.left()), timeAt(band.right()), tracks);
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // A double click on a slice zooms to it.
    if (const TimelineDrawList::SliceItem *item = drawList().sliceAt(event->position()))
        zoomToRange(item->startNs, std::max(item->endNs, item->startNs + 1));
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    if (!m_loaded) {
        QWidget::keyPressEvent(event);
        return;
    }
    const double width = timeWidth();
    switch (event->key()) {
    case Qt::Key_W:
        zoomBy(kWheelZoomPerNotch, anchorForKeys());
        break;
    case Qt::Key_S:
        zoomBy(1.0 / kWheelZoomPerNotch, anchorForKeys());
        break;
    case Qt::Key_A:
        panBy(-width * kKeyPanFraction);
        break;
    case Qt::Key_D:
        panBy(width * kKeyPanFraction);
        break;
    case Qt::Key_F:
        fit();
        break;
    case Qt::Key_Z:
        zoomToSelection();
        break;
    case Qt::Key_Escape:
        clearSelection();
        break;
    case Qt::Key_Up:
        setScrollY(m_scrollY - kScrollStepPx);
        break;
    case Qt::Key_Down:
        setScrollY(m_scrollY + kScrollStepPx);
        break;
    case Qt::Key_PageUp:
        setScrollY(m_scrollY - geometryForSize(size()).tracksHeight() * 0.9);
        break;
    case Qt::Key_PageDown:
        setScrollY(m_scrollY + geometryForSize(size()).tracksHeight() * 0.9);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::toolTipAt(QPointF pos)
{
    if (!m_loaded)
        return {};
    const TimelineDrawList &list = drawList();
    const TimelineGeometry &g = list.geometry();
    if (const TimelineDrawList::StepItem *s = list.stepAt(pos)) {
        const StepMarker &step = m_opened.steps[size_t(s->index)];
        return tr("%1\n%2 (click to zoom)").arg(step.name, formatDuration(step.endNs - step.startNs));
    }
    if (const TimelineDrawList::SliceItem *item = list.sliceAt(pos)) {
        const QString &name = list.nameOf(item->nameId);
        if (item->flags & TimelineDrawList::Folded)
            return tr("%1 slices too narrow to draw at this zoom, over %2\nlast: %3\nclick to zoom in")
                .arg(QLocale().toString(qlonglong(item->count)), formatDuration(item->endNs - item->startNs),
                    name);
        return tr("%1\n%2 at %3")
            .arg(name, formatDuration(item->endNs - item->startNs),
                formatTimeOffset(item->startNs - originNs(), 1));
    }
    for (const QRectF &gap : list.idleGaps())
        if (gap.contains(pos))
            return tr("GPU stream idle for %1").arg(formatDuration(timeAt(gap.right()) - timeAt(gap.left())));
    if (pos.x() < g.gutterPx) {
        const int row = m_layout.rowAt(g.toContentY(pos.y()));
        if (row >= 0) {
            const TimelineLayout::Row &r = m_layout.rows()[size_t(row)];
            if (r.isHeader())
                return tr("%1\nclick to %2").arg(r.label, r.collapsed ? tr("expand") : tr("collapse"));
            const TimelineTrack &t = m_layout.tracks().at(r.trackIndex);
            return tr("%1 · %2\n%3 slices")
                .arg(t.processName, t.name, QLocale().toString(qlonglong(t.sliceCount)));
        }
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Export

QImage TimelineView::renderImage(qreal devicePixelRatio)
{
    TimelineGeometry g = geometryForSize(size());
    g.size.setWidth(g.size.width() - g.scrollbarPx);
    g.scrollbarPx = 0;
    TimelineDrawList list;
    list.build(frameFor(g));
    QImage image((g.size * devicePixelRatio).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    QPainter p(&image);
    paintTimeline(p, list);
    paintOutlined(p, g, m_critical.empty() ? m_highlight : m_critical);
    return image;
}

bool TimelineView::renderPdf(const QString &path)
{
    TimelineGeometry g = geometryForSize(size());
    g.size.setWidth(g.size.width() - g.scrollbarPx);
    g.scrollbarPx = 0;
    QPdfWriter writer(path);
    writer.setCreator(QStringLiteral("Plumb"));
    writer.setTitle(source().title);
    writer.setResolution(72); // one point per widget pixel
    writer.setPageSize(QPageSize(g.size, QPageSize::Point, QString(), QPageSize::ExactMatch));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&writer))
        return false;
    TimelineDrawList list;
    list.build(frameFor(g));
    paintTimeline(p, list);
    return p.end();
}

} // namespace plumb
