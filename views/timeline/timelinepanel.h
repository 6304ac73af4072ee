// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/timelinefetcher.h"
#include "timeline/timelinequery.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QToolButton;

namespace plumb {

class RangeAggregateModel;
class SliceDetailsWidget;
class TimelineView;

// The timeline tab: a toolbar (search with substring/regex, previous/next, match count, Fit, Zoom
// to selection, Export), the TimelineView, and below it the selected slice's details and the
// selected range's aggregate table (Ctrl+C copies it as TSV). All reading runs on the view's
// fetcher; a search or aggregate superseded by a newer one is dropped.
class TimelinePanel final : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget *parent = nullptr);
    ~TimelinePanel() override;

    void open(const TimelineSource &source);
    void close();

    [[nodiscard]] TimelineView *view() const { return m_view; }
    [[nodiscard]] QLineEdit *searchField() const { return m_search; }
    [[nodiscard]] QToolButton *regexButton() const { return m_regex; }
    [[nodiscard]] QLabel *matchLabel() const { return m_matchLabel; }
    [[nodiscard]] SliceDetailsWidget *details() const { return m_details; }
    [[nodiscard]] RangeAggregateModel *aggregateModel() const { return m_aggregate; }
    [[nodiscard]] QSortFilterProxyModel *aggregateProxy() const { return m_aggregateProxy; }
    [[nodiscard]] QTableView *aggregateTable() const { return m_table; }
    [[nodiscard]] int64_t matchCount() const { return m_matchCount; }
    // The critical path overlay (Critical Path button): its step's path outlined, the rest dimmed.
    [[nodiscard]] QToolButton *criticalPathButton() const { return m_critical; }
    void setCriticalPathShown(bool shown);
    // The Call Tree button: enabled while a time range is selected on a trace's timeline.
    [[nodiscard]] QToolButton *callTreeButton() const { return m_callTree; }

    // Search from the selected slice (else the view's left edge) forward or backward; the hit is
    // selected and revealed.
    void findNext();
    void findPrevious();
    // Selects and reveals the first slice named exactly `name` (once the timeline has loaded).
    void findFirst(const QString &name);
    // The visible timeline as PNG (twice the pixels, for sharp text) or vector PDF.
    bool exportPng(const QString &path);
    bool exportPdf(const QString &path);
    // The aggregate table's selected rows (all rows when none is selected) as TSV with a header.
    [[nodiscard]] QString aggregateTsv() const;

Q_SIGNALS:
    void searchFinished(bool found);
    void aggregateReady();
    void criticalPathReady();
    // Call Tree (a range selected): what the CPU did over [fromNs, toNs) of the trace (trace time).
    void callTreeRequested(int64_t traceId, int64_t fromNs, int64_t toNs, const QString &label);

private:
    void onSliceSelected(const SliceInfo &slice);
    void onRangeSelected(int64_t fromNs, int64_t toNs, const std::vector<int> &trackIndices);
    void updateSearch();
    void find(bool forward);
    void exportDialog();
    void copyAggregate();

    TimelineView *m_view;
    QLineEdit *m_search;
    QToolButton *m_regex;
    QToolButton *m_prev;
    QToolButton *m_next;
    QToolButton *m_critical;
    QToolButton *m_callTree;
    QLabel *m_matchLabel;
    QLabel *m_rangeLabel;
    SliceDetailsWidget *m_details;
    RangeAggregateModel *m_aggregate;
    QSortFilterProxyModel *m_aggregateProxy;
    QTableView *m_table;
    QTimer *m_searchDelay;
    NameMatcher m_matcher;
    QString m_matcherPattern; // the pattern m_matcher answers ("" when none)
    bool m_matcherRegex = false;
    int64_t m_matchCount = 0;
};

} // namespace plumb
