// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/calltree.h"
#include "backgroundanalysis.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace plumb {

class CallTreeModel;
class FlameGraphWidget;

// The Call Tree tab: what the host did in a trace. A toolbar picks the thread (the busiest one at
// first, or all CPU threads),
// the range (the whole trace, a step, or the range handed in from the timeline or a Doctor link), the
// source (nested slices, or CPU samples' backtraces when the trace has them) and top-down or
// bottom-up, with a search box; below, the call tree (name, total, self, count, % of range) over its
// flame graph. Both trees are built on a worker (one analysis at a time, a superseded one dropped);
// clicking a node in either view selects it in both and looks up its slices, which slicesSelected()
// hands to the timeline.
class CallTreePanel final : public QWidget {
    Q_OBJECT
public:
    explicit CallTreePanel(QWidget *parent = nullptr);
    ~CallTreePanel() override;

    // A trace of the workspace at `workspacePath`: its threads and steps are listed and the whole
    // trace's tree built (unless a range follows at once).
    void open(const QString &workspacePath, int64_t traceId);
    void close();
    [[nodiscard]] int64_t traceId() const { return m_traceId; }
    // The workspace the trace's events are in (a job's rank: its shard's).
    [[nodiscard]] const QString &workspacePath() const { return m_workspacePath; }
    // The tree of [fromNs, toNs) (trace time), named `label` in the range box.
    void showRange(int64_t fromNs, int64_t toNs, const QString &label);
    // The tree of the step named `step` (as the steps view names it); false when there is none.
    bool showStep(const QString &step);
    void setBottomUp(bool bottomUp);
    // Selects a node of the tree shown (both views) and looks up its slices.
    void selectNode(int32_t node);

    [[nodiscard]] bool isBusy() const { return m_busy; }
    [[nodiscard]] const std::shared_ptr<const CallTree> &topDown() const { return m_topDown; }
    [[nodiscard]] const std::shared_ptr<const CallTree> &shown() const;
    [[nodiscard]] const std::vector<CallTreeSlice> &selectedSlices() const { return m_slices; }
    [[nodiscard]] CallTreeModel *model() const { return m_model; }
    [[nodiscard]] QSortFilterProxyModel *proxy() const { return m_proxy; }
    [[nodiscard]] QTreeView *treeView() const { return m_view; }
    [[nodiscard]] FlameGraphWidget *flameGraph() const { return m_flame; }
    [[nodiscard]] QLineEdit *searchField() const { return m_search; }
    [[nodiscard]] QComboBox *threadBox() const { return m_thread; }
    [[nodiscard]] QComboBox *rangeBox() const { return m_range; }
    [[nodiscard]] QComboBox *sourceBox() const { return m_source; }
    [[nodiscard]] QToolButton *bottomUpButton() const { return m_bottomUp; }
    [[nodiscard]] QLabel *summaryLabel() const { return m_summary; }
    [[nodiscard]] QToolButton *timelineButton() const { return m_toTimeline; }

Q_SIGNALS:
    void treeReady();
    // A node was selected: the slices (or samples) it sums, trace time, at most kMaxSelected.
    void slicesSelected(int64_t traceId, const std::vector<CallTreeSlice> &slices);
    // Show in Timeline (or a double-click on a row): the selected node's slices, [fromNs, toNs) their span.
    void showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs);

public:
    static constexpr size_t kMaxSelected = 100'000;

private:
    void rebuild();
    void showTree();
    void onNodeSelected(int32_t node);
    void expandHottest();
    void followToTimeline();
    [[nodiscard]] CallTreeQuery currentQuery() const;

    BackgroundAnalysis m_analysis;
    BackgroundAnalysis m_selection;
    QString m_workspacePath;
    int64_t m_traceId = -1;
    bool m_busy = false;
    bool m_filling = false; // the combo boxes are being filled: no rebuild per change
    bool m_sortedBottomUp = false; // the sort column was last chosen for a bottom-up tree
    bool m_customRange = false; // m_range's first item is a range handed in (showRange())
    std::shared_ptr<const CallTree> m_topDown;
    std::shared_ptr<const CallTree> m_bottomUpTree;
    CallTreeQuery m_shownQuery; // what m_topDown was built from
    std::vector<CallTreeSlice> m_slices;

    QComboBox *m_thread;
    QComboBox *m_range;
    QComboBox *m_source;
    QToolButton *m_bottomUp;
    QToolButton *m_toTimeline;
    QLineEdit *m_search;
    QLabel *m_summary;
    CallTreeModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    FlameGraphWidget *m_flame;
};

} // namespace plumb
