// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timelinepanel.h"

#include "analysis/criticalpath.h"
#include "timeline/rangeaggregatemodel.h"
#include "timeline/slicedetailswidget.h"
#include "timeline/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace plumb {

namespace {

constexpr int kSearchDelayMs = 250;
const QString kLastExportDirKey = QStringLiteral("lastTimelineExportDir");

QToolButton *toolButton(const QString &text, const QString &tip)
{
    auto *b = new QToolButton;
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

TimelinePanel::TimelinePanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new TimelineView)
    , m_search(new QLineEdit)
    , m_regex(toolButton(QStringLiteral(".*"), tr("Regular expression")))
    , m_prev(toolButton(tr("◀"), tr("Previous match (Shift+Enter)")))
    , m_next(toolButton(tr("▶"), tr("Next match (Enter)")))
    , m_critical(toolButton(tr("Critical Path"),
          tr("Outline the critical path of the trace's second step (or its only one) and dim the rest")))
    , m_callTree(toolButton(tr("Call Tree"), tr("What the CPU threads did in the selected range")))
    , m_matchLabel(new QLabel)
    , m_rangeLabel(new QLabel)
    , m_details(new SliceDetailsWidget)
    , m_aggregate(new RangeAggregateModel(this))
    , m_aggregateProxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView)
    , m_searchDelay(new QTimer(this))
{
    m_search->setPlaceholderText(tr("Search slices by name"));
    m_search->setAccessibleName(tr("Search slices"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(240);
    m_search->setMaximumWidth(360);
    m_regex->setCheckable(true);
    m_critical->setCheckable(true);
    m_matchLabel->setMinimumWidth(90);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(kSearchDelayMs);

    auto *fitButton = toolButton(tr("Fit"), tr("Show the whole trace (F)"));
    auto *zoomButton = toolButton(tr("Zoom to Selection"), tr("Zoom to the selected range or slice (Z)"));
    auto *exportButton = toolButton(tr("Export…"), tr("Save the visible timeline as PNG or PDF"));
    auto *help = new QLabel(tr("Ctrl+wheel/W/S zoom · drag/A/D pan · Shift+drag range"));
    help->setEnabled(false);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->setSpacing(2);
    bar->addWidget(m_search);
    bar->addWidget(m_regex);
    bar->addWidget(m_prev);
    bar->addWidget(m_next);
    bar->addWidget(m_matchLabel);
    bar->addStretch(1);
    bar->addWidget(help);
    bar->addSpacing(8);
    bar->addWidget(m_critical);
    bar->addWidget(m_callTree);
    bar->addWidget(fitButton);
    bar->addWidget(zoomButton);
    bar->addWidget(exportButton);

    m_aggregateProxy->setSourceModel(m_aggregate);
    m_aggregateProxy->setSortRole(RangeAggregateModel::SortRole);
    m_table->setModel(m_aggregateProxy);
    m_table->setAccessibleName(tr("Range aggregate"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RangeAggregateModel::TotalColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(RangeAggregateModel::NameColumn, QHeaderView::Stretch);
    auto *copy = new QAction(tr("Copy as TSV"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &TimelinePanel::copyAggregate);
    m_table->addAction(copy);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_rangeLabel->setText(tr("Select a time range (Shift+drag, or drag on the ruler) to sum it up."));
    m_rangeLabel->setWordWrap(true);
    auto *aggregateBox = new QWidget;
    auto *aggregateLayout = new QVBoxLayout(aggregateBox);
    aggregateLayout->setContentsMargins(0, 0, 0, 0);
    aggregateLayout->setSpacing(2);
    aggregateLayout->addWidget(m_rangeLabel);
    aggregateLayout->addWidget(m_table);

    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_details);
    bottom->addWidget(aggregateBox);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    bottom->setChildrenCollapsible(false);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(bottom);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({ 600, 200 });
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(exportButton, &QToolButton::clicked, this, &TimelinePanel::exportDialog);

    connect(m_critical, &QToolButton::toggled, this, &TimelinePanel::setCriticalPathShown);
    m_callTree->setEnabled(false);
    connect(m_callTree, &QToolButton::clicked, this, [this] {
        const auto range = m_view->range();
        if (!range || m_view->tracks().isEmpty() || m_view->source().traceId < 0)
            return;
        // View time back to the trace's (a trace's tracks share one offset).
        const int64_t offset = m_view->tracks().front().offsetNs;
        Q_EMIT callTreeRequested(m_view->source().traceId, range->first - offset, range->second - offset,
            tr("Timeline range %1").arg(formatDuration(range->second - range->first)));
    });
    connect(m_view, &TimelineView::opened, this, [this](const QString &error) {
        if (error.isEmpty() && m_critical->isChecked())
            setCriticalPathShown(true);
    });
    connect(fitButton, &QToolButton::clicked, m_view, &TimelineView::fit);
    connect(zoomButton, &QToolButton::clicked, m_view, &TimelineView::zoomToSelection);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_regex, &QToolButton::toggled, this, &TimelinePanel::updateSearch);
    connect(m_searchDelay, &QTimer::timeout, this, &TimelinePanel::updateSearch);
    connect(m_search, &QLineEdit::returnPressed, this,
        [this] { (QApplication::keyboardModifiers() & Qt::ShiftModifier) ? findPrevious() : findNext(); });
    connect(m_next, &QToolButton::clicked, this, &TimelinePanel::findNext);
    connect(m_prev, &QToolButton::clicked, this, &TimelinePanel::findPrevious);

    connect(m_view, &TimelineView::sliceSelected, this, &TimelinePanel::onSliceSelected);
    connect(m_view, &TimelineView::linksChanged, this,
        [this](const std::vector<SliceLink> &links) { m_details->setLinks(links, m_view->tracks()); });
    connect(m_view, &TimelineView::selectionCleared, this, [this] {
        m_details->clearSlice();
        m_aggregate->clear();
        m_callTree->setEnabled(false);
    });
    connect(m_view, &TimelineView::rangeSelected, this, &TimelinePanel::onRangeSelected);
    connect(m_details, &SliceDetailsWidget::linkActivated, this,
        [this](const SliceInfo &slice) { m_view->selectSlice(slice, true); });
    connect(m_view, &TimelineView::opened, this, [this](const QString &error) {
        if (!error.isEmpty())
            m_details->showMessage(tr("The timeline cannot be shown: %1").arg(error));
        updateSearch();
    });
}

TimelinePanel::~TimelinePanel() = default;

void TimelinePanel::open(const TimelineSource &source)
{
    m_aggregate->clear();
    m_details->clearSlice();
    m_matcher = {};
    m_matcherPattern.clear();
    m_matchCount = 0;
    m_matchLabel->clear();
    m_view->setCriticalPath({}); // recomputed for the new source once it is open, when asked for
    m_view->setHighlightedSlices({});
    m_callTree->setEnabled(false);
    m_view->setSource(source);
}

void TimelinePanel::close()
{
    open({});
}

void TimelinePanel::onSliceSelected(const SliceInfo &slice)
{
    QString trackLabel;
    const int track = m_view->layout().trackIndexOf(slice.key.trackId);
    if (track >= 0) {
        const TimelineTrack &t = m_view->tracks().at(track);
        trackLabel = t.processName + QStringLiteral(" · ") + t.name;
    }
    m_details->showSlice(slice, trackLabel, m_view->originNs());
}

void TimelinePanel::setCriticalPathShown(bool shown)
{
    if (m_critical->isChecked() != shown) {
        m_critical->setChecked(shown); // toggled() comes back here
        return;
    }
    if (!shown || m_view->tracks().isEmpty()) {
        m_view->setCriticalPath({});
        return;
    }
    const int64_t traceId = m_view->tracks().front().traceId;
    m_critical->setToolTip(tr("Finding the critical path…"));
    m_view->fetcher()->query<CriticalPath>(
        TimelineFetcher::Channel::CriticalPath,
        [traceId](Workspace &ws) { return criticalPath(ws, traceId); },
        [this](const CriticalPath &path) {
            if (!m_critical->isChecked())
                return;
            m_view->setCriticalPath(path.slices);
            m_critical->setToolTip(path.ok ? tr("%1 (%2 slices on it)")
                                                 .arg(path.step.isEmpty() ? criticalPathSentence(path)
                                                                          : path.step + QStringLiteral(": ")
                                                             + criticalPathSentence(path))
                                                 .arg(path.slices.size())
                                           : tr("No critical path: %1").arg(path.note));
            Q_EMIT criticalPathReady();
        });
}

void TimelinePanel::onRangeSelected(int64_t fromNs, int64_t toNs, const std::vector<int> &trackIndices)
{
    m_callTree->setEnabled(m_view->source().traceId >= 0);
    QList<TimelineTrack> tracks;
    for (int i : trackIndices)
        tracks << m_view->tracks().at(i);
    m_rangeLabel->setText(
        tr("%1 from %2, %3 tracks: summing up…")
            .arg(formatDuration(toNs - fromNs), formatTimeOffset(fromNs - m_view->originNs(), 1))
            .arg(tracks.size()));
    m_view->fetcher()->query<std::vector<RangeAggregateRow>>(
        TimelineFetcher::Channel::Aggregate,
        [tracks, fromNs, toNs](Workspace &ws) { return rangeAggregate(ws, tracks, fromNs, toNs); },
        [this, fromNs, toNs, n = tracks.size()](const std::vector<RangeAggregateRow> &rows) {
            m_aggregate->setRows(rows, toNs - fromNs);
            m_rangeLabel->setText(
                tr("%1 from %2 over %3 tracks: %4 names (Ctrl+C copies as TSV)")
                    .arg(formatDuration(toNs - fromNs), formatTimeOffset(fromNs - m_view->originNs(), 1))
                    .arg(n)
                    .arg(rows.size()));
            Q_EMIT aggregateReady();
        });
}

void TimelinePanel::updateSearch()
{
    const QString pattern = m_search->text().trimmed();
    const bool regex = m_regex->isChecked();
    if (pattern.isEmpty()) {
        m_matcher = {};
        m_matcherPattern.clear();
        m_matchCount = 0;
        m_matchLabel->clear();
        m_view->setMatcher({});
        return;
    }
    if (!m_view->isLoaded())
        return;
    const QList<TimelineTrack> tracks = m_view->tracks();
    struct Result {
        NameMatcher matcher;
        int64_t count = 0;
    };
    m_matchLabel->setText(tr("searching…"));
    m_view->fetcher()->query<Result>(
        TimelineFetcher::Channel::Names,
        [pattern, regex, tracks](Workspace &ws) {
            Result r;
            r.matcher = matchNames(ws, pattern, regex);
            if (r.matcher.errorMessage.isEmpty() && !r.matcher.nameIds.empty())
                r.count = countMatches(ws, tracks, r.matcher);
            return r;
        },
        [this, pattern, regex](const Result &r) {
            m_matcher = r.matcher;
            m_matcherPattern = pattern;
            m_matcherRegex = regex;
            m_matchCount = r.count;
            if (!r.matcher.errorMessage.isEmpty()) {
                m_matchLabel->setText(tr("invalid"));
                m_matchLabel->setToolTip(r.matcher.errorMessage);
            } else {
                m_matchLabel->setText(r.count == 1
                        ? tr("1 match")
                        : tr("%1 matches").arg(QLocale().toString(qlonglong(r.count))));
                m_matchLabel->setToolTip({});
            }
            // Matches get an outline; everything else is dimmed. A search with no match dims nothing.
            m_view->setMatcher(r.matcher);
        });
}

void TimelinePanel::findNext()
{
    find(true);
}

void TimelinePanel::findPrevious()
{
    find(false);
}

void TimelinePanel::findFirst(const QString &name)
{
    m_regex->setChecked(true);
    m_search->setText(QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$'));
    auto search = [this] {
        m_view->clearSelection();
        m_view->fit(); // from the start of the trace
        findNext();
    };
    if (m_view->isLoaded())
        search();
    else
        connect(m_view, &TimelineView::windowLoaded, this, search, Qt::SingleShotConnection);
}

void TimelinePanel::find(bool forward)
{
    const QString pattern = m_search->text().trimmed();
    if (pattern.isEmpty() || !m_view->isLoaded())
        return;
    const bool regex = m_regex->isChecked();
    std::optional<NameMatcher> known;
    if (pattern == m_matcherPattern && regex == m_matcherRegex)
        known = m_matcher;
    int64_t fromNs;
    if (const auto &sel = m_view->selectedSlice())
        fromNs = sel->startNs;
    else
        fromNs = forward ? m_view->scale().startNs - 1 : m_view->scale().endNs(m_view->timeWidth()) + 1;
    const QList<TimelineTrack> tracks = m_view->tracks();
    m_view->fetcher()->query<std::optional<SliceInfo>>(
        TimelineFetcher::Channel::Search,
        [=](Workspace &ws) -> std::optional<SliceInfo> {
            const NameMatcher matcher = known ? *known : matchNames(ws, pattern, regex);
            const std::optional<SearchHit> hit = forward ? plumb::findNext(ws, tracks, matcher, fromNs)
                                                         : plumb::findPrevious(ws, tracks, matcher, fromNs);
            if (!hit)
                return std::nullopt;
            for (const TimelineTrack &t : tracks)
                if (t.id == hit->key.trackId)
                    return sliceByKey(ws, t, hit->key);
            return std::nullopt;
        },
        [this](const std::optional<SliceInfo> &slice) {
            if (slice)
                m_view->selectSlice(*slice, true);
            Q_EMIT searchFinished(slice.has_value());
        });
}

QString TimelinePanel::aggregateTsv() const
{
    std::set<int> rows;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        rows.insert(i.row());
    if (rows.empty())
        for (int r = 0; r < m_aggregateProxy->rowCount(); ++r)
            rows.insert(r);
    QStringList lines;
    QStringList header;
    for (int c = 0; c < RangeAggregateModel::ColumnCount; ++c) {
        QString h = m_aggregate->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        if (c >= RangeAggregateModel::TotalColumn)
            h += QStringLiteral(" (ns)");
        header << h;
    }
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < RangeAggregateModel::ColumnCount; ++c) {
            const QModelIndex idx = m_aggregateProxy->index(r, c);
            // Numbers as numbers, so a spreadsheet can sum them.
            QString cell = c == RangeAggregateModel::NameColumn
                ? idx.data(Qt::DisplayRole).toString()
                : idx.data(RangeAggregateModel::SortRole).toString();
            if (c == RangeAggregateModel::MeanColumn)
                cell = QString::number(idx.data(RangeAggregateModel::SortRole).toDouble(), 'f', 0);
            cell.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
            cells << cell;
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void TimelinePanel::copyAggregate()
{
    QApplication::clipboard()->setText(aggregateTsv());
}

bool TimelinePanel::exportPng(const QString &path)
{
    return m_view->renderImage(2.0).save(path, "PNG");
}

bool TimelinePanel::exportPdf(const QString &path)
{
    return m_view->renderPdf(path);
}

void TimelinePanel::exportDialog()
{
    if (!m_view->isLoaded())
        return;
    QSettings settings;
    const QString dir = settings.value(kLastExportDirKey, QDir::homePath()).toString();
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Timeline"),
        dir + QStringLiteral("/timeline.png"), tr("PNG image (*.png);;PDF document (*.pdf)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QStringLiteral("pdf")) ? QStringLiteral(".pdf") : QStringLiteral(".png");
    settings.setValue(kLastExportDirKey, QFileInfo(path).absolutePath());
    const bool pdf = QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
    const bool ok = pdf ? exportPdf(path) : exportPng(path);
    if (!ok)
        QMessageBox::warning(
            this, tr("Export Timeline"), tr("%1 could not be written.").arg(QDir::toNativeSeparators(path)));
}

} // namespace plumb
