// SPDX-License-Identifier: GPL-3.0-or-later
#include "lineage/lineagelayout.h"

#include <algorithm>
#include <numeric>

namespace plumb {

void LineageLayout::compute(int nodeCount, const std::vector<std::pair<int, int>> &edges)
{
    const size_t n = size_t(std::max(nodeCount, 0));
    m_layer.assign(n, 0);
    m_row.assign(n, 0);
    m_reversed.clear();
    m_layerSize.assign(n ? 1 : 0, int(n));
    m_layers = n ? 1 : 0;
    m_maxRows = 0;
    if (n == 0)
        return;

    // Break cycles: an edge to a node still on the depth-first stack closes one; it is reversed.
    std::vector<std::vector<int>> out(n);
    for (const auto &[a, b] : edges)
        if (a != b && a >= 0 && b >= 0 && size_t(a) < n && size_t(b) < n)
            out[size_t(a)].push_back(b);
    std::vector<std::vector<int>> dag(n); // edges kept in direction, the reversed ones flipped
    std::vector<int> state(n, 0); // 0 new, 1 on the stack, 2 done
    for (size_t root = 0; root < n; ++root) {
        if (state[root])
            continue;
        std::vector<std::pair<int, size_t>> stack { { int(root), 0 } };
        state[root] = 1;
        while (!stack.empty()) {
            auto &[v, next] = stack.back();
            if (next < out[size_t(v)].size()) {
                const int w = out[size_t(v)][next++];
                if (state[size_t(w)] == 1) {
                    m_reversed.emplace_back(v, w);
                    dag[size_t(w)].push_back(v);
                } else {
                    dag[size_t(v)].push_back(w);
                    if (state[size_t(w)] == 0) {
                        state[size_t(w)] = 1;
                        stack.emplace_back(w, 0);
                    }
                }
            } else {
                state[size_t(v)] = 2;
                stack.pop_back();
            }
        }
    }

    // Longest path from a source, in topological order (Kahn).
    std::vector<int> indegree(n, 0);
    for (size_t v = 0; v < n; ++v)
        for (int w : dag[v])
            ++indegree[size_t(w)];
    std::vector<int> queue;
    for (size_t v = 0; v < n; ++v)
        if (indegree[v] == 0)
            queue.push_back(int(v));
    for (size_t head = 0; head < queue.size(); ++head) {
        const int v = queue[head];
        for (int w : dag[size_t(v)]) {
            m_layer[size_t(w)] = std::max(m_layer[size_t(w)], m_layer[size_t(v)] + 1);
            if (--indegree[size_t(w)] == 0)
                queue.push_back(w);
        }
    }
    m_layers = *std::max_element(m_layer.begin(), m_layer.end()) + 1;

    // An edge across several layers gets a waypoint (a dummy vertex) in each layer between, ordered
    // with the nodes, so that it passes through a slot of its own instead of through their boxes.
    m_chains.clear();
    std::vector<std::vector<int>> next(n);
    for (size_t v = 0; v < n; ++v) {
        for (const int w : dag[v]) {
            if (m_layer[size_t(w)] - m_layer[v] <= 1) {
                next[v].push_back(w);
                continue;
            }
            if (m_chains.count({ int(v), w }))
                continue; // the same edge twice (a cycle's reversed edge over an existing one): one route

            std::vector<int> chain;
            size_t previous = v;
            for (int l = m_layer[v] + 1; l < m_layer[size_t(w)]; ++l) {
                const int d = int(m_layer.size());
                m_layer.push_back(l);
                m_row.push_back(0);
                next.emplace_back();
                next[previous].push_back(d);
                chain.push_back(d);
                previous = size_t(d);
            }
            next[previous].push_back(w);
            m_chains[{ int(v), w }] = std::move(chain);
        }
    }
    dag = std::move(next);
    const size_t all = m_layer.size();

    // Order within layers by the barycenter of neighbours, sweeping right then left.
    std::vector<std::vector<int>> layers(static_cast<size_t>(m_layers));
    for (size_t v = 0; v < all; ++v)
        layers[size_t(m_layer[v])].push_back(int(v));
    std::vector<std::vector<int>> in(all);
    for (size_t v = 0; v < all; ++v)
        for (int w : dag[v])
            in[size_t(w)].push_back(int(v));
    std::vector<double> position(all);
    auto place = [&] {
        for (const auto &layer : layers)
            for (size_t i = 0; i < layer.size(); ++i)
                position[size_t(layer[i])] = double(i);
    };
    place();
    auto sweep = [&](size_t l, const std::vector<std::vector<int>> &neighbours) {
        std::vector<std::pair<double, int>> keyed;
        for (int v : layers[l]) {
            const auto &ns = neighbours[size_t(v)];
            double key = position[size_t(v)];
            if (!ns.empty()) {
                double sum = 0;
                for (int w : ns)
                    sum += position[size_t(w)];
                key = sum / double(ns.size());
            }
            keyed.emplace_back(key, v);
        }
        std::stable_sort(
            keyed.begin(), keyed.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
        for (size_t i = 0; i < keyed.size(); ++i) {
            layers[l][i] = keyed[i].second;
            position[size_t(keyed[i].second)] = double(i);
        }
    };
    for (int pass = 0; pass < 4; ++pass) {
        for (size_t l = 1; l < layers.size(); ++l)
            sweep(l, in);
        for (size_t l = layers.size() - 1; l-- > 0;)
            sweep(l, dag);
    }
    m_layerSize.clear();
    for (const auto &layer : layers) {
        m_layerSize.push_back(int(layer.size()));
        m_maxRows = std::max(m_maxRows, int(layer.size()));
        for (size_t i = 0; i < layer.size(); ++i)
            m_row[size_t(layer[i])] = int(i);
    }
}

std::vector<QPointF> LineageLayout::route(int from, int to) const
{
    const QRectF a = rect(from), b = rect(to);
    // An edge that closes a cycle runs against the layering: right to left, its waypoints backwards.
    const bool reversed
        = std::find(m_reversed.begin(), m_reversed.end(), std::make_pair(from, to)) != m_reversed.end();
    const auto chain = reversed ? m_chains.find({ to, from }) : m_chains.find({ from, to });
    std::vector<QPointF> points;
    points.emplace_back(reversed ? a.left() : a.right(), a.center().y());
    if (chain != m_chains.end()) {
        std::vector<QPointF> through;
        for (int d : chain->second) {
            const QRectF slot = rect(d);
            through.emplace_back(slot.left(), slot.center().y());
            through.emplace_back(slot.right(), slot.center().y());
        }
        if (reversed)
            std::reverse(through.begin(), through.end());
        points.insert(points.end(), through.begin(), through.end());
    }
    points.emplace_back(reversed ? b.right() : b.left(), b.center().y());
    return points;
}

QRectF LineageLayout::rect(int node) const
{
    const size_t v = size_t(node);
    // Each column centred vertically on the tallest one.
    const int inLayer = m_layerSize[size_t(m_layer[v])];
    const double offset = (m_maxRows - inLayer) * (kNodeHeight + kRowGap) / 2;
    return { m_layer[v] * (kNodeWidth + kColumnGap), offset + m_row[v] * (kNodeHeight + kRowGap), kNodeWidth,
        kNodeHeight };
}

QRectF LineageLayout::bounds() const
{
    return { 0, 0, m_layers * (kNodeWidth + kColumnGap) - kColumnGap,
        m_maxRows * (kNodeHeight + kRowGap) - kRowGap };
}

int LineageLayout::crossings(const std::vector<std::pair<int, int>> &edges) const
{
    int count = 0;
    for (size_t i = 0; i < edges.size(); ++i)
        for (size_t j = i + 1; j < edges.size(); ++j) {
            const auto [a, b] = edges[i];
            const auto [c, d] = edges[j];
            if (m_layer[size_t(a)] != m_layer[size_t(c)] || m_layer[size_t(b)] != m_layer[size_t(d)]
                || m_layer[size_t(b)] != m_layer[size_t(a)] + 1)
                continue;
            const int x = m_row[size_t(a)] - m_row[size_t(c)], y = m_row[size_t(b)] - m_row[size_t(d)];
            count += (x < 0 && y > 0) || (x > 0 && y < 0);
        }
    return count;
}

} // namespace plumb
