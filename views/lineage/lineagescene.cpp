// SPDX-License-Identifier: GPL-3.0-or-later
#include "lineage/lineagescene.h"

#include "lineage/lineagelayout.h"
#include "store/lineagereader.h"

#include <QFontMetrics>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace plumb {

namespace {

struct NodeColours {
    QColor fill, border;
};

NodeColours coloursOf(const LineageNodeInfo &n)
{
    if (n.kind == QLatin1String("execution") && (isFailedState(n.state) || n.failedMembers > 0))
        return { QColor(0xf8, 0xd7, 0xda), QColor(0xc0, 0x39, 0x2b) };
    if (n.kind == QLatin1String("execution"))
        return { QColor(0xdf, 0xf0, 0xd8), QColor(0x4e, 0x8a, 0x3e) };
    if (n.kind == QLatin1String("context"))
        return { QColor(0xec, 0xec, 0xec), QColor(0x80, 0x80, 0x80) };
    return { QColor(0xdb, 0xe9, 0xf7), QColor(0x3f, 0x72, 0xaf) };
}

} // namespace

void drawLineageScene(QGraphicsScene &scene, const LineageGraph &graph, const LineageLayout &layout,
    const QFont &font, const QColor &edgeColour)
{
    const QColor text(0x20, 0x20, 0x20);
    const QFont &nameFont = font;
    QFont typeFont = font;
    if (font.pixelSize() > 0) // the report sets fonts in pixels (= points on its pages)
        typeFont.setPixelSize(std::max(6, int(std::lround(font.pixelSize() * 0.85))));
    else
        typeFont.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    const QFontMetrics nameMetrics(nameFont);
    std::unordered_map<int64_t, int> index;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        index.emplace(graph.nodes[i].id, int(i));
    std::vector<std::pair<int, int>> reversed = layout.reversedEdges();
    // Edges first, under the boxes: from the right of the source to the left of the target, through
    // the slots the layout kept for it in the columns it crosses (curves between columns, straight
    // through a slot).
    for (const LineageEdgeInfo &e : graph.edges) {
        const auto a = index.find(e.from), b = index.find(e.to);
        if (a == index.end() || b == index.end())
            continue;
        const std::vector<QPointF> points = layout.route(a->second, b->second);
        const bool backwards = points.back().x() < points.front().x();
        QPainterPath path(points.front());
        for (size_t k = 1; k < points.size(); ++k) {
            const QPointF p0 = points[k - 1], p1 = points[k];
            if (k % 2 == 0) { // inside a slot
                path.lineTo(p1);
                continue;
            }
            const double dx = std::max(20.0, std::abs(p1.x() - p0.x()) / 2) * (backwards ? -1 : 1);
            path.cubicTo(p0 + QPointF(dx, 0), p1 - QPointF(dx, 0), p1);
        }
        // The arrow head at the target.
        const QPointF tip = points.back();
        const double s = backwards ? 1 : -1;
        path.moveTo(tip + QPointF(s * 8, -4));
        path.lineTo(tip);
        path.lineTo(tip + QPointF(s * 8, 4));
        QColor c = edgeColour;
        c.setAlpha(140);
        QPen pen(c, 1.2);
        if (std::find(reversed.begin(), reversed.end(), std::make_pair(a->second, b->second))
            != reversed.end())
            pen.setStyle(Qt::DashLine);
        auto *item = scene.addPath(path, pen);
        item->setToolTip(e.kind);
    }
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const LineageNodeInfo &n = graph.nodes[i];
        const QRectF r = layout.rect(int(i));
        const NodeColours colours = coloursOf(n);
        if (n.members.size() > 1) // a folded node: a second box behind, like a stack of cards
            scene.addRect(r.translated(5, 5), QPen(colours.border, 1.2), colours.fill.darker(108));
        auto *box = scene.addRect(r, QPen(colours.border, i == 0 ? 3 : 1.2), colours.fill);
        box->setData(kLineageIndexKey, int(i));
        box->setFlag(QGraphicsItem::ItemIsSelectable);
        box->setToolTip(
            QStringLiteral("%1 %2\n%3%4")
                .arg(n.kind, n.type, n.name, n.uri.isEmpty() ? QString() : QLatin1Char('\n') + n.uri));
        auto *name = new QGraphicsSimpleTextItem(
            nameMetrics.elidedText(n.name, Qt::ElideMiddle, int(r.width() - 12)), box);
        name->setFont(nameFont);
        name->setBrush(text);
        name->setPos(r.left() + 6, r.top() + 4);
        QString sub = n.type.isEmpty() ? n.kind : n.type;
        if (!n.state.isEmpty())
            sub += QStringLiteral(" · ") + n.state;
        if (!n.runIds.isEmpty())
            sub += QStringLiteral(" · run");
        auto *type = new QGraphicsSimpleTextItem(
            QFontMetrics(typeFont).elidedText(sub, Qt::ElideRight, int(r.width() - 12)), box);
        type->setFont(typeFont);
        type->setBrush(colours.border.darker(130));
        type->setPos(r.left() + 6, r.top() + 4 + nameMetrics.height());
    }
    scene.setSceneRect(layout.bounds().adjusted(-30, -30, 30, 30));
}

} // namespace plumb
