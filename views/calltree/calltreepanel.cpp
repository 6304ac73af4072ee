// SPDX-License-Identifier: GPL-3.0-or-later
#include "calltree/calltreepanel.h"

#include "analysis/stepbreakdown.h"
#include "calltree/calltreemodel.h"
#include "calltree/flamegraphwidget.h"
#include "timeline/timescale.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace plumb {

namespace {

// A range in a combo box's item data: [from, to) trace time; none for the whole trace.
QVariant rangeData(int64_t fromNs, int64_t toNs)
{
    return QVariant::fromValue(QList<qlonglong> { fromNs, toNs });
}

struct Listing {
    QString error;
    std::vector<CallTreeThread> threads;
    std::vector<StepMarker> steps;
};

struct Built {
    QString error;
    std::shared_ptr<const CallTree> topDown;
    std::shared_ptr<const CallTree> bottomUp;
};

struct Selected {
    QString error;
    std::vector<CallTreeSlice> slices;
};

constexpr int kExpandLevels = 16; // the hottest path is opened this deep

} // namespace

CallTreePanel::CallTreePanel(QWidget *parent)
    : QWidget(parent)
    , m_thread(new QComboBox)
    , m_range(new QComboBox)
    , m_source(new QComboBox)
    , m_bottomUp(new QToolButton)
    , m_toTimeline(new QToolButton)
    , m_search(new QLineEdit)
    , m_summary(new QLabel)
    , m_model(new CallTreeModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView)
    , m_flame(new FlameGraphWidget)
{
    m_thread->setAccessibleName(tr("Thread"));
    m_thread->setToolTip(tr("The thread whose work is shown (with its CUDA API calls), or every CPU thread"));
    m_thread->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_thread->setMaximumWidth(300);
    m_range->setAccessibleName(tr("Range"));
    m_range->setToolTip(tr("The stretch of the trace summed: the whole trace, a step, or a range from the "
                           "timeline (Shift+drag there, then Call Tree)"));
    m_range->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_range->setMinimumContentsLength(12);
    m_source->setAccessibleName(tr("Source"));
    m_source->addItem(tr("Slices"), int(CallTreeSource::Slices));
    m_source->addItem(tr("CPU samples"), int(CallTreeSource::Samples));
    m_source->setToolTip(tr("Nested slices (ops, Python frames, NVTX ranges), or the backtraces of the CPU "
                            "samples (Nsight Systems --sample)"));
    m_bottomUp->setText(tr("Bottom-Up"));
    m_bottomUp->setCheckable(true);
    m_bottomUp->setAutoRaise(true);
    m_bottomUp->setToolTip(tr("Each function with its callers below it (self time where it is spent), "
                              "instead of the callees of each call"));
    m_toTimeline->setText(tr("Show in Timeline"));
    m_toTimeline->setAutoRaise(true);
    m_toTimeline->setEnabled(false);
    m_toTimeline->setToolTip(tr("Open the timeline over the selected function's calls, outlined (or "
                                "double-click a row)"));
    m_search->setPlaceholderText(tr("Search functions"));
    m_search->setAccessibleName(tr("Search functions"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(280);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->setSpacing(4);
    bar->addWidget(m_search);
    bar->addSpacing(8);
    bar->addWidget(m_thread);
    bar->addWidget(m_range);
    bar->addWidget(m_source);
    bar->addWidget(m_bottomUp);
    bar->addWidget(m_toTimeline);
    bar->addStretch(1);
    bar->addWidget(m_summary);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CallTreeModel::SortRole);
    m_proxy->setFilterKeyColumn(CallTreeModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setAccessibleName(tr("Call tree"));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CallTreeModel::TotalColumn, Qt::DescendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(CallTreeModel::NameColumn, QHeaderView::Stretch);
    for (int c = CallTreeModel::TotalColumn; c < CallTreeModel::ColumnCount; ++c)
        m_view->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    auto *flameScroll = new QScrollArea;
    flameScroll->setWidget(m_flame);
    flameScroll->setWidgetResizable(true);
    flameScroll->setFrameShape(QFrame::NoFrame);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(flameScroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    const auto changed = [this] {
        if (!m_filling)
            rebuild();
    };
    connect(m_thread, &QComboBox::currentIndexChanged, this, changed);
    connect(m_range, &QComboBox::currentIndexChanged, this, changed);
    connect(m_source, &QComboBox::currentIndexChanged, this, changed);
    connect(m_bottomUp, &QToolButton::toggled, this, [this] { showTree(); });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text.trimmed());
        m_flame->setSearch(text);
        if (!text.trimmed().isEmpty())
            m_view->expandAll();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex &current) {
            const int32_t node = m_model->nodeOf(m_proxy->mapToSource(current));
            if (node > 0 && node != m_flame->selectedNode())
                onNodeSelected(node);
        });
    connect(m_toTimeline, &QToolButton::clicked, this, &CallTreePanel::followToTimeline);
    connect(m_view, &QTreeView::doubleClicked, this, [this] { followToTimeline(); });
    connect(m_flame, &FlameGraphWidget::nodeClicked, this, [this](int32_t node) { selectNode(node); });
    setEnabled(false);
}

CallTreePanel::~CallTreePanel()
{
    m_analysis.stop();
    m_selection.stop();
}

const std::shared_ptr<const CallTree> &CallTreePanel::shown() const
{
    return m_bottomUp->isChecked() ? m_bottomUpTree : m_topDown;
}

void CallTreePanel::open(const QString &workspacePath, int64_t traceId)
{
    if (workspacePath == m_workspacePath && traceId == m_traceId)
        return;
    m_analysis.cancel();
    m_selection.cancel();
    m_workspacePath = workspacePath;
    m_traceId = traceId;
    m_topDown.reset();
    m_bottomUpTree.reset();
    m_slices.clear();
    m_model->setTree(nullptr);
    m_flame->setTree(nullptr);
    m_filling = true;
    m_thread->clear();
    m_range->clear();
    m_customRange = false;
    m_filling = false;
    setEnabled(traceId >= 0 && !workspacePath.isEmpty());
    if (!isEnabled())
        return;
    m_busy = true;
    m_summary->setText(tr("Reading the trace's threads…"));
    m_analysis.start<Listing>(
        this, workspacePath,
        [traceId](Workspace &ws, Listing &r) {
            r.threads = callTreeThreads(ws, traceId);
            r.steps = traceSteps(ws, traceId);
        },
        [this](const Listing &r) {
            m_filling = true;
            m_thread->clear();
            m_thread->addItem(tr("All CPU threads"), QString());
            int64_t samples = 0;
            for (const CallTreeThread &t : r.threads) {
                m_thread->addItem(t.label, t.key);
                samples += t.sampleCount;
            }
            // The busiest thread first (the main thread, as a rule): other threads' spans (the
            // profiler's own, a data loader's idle workers) would crowd the top of the tree.
            m_thread->setCurrentIndex(r.threads.empty() ? 0 : 1);
            const QString custom = m_customRange ? m_range->itemText(0) : QString();
            const QVariant customData = m_customRange ? m_range->itemData(0) : QVariant();
            m_range->clear();
            if (m_customRange) // a range asked for before the listing came
                m_range->addItem(custom, customData);
            m_range->addItem(tr("Whole trace"), QVariant());
            for (const StepMarker &s : r.steps)
                m_range->addItem(s.name, rangeData(s.startNs, s.endNs));
            m_range->setCurrentIndex(0);
            if (auto *items = qobject_cast<QStandardItemModel *>(m_source->model()))
                items->item(1)->setEnabled(samples > 0);
            int64_t slices = 0;
            for (const CallTreeThread &t : r.threads)
                slices += t.sliceCount;
            m_source->setCurrentIndex(
                slices == 0 && samples > 0 ? 1 : 0); // a sampling-only capture: its samples
            m_filling = false;
            rebuild();
        });
}

void CallTreePanel::close()
{
    open({}, -1);
}

void CallTreePanel::showRange(int64_t fromNs, int64_t toNs, const QString &label)
{
    m_filling = true;
    if (m_customRange) // one custom range at the top of the box, replaced by the next
        m_range->removeItem(0);
    m_customRange = true;
    m_range->insertItem(0, label, rangeData(fromNs, toNs));
    m_range->setCurrentIndex(0);
    m_filling = false;
    if (!m_busy || m_topDown)
        rebuild();
}

bool CallTreePanel::showStep(const QString &step)
{
    const int i = m_range->findText(step);
    if (i < 0)
        return false;
    m_range->setCurrentIndex(i);
    return true;
}

void CallTreePanel::setBottomUp(bool bottomUp)
{
    m_bottomUp->setChecked(bottomUp);
}

CallTreeQuery CallTreePanel::currentQuery() const
{
    CallTreeQuery q;
    q.traceId = m_traceId;
    q.threadKey = m_thread->currentData().toString();
    const QList<qlonglong> range = m_range->currentData().value<QList<qlonglong>>();
    if (range.size() == 2) {
        q.fromNs = range[0];
        q.toNs = range[1];
    }
    q.source = CallTreeSource(m_source->currentData().toInt());
    return q;
}

void CallTreePanel::rebuild()
{
    if (m_traceId < 0)
        return;
    const CallTreeQuery q = currentQuery();
    m_busy = true;
    m_selection.cancel();
    m_summary->setText(tr("Building the call tree…"));
    m_analysis.start<Built>(
        this, m_workspacePath,
        [q](Workspace &ws, Built &r) {
            auto top = std::make_shared<CallTree>(callTree(ws, q));
            r.bottomUp = std::make_shared<CallTree>(bottomUpTree(*top));
            r.topDown = std::move(top);
        },
        [this, q](const Built &r) {
            m_busy = false;
            if (!r.error.isEmpty()) {
                m_summary->setText(tr("The call tree cannot be built: %1").arg(r.error));
                return;
            }
            m_topDown = r.topDown;
            m_bottomUpTree = r.bottomUp;
            m_shownQuery = q;
            m_slices.clear();
            m_toTimeline->setEnabled(false);
            showTree();
            const CallTree &t = *m_topDown;
            m_summary->setText(t.items == 0
                    ? tr("Nothing ran on the CPU here.")
                    : tr("%1 %2 over %3: %4 of work")
                          .arg(QLocale().toString(qlonglong(t.items)),
                              t.source == CallTreeSource::Samples ? tr("samples") : tr("slices"),
                              formatDuration(t.rangeNs()), formatDuration(t.nodes[0].totalNs)));
            Q_EMIT treeReady();
        });
}

void CallTreePanel::showTree()
{
    const std::shared_ptr<const CallTree> &tree = shown();
    // Top-down, the heaviest calls first; bottom-up, where the time is spent (self) first, as hotspot does.
    const bool bottomUp = tree && tree->bottomUp;
    if (bottomUp != m_sortedBottomUp) {
        m_sortedBottomUp = bottomUp;
        m_view->sortByColumn(
            bottomUp ? CallTreeModel::SelfColumn : CallTreeModel::TotalColumn, Qt::DescendingOrder);
    }
    m_model->setTree(tree);
    m_flame->setTree(tree);
    m_flame->setSearch(m_search->text());
    expandHottest();
}

void CallTreePanel::expandHottest()
{
    // Down the first row (in the order shown) that has rows below it, level by level.
    QModelIndex parent;
    for (int level = 0; level < kExpandLevels; ++level) {
        QModelIndex next;
        for (int row = 0; row < m_proxy->rowCount(parent) && !next.isValid(); ++row)
            if (m_proxy->hasChildren(m_proxy->index(row, 0, parent)))
                next = m_proxy->index(row, 0, parent);
        if (!next.isValid())
            return;
        m_view->expand(next);
        parent = next;
    }
}

void CallTreePanel::selectNode(int32_t node)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(node));
    if (index.isValid()) {
        m_flame->setSelectedNode(node); // before the tree's currentChanged, which then does nothing more
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
    }
    onNodeSelected(node);
}

void CallTreePanel::onNodeSelected(int32_t node)
{
    m_flame->setSelectedNode(node);
    if (!m_topDown || node <= 0)
        return;
    const std::vector<int32_t> nodes = topDownNodesOf(*m_topDown, *shown(), node);
    const CallTreeQuery q = m_shownQuery;
    m_selection.start<Selected>(
        this, m_workspacePath,
        [q, nodes](Workspace &ws, Selected &r) { r.slices = callTreeSlices(ws, q, nodes, kMaxSelected); },
        [this](const Selected &r) {
            if (!r.error.isEmpty())
                return;
            m_slices = r.slices;
            m_toTimeline->setEnabled(!m_slices.empty());
            Q_EMIT slicesSelected(m_traceId, m_slices);
        });
}

void CallTreePanel::followToTimeline()
{
    if (m_slices.empty())
        return;
    int64_t from = INT64_MAX, to = INT64_MIN;
    for (const CallTreeSlice &c : m_slices) {
        from = std::min(from, c.tsNs);
        to = std::max(to, c.tsNs + std::max<int64_t>(c.durNs, 1));
    }
    Q_EMIT showInTimeline(m_traceId, from, to);
}

} // namespace plumb
