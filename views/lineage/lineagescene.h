// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QColor;
class QFont;
class QGraphicsScene;

namespace plumb {

class LineageLayout;
struct LineageGraph;

// QGraphicsItem::data key of a node's box: the node's index in the graph.
constexpr int kLineageIndexKey = 0;

// Draws a laid-out lineage neighbourhood into `scene` (edges as curves with arrow heads, dashed where
// they close a cycle; nodes as boxes coloured by kind, failed executions red, the focus outlined) and
// sets its scene rect: what the Lineage tab shows and what its export and the review report render.
void drawLineageScene(QGraphicsScene &scene, const LineageGraph &graph, const LineageLayout &layout,
    const QFont &font, const QColor &edgeColour);

} // namespace plumb
