// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/configdiff.h"
#include "backgroundanalysis.h"
#include "experiments/experimentview.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QTableView;

namespace plumb {

class ConfigDiffModel;

// The Experiments tab's configuration diff: the selected runs side by side, the first selected the
// baseline, from diffConfigs(): params, tags, MLflow's system tags and environment rows, then each
// metric's last value (with its change from the baseline) and best value, the better run in bold
// with ▲/▼. Rows that differ are tinted and marked ≠; "Diff only" (on by default) hides the rest.
// Copy (Ctrl+C, TSV) and Export CSV from the buttons or the table's context menu.
//
// The runs are read on a worker thread with its own Reader connection; a result for a superseded
// selection is dropped.
class ConfigDiffPage final : public ExperimentView {
    Q_OBJECT
public:
    explicit ConfigDiffPage(QWidget *parent = nullptr);
    ~ConfigDiffPage() override;

    void setSelection(const QString &workspacePath, const QList<int64_t> &runIds) override;

    struct Result {
        QString error;
        ConfigDiff diff;
    };

    [[nodiscard]] ConfigDiffModel *model() const { return m_model; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] QCheckBox *diffOnlyBox() const { return m_diffOnly; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    // Every row shown as CSV (what Export CSV… writes).
    [[nodiscard]] QString csv() const;

Q_SIGNALS:
    void loaded();

private:
    void display(const Result &result);
    void updateStatus();
    void fitColumns();

    QString m_workspacePath;
    QString m_error;

    QLabel *m_status;
    QCheckBox *m_diffOnly;
    QPushButton *m_copy;
    QPushButton *m_exportCsv;
    ConfigDiffModel *m_model;
    QTableView *m_table;
    BackgroundAnalysis m_analysis; // a newer request or Cancel stops the one running
};

} // namespace plumb
