// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/parallelcoordinateschart.h"

#include <QFileInfo>
#include <QImage>
#include <QMouseEvent>
#include <QPageSize>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace plumb {

namespace {

constexpr double kAxisGrabPx = 12; // how near an axis a drag starts a brush
constexpr double kBrushHalfWidthPx = 7;
constexpr double kHoverPx = 5; // how near a polyline the pointer names its run
constexpr double kColorBarWidthPx = 12;
constexpr int kTitleLines = 2; // axis titles alternate between two rows when they are wide
constexpr double kExportScale = 2; // PNG export at twice the on-screen size

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

} // namespace

ParallelCoordinatesChart::ParallelCoordinatesChart(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Parallel coordinates of the selected runs"));
}

void ParallelCoordinatesChart::setGeometryData(
    const ParallelCoordinatesGeometry &geometry, const QStringList &runNames)
{
    m_geometry = geometry;
    m_runNames = runNames;
    m_dragAxis = -1;
    update();
}

void ParallelCoordinatesChart::setBrush(int axis, double lo, double hi)
{
    m_geometry.setBrush(axis, lo, hi);
    update();
    Q_EMIT brushesChanged();
}

void ParallelCoordinatesChart::clearBrushes()
{
    m_geometry.clearBrushes();
    update();
    Q_EMIT brushesChanged();
}

QColor ParallelCoordinatesChart::rampColor(double t)
{
    // Viridis at five stops, interpolated: perceptually ordered, readable by most colour-blind eyes.
    static const QColor stops[] = { QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
        QColor(0x21, 0x90, 0x8c), QColor(0x5d, 0xc8, 0x63), QColor(0xfd, 0xe7, 0x25) };
    t = std::clamp(t, 0.0, 1.0) * 4;
    const int i = std::min(int(t), 3);
    const double f = t - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
        float(a.greenF() + f * (b.greenF() - a.greenF())), float(a.blueF() + f * (b.blueF() - a.blueF())));
}

QRectF ParallelCoordinatesChart::plotRect(QSizeF size) const
{
    const QFontMetricsF fm(font());
    const double top = fm.height() * kTitleLines + 14;
    const double bottom = fm.height() * 0.8 + 6;
    // The colour bar and its labels on the right.
    const double right = m_geometry.colorMetric().isEmpty()
        ? 8
        : kColorBarWidthPx + fm.horizontalAdvance(QStringLiteral("-0.0000e-00")) + 16;
    const double left = 8;
    return QRectF(
        left, top, std::max(10.0, size.width() - left - right), std::max(10.0, size.height() - top - bottom));
}

void ParallelCoordinatesChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paint(p, size());
}

void ParallelCoordinatesChart::paint(QPainter &p, QSizeF size) const
{
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(QRectF(QPointF(0, 0), size), palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    const QFontMetricsF fm(font());
    if (m_geometry.axisCount() == 0 || m_geometry.runCount() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRectF(QPointF(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap,
            m_geometry.runCount() == 0 ? tr("Select runs in the runs table.")
                                       : tr("Choose axes on the right."));
        return;
    }
    const QRectF r = plotRect(size);
    const int n = m_geometry.axisCount();
    auto x = [&](int axis) { return ParallelCoordinatesGeometry::axisX(axis, n, r.left(), r.width()); };
    auto y = [&](double pos) { return ParallelCoordinatesGeometry::posToY(pos, r.top(), r.height()); };

    // Polylines: the runs outside the brushes first, in grey, then the kept ones in colour.
    const bool brushed = m_geometry.hasBrushes();
    QColor grey = palette().color(QPalette::Mid);
    grey.setAlphaF(0.45f);
    for (int pass = 0; pass < 2; ++pass)
        for (int run = 0; run < m_geometry.runCount(); ++run) {
            const bool kept = m_geometry.kept(run);
            if (kept != (pass == 1))
                continue;
            const double c = m_geometry.colorPos(run);
            QColor color = !kept ? grey : std::isnan(c) ? palette().color(QPalette::Dark) : rampColor(c);
            if (kept && !brushed)
                color.setAlphaF(0.85f);
            p.setPen(QPen(color, kept ? 1.6 : 1.0));
            QPainterPath path;
            bool open = false;
            for (int a = 0; a < n; ++a) {
                const double pos = m_geometry.axis(a).pos[size_t(run)];
                if (std::isnan(pos)) {
                    open = false; // the line breaks where the run has no value
                    continue;
                }
                const QPointF pt(x(a), y(pos));
                if (open)
                    path.lineTo(pt);
                else
                    path.moveTo(pt);
                open = true;
            }
            p.drawPath(path);
        }

    // Axes, their brushes, ticks and titles.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF sfm(small);
    const double spacing = r.width() / n;
    const QColor halo = [this] {
        QColor c = palette().color(QPalette::Base);
        c.setAlphaF(0.75f);
        return c;
    }();
    bool stagger = false;
    for (int a = 0; a < n; ++a)
        stagger = stagger || fm.horizontalAdvance(m_geometry.axis(a).spec.key) > spacing - 6;
    for (int a = 0; a < n; ++a) {
        const auto &axis = m_geometry.axis(a);
        const double ax = x(a);
        if (axis.brush) {
            const QRectF b(QPointF(ax - kBrushHalfWidthPx, y(axis.brush->second)),
                QPointF(ax + kBrushHalfWidthPx, y(axis.brush->first)));
            QColor fill = palette().color(QPalette::Highlight);
            fill.setAlphaF(0.3f);
            p.fillRect(b, fill);
            p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
            p.drawRect(b);
        }
        p.setPen(QPen(text, axis.spec.metric ? 2.0 : 1.2));
        p.drawLine(QPointF(ax, r.top()), QPointF(ax, r.bottom()));
        p.setFont(small);
        // Tick labels to the right of the axis, on a halo so the lines beneath do not hide them.
        const int maxLabels = std::max(2, int(r.height() / (sfm.height() + 2)));
        for (const auto &[pos, label] : ParallelCoordinatesGeometry::ticks(axis, 3, maxLabels)) {
            const double ty = y(pos);
            p.setPen(QPen(text, 1));
            p.drawLine(QPointF(ax - 3, ty), QPointF(ax, ty));
            const QString shown = sfm.elidedText(label, Qt::ElideMiddle, std::max(20.0, spacing - 10));
            QRectF box(ax + 3, ty - sfm.height() / 2, sfm.horizontalAdvance(shown) + 2, sfm.height());
            box.moveTop(std::clamp(box.top(), r.top() - sfm.height() / 2, r.bottom() - sfm.height() / 2));
            p.fillRect(box, halo);
            p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, shown);
        }
        p.setFont(font());
        QFont titleFont = font();
        titleFont.setBold(axis.spec.metric);
        p.setFont(titleFont);
        const QFontMetricsF tfm(titleFont);
        const double titleWidth = stagger ? 2 * spacing - 6 : spacing - 4;
        const QString title = tfm.elidedText(axis.spec.key, Qt::ElideMiddle, titleWidth);
        const int line = stagger ? a % 2 : kTitleLines - 1;
        const QRectF titleRect(ax - titleWidth / 2, 4 + line * fm.height(), titleWidth, fm.height());
        p.setPen(text);
        p.drawText(titleRect, Qt::AlignHCenter | Qt::AlignVCenter, title);
        if (axis.logScale) {
            p.setFont(small);
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(
                QRectF(ax - spacing / 2, r.bottom() + 4, spacing, sfm.height()), Qt::AlignHCenter, tr("log"));
        }
        p.setFont(font());
    }

    // The colour bar.
    if (!m_geometry.colorMetric().isEmpty()) {
        const QRectF bar(r.right() + 10, r.top(), kColorBarWidthPx, r.height());
        QLinearGradient g(bar.bottomLeft(), bar.topLeft());
        for (int i = 0; i <= 8; ++i)
            g.setColorAt(i / 8.0, rampColor(i / 8.0));
        p.fillRect(bar, g);
        p.setPen(QPen(text, 1));
        p.drawRect(bar);
        p.setFont(small);
        const double lo = m_geometry.colorMin(), hi = m_geometry.colorMax();
        p.drawText(QPointF(bar.right() + 4, bar.top() + sfm.ascent()), QString::number(hi, 'g', 4));
        p.drawText(QPointF(bar.right() + 4, bar.bottom()), QString::number(lo, 'g', 4));
        p.setFont(font());
    }
}

int ParallelCoordinatesChart::runNear(QPointF point) const
{
    const QRectF r = plotRect(size());
    const int n = m_geometry.axisCount();
    int best = -1;
    double bestDistance = kHoverPx;
    for (int run = 0; run < m_geometry.runCount(); ++run) {
        QPointF prev;
        bool open = false;
        for (int a = 0; a < n; ++a) {
            const double pos = m_geometry.axis(a).pos[size_t(run)];
            if (std::isnan(pos)) {
                open = false;
                continue;
            }
            const QPointF pt(ParallelCoordinatesGeometry::axisX(a, n, r.left(), r.width()),
                ParallelCoordinatesGeometry::posToY(pos, r.top(), r.height()));
            const double d = open ? distanceToSegment(point, prev, pt)
                                  : std::hypot(point.x() - pt.x(), point.y() - pt.y());
            // Kept runs win over greyed ones at the same distance.
            if (d < bestDistance
                || (d == bestDistance && best >= 0 && !m_geometry.kept(best) && m_geometry.kept(run))) {
                bestDistance = d;
                best = run;
            }
            prev = pt;
            open = true;
        }
    }
    return best;
}

void ParallelCoordinatesChart::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const QRectF r = plotRect(size());
    m_dragAxis = ParallelCoordinatesGeometry::axisNear(
        event->position().x(), m_geometry.axisCount(), r.left(), r.width(), kAxisGrabPx);
    m_dragStart = ParallelCoordinatesGeometry::yToPos(event->position().y(), r.top(), r.height());
    m_dragMoved = false;
}

void ParallelCoordinatesChart::mouseMoveEvent(QMouseEvent *event)
{
    const QRectF r = plotRect(size());
    if (m_dragAxis >= 0 && (event->buttons() & Qt::LeftButton)) {
        const double pos = ParallelCoordinatesGeometry::yToPos(event->position().y(), r.top(), r.height());
        if (std::abs(pos - m_dragStart) * r.height() >= 3)
            m_dragMoved = true;
        if (m_dragMoved)
            setBrush(m_dragAxis, m_dragStart, pos);
        return;
    }
    const int axis = ParallelCoordinatesGeometry::axisNear(
        event->position().x(), m_geometry.axisCount(), r.left(), r.width(), kAxisGrabPx);
    setCursor(axis >= 0 ? Qt::SizeVerCursor : Qt::ArrowCursor);
    const int run = runNear(event->position());
    if (run < 0 || run >= m_runNames.size()) {
        QToolTip::hideText();
        return;
    }
    QString tip = m_runNames[run];
    const double c = m_geometry.colorPos(run);
    if (!m_geometry.colorMetric().isEmpty() && !std::isnan(c))
        tip += QStringLiteral("\n%1: %2")
                   .arg(m_geometry.colorMetric())
                   .arg(m_geometry.colorMin() + c * (m_geometry.colorMax() - m_geometry.colorMin()), 0, 'g',
                       6);
    QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void ParallelCoordinatesChart::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_dragAxis >= 0 && !m_dragMoved
        && m_geometry.axis(m_dragAxis).brush) {
        m_geometry.clearBrush(m_dragAxis);
        update();
        Q_EMIT brushesChanged();
    }
    m_dragAxis = -1;
}

void ParallelCoordinatesChart::mouseDoubleClickEvent(QMouseEvent *)
{
    if (m_geometry.hasBrushes())
        clearBrushes();
}

bool ParallelCoordinatesChart::exportTo(const QString &path) const
{
    const QSizeF s = size().isEmpty() ? QSizeF(sizeHint()) : QSizeF(size());
    if (QFileInfo(path).suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0) {
        QPdfWriter pdf(path);
        pdf.setResolution(72); // one unit = one point = one pixel on screen
        pdf.setPageSize(QPageSize(s, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (!p.begin(&pdf))
            return false;
        paint(p, s);
        return p.end();
    }
    QImage image((s * kExportScale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kExportScale);
    QPainter p(&image);
    paint(p, s);
    p.end();
    return image.save(path, "PNG");
}

} // namespace plumb
