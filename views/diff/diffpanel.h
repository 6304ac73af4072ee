// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tracediff.h"
#include "analysis/verdict.h"
#include "backgroundanalysis.h"
#include "opmodebox.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace plumb {

class DiffCategoryChart;
class StepTimeDiffChart;
class DiffCategoryModel;
class DiffOpFilter;
class DiffOpModel;

// The Diff tab: what changed from a baseline trace (A) to another (B), from diffTraces() and each
// side's doctor verdict. At the top the step time on each side, faster or slower, and the parts that
// explain its change, largest first (diffHeadline()), and how the verdict changed; then the GPU window on
// each side (per step when both have steps), its change and the category most of it went to; then
// the step time's change per part (bars), the window's change split into categories (bars and a
// table), and the GPU ops added, removed, slower and faster (sortable; a box picks which changes show). A
// mode box switches between every GPU op and the ops the traced program launched, as in the Doctor tab.
// Tables copy as TSV (Ctrl+C) and export CSV from their context menu; the chart exports PNG/PDF from its own.
//
// The analyses run on a worker thread with their own Reader connection; a result for a superseded
// request is dropped.
class DiffPanel final : public QWidget {
    Q_OBJECT
public:
    explicit DiffPanel(QWidget *parent = nullptr);
    ~DiffPanel() override;

    void open(const QString &workspacePath, int64_t baselineId, const QString &baselineName,
        int64_t comparedId, const QString &comparedName);
    void close();
    // B becomes the baseline and A the compared trace.
    void swap();

    struct Result {
        QString error;
        TraceDiff diff; // its sides carry each trace's verdict
    };
    [[nodiscard]] int64_t baselineId() const { return m_baselineId; }
    [[nodiscard]] int64_t comparedId() const { return m_comparedId; }
    [[nodiscard]] const Result &result() const { return m_result; }
    // The headline (step time on each side and the parts that changed it, the verdict's change, then the
    // window on each side, its change, where it went, ops changed), as HTML.
    [[nodiscard]] QString headlineText() const;
    // What each side's doctor verdict says, as HTML.
    [[nodiscard]] QString verdictText() const;
    [[nodiscard]] DiffOpModel *opModel() const { return m_opModel; }
    [[nodiscard]] DiffOpFilter *opProxy() const { return m_opProxy; }
    [[nodiscard]] QTableView *opTable() const { return m_opTable; }
    [[nodiscard]] DiffCategoryModel *categoryModel() const { return m_categoryModel; }
    [[nodiscard]] QTableView *categoryTable() const { return m_categoryTable; }
    [[nodiscard]] DiffCategoryChart *chart() const { return m_chart; }
    [[nodiscard]] StepTimeDiffChart *stepTimeChart() const { return m_stepChart; }
    [[nodiscard]] QComboBox *modeBox() const { return m_mode; }
    [[nodiscard]] QComboBox *shownBox() const { return m_shown; }
    // Every op row shown, in the order shown, as CSV (what Export CSV… writes).
    [[nodiscard]] QString opCsv() const;

Q_SIGNALS:
    void loaded();

private:
    void reload();
    void cancelComparison(); // the headline's Cancel link while "Comparing…"
    void display(const Result &result);
    void updateOpCount();

    QString m_workspacePath;
    int64_t m_baselineId = -1;
    int64_t m_comparedId = -1;
    QString m_baselineName;
    QString m_comparedName;
    Result m_result;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
    QLabel *m_title;
    QPushButton *m_swap;
    OpModeBox *m_mode;
    QLabel *m_headline;
    QLabel *m_verdict;
    StepTimeDiffChart *m_stepChart;
    DiffCategoryChart *m_chart;
    DiffCategoryModel *m_categoryModel;
    QTableView *m_categoryTable;
    QComboBox *m_shown;
    QLabel *m_opCount;
    DiffOpModel *m_opModel;
    DiffOpFilter *m_opProxy;
    QTableView *m_opTable;
};

} // namespace plumb
