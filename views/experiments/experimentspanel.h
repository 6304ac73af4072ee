// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"
#include "store/experimentreader.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;
class QTableView;

namespace plumb {

class ExperimentView;
class RunsFilterProxy;
class RunsTableModel;
class ScalarsPage;

// The Experiments tab: on the left the runs table (every experiment-log run of the workspace with
// its params and per-tag last/best/min values; filter box, group-by-param box, column chooser in
// the header's context menu, Copy as TSV and Export CSV in the table's), on the right the pages
// (ExperimentView: ScalarsPage first, then whatever addView() adds). The runs selected in the table, in table
// order, go to every page through setSelection(); selecting a group header selects its runs.
//
// setWorkspace() reads the runs on a worker thread with its own Reader connection; a result for a
// superseded request is dropped. The selection is kept by run id across reloads; on the first load
// of a workspace every run is selected when there are at most kAutoSelectRuns, else none.
class ExperimentsPanel final : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentsPanel(QWidget *parent = nullptr);
    ~ExperimentsPanel() override;

    // Adds a page; it receives the current selection at once and on every change.
    void addView(ExperimentView *view, const QString &title);
    // (Re)reads the runs of `workspacePath` (a reload when it is the workspace shown).
    void setWorkspace(const QString &workspacePath);
    void close();

    // The selected runs in table order (a group header counts as its runs shown).
    [[nodiscard]] QList<int64_t> selectedRunIds() const;
    // Selects these runs (and clears the rest of the selection).
    void selectRuns(const QList<int64_t> &runIds);
    void setGroupBy(const QString &paramKey);

    struct Result {
        QString error;
        QList<ExperimentRunInfo> runs;
        std::vector<RunParam> params;
        std::vector<SeriesSummary> series;
    };

    [[nodiscard]] QString workspacePath() const { return m_workspacePath; }
    [[nodiscard]] RunsTableModel *model() const { return m_model; }
    [[nodiscard]] RunsFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filter; }
    [[nodiscard]] QComboBox *groupBox() const { return m_group; }
    [[nodiscard]] QTabWidget *pages() const { return m_pages; }
    [[nodiscard]] QList<ExperimentView *> views() const { return m_views; }
    [[nodiscard]] ScalarsPage *scalarsPage() const { return m_scalars; }
    // The header's context menu for `column` (the column chooser), filled as it would be shown.
    [[nodiscard]] QMenu *columnMenu(int column);
    // Every row shown, the columns shown, as CSV (what Export CSV… writes).
    [[nodiscard]] QString csv() const;
    // Shows or hides a column of the model.
    void setColumnShown(int column, bool shown);

    static constexpr int kAutoSelectRuns = 25;

Q_SIGNALS:
    // After a load was applied (or failed: the table is then empty and says why).
    void loaded();
    void selectionChanged(const QList<int64_t> &runIds);

private:
    void reload();
    void display(const Result &result);
    void applyDefaultColumns();
    void fillGroupBox();
    void updateCount();
    void onSelectionChanged();
    [[nodiscard]] QList<int> shownColumns() const;

    QString m_workspacePath;
    bool m_newWorkspace = true; // the next display() is the first of this workspace
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QSet<QString>
        m_shownKeys; // "p:key" / "m:tag:stat" of optional columns the user chose; kept across reloads
    QSet<QString> m_hiddenKeys; // the same for columns the user hid
    QList<int64_t> m_lastSelection;

    RunsTableModel *m_model;
    RunsFilterProxy *m_proxy;
    QTableView *m_table;
    QLineEdit *m_filter;
    QComboBox *m_group;
    QLabel *m_count;
    QLabel *m_status;
    QTabWidget *m_pages;
    QMenu *m_columnMenu = nullptr;
    ScalarsPage *m_scalars;
    QList<ExperimentView *> m_views;
};

} // namespace plumb
