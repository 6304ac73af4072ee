// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinedrawlist.h"

#include "text/textformat.h"

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

const QString kEmpty;

// Pixel x of a time, clamped far enough outside the view that QPainter never sees huge numbers.
double clampedX(const TimelineGeometry &g, const TimeScale &s, int64_t ns)
{
    const double x = g.timeLeft() + s.toPx(ns);
    return std::clamp(x, g.timeLeft() - 10.0, g.timeRight() + 10.0);
}

} // namespace

const QString &TimelineDrawList::nameOf(int64_t nameId) const
{
    if (!m_names)
        return kEmpty;
    auto it = m_names->constFind(nameId);
    return it == m_names->constEnd() ? kEmpty : *it;
}

QString TimelineDrawList::elided(const QString &text, double widthPx)
{
    const QFontMetricsF fm(m_font);
    auto it = m_textWidths.constFind(text);
    if (it == m_textWidths.constEnd())
        it = m_textWidths.insert(text, fm.horizontalAdvance(text));
    if (*it <= widthPx)
        return text;
    QString e = fm.elidedText(text, Qt::ElideRight, widthPx);
    if (e.size() <= 2) // just an ellipsis: nothing worth reading
        return {};
    return e;
}

void TimelineDrawList::build(const TimelineFrame &f)
{
    if (f.palette.dark != m_palette.dark || f.font != m_font) {
        m_colors.clear();
        m_textWidths.clear();
    }
    if (m_textWidths.size() > 20000)
        m_textWidths.clear();
    m_frameRefs = f;
    m_geometry = f.geometry;
    m_palette = f.palette;
    m_font = f.font;
    m_names = f.window ? &f.window->names : nullptr;
    m_slices.clear();
    m_labels.clear();
    m_rows.clear();
    m_counters.clear();
    m_idle.clear();
    m_ticks.clear();
    m_steps.clear();
    m_arrows.clear();
    m_selection.reset();
    m_range.reset();
    m_rangeLabel.clear();
    m_rubberBand = f.rubberBand;

    const TimelineGeometry &g = f.geometry;
    for (const RulerTick &t : rulerTicks(f.scale, g.timeWidth(), f.originNs))
        m_ticks.push_back({ g.timeLeft() + f.scale.toPx(t.ns), t.major, t.label });

    if (f.steps) {
        const int64_t viewFrom = f.scale.startNs, viewTo = f.scale.endNs(g.timeWidth());
        const QFontMetricsF fm(m_font);
        for (size_t i = 0; i < f.steps->size(); ++i) {
            const StepMarker &s = (*f.steps)[i];
            if (s.endNs < viewFrom || s.startNs > viewTo)
                continue;
            const double x0 = clampedX(g, f.scale, s.startNs), x1 = clampedX(g, f.scale, s.endNs);
            StepItem item;
            item.rect = QRectF(x0, g.rulerPx + 1, std::max(1.0, x1 - x0), g.stepsPx - 2);
            item.index = int(i);
            item.alternate = s.number % 2 != 0;
            const QString label = QStringLiteral("#%1").arg(s.number);
            if (fm.horizontalAdvance(label) + kLabelPaddingPx * 2 <= item.rect.width())
                item.label = label;
            m_steps.push_back(std::move(item));
        }
    }

    if (f.layout)
        buildRows(f);

    if (f.selected)
        m_selection = rectOf(*f.selected);
    if (f.selected) {
        const std::optional<QRectF> from = m_selection;
        for (const TimelineFrame::Link &link : f.links) {
            const std::optional<QRectF> to = rectOf(link.mark);
            if (!from || !to)
                continue;
            // Arrows run from the end of the earlier slice's left edge to the later one's top-left.
            QPointF a(from->left(), from->bottom()), b(to->left(), to->top());
            if (!link.outgoing)
                std::swap(a, b);
            m_arrows.push_back({ a, b });
        }
    }
    if (f.range && f.range->second > f.range->first) {
        const double x0 = clampedX(g, f.scale, f.range->first), x1 = clampedX(g, f.scale, f.range->second);
        m_range = QRectF(x0, 0, std::max(1.0, x1 - x0), g.size.height());
        m_rangeLabel = formatDuration(f.range->second - f.range->first);
    }
}

void TimelineDrawList::buildRows(const TimelineFrame &f)
{
    const TimelineGeometry &g = f.geometry;
    const TimelineLayout &layout = *f.layout;
    const auto &rows = layout.rows();
    const double top = g.scrollY, bottom = g.scrollY + g.tracksHeight();
    int first = std::max(0, layout.rowAt(top));
    const QFontMetricsF fm(m_font);
    int trackCount = 0;
    for (size_t i = size_t(first); i < rows.size(); ++i) {
        const TimelineLayout::Row &r = rows[i];
        if (r.y >= bottom)
            break;
        if (r.y + r.height <= top)
            continue;
        RowItem item;
        item.rect = QRectF(0, g.toWidgetY(r.y), g.size.width() - g.scrollbarPx, r.height);
        item.rowIndex = int(i);
        item.header = r.isHeader();
        item.collapsed = r.collapsed;
        item.indent = r.indent;
        item.alternate = !item.header && (r.trackIndex % 2 == 1);
        // As paintGutter() lays it out: indent, a disclosure triangle before headers, margins.
        const double labelWidth = g.gutterPx - 12 - 12 * r.indent - (item.header ? 14 : 0);
        QFont headerFont = m_font;
        headerFont.setBold(true);
        item.label = (item.header ? QFontMetricsF(headerFont) : fm)
                         .elidedText(r.label, Qt::ElideMiddle, std::max(10.0, labelWidth));
        m_rows.push_back(std::move(item));
        if (r.isHeader())
            continue;
        ++trackCount;
        const TimelineTrack &t = layout.tracks().at(r.trackIndex);
        if (TimelineLayout::isCounter(t))
            buildCounter(f, r.trackIndex, g.toWidgetY(r.y), r.height);
        else
            buildTrack(f, r.trackIndex, g.toWidgetY(r.y), r.height);
    }
    Q_UNUSED(trackCount);
}

void TimelineDrawList::buildTrack(const TimelineFrame &f, int trackIndex, double rowTop, double rowHeight)
{
    if (!f.window || size_t(trackIndex) >= f.window->tracks.size())
        return;
    const TrackWindow &tw = f.window->tracks[size_t(trackIndex)];
    const TimelineGeometry &g = f.geometry;
    const TimeScale &s = f.scale;
    const int64_t viewFrom = s.startNs, viewTo = s.endNs(g.timeWidth());
    const double laneTop = rowTop + TimelineLayout::kTrackPaddingPx;
    const double lanesBottom = rowTop + rowHeight - TimelineLayout::kTrackPaddingPx;
    const double laneH = TimelineLayout::kLaneHeightPx;
    const int maxLanes = TimelineLayout::kMaxLanes;

    for (const IdleGap &gap : tw.idle) {
        if (gap.endNs < viewFrom || gap.startNs > viewTo)
            continue;
        const double x0 = clampedX(g, s, gap.startNs), x1 = clampedX(g, s, gap.endNs);
        m_idle.push_back(QRectF(x0, rowTop + 1, x1 - x0, rowHeight - 2));
    }

    const bool searching = f.matcher && !f.matcher->nameIds.empty();
    const auto &slices = tw.slices;
    auto it = slices.begin();
    while (it != slices.end()) {
        const int depth = it->depth;
        const auto depthEnd = std::partition_point(
            it, slices.end(), [depth](const DrawSlice &d) { return d.depth == depth; });
        if (depth >= maxLanes) {
            it = depthEnd;
            continue;
        }
        const double y = laneTop + depth * laneH;
        if (y + laneH > lanesBottom + 0.5) {
            it = depthEnd;
            continue;
        }
        // Slices of one depth do not overlap, so their ends ascend with their starts.
        auto from = std::partition_point(
            it, depthEnd, [viewFrom](const DrawSlice &d) { return d.endNs < viewFrom; });
        for (auto d = from; d != depthEnd && d->startNs <= viewTo; ++d) {
            SliceItem item;
            item.trackIndex = trackIndex;
            item.depth = depth;
            item.startNs = d->startNs;
            item.endNs = d->endNs;
            item.nameId = d->nameId;
            item.count = d->count;
            const double x0 = clampedX(g, s, d->startNs), x1 = clampedX(g, s, d->endNs);
            auto colorIt = m_colors.constFind(d->nameId);
            if (colorIt == m_colors.constEnd())
                colorIt = m_colors.insert(d->nameId, m_palette.sliceColor(nameOf(d->nameId)).rgb());
            item.fill = *colorIt;
            if (d->count > 1) {
                item.flags |= Folded;
                item.fill = m_palette.folded.rgb();
            } else if (d->endNs == d->startNs) {
                item.flags |= Instant;
            }
            if (searching) {
                item.flags |= f.matcher->matches(d->nameId) ? Match : Dimmed;
            }
            if (item.flags & Instant) {
                const double cx = g.timeLeft() + s.toPx(d->startNs);
                item.rect = QRectF(cx - kInstantHalfPx, y + 1, 2 * kInstantHalfPx, laneH - 2);
            } else {
                item.rect = QRectF(x0, y + 1, std::max(1.0, x1 - x0), laneH - 2);
            }
            m_slices.push_back(item);

            if (!(item.flags & (Folded | Instant)) && item.rect.width() >= kMinLabelPx) {
                // The label stays inside the visible part of the slice.
                const double lx0 = std::max(item.rect.left(), g.timeLeft());
                const double lx1 = std::min(item.rect.right(), g.timeRight());
                const double w = lx1 - lx0 - 2 * kLabelPaddingPx;
                if (w >= kMinLabelPx - 2 * kLabelPaddingPx) {
                    QString text = elided(nameOf(d->nameId), w);
                    if (!text.isEmpty())
                        m_labels.push_back(
                            { QRectF(lx0 + kLabelPaddingPx, item.rect.top(), w, item.rect.height()),
                                std::move(text), TimelinePalette::textOn(QColor(item.fill)).rgb() });
                }
            }
        }
        it = depthEnd;
    }
}

void TimelineDrawList::buildCounter(const TimelineFrame &f, int trackIndex, double rowTop, double rowHeight)
{
    if (!f.window || size_t(trackIndex) >= f.window->tracks.size())
        return;
    const auto &buckets = f.window->tracks[size_t(trackIndex)].counter;
    if (buckets.empty())
        return;
    const TimelineGeometry &g = f.geometry;
    const TimeScale &s = f.scale;
    double lo = 0, hi = 1;
    if (f.counterRanges && size_t(trackIndex) < f.counterRanges->size()) {
        std::tie(lo, hi) = (*f.counterRanges)[size_t(trackIndex)];
    } else {
        lo = buckets.front().min;
        hi = buckets.front().max;
        for (const CounterBucket &b : buckets) {
            lo = std::min(lo, b.min);
            hi = std::max(hi, b.max);
        }
    }
    lo = std::min(lo, 0.0); // counters read from zero
    if (!(hi > lo))
        hi = lo + 1;
    const double top = rowTop + 4, bottom = rowTop + rowHeight - 3;
    auto yOf = [&](double v) { return bottom - (v - lo) / (hi - lo) * (bottom - top); };

    CounterItem item;
    item.rect = QRectF(g.timeLeft(), rowTop, g.timeWidth(), rowHeight);
    const TimelineTrack &t = f.layout->tracks().at(trackIndex);
    item.color = m_palette.sliceColor(t.name).darker(m_palette.dark ? 80 : 130).rgb();
    item.area.reserve(int(buckets.size() * 4 + 2));
    item.line.reserve(int(buckets.size() * 2 + 1));
    const int64_t viewTo = s.endNs(g.timeWidth());
    bool started = false;
    for (size_t i = 0; i < buckets.size(); ++i) {
        const CounterBucket &b = buckets[i];
        const int64_t nextNs = i + 1 < buckets.size() ? buckets[i + 1].startNs : viewTo;
        if (nextNs < s.startNs || b.startNs > viewTo)
            continue;
        const double x0 = clampedX(g, s, b.startNs), x1 = clampedX(g, s, nextNs);
        const double xe = std::min(x1, std::max(x0 + 1, clampedX(g, s, b.endNs)));
        if (!started) {
            item.area << QPointF(x0, bottom);
            started = true;
        }
        item.area << QPointF(x0, yOf(b.max)) << QPointF(xe, yOf(b.max)) << QPointF(xe, yOf(b.last))
                  << QPointF(x1, yOf(b.last));
        item.line << QPointF(x0, yOf(b.first)) << QPointF(x0, yOf(b.last)) << QPointF(x1, yOf(b.last));
    }
    if (!started)
        return;
    item.area << QPointF(item.area.last().x(), bottom);
    item.maxLabel = text::counterValue(t.name, hi);
    m_counters.push_back(std::move(item));
}

std::optional<QRectF> TimelineDrawList::rectOf(const TimelineMark &mark) const
{
    const TimelineFrame &f = m_frameRefs;
    if (!f.layout)
        return std::nullopt;
    const int row = f.layout->rowOfTrack(mark.trackIndex);
    if (row < 0)
        return std::nullopt;
    const TimelineLayout::Row &r = f.layout->rows()[size_t(row)];
    const TimelineGeometry &g = m_geometry;
    const int depth = std::min(mark.depth, TimelineLayout::kMaxLanes - 1);
    double y = g.toWidgetY(r.y) + TimelineLayout::kTrackPaddingPx + depth * TimelineLayout::kLaneHeightPx;
    y = std::clamp(y, g.tracksTop() - TimelineLayout::kLaneHeightPx, g.size.height());
    const double x0 = clampedX(g, f.scale, mark.startNs), x1 = clampedX(g, f.scale, mark.endNs);
    return QRectF(x0, y + 1, std::max(2.0, x1 - x0), TimelineLayout::kLaneHeightPx - 2);
}

const TimelineDrawList::SliceItem *TimelineDrawList::sliceAt(QPointF p) const
{
    if (!m_geometry.tracksRect().contains(p))
        return nullptr;
    // Later items are drawn on top; a narrow slice gets a couple of pixels of slack.
    const SliceItem *best = nullptr;
    double bestDistance = 3.0;
    for (auto it = m_slices.rbegin(); it != m_slices.rend(); ++it) {
        if (p.y() < it->rect.top() || p.y() > it->rect.bottom())
            continue;
        if (it->rect.left() <= p.x() && p.x() <= it->rect.right())
            return &*it;
        const double d = std::min(std::abs(p.x() - it->rect.left()), std::abs(p.x() - it->rect.right()));
        if (d < bestDistance) {
            bestDistance = d;
            best = &*it;
        }
    }
    return best;
}

const TimelineDrawList::StepItem *TimelineDrawList::stepAt(QPointF p) const
{
    for (const StepItem &s : m_steps)
        if (s.rect.contains(p))
            return &s;
    return nullptr;
}

} // namespace plumb
