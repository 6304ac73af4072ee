// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "backgroundanalysis.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QVariant>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace plumb {

class QueryResultModel;
class XYChart;

// The Query tab: SQL over the workspace's documented views (docs/sql.md), run the way `plumb query`
// runs it: one statement through ReadOnlyQuery on a Reader connection, so that a statement that
// would write, attach, change a setting or load an extension is refused and the workspace stays as
// it was. The statement runs on a worker (BackgroundAnalysis; Run again or Cancel stops the one
// running); the first kMaxRows rows come back.
//
//   top    : examples to start from, the history (the last kHistorySize statements run, newest first,
//            kept across sessions in QSettings), Run (Ctrl+Return) and Cancel;
//   editor : the statement (a fixed-width font);
//   status : "N rows in T ms", or the error line (SQLite's reason, and whether it was refused);
//   result : a sortable table (Ctrl+C copies the selected rows as tab-separated text, with the header)
//            beside a chart of two chosen columns (the first two numeric ones by default).
class QueryPanel final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxRows = 100000;
    static constexpr int kHistorySize = 50;

    struct Example {
        QString title;
        QString sql;
    };
    // Real queries over the documented views; each returns rows on the sample workspace.
    [[nodiscard]] static const QList<Example> &examples();

    explicit QueryPanel(QWidget *parent = nullptr);
    ~QueryPanel() override;

    void setWorkspace(const QString &path);
    void setSql(const QString &sql);
    [[nodiscard]] QString sql() const;
    // Runs the editor's statement; finished() follows.
    void run();
    void cancel();
    [[nodiscard]] bool isRunning() const { return m_running; }

    // The error line's text: empty after a statement that ran.
    [[nodiscard]] QString errorText() const;
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QStringList history() const { return m_history; }
    [[nodiscard]] QueryResultModel *model() const { return m_model; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] XYChart *chart() const { return m_chart; }
    [[nodiscard]] QPlainTextEdit *editor() const { return m_editor; }
    // The chart's columns by index (-1: none).
    void setChartColumns(int x, int y);
    [[nodiscard]] int chartXColumn() const;
    [[nodiscard]] int chartYColumn() const;

    struct Result {
        QString error;
        QStringList columns;
        std::vector<QVariantList> rows;
        bool truncated = false;
    };

Q_SIGNALS:
    // After a run's result or error is shown (not after a cancel).
    void finished();

private:
    void display(const Result &r);
    void addToHistory(const QString &sql);
    void fillHistoryMenu();
    void fillChartColumns();
    void updateChart();
    void setError(const QString &text);

    QString m_workspacePath;
    BackgroundAnalysis m_analysis;
    QElapsedTimer m_clock;
    bool m_running = false;
    QStringList m_history;

    QComboBox *m_examples;
    QComboBox *m_historyBox;
    QPushButton *m_runButton;
    QPushButton *m_cancelButton;
    QPlainTextEdit *m_editor;
    QLabel *m_status;
    QLabel *m_error;
    QueryResultModel *m_model;
    QTableView *m_table;
    QComboBox *m_xColumn;
    QComboBox *m_yColumn;
    QComboBox *m_chartKind;
    XYChart *m_chart;
};

} // namespace plumb
