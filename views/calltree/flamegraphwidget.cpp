// SPDX-License-Identifier: GPL-3.0-or-later
#include "calltree/flamegraphwidget.h"

#include "timeline/timescale.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace plumb {

int64_t flameWeight(const CallTree &tree, int32_t node)
{
    const CallTreeNode &n = tree.nodes[size_t(node)];
    return tree.bottomUp && node > 0 ? n.selfNs : n.totalNs;
}

std::vector<FlameBox> flameBoxes(const CallTree &tree, int32_t top, double widthPx, double minPx)
{
    std::vector<FlameBox> out;
    if (top < 0 || size_t(top) >= tree.nodes.size() || widthPx <= 0 || flameWeight(tree, top) <= 0)
        return out;
    const double perNs = widthPx / double(flameWeight(tree, top));
    out.push_back({ top, 0, 0, widthPx });
    // Breadth-first through what is wide enough: each box's children side by side from its left edge.
    for (size_t i = 0; i < out.size(); ++i) {
        const FlameBox parent = out[i];
        double x = parent.x;
        for (const int32_t c : tree.nodes[size_t(parent.node)].children) {
            const double w = double(flameWeight(tree, c)) * perNs;
            if (w >= minPx)
                out.push_back({ c, parent.depth + 1, x, w });
            x += w;
        }
    }
    return out;
}

FlameGraphWidget::FlameGraphWidget(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Flame graph"));
    setAccessibleDescription(
        tr("Width is total time, depth is nesting. Click selects, double-click zooms in, "
           "Esc zooms out."));
}

void FlameGraphWidget::setTree(std::shared_ptr<const CallTree> tree)
{
    m_tree = std::move(tree);
    m_selected = -1;
    m_zoom = 0;
    relayout();
}

void FlameGraphWidget::setSearch(const QString &text)
{
    m_search = text.trimmed();
    update();
}

void FlameGraphWidget::setSelectedNode(int32_t node)
{
    m_selected = node;
    update();
}

void FlameGraphWidget::zoomTo(int32_t node)
{
    if (!m_tree || node < 0 || size_t(node) >= m_tree->nodes.size() || node == m_zoom)
        return;
    m_zoom = node;
    relayout();
    Q_EMIT zoomChanged(node);
}

int32_t FlameGraphWidget::nodeAt(QPointF pos) const
{
    for (const FlameBox &b : m_boxes) {
        const double y = b.depth * kRowHeightPx;
        if (pos.y() >= y && pos.y() < y + kRowHeightPx && pos.x() >= b.x && pos.x() < b.x + b.width)
            return b.node;
    }
    return -1;
}

QRectF FlameGraphWidget::boxOf(int32_t node) const
{
    for (const FlameBox &b : m_boxes)
        if (b.node == node)
            return { b.x, b.depth * kRowHeightPx, b.width, kRowHeightPx };
    return {};
}

void FlameGraphWidget::relayout()
{
    m_boxes = m_tree ? flameBoxes(*m_tree, m_zoom, width(), kMinBoxPx) : std::vector<FlameBox> {};
    int depth = 0;
    for (const FlameBox &b : m_boxes)
        depth = std::max(depth, b.depth);
    setMinimumHeight(m_boxes.empty() ? 0 : int((depth + 1) * kRowHeightPx) + 1);
    update();
}

void FlameGraphWidget::resizeEvent(QResizeEvent *)
{
    relayout();
}

QColor FlameGraphWidget::colorOf(int32_t node) const
{
    if (node == 0)
        return palette().color(QPalette::Mid);
    // A warm hue from the name, stable across ranges and views (as flame graphs colour them).
    const QString &name = m_tree->nameOf(node);
    const size_t h = qHash(name);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const int hue = int(h % 50); // red to yellow
    const int sat = 150 + int((h >> 8) % 70);
    return QColor::fromHsl(hue, sat, dark ? 95 + int((h >> 16) % 30) : 150 + int((h >> 16) % 40));
}

QString FlameGraphWidget::toolTipOf(int32_t node) const
{
    const CallTreeNode &n = m_tree->nodes[size_t(node)];
    const int64_t range = m_tree->rangeNs();
    QString text = QStringLiteral("<b>%1</b><br>").arg(m_tree->nameOf(node).toHtmlEscaped());
    text += tr("Total %1 (%2% of the range), self %3")
                .arg(formatDuration(n.totalNs))
                .arg(range > 0 ? 100.0 * double(n.totalNs) / double(range) : 0.0, 0, 'f', 1)
                .arg(formatDuration(n.selfNs));
    text += QStringLiteral("<br>")
        + (m_tree->source == CallTreeSource::Samples ? tr("%1 samples") : tr("%1 calls"))
              .arg(QLocale().toString(qlonglong(n.count)));
    return text;
}

void FlameGraphWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (m_boxes.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, m_tree ? tr("Nothing ran on the CPU in this range.") : QString());
        return;
    }
    const QFontMetricsF fm(font());
    const QColor text = palette().color(QPalette::Text);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QColor dimText = dark ? QColor(210, 210, 210) : QColor(30, 30, 30);
    for (const FlameBox &b : m_boxes) {
        const QRectF r(b.x, b.depth * kRowHeightPx, b.width, kRowHeightPx);
        const QString &name = m_tree->nameOf(b.node);
        QColor fill = colorOf(b.node);
        const bool matches
            = m_search.isEmpty() || b.node == 0 || name.contains(m_search, Qt::CaseInsensitive);
        if (!matches)
            fill = dark ? fill.darker(250) : QColor::fromHsl(fill.hslHue(), 20, 225);
        p.fillRect(r.adjusted(0, 0, -1, -1), fill);
        if (b.width >= kMinLabelPx) {
            p.setPen(matches ? dimText : palette().color(QPalette::PlaceholderText));
            const QString label
                = b.node == 0 ? tr("all: %1").arg(formatDuration(m_tree->nodes[0].totalNs)) : name;
            p.drawText(r.adjusted(3, 0, -3, -1), Qt::AlignVCenter | Qt::AlignLeft,
                fm.elidedText(label, Qt::ElideRight, b.width - 6));
        }
    }
    if (m_selected >= 0) {
        const QRectF r = boxOf(m_selected);
        if (!r.isEmpty()) {
            p.setPen(QPen(text, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -2, -2));
        }
    }
}

void FlameGraphWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::RightButton) {
        if (m_tree && m_zoom > 0)
            zoomTo(std::max(0, m_tree->nodes[size_t(m_zoom)].parent));
        return;
    }
    const int32_t node = nodeAt(event->position());
    if (node < 0)
        return;
    m_selected = node;
    update();
    Q_EMIT nodeClicked(node);
}

void FlameGraphWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int32_t node = nodeAt(event->position());
    if (node >= 0)
        zoomTo(node == m_zoom && m_tree ? std::max(0, m_tree->nodes[size_t(node)].parent) : node);
}

void FlameGraphWidget::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Escape || event->key() == Qt::Key_Backspace) && m_tree && m_zoom > 0) {
        zoomTo(std::max(0, m_tree->nodes[size_t(m_zoom)].parent));
        return;
    }
    QWidget::keyPressEvent(event);
}

bool FlameGraphWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int32_t node = nodeAt(help->pos());
        if (node >= 0 && m_tree)
            QToolTip::showText(help->globalPos(), toolTipOf(node), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace plumb
