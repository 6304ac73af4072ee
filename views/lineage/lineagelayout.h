// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace plumb {

// A layered drawing of a lineage neighbourhood, left to right along the data flow (data ->
// executions -> models), as Sugiyama's method lays out a DAG: edges that close a cycle are reversed
// for the layering (found by a depth-first walk, so a cycle is drawn, not looped on); each node's
// layer is its longest path from a source; nodes within a layer are ordered by the mean position of
// their neighbours in the layer before and after (a few sweeps each way), which removes most
// crossings; then layers become columns and positions rows.
class LineageLayout {
public:
    static constexpr double kNodeWidth = 230;
    static constexpr double kNodeHeight = 44;
    static constexpr double kColumnGap = 90; // between the right of a column and the left of the next
    static constexpr double kRowGap = 22;

    // `nodeCount` nodes 0..n-1; `edges` (from, to) in data-flow direction.
    void compute(int nodeCount, const std::vector<std::pair<int, int>> &edges);

    [[nodiscard]] int layerOf(int node) const { return m_layer[size_t(node)]; }
    [[nodiscard]] int rowOf(int node) const { return m_row[size_t(node)]; }
    [[nodiscard]] int layerCount() const { return m_layers; }
    // The node's box in scene coordinates.
    [[nodiscard]] QRectF rect(int node) const;
    // The points an edge's curve passes: the side of `from` it leaves, the left and right of each
    // layer's slot it crosses (for an edge across several layers), the side of `to` it enters.
    [[nodiscard]] std::vector<QPointF> route(int from, int to) const;
    [[nodiscard]] QRectF bounds() const;
    // Edges drawn against the flow to break a cycle.
    [[nodiscard]] const std::vector<std::pair<int, int>> &reversedEdges() const { return m_reversed; }
    // Pairs of edges between the same two layers that cross (for tests and as a quality figure).
    [[nodiscard]] int crossings(const std::vector<std::pair<int, int>> &edges) const;

private:
    std::vector<int> m_layer, m_row;
    std::vector<int> m_layerSize;
    std::vector<std::pair<int, int>> m_reversed;
    std::map<std::pair<int, int>, std::vector<int>> m_chains; // long edge (in DAG direction) -> its waypoints
    int m_layers = 0;
    int m_maxRows = 0;
};

} // namespace plumb
