// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/memorytimeline.h"
#include "backgroundanalysis.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace plumb {

class MemoryAllocationModel;
class MemoryChart;

// The Memory tab: where one trace's memory went (memoryTimeline(), core/analysis/memorytimeline.h), one
// device at a time (a box picks it when there are several). From top to bottom: the figures (peak
// allocated and when, reserved then, peak reserved, reserved minus allocated at most, what was live at
// the peak), allocated and reserved over time with the peak marked, and two sortable tables: the
// allocations live at the peak and the largest allocations, each with the op that made it. A
// double-click on an allocation asks for the timeline around it. A trace without memory events says so
// and how to record them. Reads on a worker thread; a result of a superseded request is dropped.
class MemoryPanel final : public QWidget {
    Q_OBJECT
public:
    // The timeline shown around an allocation: this much on either side of it.
    static constexpr int64_t kTimelineMarginNs = 50'000;

    explicit MemoryPanel(QWidget *parent = nullptr);
    ~MemoryPanel() override;

    void open(const QString &workspacePath, int64_t traceId, const QString &traceName);
    void close();
    // Shows the device at `index` of timeline().devices.
    void selectDevice(int index);

    [[nodiscard]] const MemoryTimeline &timeline() const { return m_timeline; }
    [[nodiscard]] int64_t traceId() const { return m_traceId; }
    [[nodiscard]] int deviceIndex() const { return m_device; }
    [[nodiscard]] MemoryAllocationModel *liveModel() const { return m_liveModel; }
    [[nodiscard]] MemoryAllocationModel *largestModel() const { return m_largestModel; }
    [[nodiscard]] QTableView *liveTable() const { return m_liveTable; }
    [[nodiscard]] QTableView *largestTable() const { return m_largestTable; }
    [[nodiscard]] MemoryChart *chart() const { return m_chart; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] bool isEmptyShown() const;

Q_SIGNALS:
    void loaded();
    void showInTimeline(int64_t traceId, int64_t fromNs, int64_t toNs);

private:
    struct Result {
        QString error;
        MemoryTimeline timeline;
    };
    void request();
    void apply(const Result &r);
    QTableView *makeTable(MemoryAllocationModel *model, QSortFilterProxyModel *proxy, const QString &name,
        const QString &exportName);

    BackgroundAnalysis m_analysis;
    QString m_workspacePath;
    int64_t m_traceId = -1;
    QString m_traceName;
    MemoryTimeline m_timeline;
    int m_device = -1;

    QComboBox *m_deviceBox;
    QLabel *m_deviceLabel;
    QLabel *m_status;
    QLabel *m_summary;
    QLabel *m_note;
    QLabel *m_empty;
    QWidget *m_content;
    QWidget *m_tables;
    MemoryChart *m_chart;
    MemoryAllocationModel *m_liveModel;
    MemoryAllocationModel *m_largestModel;
    QSortFilterProxyModel *m_liveProxy;
    QSortFilterProxyModel *m_largestProxy;
    QTableView *m_liveTable;
    QTableView *m_largestTable;
    QLabel *m_liveTitle;
};

} // namespace plumb
