// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinepainter.h"

#include "timeline/timelinedrawlist.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace plumb {

namespace {

using DL = TimelineDrawList;

void paintRows(QPainter &p, const DL &list)
{
    const TimelinePalette &pal = list.palette();
    const TimelineGeometry &g = list.geometry();
    for (const DL::RowItem &r : list.rows()) {
        if (r.header)
            p.fillRect(r.rect, pal.header);
        else if (r.alternate)
            p.fillRect(QRectF(g.timeLeft(), r.rect.top(), g.timeWidth(), r.rect.height()), pal.alternateRow);
    }
}

void paintGrid(QPainter &p, const DL &list)
{
    const TimelineGeometry &g = list.geometry();
    p.setPen(QPen(list.palette().grid, 0));
    for (const DL::TickItem &t : list.ticks())
        if (t.major)
            p.drawLine(QPointF(t.x, g.tracksTop()), QPointF(t.x, g.size.height()));
}

void paintSlices(QPainter &p, const DL &list)
{
    const TimelinePalette &pal = list.palette();
    const QBrush hatch(pal.dark ? QColor(255, 255, 255, 70) : QColor(0, 0, 0, 60), Qt::BDiagPattern);
    const QBrush idle(pal.idle, Qt::FDiagPattern);
    for (const QRectF &r : list.idleGaps()) {
        p.fillRect(r, QColor(pal.idle.red(), pal.idle.green(), pal.idle.blue(), pal.idle.alpha() / 3));
        p.fillRect(r, idle);
    }
    p.setPen(Qt::NoPen);
    for (const DL::SliceItem &s : list.slices()) {
        if (s.flags & DL::Instant)
            continue;
        QColor fill = QColor::fromRgb(s.fill);
        if (s.flags & DL::Dimmed)
            fill.setAlpha(70);
        p.fillRect(s.rect, fill);
        if (s.flags & DL::Folded)
            p.fillRect(s.rect, hatch);
    }
    // Instants: diamonds on their lane.
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const DL::SliceItem &s : list.slices()) {
        if (!(s.flags & DL::Instant))
            continue;
        const QPointF c = s.rect.center();
        const double h = std::min(s.rect.width(), s.rect.height()) / 2;
        const QPointF pts[]
            = { { c.x(), c.y() - h }, { c.x() + h, c.y() }, { c.x(), c.y() + h }, { c.x() - h, c.y() } };
        QColor fill = QColor::fromRgb(s.fill).darker(pal.dark ? 90 : 140);
        if (s.flags & DL::Dimmed)
            fill.setAlpha(70);
        p.setBrush(fill);
        p.setPen(QPen(pal.text, 0.6));
        p.drawPolygon(pts, 4);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    // Search matches: an outline that stays visible on any fill.
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(pal.highlight, 2));
    for (const DL::SliceItem &s : list.slices())
        if (s.flags & DL::Match)
            p.drawRect(s.rect.adjusted(0.5, 0.5, -0.5, -0.5));
}

void paintLabels(QPainter &p, const DL &list)
{
    p.setFont(list.font());
    QRgb current = 0;
    bool first = true;
    for (const DL::LabelItem &l : list.labels()) {
        if (first || l.color != current) {
            p.setPen(QColor::fromRgb(l.color));
            current = l.color;
            first = false;
        }
        p.drawText(l.rect, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, l.text);
    }
}

void paintCounters(QPainter &p, const DL &list)
{
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const DL::CounterItem &c : list.counters()) {
        QColor fill = QColor::fromRgb(c.color);
        fill.setAlpha(90);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(c.area);
        p.setPen(QPen(QColor::fromRgb(c.color), 1.2));
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(c.line);
        p.setPen(list.palette().dimText);
        p.drawText(c.rect.adjusted(4, 1, -4, 0), Qt::AlignTop | Qt::AlignLeft, c.maxLabel);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

void paintArrow(QPainter &p, QPointF a, QPointF b)
{
    // A curve leaving a downwards and entering b from above, with a head at b.
    QPainterPath path(a);
    const double dy = std::max(12.0, std::abs(b.y() - a.y()) / 2);
    path.cubicTo(a + QPointF(0, b.y() >= a.y() ? dy : -dy), b - QPointF(0, b.y() >= a.y() ? dy : -dy), b);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const QPointF dir = b.y() >= a.y() ? QPointF(0, 1) : QPointF(0, -1);
    const QPointF side(5, 0);
    const QPointF tip = b, base = b - dir * 8;
    const QPointF head[] = { tip, base + side, base - side };
    p.setBrush(p.pen().color());
    p.drawPolygon(head, 3);
}

void paintOverlays(QPainter &p, const DL &list)
{
    const TimelinePalette &pal = list.palette();
    const TimelineGeometry &g = list.geometry();
    if (list.rangeRect()) {
        const QRectF r = *list.rangeRect();
        p.fillRect(QRectF(r.left(), g.tracksTop(), r.width(), g.tracksHeight()), pal.range);
        QColor edge = pal.range;
        edge.setAlpha(220);
        p.setPen(QPen(edge, 1));
        p.drawLine(QPointF(r.left(), 0), QPointF(r.left(), g.size.height()));
        p.drawLine(QPointF(r.right(), 0), QPointF(r.right(), g.size.height()));
    }
    if (list.selectionRect()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(pal.text, 2));
        p.drawRect(list.selectionRect()->adjusted(-1, -1, 1, 1));
    }
    if (!list.arrows().empty()) {
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(pal.flow, 1.6));
        for (const DL::ArrowItem &a : list.arrows())
            paintArrow(p, a.from, a.to);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
    if (list.rubberBand()) {
        QColor fill = pal.range;
        p.fillRect(*list.rubberBand(), fill);
        fill.setAlpha(200);
        p.setPen(QPen(fill, 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(*list.rubberBand());
    }
}

void paintGutter(QPainter &p, const DL &list)
{
    const TimelinePalette &pal = list.palette();
    const TimelineGeometry &g = list.geometry();
    p.fillRect(QRectF(0, g.tracksTop(), g.gutterPx, g.tracksHeight()), pal.ruler);
    QFont bold = list.font();
    bold.setBold(true);
    for (const DL::RowItem &r : list.rows()) {
        const double x = 6 + 12 * r.indent;
        const double textX = x + (r.header ? 14 : 0);
        const QRectF box(textX, r.rect.top(), g.gutterPx - textX - 4, r.header ? r.rect.height() : 18);
        if (r.header) {
            p.fillRect(QRectF(0, r.rect.top(), g.gutterPx, r.rect.height()), pal.header);
            // Disclosure triangle: right when collapsed, down when open.
            const QPointF c(x + 5, r.rect.center().y());
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(pal.dimText);
            if (r.collapsed) {
                const QPointF tri[] = { c + QPointF(-3, -4), c + QPointF(3, 0), c + QPointF(-3, 4) };
                p.drawPolygon(tri, 3);
            } else {
                const QPointF tri[] = { c + QPointF(-4, -2), c + QPointF(4, -2), c + QPointF(0, 3) };
                p.drawPolygon(tri, 3);
            }
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setFont(bold);
            p.setPen(pal.text);
            p.drawText(box, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, r.label);
            if (r.collapsed) // the header spans the time area too, so a collapsed group still reads
                p.fillRect(QRectF(g.timeLeft(), r.rect.bottom() - 1, g.timeWidth(), 1), pal.grid);
        } else {
            p.setFont(list.font());
            p.setPen(pal.text);
            p.drawText(box.adjusted(0, TimelineLayout::kTrackPaddingPx, 0, TimelineLayout::kTrackPaddingPx),
                Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, r.label);
            p.fillRect(QRectF(0, r.rect.bottom() - 1, g.size.width(), 1), pal.grid);
        }
    }
    p.fillRect(QRectF(g.gutterPx - 1, 0, 1, g.size.height()), pal.grid);
}

void paintRuler(QPainter &p, const DL &list)
{
    const TimelinePalette &pal = list.palette();
    const TimelineGeometry &g = list.geometry();
    p.fillRect(QRectF(0, 0, g.size.width(), g.tracksTop()), pal.ruler);
    p.save();
    p.setClipRect(QRectF(g.timeLeft(), 0, g.timeWidth(), g.tracksTop()));
    p.setFont(list.font());
    for (const DL::TickItem &t : list.ticks()) {
        p.setPen(QPen(t.major ? pal.dimText : pal.grid, 0));
        const double h = t.major ? 9 : 4;
        p.drawLine(QPointF(t.x, g.rulerPx - h), QPointF(t.x, g.rulerPx));
        if (t.major && !t.label.isEmpty()) {
            p.setPen(pal.text);
            p.drawText(QRectF(t.x + 3, 0, 200, g.rulerPx - 6), Qt::AlignLeft | Qt::AlignVCenter, t.label);
        }
    }
    // Steps.
    for (const DL::StepItem &s : list.steps()) {
        p.fillRect(s.rect, s.alternate ? pal.stepAlt : pal.step);
        p.fillRect(QRectF(s.rect.left(), s.rect.top(), 1, s.rect.height()), pal.background);
        if (!s.label.isEmpty()) {
            p.setPen(QColor(0xf4, 0xf6, 0xfa));
            p.drawText(
                s.rect.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextSingleLine, s.label);
        }
    }
    if (list.rangeRect() && !list.rangeLabel().isEmpty()) {
        const QRectF r = *list.rangeRect();
        const QRectF band(r.left(), 0, r.width(), g.rulerPx);
        QColor fill = pal.range;
        fill.setAlpha(160);
        p.fillRect(band, fill);
        p.setPen(pal.text);
        p.drawText(band, Qt::AlignCenter | Qt::TextSingleLine, list.rangeLabel());
    }
    p.restore();
    p.fillRect(QRectF(0, g.tracksTop() - 1, g.size.width(), 1), pal.grid);
    p.setPen(pal.dimText);
    p.setFont(list.font());
    p.drawText(
        QRectF(6, 0, g.gutterPx - 12, g.rulerPx), Qt::AlignVCenter | Qt::AlignLeft, QObject::tr("time"));
}

} // namespace

void paintTimeline(QPainter &p, const TimelineDrawList &list)
{
    const TimelineGeometry &g = list.geometry();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(QRectF(QPointF(0, 0), g.size), list.palette().background);

    p.save();
    p.setClipRect(QRectF(0, g.tracksTop(), g.size.width() - g.scrollbarPx, g.tracksHeight()));
    paintRows(p, list);
    p.restore();

    p.save();
    p.setClipRect(g.tracksRect());
    paintGrid(p, list);
    paintSlices(p, list);
    paintLabels(p, list);
    paintCounters(p, list);
    p.restore();

    p.save();
    p.setClipRect(QRectF(0, g.tracksTop(), g.gutterPx, g.tracksHeight()));
    paintGutter(p, list);
    p.restore();

    paintRuler(p, list);

    p.save();
    p.setClipRect(QRectF(g.timeLeft(), 0, g.timeWidth(), g.size.height()));
    paintOverlays(p, list);
    p.restore();
    p.restore();
}

} // namespace plumb
