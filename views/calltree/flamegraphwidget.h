// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/calltree.h"

#include <QWidget>

#include <memory>
#include <vector>

namespace plumb {

// One box of a flame graph: a node of the tree at (x, depth), widths in pixels.
struct FlameBox {
    int32_t node = 0;
    int depth = 0; // 0: the zoomed-in node
    double x = 0;
    double width = 0;
};

// A node's width in a flame graph: its total time; bottom-up, its self time along its chain of callers
// (what the function itself spent there), so that callers split their callee's box.
[[nodiscard]] int64_t flameWeight(const CallTree &tree, int32_t node);
// The boxes of `tree` from `top` down (top spans `widthPx`; each child as wide as its share of its
// parent's weight, left to right in the tree's order), skipping what is narrower than minPx (its time
// stays in its parent's box). Pure, for tests.
[[nodiscard]] std::vector<FlameBox> flameBoxes(
    const CallTree &tree, int32_t top, double widthPx, double minPx);

// A flame graph of a CallTree (QPainter): width is total time, depth is nesting (the root, "all", on
// top, callees below, as an icicle; bottom-up: each function as wide as its self time, its callers
// below). Hover: a tooltip with the node's
// figures. Click: selects a node (nodeClicked). Double-click: zooms into it (it spans the width);
// Esc, Backspace or a right-click zooms back out one level. Names matching the search are drawn,
// the rest dimmed.
class FlameGraphWidget final : public QWidget {
    Q_OBJECT
public:
    static constexpr double kRowHeightPx = 18; // one nesting level
    static constexpr double kMinBoxPx = 2; // narrower boxes are not drawn
    static constexpr double kMinLabelPx = 28; // narrower boxes have no text

    explicit FlameGraphWidget(QWidget *parent = nullptr);

    void setTree(std::shared_ptr<const CallTree> tree);
    void setSearch(const QString &text);
    void setSelectedNode(int32_t node);
    [[nodiscard]] int32_t selectedNode() const { return m_selected; }
    void zoomTo(int32_t node);
    [[nodiscard]] int32_t zoomNode() const { return m_zoom; }
    // The node drawn at a widget position, -1 when none.
    [[nodiscard]] int32_t nodeAt(QPointF pos) const;
    // The box of a node as drawn now (empty when it is not drawn).
    [[nodiscard]] QRectF boxOf(int32_t node) const;

    [[nodiscard]] QSize sizeHint() const override { return { 800, 260 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 200, 80 }; }

Q_SIGNALS:
    void nodeClicked(int32_t node);
    void zoomChanged(int32_t node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void relayout();
    [[nodiscard]] QColor colorOf(int32_t node) const;
    [[nodiscard]] QString toolTipOf(int32_t node) const;

    std::shared_ptr<const CallTree> m_tree;
    std::vector<FlameBox> m_boxes; // for the current width and zoom
    QString m_search;
    int32_t m_selected = -1;
    int32_t m_zoom = 0;
};

} // namespace plumb
